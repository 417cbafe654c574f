"""A table outside every club is asked about once: its club's rules (who may see
it, what its end counts for) are looked up by a query only until a started game is
found in no club, since a club's table is made with its game and never later."""

from __future__ import annotations

from typing import Any

import pytest

from clubs import access
from clubs.services import ratings
from games import services as game_services
from tests.clubs.conftest import ClubSetup, league_table, open_season
from tests.factories import UserFactory
from tests.games.conftest import start_table

pytestmark = pytest.mark.django_db


def test_a_started_game_found_in_no_club_is_not_asked_about_again(
    django_assert_num_queries: Any,
) -> None:
    game = start_table("partisans", 5)
    visitor = UserFactory()
    assert not access.outside_clubs(game)
    assert access.table_rule(game, visitor) is None
    assert access.outside_clubs(game)
    with django_assert_num_queries(0):
        assert access.table_rule(game, visitor) is None
        ratings.game_finished(game)


def test_an_open_game_is_asked_about_until_it_starts() -> None:
    # An open game may still be inside the transaction that makes its club's row.
    host = UserFactory()
    game = game_services.game_create(
        host=host, ruleset="partisans", seat_count=5, options={}
    )
    assert access.table_rule(game, UserFactory()) is None
    assert not access.outside_clubs(game)


def test_a_clubs_table_is_never_taken_for_one_outside(club: ClubSetup) -> None:
    season = open_season(club)
    game = league_table(club, club.members[:5], season=season)
    outsider = UserFactory()
    for _ in range(2):
        assert access.table_rule(game, outsider) is not None
        assert not access.outside_clubs(game)
