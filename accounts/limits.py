"""How often one client may create accounts, and how many reset letters one e-mail
address may receive: fixed windows counted in the shared cache with its atomic
``add`` and ``incr`` (Redis ``SET NX`` and ``INCR``), so parallel requests cannot
slip past a limit.

Sign-up: ``SIGNUP_LIMIT`` new accounts per client address (IPv6: one /64) per
``SIGNUP_WINDOW`` seconds; a club's new players at one Wi-Fi fit, a script does not.

Password reset: ``PASSWORD_RESET_EMAIL_LIMIT`` letters per e-mail address and
``PASSWORD_RESET_ADDRESS_LIMIT`` requests per client address per
``PASSWORD_RESET_WINDOW``. An e-mail address is counted whether or not an account
has it, so the answer never tells which addresses are known.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache

from accounts import throttle

KEY_PREFIX = "limit"


def _network(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address or "unknown"
    prefix = 64 if ip.version == 6 else 32
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def _digest(text: str) -> str:
    return hashlib.sha256(text.strip().casefold().encode()).hexdigest()[:40]


class LimitReached(Exception):
    def __init__(self, retry_at: datetime) -> None:
        super().__init__(f"limit reached until {retry_at.isoformat()}")
        self.lockout = throttle.Lockout(retry_at=retry_at)


def _window_start(window: int) -> int:
    now = throttle.clock()
    return int(now // window * window)


def _count(name: str, limit: int, window: int) -> None:
    """Count one use of ``name`` in the current window; raise ``LimitReached`` once
    the count is past ``limit`` (and take the refused use back)."""
    start = _window_start(window)
    key = f"{KEY_PREFIX}:{name}:{start}"
    cache.add(key, 0, timeout=window)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.add(key, 1, timeout=window)
        count = 1
    if count > limit:
        with contextlib.suppress(ValueError):
            cache.decr(key)
        raise LimitReached(datetime.fromtimestamp(start + window, tz=UTC))


def _uncount(name: str, window: int) -> None:
    key = f"{KEY_PREFIX}:{name}:{_window_start(window)}"
    with contextlib.suppress(ValueError):
        cache.decr(key)


def signup_count(*, address: str) -> None:
    """Count one sign-up from ``address``, or raise ``LimitReached``."""
    _count(f"signup:{_network(address)}", settings.SIGNUP_LIMIT, settings.SIGNUP_WINDOW)


def signup_uncount(*, address: str) -> None:
    """A counted sign-up that did not create an account (a name taken meanwhile)."""
    _uncount(f"signup:{_network(address)}", settings.SIGNUP_WINDOW)


def password_reset_count(*, email: str, address: str) -> None:
    """Count one reset request for ``email`` from ``address``, or raise
    ``LimitReached``."""
    window = settings.PASSWORD_RESET_WINDOW
    _count(
        f"reset-from:{_network(address)}",
        settings.PASSWORD_RESET_ADDRESS_LIMIT,
        window,
    )
    try:
        _count(
            f"reset-to:{_digest(email)}", settings.PASSWORD_RESET_EMAIL_LIMIT, window
        )
    except LimitReached:
        _uncount(f"reset-from:{_network(address)}", window)
        raise
