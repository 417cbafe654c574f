"""Changing a password, and resetting a forgotten one by mail (locmem backend)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import page_text
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

CHANGE = reverse("accounts:password_change")
RESET = reverse("accounts:password_reset")
NEW_PASSWORD = "a-brand-new-pass-phrase"


def test_change_password_keeps_the_player_logged_in(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        CHANGE,
        {
            "old_password": PASSWORD,
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )
    assert response["Location"] == reverse("accounts:password_change_done")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert get_user(client).pk == user.pk
    done = client.get(response["Location"], headers={"accept-language": "en"})
    assert "Password changed" in page_text(done)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (
            {"old_password": "wrong", "new_password1": NEW_PASSWORD},
            "old_password",
            "Your old password was entered incorrectly.",
        ),
        (
            {"new_password2": NEW_PASSWORD + "x"},
            "new_password2",
            "The two password fields didn’t match.",
        ),
        (
            {"new_password1": "12345678", "new_password2": "12345678"},
            "new_password2",
            "This password is too common.",
        ),
        (
            {"new_password1": "p" * 129, "new_password2": "p" * 129},
            "new_password1",
            "Ensure this value has at most 128 characters",
        ),
    ],
)
def test_bad_password_changes_change_nothing(
    client: Client, data: dict[str, str], field: str, message: str
) -> None:
    user = UserFactory()
    client.force_login(user)
    form = {
        "old_password": PASSWORD,
        "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD,
        **data,
    }
    response = client.post(CHANGE, form, headers={"accept-language": "en"})
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert message in page_text(response)
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_change_password_needs_login(client: Client) -> None:
    assert client.get(CHANGE)["Location"].startswith(reverse("accounts:login"))


def reset_link(body: str) -> str:
    match = re.search(
        r"http://testserver(/accounts/password/reset/[^/\s]+/[^/\s]+/)", body
    )
    assert match, body
    return match.group(1)


def test_reset_mail_and_link(client: Client) -> None:
    user = UserFactory(username="olga", display_name="Оля", email="olga@example.org")
    response = client.post(
        RESET, {"email": "OLGA@example.org"}, headers={"accept-language": "ru"}
    )
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    letter = mail.outbox[0]
    assert letter.to == ["olga@example.org"]
    assert letter.subject == "Подполье: выберите новый пароль"
    assert "Здравствуйте, Оля!" in letter.body
    assert "olga" in letter.body
    assert "&" not in letter.body  # plain text: nothing HTML-escaped
    # The link works once: it sets the new password and is then spent.
    link = reset_link(letter.body)
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"]
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(
        set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert done["Location"] == reverse("accounts:password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    again = client.get(link, follow=True, headers={"accept-language": "en"})
    assert not again.context["validlink"]
    assert "This link no longer works" in page_text(again)


def test_reset_mail_speaks_the_players_own_language(client: Client) -> None:
    UserFactory(display_name="Anna", email="anna@example.org", language="en")
    client.post(RESET, {"email": "anna@example.org"}, headers={"accept-language": "ru"})
    letter = mail.outbox[0]
    assert letter.subject == "Podpolye: choose a new password"
    assert "Hello, Anna!" in letter.body


def test_reset_mail_does_not_escape_the_display_name(client: Client) -> None:
    UserFactory(display_name="Tom & <Jerry>", email="tom@example.org")
    client.post(RESET, {"email": "tom@example.org"}, headers={"accept-language": "en"})
    assert "Hello, Tom & <Jerry>!" in mail.outbox[0].body


def test_reset_for_an_unknown_address_looks_the_same_and_sends_nothing(
    client: Client,
) -> None:
    UserFactory(email="olga@example.org")
    known = client.post(RESET, {"email": "olga@example.org"})
    unknown = client.post(RESET, {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    ("email", "message"),
    [
        ("not-an-address", "Enter a valid email address."),
        ("o" * 250 + "@example.org", "Ensure this value has at most 254 characters"),
    ],
)
def test_reset_with_a_bad_address(client: Client, email: str, message: str) -> None:
    response = client.post(RESET, {"email": email}, headers={"accept-language": "en"})
    assert response.status_code == 200
    assert message in page_text(response)
    assert mail.outbox == []


def test_a_tampered_reset_link_is_refused(client: Client) -> None:
    user = UserFactory(email="olga@example.org")
    client.post(RESET, {"email": "olga@example.org"})
    link = reset_link(mail.outbox[0].body)
    forged = link[:-3] + ("x" if link[-3] != "x" else "y") + link[-2:]
    response = client.get(forged, follow=True, headers={"accept-language": "en"})
    assert not response.context["validlink"]
    assert User.objects.get(pk=user.pk).check_password(PASSWORD)
