"""The throttle's counting on its own (each door's use of it is tested beside the
door: test_login.py, test_admin_login.py, test_password.py, tests/api).

Time never passes by sleeping: the throttle's clock is replaced."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from pytest_django.fixtures import Settings

from accounts import services, throttle


@pytest.fixture(autouse=True)
def _limits(settings: Settings) -> None:
    settings.LOGIN_THROTTLE_FAILURES = 2
    settings.LOGIN_THROTTLE_DELAY = 10
    settings.LOGIN_THROTTLE_MAX_DELAY = 35
    settings.LOGIN_THROTTLE_WINDOW = 1000
    settings.LOGIN_THROTTLE_ADDRESS_FAILURES = 4
    settings.LOGIN_THROTTLE_ADDRESS_DELAY = 1
    settings.LOGIN_THROTTLE_ADDRESS_MAX_DELAY = 3
    settings.LOGIN_THROTTLE_ADDRESS_WINDOW = 1000


@pytest.fixture
def advance(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    now = [1_000.0]
    monkeypatch.setattr(throttle, "clock", lambda: now[0])

    def forward(seconds: float) -> None:
        now[0] += seconds

    return forward


def fail(username: str, address: str = "10.1.1.1") -> throttle.Lockout | None:
    return throttle.attempt_begin(username=username, address=address).failed()


def test_free_tries_then_a_delay_that_doubles(advance: Callable[[float], None]) -> None:
    assert fail("olga") is None
    wait = fail("olga", "10.1.1.2")
    assert wait is not None and wait.seconds_left() == 10
    with pytest.raises(throttle.Throttled) as refused:
        throttle.attempt_begin(username="OLGA", address="10.9.9.9")
    assert refused.value.lockout.seconds_left() == 10
    advance(10)
    assert fail("olga", "10.1.1.3").seconds_left() == 20  # type: ignore[union-attr]
    advance(19)
    with pytest.raises(throttle.Throttled):
        throttle.attempt_begin(username="olga", address="10.1.1.4")
    advance(1)
    assert fail("olga", "10.1.1.5").seconds_left() == 35  # capped  # type: ignore[union-attr]


def test_a_success_clears_the_account_but_not_the_address(
    advance: Callable[[float], None],
) -> None:
    fail("olga")
    throttle.attempt_begin(username="olga", address="10.1.1.1").succeeded()
    assert fail("olga") is None  # the account starts afresh
    fail("ivan")
    # The address has now seen 3 failures and allows 4 before slowing down.
    assert fail("zoya") is not None


def test_failures_are_forgotten_after_the_window(
    advance: Callable[[float], None],
) -> None:
    fail("olga")
    fail("olga")
    advance(1000)
    assert throttle.lockout_get(username="olga", address="10.1.1.1") is None
    assert fail("olga") is None


def test_the_address_is_slowed_down_never_locked(
    advance: Callable[[float], None],
) -> None:
    """The players at one table share one Wi-Fi: four people's typos slow the
    address down for seconds, and a player whose name has no failures gets in."""
    for name in ("a", "b", "c", "d"):
        fail(name)
    with pytest.raises(throttle.Throttled) as refused:
        throttle.attempt_begin(username="zoya", address="10.1.1.1")
    assert refused.value.lockout.seconds_left() == 1
    advance(1)
    throttle.attempt_begin(username="zoya", address="10.1.1.1").succeeded()
    for number in range(10):
        advance(3)
        fail(f"guess{number}")
    # However many failures, the wait per address stays at its cap (3 s here).
    with pytest.raises(throttle.Throttled) as refused:
        throttle.attempt_begin(username="zoya", address="10.1.1.1")
    assert refused.value.lockout.seconds_left() <= 3


def test_ipv6_addresses_count_per_64(advance: Callable[[float], None]) -> None:
    for number in range(4):
        fail(f"u{number}", f"2001:db8:1:2::{number + 1}")
    with pytest.raises(throttle.Throttled):
        throttle.attempt_begin(username="x", address="2001:db8:1:2::99")
    throttle.attempt_begin(username="x", address="2001:db8:1:3::1").succeeded()


def test_an_empty_user_name_counts_only_the_address(
    advance: Callable[[float], None],
) -> None:
    fail("")
    fail(" ")
    assert throttle.lockout_get(username="olga", address="10.1.1.2") is None


def test_a_reset_clears_the_account(advance: Callable[[float], None]) -> None:
    fail("olga")
    fail("olga")
    throttle.failures_clear(username="Olga")
    assert throttle.lockout_get(username="olga", address="10.1.1.2") is None


def test_simultaneous_guesses_get_only_the_free_tries(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forty attempts at one account at once: the throttle counts before it
    judges, so only the free tries reach the password check, and the right
    password among the rest is refused like them."""
    settings.LOGIN_THROTTLE_FAILURES = 5
    settings.LOGIN_THROTTLE_ADDRESS_FAILURES = 1000
    attempts = 40
    lock = threading.Condition()
    judged: list[str] = []
    refused: list[str] = []
    release = threading.Event()

    def checking(request: object, username: str, password: str) -> object:
        with lock:
            judged.append(password)
            lock.notify_all()
        release.wait(timeout=30)
        return object() if password == "right" else None

    monkeypatch.setattr(services, "authenticate", checking)
    start = threading.Barrier(attempts)

    def guess(number: int) -> None:
        password = "right" if number == attempts - 1 else f"guess{number}"
        start.wait(timeout=30)
        try:
            services.user_authenticate(
                request=None, username="olga", password=password, address="10.0.0.1"
            )
        except (services.LoginLockedOut, services.InvalidCredentials) as exc:
            if isinstance(exc, services.LoginLockedOut):
                with lock:
                    refused.append(password)
                    lock.notify_all()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(attempts)]
    for thread in threads:
        thread.start()
    # Hold every judged attempt in the password check until all forty have either
    # reached it or been refused: the worst interleaving for the throttle.
    with lock:
        assert lock.wait_for(lambda: len(judged) + len(refused) >= attempts, 30)
    release.set()
    for thread in threads:
        thread.join(timeout=30)
    assert len(judged) == 5
    # Every other attempt was refused without its password being looked at (the
    # last judged failure is refused too: it brings the wait about).
    assert len(set(refused) - set(judged)) == attempts - 5
