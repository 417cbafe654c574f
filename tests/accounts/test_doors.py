"""Every door that takes a password goes through the one throttle: the log-in page,
the admin's log-in, the API's token and the password change. Failures at one door
count at every other. (The throttle's own rules: test_throttle.py.)"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from accounts.models import User
from tests.accounts.conftest import page_text
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

ADMIN_LOGIN = "/admin/login/"
FAILURES = 5
LOCKED_EN = "Too many failed attempts to log in."


@pytest.fixture(autouse=True)
def _throttle(settings: Settings) -> None:
    settings.LOGIN_THROTTLE_FAILURES = FAILURES
    settings.LOGIN_THROTTLE_ADDRESS_FAILURES = 100


@pytest.fixture
def boss() -> User:
    return UserFactory(username="boss", is_staff=True, is_superuser=True)


def admin_log_in(client: Client, password: str) -> str:
    response = client.post(
        ADMIN_LOGIN,
        {"username": "boss", "password": password, "next": "/admin/"},
        headers={"accept-language": "en"},
    )
    return page_text(response) if response.status_code == 200 else ""


def test_the_admin_log_in_is_throttled(boss: User) -> None:
    """Thirty wrong superuser passwords: after the free tries, every attempt, the
    right password included, waits."""
    client = Client()
    bodies = [admin_log_in(client, f"guess{n}") for n in range(30)]
    assert all(LOCKED_EN not in body for body in bodies[: FAILURES - 1])
    assert all(LOCKED_EN in body for body in bodies[FAILURES - 1 :])
    assert LOCKED_EN in admin_log_in(client, PASSWORD)
    assert not get_user(client).is_authenticated


def test_the_admin_log_in_still_works_and_still_wants_staff(boss: User) -> None:
    client = Client()
    response = client.post(
        ADMIN_LOGIN, {"username": "boss", "password": PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 302
    assert get_user(client).pk == boss.pk
    UserFactory(username="player")
    response = Client().post(
        ADMIN_LOGIN,
        {"username": "player", "password": PASSWORD},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 200
    assert "staff account" in page_text(response)


def test_failures_at_the_admin_count_at_the_log_in_page(boss: User) -> None:
    for number in range(FAILURES):
        admin_log_in(Client(), f"guess{number}")
    response = Client().post(
        reverse("accounts:login"), {"username": "boss", "password": PASSWORD}
    )
    assert response.status_code == 429


def test_the_password_change_is_throttled(client: Client) -> None:
    """An open session on a shared phone must not let anyone guess the password."""
    user = UserFactory(username="olga")
    client.force_login(user)
    change = reverse("accounts:password_change")
    new = {"new_password1": "a-new-pass-phrase", "new_password2": "a-new-pass-phrase"}
    english = {"accept-language": "en"}
    answers = [
        client.post(change, {"old_password": f"guess{n}", **new}, headers=english)
        for n in range(FAILURES + 2)
    ]
    assert [a.status_code for a in answers[: FAILURES - 1]] == [200] * (FAILURES - 1)
    assert all(a.status_code == 429 for a in answers[FAILURES - 1 :])
    right = client.post(change, {"old_password": PASSWORD, **new}, headers=english)
    assert right.status_code == 429
    assert LOCKED_EN in page_text(right)
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    # The log-in page shares the count.
    login = Client().post(
        reverse("accounts:login"), {"username": "olga", "password": PASSWORD}
    )
    assert login.status_code == 429


def test_the_api_token_shares_the_throttle() -> None:
    UserFactory(username="olga")
    for number in range(FAILURES):
        Client().post(
            reverse("accounts:login"), {"username": "olga", "password": f"g{number}"}
        )
    answer = Client().post(
        "/api/v1/auth/token",
        {"username": "olga", "password": PASSWORD},
        content_type="application/json",
    )
    assert answer.status_code == 429
    assert answer.json()["error"]["code"] == "locked_out"
