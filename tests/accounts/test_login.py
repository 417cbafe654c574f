"""Logging in and out, and the throttle on repeated wrong passwords: a few free
tries, then a wait that doubles with each failure; the owner's reset link clears it.

Time never passes by sleeping: the throttle's clock is replaced (``advance``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from accounts import throttle
from accounts.models import User
from tests.accounts.conftest import page_text
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

LOGIN = reverse("accounts:login")
LOGOUT = reverse("accounts:logout")
FAILURES = 3
DELAY = 60
WINDOW = 3600
LOCKED_EN = "Too many failed attempts to log in."
LOCKED_RU = "Слишком много неудачных попыток входа."
INVALID_EN = "Please enter a correct username and password."


@pytest.fixture(autouse=True)
def _throttle_limits(settings: Settings) -> None:
    settings.LOGIN_THROTTLE_FAILURES = FAILURES
    settings.LOGIN_THROTTLE_DELAY = DELAY
    settings.LOGIN_THROTTLE_MAX_DELAY = 900
    settings.LOGIN_THROTTLE_WINDOW = WINDOW
    settings.LOGIN_THROTTLE_ADDRESS_FAILURES = FAILURES
    settings.LOGIN_THROTTLE_ADDRESS_DELAY = DELAY
    settings.LOGIN_THROTTLE_ADDRESS_MAX_DELAY = 120
    settings.LOGIN_THROTTLE_ADDRESS_WINDOW = WINDOW


@pytest.fixture
def advance(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Move the throttle's clock forward by so many seconds."""
    now = [1_900_000_000.0]
    monkeypatch.setattr(throttle, "clock", lambda: now[0])

    def forward(seconds: float) -> None:
        now[0] += seconds

    return forward


@pytest.fixture
def olga() -> User:
    return UserFactory(username="olga", display_name="Оля")


def log_in(
    client: Client,
    username: str,
    password: str,
    *,
    address: str = "10.0.0.1",
    language: str = "en",
) -> Any:
    return client.post(
        LOGIN,
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        headers={"accept-language": language},
    )


def test_log_in_with_the_right_password(client: Client, olga: User) -> None:
    response = log_in(client, "olga", PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
    assert get_user(client).pk == olga.pk


def test_log_in_follows_a_safe_next_only(client: Client, olga: User) -> None:
    response = client.post(
        f"{LOGIN}?next=/history/", {"username": "olga", "password": PASSWORD}
    )
    assert response["Location"] == "/history/"
    response = Client().post(
        f"{LOGIN}?next=https://evil.example/",
        {"username": "olga", "password": PASSWORD},
    )
    assert response["Location"] == reverse("games:lobby")


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", INVALID_EN),
        ("ru", "Пожалуйста, введите правильные имя пользователя и пароль."),
    ],
)
def test_unknown_user_and_wrong_password_read_the_same(
    client: Client, olga: User, language: str, message: str
) -> None:
    wrong = log_in(client, "olga", "not-the-password", language=language)
    unknown = log_in(client, "nobody", "not-the-password", language=language)
    for response in (wrong, unknown):
        assert response.status_code == 200
        assert message in page_text(response)
        assert not get_user(client).is_authenticated
    assert (
        wrong.context["form"].non_field_errors()
        == unknown.context["form"].non_field_errors()
    )


def test_oversize_login_fields_are_refused_plainly(client: Client) -> None:
    response = log_in(client, "u" * 151, "p" * 129)
    body = page_text(response)
    assert response.status_code == 200
    assert "Ensure this value has at most 150 characters (it has 151)." in body
    assert "Ensure this value has at most 128 characters (it has 129)." in body


