"""The public profile and its editing: escaping, ownership, bad input refused whole."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import page_text
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

EDIT = reverse("accounts:profile_edit")
SCRIPT_NAME = "<script>alert(1)</script>"


def edit_data(user: User, **overrides: str) -> dict[str, str]:
    data = {
        "display_name": user.display_name,
        "email": user.email,
        "bio": user.bio,
        "language": user.language,
    }
    data.update(overrides)
    return data


def post_edit(client: Client, user: User, browser: str = "en", **overrides: str) -> Any:
    return client.post(
        EDIT, edit_data(user, **overrides), headers={"accept-language": browser}
    )


def test_public_profile_shows_name_member_since_and_bio(client: Client) -> None:
    user = UserFactory(
        username="olga", display_name="Оля", bio="Люблю партизан.\nИ снайпера."
    )
    response = client.get("/u/olga/", headers={"accept-language": "en"})
    assert response.status_code == 200
    assert response.templates[0].name == "accounts/profile.html"
    body = page_text(response)
    assert "<h1><bdi>Оля</bdi></h1>" in body
    assert "Member since" in body
    assert user.date_joined.strftime("%Y") in body
    assert "Люблю партизан.<br>И снайпера." in body
    assert "Edit profile" not in body
    assert reverse("profile", kwargs={"username": "olga"}) == "/u/olga/"


def test_profile_has_the_slot_for_games_and_stats(client: Client) -> None:
    UserFactory(username="olga")
    response = client.get("/u/olga/")
    names = [template.name for template in response.templates]
    assert "accounts/_profile_extra.html" in names


def test_the_owner_sees_an_edit_link(client: Client) -> None:
    user = UserFactory(username="olga")
    client.force_login(user)
    body = page_text(client.get("/u/olga/", headers={"accept-language": "en"}))
    assert "Edit profile" in body
    assert f'href="{EDIT}"' in body


@pytest.mark.parametrize("username", ["nobody", "OLGA"])
def test_unknown_profile_is_404(client: Client, username: str) -> None:
    UserFactory(username="olga")
    response = client.get(f"/u/{username}/")
    assert response.status_code == 404
    assert "Страница не найдена" in response.content.decode()


def test_deactivated_profile_is_404(client: Client) -> None:
    UserFactory(username="olga", is_active=False)
    assert client.get("/u/olga/").status_code == 404


def test_display_name_is_escaped_on_the_profile_and_in_the_nav(client: Client) -> None:
    user = UserFactory(username="mallory", display_name=SCRIPT_NAME)
    client.force_login(user)
    body = client.get("/u/mallory/").content.decode()
    assert SCRIPT_NAME not in body
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert f"<h1><bdi>{escaped}</bdi></h1>" in body  # the profile
    assert f'<span class="menu-label"><bdi>{escaped}</bdi></span>' in body  # the menu
    assert f"<title>{escaped}" in body
    # And on every other page's nav.
    home = client.get("/").content.decode()
    assert SCRIPT_NAME not in home
    assert escaped in home


def test_bio_is_escaped(client: Client) -> None:
    UserFactory(username="olga", bio='<img src=x onerror="alert(1)">')
    body = client.get("/u/olga/").content.decode()
    assert "<img src=x" not in body
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in body


def test_edit_requires_login(client: Client) -> None:
    response = client.get(EDIT)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_edit_saves_and_goes_to_the_profile(client: Client) -> None:
    user = UserFactory(username="olga", display_name="Оля")
    client.force_login(user)
    response = post_edit(
        client, user, display_name="Ольга", bio="Играю по пятницам.", language="en"
    )
    assert response.status_code == 302
    assert response["Location"] == "/u/olga/"
    user.refresh_from_db()
    assert (user.display_name, user.bio, user.language) == (
        "Ольга",
        "Играю по пятницам.",
        "en",
    )
    # The confirmation speaks the newly chosen language.
    page = client.get(response["Location"], headers={"accept-language": "ru"})
    assert "Your profile has been saved." in page_text(page)


def test_keeping_ones_own_name_in_another_case_is_fine(client: Client) -> None:
    user = UserFactory(display_name="Оля")
    client.force_login(user)
    assert post_edit(client, user, display_name="ОЛЯ").status_code == 302
    user.refresh_from_db()
    assert user.display_name == "ОЛЯ"


@pytest.mark.parametrize(
    ("language", "message"),
    [("en", "This display name is already taken."), ("ru", "Это имя уже занято.")],
)
def test_edit_to_a_taken_display_name_any_case(
    client: Client, language: str, message: str
) -> None:
    UserFactory(display_name="Борис")
    user = UserFactory(display_name="Оля", bio="old")
    client.force_login(user)
    response = post_edit(client, user, language, display_name="бОРИС", bio="new")
    assert response.status_code == 200
    assert message in page_text(response)
    user.refresh_from_db()
    assert (user.display_name, user.bio) == ("Оля", "old")


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"email": "not-an-address"}, "email", "Enter a valid email address."),
        ({"email": ""}, "email", "This field is required."),
        ({"display_name": ""}, "display_name", "This field is required."),
        ({"display_name": "Я" * 33}, "display_name", "at most 32 characters"),
        ({"bio": "б" * 501}, "bio", "at most 500 characters (it has 501)"),
        ({"language": "de"}, "language", "Select a valid choice."),
    ],
)
def test_bad_edits_change_nothing(
    client: Client, overrides: dict[str, str], field: str, message: str
) -> None:
    user = UserFactory(display_name="Оля", bio="old", language="")
    client.force_login(user)
    # A valid new name travels with the bad field: it must not be saved either.
    data = {"display_name": "Ольга", "bio": "new", **overrides}
    response = post_edit(client, user, **data)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert message in page_text(response)
    user.refresh_from_db()
    assert (user.display_name, user.bio, user.language) == ("Оля", "old", "")
    # Nor shown in the header as if it had been.
    nav_link = f'<a href="{user.get_absolute_url()}">Ольга</a>'
    assert nav_link not in page_text(response)
