"""The one throttle in front of every door that takes a password: the log-in page,
the admin's log-in, the API's ``POST /api/v1/auth/token`` and the password change.

The policy
----------
Failures are counted per account (the user name, case folded, whether or not the
account exists, so the answers never tell) and per client address (IPv6: one /64).

* **A few free tries.** ``LOGIN_THROTTLE_FAILURES`` failures per account
  (``LOGIN_THROTTLE_ADDRESS_FAILURES`` per address, larger: the players at one table
  often share one Wi-Fi) are judged at once.
* **Then a slowdown that grows, not a lock.** After that, one attempt may be judged
  per delay, and each further failure doubles the delay: per account from
  ``LOGIN_THROTTLE_DELAY`` seconds up to ``LOGIN_THROTTLE_MAX_DELAY``, per address
  from ``LOGIN_THROTTLE_ADDRESS_DELAY`` up to ``LOGIN_THROTTLE_ADDRESS_MAX_DELAY`` (a
  minute at most: a club's Wi-Fi is slowed down, never locked out). A guesser gets a
  few tries an hour; a player who mistyped waits seconds.
* **The owner always has a way in.** Completing a password reset from the e-mailed
  link clears the account's failures, so someone guessing at a known account cannot
  keep its owner out; a successful log-in clears them too. (A success never clears
  the address's count: logging in to one's own account must not reset a guesser's.)
* **Failures are forgotten** ``LOGIN_THROTTLE_WINDOW`` seconds after the first one
  (``LOGIN_THROTTLE_ADDRESS_WINDOW`` per address).

How it counts
-------------
Atomically, before the password is checked: an attempt first reserves one of the
free tries with the cache's ``incr`` (Redis ``INCR``) and is judged only if the
reservation fits, so forty simultaneous guesses get exactly the free tries judged
and the rest refused. In the slowdown, an attempt must also win the one slot for the
current failure count with the cache's ``add`` (Redis ``SET NX``): one attempt per
delay is judged, however many arrive at once. The cache is Redis when ``REDIS_URL``
is set, so every daphne process shares the counts.

The client address is ``REMOTE_ADDR``. Behind a reverse proxy, run daphne with
``--proxy-headers`` so that it is the player's address rather than the proxy's.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

KEY_PREFIX = "login-throttle"
# How long a reservation (an attempt being judged) may be held: hashing a password
# takes well under a second; this only cleans up after a crashed request.
RESERVATION_SECONDS = 60

# The clock the delays and windows are measured by. Tests replace it to let time
# pass without waiting; the cache entries themselves expire regardless.
clock: Callable[[], float] = time.time


@dataclass(frozen=True)
class Lockout:
    """No attempt is judged before ``retry_at`` (UTC)."""

    retry_at: datetime

    def seconds_left(self) -> int:
        return max(1, int(self.retry_at.timestamp() - clock() + 0.999))


class Throttled(Exception):
    """This attempt is refused without looking at the password."""

    def __init__(self, lockout: Lockout) -> None:
        super().__init__(f"throttled until {lockout.retry_at.isoformat()}")
        self.lockout = lockout


@dataclass(frozen=True)
class Rule:
    free: int
    delay: float
    max_delay: float
    window: int

    def delay_after(self, failures: int) -> float:
        """The wait after ``failures`` failures (only past the free tries)."""
        return min(self.max_delay, self.delay * 2 ** max(0, failures - self.free))


def _account_rule() -> Rule:
    return Rule(
        free=settings.LOGIN_THROTTLE_FAILURES,
        delay=settings.LOGIN_THROTTLE_DELAY,
        max_delay=settings.LOGIN_THROTTLE_MAX_DELAY,
        window=settings.LOGIN_THROTTLE_WINDOW,
    )


def _address_rule() -> Rule:
    return Rule(
        free=settings.LOGIN_THROTTLE_ADDRESS_FAILURES,
        delay=settings.LOGIN_THROTTLE_ADDRESS_DELAY,
        max_delay=settings.LOGIN_THROTTLE_ADDRESS_MAX_DELAY,
        window=settings.LOGIN_THROTTLE_ADDRESS_WINDOW,
    )


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


def _keys(*, username: str, address: str) -> list[tuple[str, Rule]]:
    keys = [(_address_key(address), _address_rule())]
    if username.strip():
        keys.append((_username_key(username), _account_rule()))
    return keys


def _failures(key: str, rule: Rule, now: float) -> tuple[int, float, float]:
    """Failures remembered for ``key``, when the last one was and when the first
    one opened the window; a window that has passed is forgotten."""
    values = cache.get_many([f"{key}:first", f"{key}:count", f"{key}:last"])
    first = values.get(f"{key}:first")
    if first is None or now >= first + rule.window:
        if first is not None:
            _forget(key)
        return 0, 0.0, 0.0
    count = int(values.get(f"{key}:count", 0))
    return count, float(values.get(f"{key}:last", first)), float(first)


def _forget(key: str) -> None:
    cache.delete_many([f"{key}:first", f"{key}:count", f"{key}:last"])


def _decr(key: str) -> None:
    with contextlib.suppress(ValueError):  # already expired
        cache.decr(key)


def _incr(key: str, timeout: int) -> int:
    cache.add(key, 0, timeout=timeout)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add() and incr()
        cache.add(key, 1, timeout=timeout)
        return 1


def _retry_at(moment: float) -> Lockout:
    return Lockout(retry_at=datetime.fromtimestamp(moment, tz=UTC))


@dataclass
class Attempt:
    """One attempt being judged; end it with ``failed()`` or ``succeeded()``."""

    username: str
    reserved: list[str] = field(default_factory=list)
    slots: list[str] = field(default_factory=list)
    judged: list[tuple[str, Rule]] = field(default_factory=list)

    def _release(self, *, slots: bool) -> None:
        for key in self.reserved:
            _decr(f"{key}:pending")
        self.reserved = []
        if slots:
            # Not a failure: the count stays, so the next attempt needs this slot.
            cache.delete_many(self.slots)
        self.slots = []

    def failed(self) -> Lockout | None:
        """Count the failure; return the wait it brings about, if any."""
        self._release(slots=False)
        now = clock()
        waits = []
        for key, rule in self.judged:
            cache.add(f"{key}:first", now, timeout=rule.window)
            count = _incr(f"{key}:count", rule.window)
            cache.set(f"{key}:last", now, timeout=rule.window)
            if count >= rule.free:
                waits.append(now + rule.delay_after(count))
        return _retry_at(max(waits)) if waits else None

    def abandoned(self) -> None:
        """The attempt could not be judged (an error): count nothing."""
        self._release(slots=True)

    def succeeded(self) -> None:
        self._release(slots=True)
        if self.username.strip():
            _forget(_username_key(self.username))


def _begin_key(key: str, rule: Rule, now: float, attempt: Attempt) -> None:
    count, last, first = _failures(key, rule, now)
    if count < rule.free:
        pending = _incr(f"{key}:pending", RESERVATION_SECONDS)
        if count + pending <= rule.free:
            attempt.reserved.append(key)
            return
        _decr(f"{key}:pending")
        # The free tries are all being judged right now: come back in a moment.
        raise Throttled(_retry_at(now + 1))
    ready = last + rule.delay_after(count)
    if now < ready:
        raise Throttled(_retry_at(ready))
    # One attempt per failure count (of this window): the first to claim the slot
    # is judged.
    slot = f"{key}:slot:{first}:{count}"
    if not cache.add(slot, 1, timeout=RESERVATION_SECONDS):
        raise Throttled(_retry_at(now + 1))
    attempt.slots.append(slot)


def attempt_begin(*, username: str, address: str) -> Attempt:
    """Reserve the right to judge one attempt for this user name from this address,
    or raise ``Throttled`` (nothing is counted for a refused attempt)."""
    now = clock()
    attempt = Attempt(username=username)
    try:
        for key, rule in _keys(username=username, address=address):
            _begin_key(key, rule, now, attempt)
            attempt.judged.append((key, rule))
    except Throttled:
        attempt._release(slots=True)
        raise
    return attempt


def lockout_get(*, username: str, address: str) -> Lockout | None:
    """The wait in force for this user name or address now, if any (without
    reserving anything: for showing, not for judging)."""
    now = clock()
    waits = []
    for key, rule in _keys(username=username, address=address):
        count, last, _ = _failures(key, rule, now)
        if count >= rule.free and now < last + rule.delay_after(count):
            waits.append(last + rule.delay_after(count))
    return _retry_at(max(waits)) if waits else None


def failures_clear(*, username: str) -> None:
    """Forget the account's failures: after a successful log-in or a completed
    password reset (the owner's way in while someone guesses at the account)."""
    if username.strip():
        _forget(_username_key(username))


def client_address(request: HttpRequest | None) -> str:
    """The address a request came from (see the module's note on proxies)."""
    if request is None:
        return ""
    return str(request.META.get("REMOTE_ADDR", ""))
