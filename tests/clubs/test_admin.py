"""The clubs' admin pages render and change nothing; an invite's token stays out."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs import services
from clubs.models import Club
from tests.clubs.conftest import ClubSetup, league_game, open_season
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PAGES = [
    "club",
    "invite",
    "notice",
    "season",
    "matchday",
    "clubtable",
    "playerrating",
    "siderating",
    "ratedgame",
]


def test_every_clubs_admin_page_renders_read_only(club: ClubSetup) -> None:
    season = open_season(club)
    game = league_game(club, club.everyone[:5], season, seed=2)
    invite = services.invite_create(club=club.club, admin=club.admin)
    services.notice_post(club=club.club, admin=club.admin, title="t", body="b")
    staff = Client()
    staff.force_login(UserFactory(is_staff=True, is_superuser=True))
    for page in PAGES:
        listing = staff.get(f"/admin/clubs/{page}/")
        assert listing.status_code == 200, page
        assert invite.token not in listing.content.decode()
    assert staff.get(f"/admin/clubs/club/{club.club.pk}/change/").status_code == 200
    assert staff.get(f"/admin/clubs/clubtable/{game.pk}/change/").status_code == 200
    assert staff.get("/admin/clubs/club/add/").status_code == 403
    staff.post(f"/admin/clubs/club/{club.club.pk}/change/", {"name": "x"})
    assert Club.objects.get().name != "x"
