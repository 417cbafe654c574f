"""Clubs for the tests, built through the services so every row is the one the site
writes: a club with an owner, an admin and members, a running season, and league
games played to the end by random legal moves."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

import pytest
from django.utils import timezone

from accounts.models import User
from clubs import services
from clubs.models import Club, Season
from games import services as game_services
from games.models import Game
from tests.factories import UserFactory
from tests.games.conftest import play_until


@dataclass
class ClubSetup:
    club: Club
    owner: User
    admin: User
    members: list[User] = field(default_factory=list)

    @property
    def everyone(self) -> list[User]:
        return [self.owner, self.admin, *self.members]


def make_club(*, private: bool = False, members: int = 8, slug: str = "") -> ClubSetup:
    owner = UserFactory()
    club = services.club_create(
        owner=owner,
        name="Подполье на Лиговском",
        slug=slug or f"club-{owner.pk}",
        description="Играем по пятницам.",
        is_private=private,
    )
    setup = ClubSetup(club=club, owner=owner, admin=UserFactory())
    join(club, owner, setup.admin)
    services.member_set_role(
        club=club, owner=owner, user_id=setup.admin.pk, role="admin"
    )
    for _ in range(members):
        user = UserFactory()
        join(club, owner, user)
        setup.members.append(user)
    return setup


def join(club: Club, admin: User, user: User) -> None:
    asked = services.join_request_create(club=club, user=user)
    services.join_request_approve(club=club, admin=admin, request_id=asked.pk)


def open_season(setup: ClubSetup, **points) -> Season:
    today = timezone.localdate()
    return services.season_create(
        club=setup.club,
        admin=setup.admin,
        name="Осень",
        family="resistance",
        starts_on=today - dt.timedelta(days=10),
        ends_on=today + dt.timedelta(days=60),
        points=points or None,
    )


def league_table(
    setup: ClubSetup,
    players: list[User],
    *,
    season: Season | None = None,
    ruleset: str = "partisans",
    members_only: bool = True,
) -> Game:
    """A started table of the club (in ``season``), ``players[0]`` its host."""
    game = services.club_table_create(
        club=setup.club,
        user=players[0],
        ruleset=ruleset,
        seat_count=len(players),
        season=season,
        members_only=members_only,
    )
    for user in players[1:]:
        game_services.seat_join(game=game, user=user)
    return game_services.game_start(game=game, user=players[0])


def play_to_end(game: Game, seed: int = 0) -> Game:
    game = play_until(game, random.Random(seed), lambda _game: False)
    assert game.status == Game.Status.FINISHED
    return game


def league_game(
    setup: ClubSetup, players: list[User], season: Season, seed: int = 0
) -> Game:
    return play_to_end(league_table(setup, players, season=season), seed)


@pytest.fixture
def club() -> ClubSetup:
    return make_club()


@pytest.fixture
def private_club() -> ClubSetup:
    return make_club(private=True)
