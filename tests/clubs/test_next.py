"""Every club form goes back to the page it came from (``next``) only when that is
a path on this site; anything else (a word that is not a URL, a foreign host,
another scheme) goes to the club's page. Never a 500, whatever ``next`` holds."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.clubs.conftest import ClubSetup, make_club
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BAD_NEXT = [
    "home",
    "games:lobby",
    "not a url",
    "clubs",
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "\\\\evil.example",
    "http:///evil.example",
    "javascript:alert(1)",
    " /clubs/",
    "/clubs/\x01",
    "/clubs/\n/x",
    "\ufffd\ufffd",
]


@pytest.fixture
def setup() -> ClubSetup:
    return make_club(members=1)


def forms(setup: ClubSetup) -> list[tuple[object, str, dict[str, str]]]:
    """(who, path, fields) for club forms that end with a redirect back."""
    slug = setup.club.slug
    return [
        (UserFactory(), f"/clubs/{slug}/join/", {}),
        (UserFactory(), f"/clubs/{slug}/join/cancel/", {}),
        (setup.members[0], f"/clubs/{slug}/leave/", {}),
        (setup.admin, f"/clubs/{slug}/notices/post/", {"title": "T", "text": "x"}),
        (setup.admin, f"/clubs/{slug}/notices/post/", {}),
        (setup.admin, f"/clubs/{slug}/notices/delete/", {"notice": "999"}),
        (setup.admin, f"/clubs/{slug}/members/approve/", {"request": "999"}),
        (setup.admin, f"/clubs/{slug}/members/remove/", {"user": "999"}),
    ]


@pytest.mark.parametrize("target", BAD_NEXT)
def test_a_next_that_is_not_a_path_here_goes_to_the_club(
    setup: ClubSetup, target: str
) -> None:
    for user, path, fields in forms(setup):
        browser = Client(raise_request_exception=False)
        browser.force_login(user)
        answer = browser.post(path, {**fields, "next": target})
        assert answer.status_code == 302, (path, target, answer.status_code)
        assert answer["Location"].startswith("/clubs/"), (path, answer["Location"])


def test_a_path_on_this_site_is_followed(setup: ClubSetup) -> None:
    browser = Client()
    browser.force_login(UserFactory())
    target = f"/clubs/{setup.club.slug}/members/?page=2"
    answer = browser.post(f"/clubs/{setup.club.slug}/join/", {"next": target})
    assert answer.status_code == 302
    assert answer["Location"] == target
