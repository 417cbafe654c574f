"""Sign-up and password reset are rate-limited with clear, translated messages: 30
sign-ups from one address in 12 s, or 15 reset letters to one mailbox, are no
longer possible. Counted atomically in the cache; time is moved by hand."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from accounts import throttle
from accounts.models import User
from tests.accounts.conftest import page_text
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")
RESET = reverse("accounts:password_reset")


@pytest.fixture(autouse=True)
def _limits(settings: Settings) -> None:
    settings.SIGNUP_LIMIT = 3
    settings.SIGNUP_WINDOW = 3600
    settings.PASSWORD_RESET_EMAIL_LIMIT = 2
    settings.PASSWORD_RESET_ADDRESS_LIMIT = 4
    settings.PASSWORD_RESET_WINDOW = 3600


@pytest.fixture
def advance(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    now = [1_800_000_000.0]
    monkeypatch.setattr(throttle, "clock", lambda: now[0])

    def forward(seconds: float) -> None:
        now[0] += seconds

    return forward


def sign_up(number: int, *, address: str = "10.2.0.1", language: str = "en"):
    return Client().post(
        SIGNUP,
        {
            "username": f"player{number}",
            "display_name": f"Player {number}",
            "email": f"player{number}@example.org",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
        REMOTE_ADDR=address,
        headers={"accept-language": language},
    )


def test_sign_ups_per_address_are_limited(advance: Callable[[float], None]) -> None:
    answers = [sign_up(number) for number in range(6)]
    assert [a.status_code for a in answers] == [302, 302, 302, 429, 429, 429]
    assert User.objects.count() == 3
    refused = answers[-1]
    assert int(refused["Retry-After"]) > 0
    assert "Too many new accounts have been created from your network" in page_text(
        refused
    )
    # Another network is not affected; the window passing lets this one in again.
    assert sign_up(10, address="10.3.0.1").status_code == 302
    advance(3600)
    assert sign_up(11).status_code == 302


def test_the_sign_up_limit_speaks_russian(advance: Callable[[float], None]) -> None:
    for number in range(3):
        sign_up(number)
    refused = sign_up(5, language="ru")
    assert refused.status_code == 429
    assert "Слишком много новых учётных записей" in page_text(refused)


def test_refused_forms_do_not_use_up_the_allowance(
    advance: Callable[[float], None],
) -> None:
    for _ in range(5):
        Client().post(SIGNUP, {"username": "x"}, REMOTE_ADDR="10.2.0.1")
    assert sign_up(1).status_code == 302


def reset(email: str, *, address: str = "10.4.0.1", language: str = "en"):
    return Client().post(
        RESET,
        {"email": email},
        REMOTE_ADDR=address,
        headers={"accept-language": language},
    )


def test_reset_letters_per_mailbox_are_limited(
    advance: Callable[[float], None],
) -> None:
    UserFactory(email="olga@example.org")
    answers = [reset("olga@example.org", address=f"10.4.0.{n}") for n in range(5)]
    assert [a.status_code for a in answers] == [302, 302, 429, 429, 429]
    assert len(mail.outbox) == 2
    body = page_text(answers[-1])
    assert "Too many password reset letters have been asked for recently" in body
    advance(3600)
    assert reset("olga@example.org").status_code == 302
    assert len(mail.outbox) == 3


def test_unknown_mailboxes_are_counted_the_same(
    advance: Callable[[float], None],
) -> None:
    """The limit says nothing about which addresses have accounts."""
    answers = [reset("nobody@example.org", address=f"10.5.0.{n}") for n in range(3)]
    assert [a.status_code for a in answers] == [302, 302, 429]
    assert mail.outbox == []


def test_reset_requests_per_address_are_limited(
    advance: Callable[[float], None],
) -> None:
    answers = [reset(f"person{n}@example.org") for n in range(6)]
    assert [a.status_code for a in answers] == [302, 302, 302, 302, 429, 429]


def test_the_reset_limit_speaks_russian(advance: Callable[[float], None]) -> None:
    for _ in range(2):
        reset("olga@example.org")
    refused = reset("olga@example.org", language="ru")
    assert refused.status_code == 429
    assert "Слишком много писем для сброса пароля" in page_text(refused)
