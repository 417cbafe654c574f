"""The club pages as a player uses them (forms, buttons, messages), and their cost:
the standings, the leaderboard and the club page run the same number of queries
whatever the number of games behind them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from clubs import services
from clubs.models import Club, ClubTable, Invite, MatchDay, Membership, Season
from games.models import Game
from tests.clubs.conftest import ClubSetup, league_game, open_season
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_creating_a_club_through_the_form() -> None:
    founder = client_for(UserFactory())
    assert client_for(None).get("/clubs/new/").status_code == 302  # log in first
    bad = founder.post(
        "/clubs/new/", {"name": "Клуб", "slug": "ratings", "description": ""}
    )
    assert bad.status_code == 200 and not Club.objects.exists()
    response = founder.post(
        "/clubs/new/",
        {"name": "Клуб", "slug": "klub", "description": "Мы", "is_private": "on"},
    )
    assert response.status_code == 302 and response["Location"] == "/clubs/klub/"
    club = Club.objects.get()
    assert club.is_private and club.members.get().role == "owner"
    page = founder.get("/clubs/").content.decode()
    assert "/clubs/klub/" in page


def test_asking_to_join_and_being_let_in(club: ClubSetup) -> None:
    newcomer = UserFactory()
    visitor = client_for(newcomer)
    slug = club.club.slug
    assert (
        f'action="/clubs/{slug}/join/"'
        in visitor.get(f"/clubs/{slug}/").content.decode()
    )
    asked = visitor.post(f"/clubs/{slug}/join/", follow=True)
    again = visitor.post(f"/clubs/{slug}/join/", follow=True)
    assert messages_of(asked) != messages_of(again)
    assert len(messages_of(again)) == 1  # "you have already asked"
    assert club.club.join_requests.count() == 1
    admin = client_for(club.admin)
    members_page = admin.get(f"/clubs/{slug}/members/").content.decode()
    assert f'data-request="{newcomer.username}"' in members_page
    asked = club.club.join_requests.get()
    client_for(club.members[0]).post(
        f"/clubs/{slug}/members/approve/", {"request": asked.pk}
    )
    assert not Membership.objects.filter(user=newcomer).exists()
    admin.post(f"/clubs/{slug}/members/approve/", {"request": asked.pk})
    assert Membership.objects.filter(user=newcomer, club=club.club).exists()


def test_invite_links_from_the_members_page(club: ClubSetup) -> None:
    admin = client_for(club.admin)
    slug = club.club.slug
    admin.post(f"/clubs/{slug}/invites/", {"days": "2"})
    invite = Invite.objects.get()
    link = invite.get_absolute_url()
    assert link in admin.get(f"/clubs/{slug}/members/").content.decode()
    anonymous = client_for(None).get(link).content.decode()
    assert "/accounts/login/?next=" in anonymous
    guest = UserFactory()
    response = client_for(guest).post(link)
    assert response.status_code == 302
    assert Membership.objects.filter(user=guest, club=club.club).exists()
    admin.post(f"/clubs/{slug}/invites/revoke/", {"invite": invite.pk})
    late = UserFactory()
    assert client_for(late).get(link).status_code == 410
    assert client_for(late).post(link).status_code == 410
    assert not Membership.objects.filter(user=late).exists()


def test_opening_a_season_table_and_a_match_day(club: ClubSetup) -> None:
    admin = client_for(club.admin)
    slug = club.club.slug
    today = timezone.localdate()
    bad = admin.post(
        f"/clubs/{slug}/seasons/new/",
        {
            "name": "Весна",
            "family": "resistance",
            "starts_on": today.isoformat(),
            "ends_on": (today - dt.timedelta(days=1)).isoformat(),
        },
    )
    assert bad.status_code == 200 and not Season.objects.exists()
    assert bad.context["form"].non_field_errors()
    response = admin.post(
        f"/clubs/{slug}/seasons/new/",
        {
            "name": "Весна",
            "family": "resistance",
            "starts_on": today.isoformat(),
            "ends_on": (today + dt.timedelta(days=30)).isoformat(),
            "pts_resistance_evil_win": "2",
        },
    )
    season = Season.objects.get()
    assert response["Location"] == season.get_absolute_url()
    assert season.points["evil"] == {"win": 2, "loss": 0}
    member = client_for(club.members[0])
    form = member.get(f"/clubs/{slug}/tables/new/?season={season.pk}")
    assert "open_to_all" not in form.content.decode()
    response = member.post(
        f"/clubs/{slug}/tables/new/",
        {"season": season.pk, "ruleset": "werewolves", "seat_count": "6"},
    )
    game = Game.objects.get()
    assert response["Location"] == f"/games/t/{game.code}/"
    table = ClubTable.objects.get(game=game)
    assert (table.season, table.is_members_only) == (season, True)
    starts = timezone.localtime() + dt.timedelta(hours=3)
    admin.post(
        f"/clubs/{slug}/days/new/",
        {
            "season": season.pk,
            "ruleset": "partisans",
            "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
            "seats": "12",
        },
    )
    day = MatchDay.objects.get()
    assert day.seats == 12
    for user in club.everyone[:5]:
        client_for(user).post(f"/clubs/{slug}/days/{day.pk}/signup/")
    assert day.signups.count() == 5
    client_for(club.members[0]).post(f"/clubs/{slug}/days/{day.pk}/seat/")
    assert Game.objects.count() == 1  # a member cannot seat
    admin.post(f"/clubs/{slug}/days/{day.pk}/seat/")
    day.refresh_from_db()
    assert day.status == "seated" and Game.objects.count() == 2
    page = member.get(f"/clubs/{slug}/days/{day.pk}/").content.decode()
    seated = Game.objects.exclude(pk=game.pk).get()
    assert f"/games/t/{seated.code}/" in page


def test_leaving_and_removing_from_the_pages(club: ClubSetup) -> None:
    slug = club.club.slug
    leaver, removed = club.members[0], club.members[1]
    client_for(leaver).post(f"/clubs/{slug}/leave/")
    client_for(club.members[2]).post(
        f"/clubs/{slug}/members/remove/", {"user": removed.pk}
    )
    assert Membership.objects.filter(user=removed).exists()
    client_for(club.admin).post(f"/clubs/{slug}/members/remove/", {"user": removed.pk})
    assert not Membership.objects.filter(user__in=[leaver, removed]).exists()
    owner = client_for(club.owner)
    stayed = owner.post(f"/clubs/{slug}/leave/", follow=True)
    assert messages_of(stayed) and Membership.objects.filter(user=club.owner).exists()


def _queries(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_page_queries_do_not_grow_with_the_games(club: ClubSetup) -> None:
    season = open_season(club)
    slug = club.club.slug
    viewer = client_for(club.members[0])
    paths = [
        f"/clubs/{slug}/seasons/{season.pk}/",
        "/clubs/ratings/resistance/",
        f"/clubs/{slug}/",
    ]
    everyone = club.everyone
    league_game(club, everyone[:5], season, seed=1)
    services.notice_post(club=club.club, admin=club.admin, title="t", body="b")
    few = [_queries(viewer, path) for path in paths]
    for seed in range(2, 7):
        players = [everyone[(seed * 3 + i) % len(everyone)] for i in range(5)]
        league_game(club, players, season, seed=seed)
    services.notice_post(club=club.club, admin=club.admin, title="t2", body="b2")
    many = [_queries(viewer, path) for path in paths]
    assert many == few
