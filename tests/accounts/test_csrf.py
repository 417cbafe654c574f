"""Forms posted without the right CSRF token are refused with the site's own page,
in the visitor's language, and change nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import page_text
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

SIGNUP_DATA = {
    "username": "olga",
    "display_name": "Оля",
    "email": "olga@example.org",
    "password1": "partisan-night-raid-7",
    "password2": "partisan-night-raid-7",
}


def form_token(client: Client, url: str) -> str:
    body = client.get(url).content.decode()
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert match
    return match.group(1)


def tamper(token: str) -> str:
    return token[:-1] + ("A" if token[-1] != "A" else "B")


@pytest.mark.parametrize(
    ("language", "title"),
    [("ru", "Форма устарела"), ("en", "The form has expired")],
)
def test_signup_without_a_token(language: str, title: str) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("accounts:signup"), SIGNUP_DATA, headers={"accept-language": language}
    )
    assert response.status_code == 403
    assert title in page_text(response)
    assert not User.objects.exists()


def test_signup_with_a_tampered_token() -> None:
    client = Client(enforce_csrf_checks=True)
    token = form_token(client, reverse("accounts:signup"))
    response = client.post(
        reverse("accounts:signup"),
        {**SIGNUP_DATA, "csrfmiddlewaretoken": tamper(token)},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 403
    assert "The form has expired" in page_text(response)
    assert not User.objects.exists()


def test_signup_with_the_real_token_works() -> None:
    client = Client(enforce_csrf_checks=True)
    token = form_token(client, reverse("accounts:signup"))
    response = client.post(
        reverse("accounts:signup"), {**SIGNUP_DATA, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    assert User.objects.filter(username="olga").exists()


def test_login_with_a_tampered_token() -> None:
    UserFactory(username="olga")
    client = Client(enforce_csrf_checks=True)
    token = form_token(client, reverse("accounts:login"))
    response = client.post(
        reverse("accounts:login"),
        {
            "username": "olga",
            "password": PASSWORD,
            "csrfmiddlewaretoken": tamper(token),
        },
    )
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


def test_profile_edit_without_a_token() -> None:
    user = UserFactory(display_name="Оля")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile_edit"),
        {"display_name": "Ольга", "email": user.email, "bio": "", "language": ""},
    )
    assert response.status_code == 403
    user.refresh_from_db()
    assert user.display_name == "Оля"


def test_language_switch_and_logout_without_a_token() -> None:
    user = UserFactory(language="ru")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    switch = client.post(reverse("accounts:set_language"), {"language": "en"})
    logout = client.post(reverse("accounts:logout"))
    assert switch.status_code == logout.status_code == 403
    user.refresh_from_db()
    assert user.language == "ru"
    assert "_auth_user_id" in client.session
