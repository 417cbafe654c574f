"""Token authentication for WebSockets, beside the session.

A socket whose handshake carries ``Authorization: Token <key>`` is authenticated by
the key alone: its ``scope["user"]`` is the token's user, or anonymous (and so
refused by the consumer) when the key is bad, never a session's user. Such a socket
skips the Origin check, which exists to stop other sites' pages from riding a
visitor's session cookie; a page cannot set that header on a WebSocket, so a token
socket is a program's by construction. Sockets without the header go through the
usual Origin check and session authentication unchanged.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.security.websocket import AllowedHostsOriginValidator
from django.contrib.auth.models import AnonymousUser

from api.tokens import (
    Authenticated,
    BadAuthorization,
    header_value,
    key_from_header,
    token_authenticate,
)

Scope = dict[str, Any]
ASGIApp = Any


@database_sync_to_async
def _authenticate(key: str) -> Authenticated | None:
    return token_authenticate(key)


class TokenAuthMiddleware:
    """Routes a socket with a token header to ``inner`` with the token's user, and
    any other socket to ``fallback`` (the session stack)."""

    def __init__(self, inner: ASGIApp, fallback: ASGIApp) -> None:
        self.inner = inner
        self.fallback = fallback

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        header = header_value(scope.get("headers") or [])
        if header is None:
            return await self.fallback(scope, receive, send)
        found = None
        try:
            key = key_from_header(header)
        except BadAuthorization:
            key = None
        if key is not None:
            found = await _authenticate(key)
        scope = dict(scope)
        if found is None:
            scope["user"] = AnonymousUser()
        else:
            scope["user"] = found.user
            scope["api_token_id"] = found.token.pk
        return await self.inner(scope, receive, send)


def websocket_auth(inner: ASGIApp) -> ASGIApp:
    """The site's WebSocket stack: a token, or the Origin check and the session."""
    return TokenAuthMiddleware(
        inner, fallback=AllowedHostsOriginValidator(AuthMiddlewareStack(inner))
    )
