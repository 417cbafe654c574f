"""Making, hashing and checking API keys.

A key is 32 random bytes in URL-safe base64 (43 characters). It is looked up by its
SHA-256 digest, which is enough: the key has 256 bits of entropy, so unlike a
password it needs no slow, salted hash, and the lookup is one indexed query.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from accounts.models import User
from api.models import TOKEN_PREFIX_LENGTH, ApiToken

KEY_BYTES = 32
KEY_MAX_LENGTH = 64
AUTH_SCHEME = "Token"
# ``last_used_at`` is a hint for the owner, not an audit log: writing it at most once
# a minute keeps a busy bot's every request from costing an UPDATE.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def key_new() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_prefix(key: str) -> str:
    return key[:TOKEN_PREFIX_LENGTH]


class BadAuthorization(Exception):
    """An Authorization header that is present but not ``Token <key>``."""


def key_from_header(value: str | None) -> str | None:
    """The key in ``Authorization: Token <key>``; None when there is no header.
    Raises ``BadAuthorization`` for any other scheme or a malformed key, so a
    program that sends a wrong header hears about it instead of being anonymous."""
    if value is None:
        return None
    scheme, _, key = value.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != AUTH_SCHEME.lower() or not key or len(key) > KEY_MAX_LENGTH:
        raise BadAuthorization
    if any(not (ch.isascii() and (ch.isalnum() or ch in "-_")) for ch in key):
        raise BadAuthorization
    return key


def header_value(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The Authorization header of an ASGI scope's raw header list."""
    for name, value in headers:
        if name.lower() == b"authorization":
            return value.decode("latin-1")
    return None


@dataclass(frozen=True)
class Authenticated:
    user: User
    token: ApiToken


def token_authenticate(key: str) -> Authenticated | None:
    """The active user behind ``key``, or None. One query; a second one at most once
    a minute to note when the token was last used."""
    token = (
        ApiToken.objects.select_related("user").filter(key_hash=key_digest(key)).first()
    )
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return Authenticated(user=token.user, token=token)
