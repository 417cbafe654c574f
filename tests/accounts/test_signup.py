"""Sign-up: the happy path, then every kind of bad input, each answered on the same
page in the visitor's language with nothing saved."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import page_text
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")
GOOD_PASSWORD = "partisan-night-raid-7"


def signup_data(**overrides: str) -> dict[str, str]:
    data = {
        "username": "olga",
        "display_name": "Оля",
        "email": "olga@example.org",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
    }
    data.update(overrides)
    return data


def post_signup(client: Client, language: str = "ru", **overrides: str) -> Any:
    return client.post(
        SIGNUP, signup_data(**overrides), headers={"accept-language": language}
    )


def assert_refused(response: Any, field: str, message: str) -> None:
    """Re-rendered sign-up page, the message beside the field, nobody created."""
    assert response.status_code == 200
    assert response.templates[0].name == "accounts/signup.html"
    assert field in response.context["form"].errors
    assert message in page_text(response)
    assert 'aria-invalid="true"' in response.content.decode()


def test_signup_creates_the_player_and_logs_them_in(client: Client) -> None:
    response = post_signup(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
    user = User.objects.get(username="olga")
    assert user.display_name == "Оля"
    assert user.email == "olga@example.org"
    assert user.check_password(GOOD_PASSWORD)
    assert get_user(client).pk == user.pk


def test_signup_page_is_in_russian_by_default(client: Client) -> None:
    body = page_text(client.get(SIGNUP))
    assert "Создать аккаунт" in body
    assert "Имя за столом" in body


def test_signup_follows_a_safe_next_and_ignores_a_foreign_one(client: Client) -> None:
    response = client.post(SIGNUP, {**signup_data(), "next": "/history/"})
    assert response["Location"] == "/history/"
    other = Client()
    response = other.post(
        SIGNUP,
        {**signup_data(username="ivan", display_name="Ваня"), "next": "//evil.example"},
    )
    assert response["Location"] == reverse("games:lobby")


def test_display_name_is_normalised(client: Client) -> None:
    post_signup(client, display_name="  Оля   Петрова ")
    assert User.objects.get().display_name == "Оля Петрова"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("ru", "Пользователь с таким именем уже существует."),
        ("en", "A user with that username already exists."),
    ],
)
@pytest.mark.parametrize("taken", ["olga", "OLGA"])
def test_duplicate_username_any_case(
    client: Client, language: str, message: str, taken: str
) -> None:
    UserFactory(username="olga")
    response = post_signup(client, language, username=taken)
    assert_refused(response, "username", message)
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("ru", "Это имя уже занято."),
        ("en", "This display name is already taken."),
    ],
)
@pytest.mark.parametrize(
    ("existing", "wanted"),
    [
        ("Оля", "Оля"),
        ("Оля", "ОЛЯ"),
        ("оля", "Оля"),
        ("Olya", "oLYA"),
        ("Olya", "Ｏｌｙａ"),
    ],
)
def test_duplicate_display_name_any_case(
    client: Client, language: str, message: str, existing: str, wanted: str
) -> None:
    UserFactory(display_name=existing)
    response = post_signup(client, language, display_name=wanted)
    assert_refused(response, "display_name", message)
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("ru", "Введите правильный адрес электронной почты."),
        ("en", "Enter a valid email address."),
    ],
)
@pytest.mark.parametrize(
    "email", ["olga", "olga@", "@example.org", "olga@exa mple.org"]
)
def test_bad_email(client: Client, language: str, message: str, email: str) -> None:
    response = post_signup(client, language, email=email)
    assert_refused(response, "email", message)
    assert not User.objects.exists()


def test_email_is_required(client: Client) -> None:
    response = post_signup(client, email="")
    assert_refused(response, "email", "Обязательное поле.")


@pytest.mark.parametrize(
    ("password", "language", "message"),
    [
        ("short1", "ru", "Введённый пароль слишком короткий."),
        ("short1", "en", "This password is too short."),
        ("password123", "ru", "Введённый пароль слишком широко распространён."),
        ("password123", "en", "This password is too common."),
        ("8405729163", "ru", "Введённый пароль состоит только из цифр."),
        ("8405729163", "en", "This password is entirely numeric."),
    ],
)
def test_weak_password(
    client: Client, password: str, language: str, message: str
) -> None:
    response = post_signup(client, language, password1=password, password2=password)
    assert_refused(response, "password2", message)
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("ru", "Введённый пароль слишком похож на имя пользователя."),
        ("en", "The password is too similar to the username."),
    ],
)
def test_password_like_the_username(
    client: Client, language: str, message: str
) -> None:
    response = post_signup(
        client,
        language,
        username="partisanka",
        password1="partisanka1",
        password2="partisanka1",
    )
    assert_refused(response, "password2", message)
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("ru", "Введенные пароли не совпадают."),
        ("en", "The two password fields didn’t match."),
    ],
)
def test_mismatched_passwords(client: Client, language: str, message: str) -> None:
    response = post_signup(client, language, password2=GOOD_PASSWORD + "x")
    assert_refused(response, "password2", message)
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("username", "u" * 151),
        ("display_name", "Я" * 33),
        ("email", "o" * 250 + "@example.org"),
        ("password1", "p" * 129),
    ],
)
@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("ru", "Убедитесь, что это значение содержит не более"),
        ("en", "Ensure this value has at most"),
    ],
)
def test_oversize_fields(
    client: Client, field: str, value: str, language: str, message: str
) -> None:
    overrides = {field: value}
    if field == "password1":
        overrides["password2"] = value
    response = post_signup(client, language, **overrides)
    assert_refused(response, field, message)
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("display_name", "message"),
    [
        ("Оля\u200b", "A display name cannot contain invisible or control characters."),
        ("\u202eялО", "A display name cannot contain invisible or control characters."),
        ("...", "A display name needs at least one letter or digit."),
    ],
)
def test_unreadable_display_names(
    client: Client, display_name: str, message: str
) -> None:
    response = post_signup(client, "en", display_name=display_name)
    assert_refused(response, "display_name", message)
    assert not User.objects.exists()


def test_bad_username_characters(client: Client) -> None:
    response = post_signup(client, "en", username="olga petrova")
    assert_refused(response, "username", "Enter a valid username.")


def test_every_error_at_once_keeps_what_was_typed(client: Client) -> None:
    UserFactory(username="olga", display_name="Оля")
    response = post_signup(client, "en", email="bad", password2="different-words-9")
    form = response.context["form"]
    assert set(form.errors) == {"username", "display_name", "email", "password2"}
    body = response.content.decode()
    assert 'value="bad"' in body
    assert GOOD_PASSWORD not in body  # passwords are never echoed back
    assert User.objects.count() == 1


def test_an_empty_post_says_what_is_required(client: Client) -> None:
    response = client.post(SIGNUP, {}, headers={"accept-language": "en"})
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {
        "username",
        "display_name",
        "email",
        "password1",
        "password2",
    }
    assert "This field is required." in page_text(response)


def test_a_logged_in_player_is_sent_on(client: Client) -> None:
    client.force_login(UserFactory())
    assert client.get(SIGNUP)["Location"] == reverse("games:lobby")
