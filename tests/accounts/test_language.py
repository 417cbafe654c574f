"""Which language the site speaks: the profile's, else the cookie's or the
browser's, else Russian; and the header's switcher, which may only send players back
to this site."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SWITCH = reverse("accounts:set_language")


@pytest.mark.parametrize(
    ("profile", "cookie", "browser", "expected"),
    [
        ("en", "ru", "ru", "en"),
        ("ru", "en", "en", "ru"),
        ("", "en", "ru", "en"),
        ("", "", "en", "en"),
        ("", "", "de", "ru"),
        (None, "en", "ru", "en"),
        (None, "", "", "ru"),
    ],
)
def test_profile_over_cookie_over_browser_over_russian(
    client: Client,
    settings: Settings,
    profile: str | None,
    cookie: str,
    browser: str,
    expected: str,
) -> None:
    """``profile=None`` is a visitor who is not logged in."""
    if profile is not None:
        client.force_login(UserFactory(language=profile))
    if cookie:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    headers = {"accept-language": browser} if browser else {}
    response = client.get("/", headers=headers)
    assert response["Content-Language"] == expected
    assert f'<html lang="{expected}"' in response.content.decode()


def test_switching_sets_the_cookie_and_the_profile(
    client: Client, settings: Settings
) -> None:
    user = UserFactory(language="")
    client.force_login(user)
    response = client.post(SWITCH, {"language": "en", "next": "/history/"})
    assert response.status_code == 302
    assert response["Location"] == "/history/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    user.refresh_from_db()
    assert user.language == "en"
    # The profile now wins over a Russian browser and a lost cookie.
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME)
    page = client.get("/", headers={"accept-language": "ru"})
    assert page["Content-Language"] == "en"


def test_a_visitor_switches_by_cookie_only(client: Client, settings: Settings) -> None:
    response = client.post(SWITCH, {"language": "en", "next": "/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert client.get("/")["Content-Language"] == "en"


@pytest.mark.parametrize(
    "next_url",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "\\\\evil.example",
        "https:///evil.example",
        "javascript:alert(1)",
        "http://testserver.evil.example/",
        "",
    ],
)
def test_the_switcher_refuses_to_redirect_off_site(
    client: Client, next_url: str
) -> None:
    response = client.post(SWITCH, {"language": "en", "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_the_switcher_keeps_a_local_path_and_query(client: Client) -> None:
    response = client.post(SWITCH, {"language": "en", "next": "/history/?page=2"})
    assert response["Location"] == "/history/?page=2"


def test_the_switcher_ignores_an_unknown_language(
    client: Client, settings: Settings
) -> None:
    user = UserFactory(language="ru")
    client.force_login(user)
    response = client.post(SWITCH, {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    user.refresh_from_db()
    assert user.language == "ru"


def test_the_switcher_is_post_only(client: Client) -> None:
    assert client.get(SWITCH, {"language": "en", "next": "/"}).status_code == 405


def test_persian_from_the_browser_the_profile_or_the_switcher(
    client: Client, settings: Settings
) -> None:
    """Persian is right to left: the page says so, and says it in Persian."""
    page = client.get("/", headers={"accept-language": "fa-IR,fa;q=0.9"})
    assert page["Content-Language"] == "fa"
    assert '<html lang="fa" dir="rtl">' in page.content.decode()
    assert "پادپولیه" in page.content.decode()

    user = UserFactory(language="")
    client.force_login(user)
    response = client.post(SWITCH, {"language": "fa", "next": "/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fa"
    user.refresh_from_db()
    assert user.language == "fa"
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME)
    assert client.get("/", headers={"accept-language": "ru"})["Content-Language"] == (
        "fa"
    )
    # Russian and English pages stay left to right.
    client.post(SWITCH, {"language": "en", "next": "/"})
    assert '<html lang="en" dir="ltr">' in client.get("/").content.decode()


def test_the_profile_form_offers_persian(client: Client) -> None:
    client.force_login(UserFactory(language="ru"))
    form = client.get("/accounts/profile/").content.decode()
    assert '<option value="fa">Персидский</option>' in form
