"""Counting failed log-ins, per user name and per client address, in Django's cache.

Why the cache: with ``REDIS_URL`` set it is Redis, so every daphne process sees the
same counters; without it, the local-memory cache is enough for one process.

How it counts: the first failure for a key opens a window of
``LOGIN_THROTTLE_WINDOW`` seconds; once ``LOGIN_THROTTLE_FAILURES`` failures fall
inside it, every attempt for that key, even with the right password, is refused until
the window closes. Counters go up with the cache's atomic ``incr`` (Redis ``INCR``),
so parallel guesses cannot slip past the limit. Unknown user names are counted
exactly like real ones, so a lock-out says nothing about who has an account.

The client address is ``REMOTE_ADDR``. Behind a reverse proxy, run daphne with
``--proxy-headers`` so that it is the player's address rather than the proxy's.
IPv6 addresses count per /64 network, the block one subscriber usually holds.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

KEY_PREFIX = "login-throttle"

# The clock the windows are measured by. Tests replace it to let a window pass
# without waiting; the cache entries themselves expire after the window regardless.
clock: Callable[[], float] = time.time


@dataclass(frozen=True)
class Lockout:
    """Further log-ins are refused until ``retry_at`` (UTC)."""

    retry_at: datetime

    def seconds_left(self) -> int:
        return max(1, int(self.retry_at.timestamp() - clock() + 0.999))


def _limits() -> tuple[int, int]:
    return settings.LOGIN_THROTTLE_FAILURES, settings.LOGIN_THROTTLE_WINDOW


def _username_key(username: str) -> str:
    # Hashed: user names may hold characters a cache key must not, and case is
    # folded so "Olga" and "olga" share one counter.
    digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:40]
    return f"{KEY_PREFIX}:user:{digest}"


def _address_key(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        network = address or "unknown"
    else:
        prefix = 64 if ip.version == 6 else 32
        network = str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))
    return f"{KEY_PREFIX}:addr:{network}"


def _keys(*, username: str, address: str) -> list[str]:
    keys = [_address_key(address)]
    if username.strip():
        keys.append(_username_key(username))
    return keys


def _window_state(key: str, now: float, window: int) -> tuple[int, float | None]:
    """Failures counted in the open window for ``key``, and when it opened."""
    values = cache.get_many([f"{key}:start", f"{key}:count"])
    started = values.get(f"{key}:start")
    if started is None or now >= started + window:
        return 0, None
    return int(values.get(f"{key}:count", 0)), float(started)


def _failures_allowed(key: str) -> int:
    """Players at one table often share one Wi-Fi address: an address gets a larger
    allowance than a user name, so one player's typos do not lock the table out."""
    if key.startswith(f"{KEY_PREFIX}:addr:"):
        return settings.LOGIN_THROTTLE_ADDRESS_FAILURES
    return settings.LOGIN_THROTTLE_FAILURES


def _lockout_for(key: str, now: float) -> Lockout | None:
    _, window = _limits()
    failures = _failures_allowed(key)
    count, started = _window_state(key, now, window)
    if started is not None and count >= failures:
        return Lockout(retry_at=datetime.fromtimestamp(started + window, tz=UTC))
    return None


def _latest(lockouts: list[Lockout | None]) -> Lockout | None:
    found = [lockout for lockout in lockouts if lockout is not None]
    return max(found, key=lambda lockout: lockout.retry_at) if found else None


def lockout_get(*, username: str, address: str) -> Lockout | None:
    """The lock-out in force for this user name or address, if any."""
    now = clock()
    return _latest(
        [_lockout_for(key, now) for key in _keys(username=username, address=address)]
    )


def _failure_count(key: str, now: float, window: int) -> None:
    start_key, count_key = f"{key}:start", f"{key}:count"
    started = cache.get(start_key)
    if started is not None and now >= started + window:
        # A window that has closed but not yet left the cache: start afresh.
        cache.delete_many([start_key, count_key])
        started = None
    if started is None:
        cache.add(start_key, now, timeout=window)
    cache.add(count_key, 0, timeout=window)
    try:
        cache.incr(count_key)
    except ValueError:
        # The counter expired between add() and incr(): this failure opens it again.
        cache.add(count_key, 1, timeout=window)


def failure_record(*, username: str, address: str) -> Lockout | None:
    """Count one failed log-in; return the lock-out it brings about, if any."""
    now = clock()
    _, window = _limits()
    for key in _keys(username=username, address=address):
        _failure_count(key, now, window)
    return lockout_get(username=username, address=address)


def failures_clear(*, username: str) -> None:
    """A successful log-in wipes its user name's failures (not the address's, so that
    logging in to one's own account cannot reset an attacker's count)."""
    if username.strip():
        key = _username_key(username)
        cache.delete_many([f"{key}:start", f"{key}:count"])


def client_address(request: HttpRequest | None) -> str:
    """The address a request came from (see the module's note on proxies)."""
    if request is None:
        return ""
    return str(request.META.get("REMOTE_ADDR", ""))
