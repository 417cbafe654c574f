"""Small pieces of the pages: profile links built without ``reverse()`` per row,
the month buckets of the chart, the profile for a player with no games."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from history.presenters import profile_url_maker
from history.selectors import month_starts
from tests.factories import UserFactory


@pytest.mark.parametrize(
    "username", ["olga", "o.l+g-a_1", "me@example.org", "Оля", "a b", "x/y?z#w"]
)
def test_profile_links_match_reverse(username: str) -> None:
    link = profile_url_maker()
    if "/" in username:
        # Not a valid username; quoted the same way all the same.
        assert link(username).startswith("/u/")
        return
    assert link(username) == reverse("profile", kwargs={"username": username})


def test_month_starts_cover_two_years_ending_this_month() -> None:
    starts = month_starts(dt.date(2026, 2, 17))
    assert len(starts) == 24
    assert starts[0] == dt.date(2024, 3, 1)
    assert starts[-1] == dt.date(2026, 2, 1)
    assert starts[10] == dt.date(2025, 1, 1)


@pytest.mark.django_db
def test_a_profile_without_games(client: Client) -> None:
    user = UserFactory(username="newbie")
    client.force_login(user)
    page = client.get("/u/newbie/", headers={"accept-language": "en"})
    assert page.status_code == 200
    assert "No finished games yet." in page.content.decode()
