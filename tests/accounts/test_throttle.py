"""The throttle's counting on its own (the log-in page's use of it is tested in
test_login.py)."""

from __future__ import annotations

import pytest
from pytest_django.fixtures import Settings

from accounts import throttle


@pytest.fixture(autouse=True)
def _limits(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.LOGIN_THROTTLE_FAILURES = 2
    settings.LOGIN_THROTTLE_ADDRESS_FAILURES = 2
    settings.LOGIN_THROTTLE_WINDOW = 100
    monkeypatch.setattr(throttle, "clock", lambda: 1_000.0)


def test_the_limit_is_reached_within_the_window() -> None:
    assert throttle.failure_record(username="olga", address="10.1.1.1") is None
    lockout = throttle.failure_record(username="olga", address="10.1.1.2")
    assert lockout is not None
    assert lockout.retry_at.timestamp() == 1_100.0
    assert lockout.seconds_left() == 100
    assert throttle.lockout_get(username="Olga", address="10.9.9.9") == lockout


def test_the_window_opens_at_the_first_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    throttle.failure_record(username="olga", address="10.1.1.1")
    monkeypatch.setattr(throttle, "clock", lambda: 1_100.0)
    # The first failure's window has closed: this one opens a new window.
    assert throttle.failure_record(username="olga", address="10.1.1.2") is None
    monkeypatch.setattr(throttle, "clock", lambda: 1_150.0)
    lockout = throttle.failure_record(username="olga", address="10.1.1.3")
    assert lockout is not None
    assert lockout.retry_at.timestamp() == 1_200.0


def test_an_empty_user_name_counts_only_the_address() -> None:
    throttle.failure_record(username="", address="10.1.1.1")
    throttle.failure_record(username=" ", address="10.1.1.1")
    assert throttle.lockout_get(username="olga", address="10.1.1.2") is None
    assert throttle.lockout_get(username="olga", address="10.1.1.1") is not None


def test_clearing_forgets_the_user_name_only() -> None:
    throttle.failure_record(username="olga", address="10.1.1.1")
    throttle.failure_record(username="olga", address="10.1.1.1")
    throttle.failures_clear(username="olga")
    assert throttle.lockout_get(username="olga", address="10.1.1.2") is None
    assert throttle.lockout_get(username="ivan", address="10.1.1.1") is not None


def test_odd_addresses_still_count() -> None:
    throttle.failure_record(username="a", address="")
    throttle.failure_record(username="b", address="")
    assert throttle.lockout_get(username="c", address="") is not None


def test_an_address_gets_a_larger_allowance_than_a_name(settings: Settings) -> None:
    """One player's typos lock their own name, not everyone on the table's Wi-Fi."""
    settings.LOGIN_THROTTLE_ADDRESS_FAILURES = 4
    throttle.failure_record(username="olga", address="10.1.1.1")
    throttle.failure_record(username="olga", address="10.1.1.1")
    assert throttle.lockout_get(username="olga", address="10.1.1.1") is not None
    assert throttle.lockout_get(username="ivan", address="10.1.1.1") is None
    throttle.failure_record(username="ivan", address="10.1.1.1")
    throttle.failure_record(username="boris", address="10.1.1.1")
    assert throttle.lockout_get(username="zoya", address="10.1.1.1") is not None
