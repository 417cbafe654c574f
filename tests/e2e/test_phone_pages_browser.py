"""Every page outside a live table fits a phone and passes axe-core, in Russian,
English and Persian, at 390 and 360 px (:mod:`tests.e2e.audit`): what a visitor
sees, a player's own pages, the history with a finished, a bot-played and an
abandoned game, a profile with every record table, and a club with its season,
members, notices, match day and ratings."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from clubs import services as club_services
from games import engine, services
from games.models import Game
from games.state import load_state
from history.figures import games_url
from tests.clubs.conftest import join, league_table, open_season
from tests.clubs.conftest import make_club as club_with_members
from tests.e2e.audit import Audit, table_ready
from tests.factories import UserFactory
from tests.games.conftest import play_until

pytestmark = pytest.mark.browser

VISITOR_PAGES = [
    ("/", "home"),
    ("/games/", "lobby"),
    ("/games/rules/", "rules"),
    ("/accounts/login/", "login"),
    ("/accounts/signup/", "signup"),
    ("/accounts/password/reset/", "password reset"),
    ("/history/", "history"),
    ("/clubs/", "clubs"),
    ("/clubs/ratings/", "ratings"),
    ("/games/t/NOSUCH/", "not found"),
]


def test_a_visitors_pages(new_player: Callable[..., Page]) -> None:
    audit = Audit(new_player)
    for url, label in VISITOR_PAGES:
        audit.look(None, url, label)
    audit.assert_clean()


def _finish(game: Game, seed: int) -> Game:
    game = play_until(game, random.Random(seed), lambda _game: False)
    assert game.status == Game.Status.FINISHED
    return game


def test_a_players_pages_and_a_clubs(new_player: Callable[..., Page]) -> None:
    audit = Audit(new_player)
    setup = club_with_members(members=9, slug="friday")
    club = setup.club
    season = open_season(setup)
    owner = setup.owner
    owner.display_name = "Александра Константиновна"
    owner.save()
    players = [owner, *setup.members[:4]]
    # Season games, one of them played partly by the bot; an abandoned one.
    games = [_finish(league_table(setup, players, season=season), s) for s in (1, 2)]
    Game.objects.filter(pk=games[1].pk).update(bot_played=True)
    # Abandoned in the middle of a vote: some have voted, some not yet.
    abandoned = play_until(
        league_table(setup, players, season=season),
        random.Random(4),
        lambda game: engine.view(load_state(game), None)["phase"] == "vote",
    )
    services.game_act(
        game=abandoned,
        user=next(s.user for s in abandoned.seats.all() if s.position == 0),
        action={"type": "vote", "approve": True},
        turn=abandoned.turn,
    )
    abandoned.refresh_from_db()
    services.game_abandon(game=abandoned, user=owner)
    cells = services.game_create(host=owner, ruleset="cells", seat_count=3, options={})
    for user in setup.members[4:6]:
        services.seat_join(game=cells, user=user)
    _finish(services.game_start(game=cells, user=owner), 3)
    day = club_services.match_day_create(
        club=club,
        admin=setup.admin,
        season=season,
        ruleset="partisans",
        starts_at=timezone.now() + dt.timedelta(days=2),
        seats=5,
    )
    club_services.match_day_signup(day=day, user=owner)
    club_services.notice_post(
        club=club, admin=setup.admin, title="Пятница", body="Играем в пятницу!"
    )
    club_services.invite_create(club=club, admin=setup.admin)
    newcomer = UserFactory(display_name="Zoë (Z)")
    join(club, setup.admin, newcomer)

    pages = [
        ("/games/new/", "create a table"),
        ("/games/", "lobby, logged in"),
        ("/accounts/profile/", "profile edit"),
        ("/accounts/password/", "password change"),
        (owner.get_absolute_url(), "profile"),
        (games_url(owner.username), "history of a player"),
        ("/history/", "history"),
        (f"/history/g/{games[0].code}/", "review"),
        (f"/history/g/{games[1].code}/", "review, bot played"),
        (f"/history/g/{abandoned.code}/", "review, abandoned"),
        (f"/history/g/{cells.code}/", "review, cells"),
        (f"/clubs/{club.slug}/", "club"),
        (f"/clubs/{club.slug}/seasons/{season.pk}/", "season"),
        (f"/clubs/{club.slug}/members/", "members"),
        (f"/clubs/{club.slug}/notices/", "notices"),
        (f"/clubs/{club.slug}/tables/new/", "club table form"),
        (f"/clubs/{club.slug}/seasons/new/", "season form"),
        (f"/clubs/{club.slug}/days/new/", "match day form"),
        ("/clubs/new/", "club form"),
        ("/clubs/ratings/", "ratings"),
    ]
    pages.append((f"/clubs/{club.slug}/days/{day.pk}/", "match day"))
    admin_pages = {"members", "club table form", "season form", "match day form"}
    for url, label in pages:
        audit.look(setup.admin if label in admin_pages else owner, url, label)
    page = audit.look(
        players[1], abandoned.get_absolute_url(), "table, abandoned", ready=table_ready
    )
    # Who ended it is said, and nobody is still awaited.
    expect(page.locator("[data-banner] [data-ended-by]")).to_contain_text(
        owner.display_name
    )
    expect(page.locator(".board-seats .wait")).to_have_count(0)
    audit.assert_clean()
