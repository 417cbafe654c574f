"""A table outside every club: the clubs have no say on it (anyone may watch and
sit), and its end counts for no season. Nothing about it is remembered: each answer
reads the club tables afresh (a module-level cache of it bought nothing measurable,
and a table's club row never changes after the start, so there is nothing to keep
in step)."""

from __future__ import annotations

import pytest

from clubs import access
from clubs.models import RatedGame, SeasonTally
from clubs.services import ratings
from games import services as game_services
from tests.clubs.conftest import ClubSetup, league_table, open_season
from tests.factories import UserFactory
from tests.games.conftest import start_table

pytestmark = pytest.mark.django_db


def test_a_game_outside_every_club_has_no_club_rule_and_counts_for_no_season() -> None:
    game = start_table("partisans", 5)
    visitor = UserFactory()
    for _ in range(2):
        assert access.table_rule(game, visitor) is None
    ratings.game_finished(game)
    assert not SeasonTally.objects.exists()
    assert not RatedGame.objects.filter(game=game).exists()


def test_an_open_game_outside_every_club_has_no_club_rule() -> None:
    host = UserFactory()
    game = game_services.game_create(
        host=host, ruleset="partisans", seat_count=5, options={}
    )
    assert access.table_rule(game, UserFactory()) is None


def test_a_clubs_table_keeps_its_clubs_rule_every_time_it_is_asked(
    club: ClubSetup,
) -> None:
    season = open_season(club)
    game = league_table(club, club.members[:5], season=season)
    outsider = UserFactory()
    for _ in range(2):
        assert access.table_rule(game, outsider) is not None
