"""Opening the site's sockets in tests, as a browser (session cookie and Origin)."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from config.asgi import application

BROWSER = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]


def _session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def browser_socket(
    user: User, path: str, *, language: str = "en", app: Any = application
) -> tuple[WebsocketCommunicator, bool, int | None]:
    """A socket opened by ``user``'s logged-in browser (asking for ``language``), to
    the site's ASGI application or ``app`` (one wrapping it)."""
    cookie = await sync_to_async(_session_cookie)(user)
    headers = [
        *BROWSER,
        (b"cookie", f"sessionid={cookie}".encode()),
        (b"accept-language", language.encode()),
    ]
    communicator = WebsocketCommunicator(app, path, headers=headers)
    connected, close_code = await communicator.connect(timeout=30)
    return communicator, connected, close_code