def test_failures_lock_out_even_the_right_password(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    for _ in range(FAILURES - 1):
        response = log_in(client, "olga", "wrong-guess")
        assert response.status_code == 200
        assert LOCKED_EN not in page_text(response)
    # The failure that uses the last free try already says so.
    response = log_in(client, "olga", "wrong-guess")
    assert response.status_code == 429
    assert LOCKED_EN in page_text(response)
    advance(30)
    response = log_in(client, "olga", PASSWORD)
    assert response.status_code == 429
    assert int(response["Retry-After"]) == DELAY - 30
    body = page_text(response)
    assert LOCKED_EN in body
    assert "try again in 1 minute" in body
    assert "a password reset link from your e-mail lets you in at once" in body
    assert not get_user(client).is_authenticated


def test_the_wait_passing_lets_the_right_password_in(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    for _ in range(FAILURES):
        log_in(client, "olga", "wrong-guess")
    advance(DELAY - 1)
    assert log_in(client, "olga", PASSWORD).status_code == 429
    advance(1)
    response = log_in(client, "olga", PASSWORD)
    assert response.status_code == 302
    assert get_user(client).pk == olga.pk


def test_each_further_failure_doubles_the_wait(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    for _ in range(FAILURES):
        log_in(client, "olga", "wrong-guess", address="10.0.0.1")
    waited = DELAY
    for wait in (2 * DELAY, 4 * DELAY, 8 * DELAY, 900, 900):
        advance(waited)
        response = log_in(client, "olga", "wrong-guess", address=f"10.0.9.{wait}")
        assert response.status_code == 429
        assert int(response["Retry-After"]) == wait
        waited = wait


def test_lockout_message_in_russian_with_the_time(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    for _ in range(FAILURES):
        response = log_in(client, "olga", "wrong-guess", language="ru")
    body = page_text(response)
    assert LOCKED_RU in body
    assert "через 1 минуту" in body
    assert "ссылка для сброса пароля" in body
    assert response["Content-Language"] == "ru"


def test_the_owner_gets_in_at_once_with_a_reset_link(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    """Someone guessing at a known account cannot keep its owner out."""
    for _ in range(FAILURES):
        log_in(Client(), "olga", "wrong-guess", address="10.6.6.6")
    assert log_in(client, "olga", PASSWORD).status_code == 429
    client.post(reverse("accounts:password_reset"), {"email": olga.email})
    link = re.search(r"/accounts/password/reset/\S+/\S+/", mail.outbox[-1].body)
    assert link is not None
    form_url = client.get(link.group(0)).url
    done = client.post(
        form_url,
        {"new_password1": "a-new-pass-phrase", "new_password2": "a-new-pass-phrase"},
    )
    assert done.status_code == 302
    response = log_in(Client(), "olga", "a-new-pass-phrase", address="10.0.7.7")
    assert response.status_code == 302


def test_lockout_is_per_user_name_across_addresses(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    for number in range(FAILURES):
        log_in(
            client, "OLGA" if number % 2 else "olga", "x", address=f"10.0.1.{number}"
        )
    response = log_in(client, "olga", PASSWORD, address="10.0.2.1")
    assert response.status_code == 429
    # Another player from that fresh address is not affected.
    UserFactory(username="ivan")
    assert log_in(Client(), "ivan", PASSWORD, address="10.0.2.1").status_code == 302


def test_lockout_is_per_address_across_user_names(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    for number in range(FAILURES):
        log_in(client, f"guess{number}", "x", address="10.0.3.1")
    assert log_in(client, "olga", PASSWORD, address="10.0.3.1").status_code == 429
    assert log_in(client, "olga", PASSWORD, address="10.0.3.2").status_code == 302


def test_ipv6_addresses_count_per_64_network(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    for number in range(FAILURES):
        log_in(client, f"guess{number}", "x", address=f"2001:db8:1:2::{number + 1}")
    assert (
        log_in(client, "olga", PASSWORD, address="2001:db8:1:2::99").status_code == 429
    )
    assert (
        log_in(client, "olga", PASSWORD, address="2001:db8:1:3::1").status_code == 302
    )


def test_lockout_does_not_tell_whether_the_user_exists(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    for _ in range(FAILURES):
        real = log_in(client, "olga", "x", address="10.0.4.1")
        unknown = log_in(client, "nobody", "x", address="10.0.4.2")
    assert real.status_code == unknown.status_code == 429
    assert (
        real.context["form"].non_field_errors()
        == unknown.context["form"].non_field_errors()
    )


def test_success_clears_the_user_name_count(
    client: Client, olga: User, advance: Callable[[float], None]
) -> None:
    for _ in range(FAILURES - 1):
        log_in(client, "olga", "x", address="10.0.5.1")
    assert log_in(client, "olga", PASSWORD, address="10.0.5.1").status_code == 302
    other = Client()
    for _ in range(FAILURES - 1):
        assert log_in(other, "olga", "x", address="10.0.5.2").status_code == 200
    assert log_in(other, "olga", PASSWORD, address="10.0.5.2").status_code == 302


def test_logging_in_remembers_the_profile_language_in_the_cookie(
    client: Client, settings: Settings
) -> None:
    UserFactory(username="anna", language="en")
    response = log_in(client, "anna", PASSWORD, language="ru")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_log_out_by_get_is_not_allowed(client: Client, olga: User) -> None:
    client.force_login(olga)
    response = client.get(LOGOUT)
    assert response.status_code == 405
    assert get_user(client).pk == olga.pk


def test_log_out_by_post(client: Client, olga: User) -> None:
    client.force_login(olga)
    response = client.post(LOGOUT, follow=True, headers={"accept-language": "en"})
    assert response.redirect_chain[-1][0] == reverse("home")
    assert not get_user(client).is_authenticated
    assert "You have logged out." in page_text(response)


def test_the_nav_offers_log_in_and_log_out(client: Client, olga: User) -> None:
    body = page_text(client.get("/", headers={"accept-language": "en"}))
    assert "Log in" in body
    client.force_login(olga)
    body = page_text(client.get("/", headers={"accept-language": "en"}))
    assert f'action="{LOGOUT}"' in body
    assert "Оля" in body
