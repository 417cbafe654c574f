"""The user admin shows and edits what players have: display name and language."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_changelist_shows_display_name_and_language(admin_client: Client) -> None:
    UserFactory(username="olga", display_name="Оля", language="en")
    response = admin_client.get(
        "/admin/accounts/user/", headers={"accept-language": "en"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "column-display_name" in body
    assert "column-language" in body
    assert "Оля" in body


def test_change_form_has_the_profile_fields(admin_client: Client) -> None:
    user = UserFactory()
    response = admin_client.get(f"/admin/accounts/user/{user.pk}/change/")
    fields = response.context["adminform"].form.fields
    assert {"display_name", "language", "bio", "email"} <= set(fields)


def test_search_by_display_name(admin_client: Client) -> None:
    UserFactory(display_name="Оля")
    UserFactory(display_name="Борис")
    response = admin_client.get("/admin/accounts/user/", {"q": "Бор"})
    assert response.context["cl"].result_count == 1


def test_adding_a_user_asks_for_a_display_name(admin_client: Client) -> None:
    response = admin_client.post(
        "/admin/accounts/user/add/",
        {
            "username": "ivan",
            "display_name": "Ваня",
            "email": "ivan@example.org",
            "usable_password": "true",
            "password1": "partisan-night-raid-7",
            "password2": "partisan-night-raid-7",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="ivan").display_name == "Ваня"


def test_admin_refuses_a_taken_display_name_in_any_case(admin_client: Client) -> None:
    UserFactory(display_name="Оля")
    response = admin_client.post(
        "/admin/accounts/user/add/",
        {
            "username": "ivan",
            "display_name": "ОЛЯ",
            "email": "ivan@example.org",
            "usable_password": "true",
            "password1": "partisan-night-raid-7",
            "password2": "partisan-night-raid-7",
        },
        headers={"accept-language": "en"},
    )
    assert response.status_code == 200
    assert "This display name is already taken." in response.content.decode()
    assert not User.objects.filter(username="ivan").exists()
