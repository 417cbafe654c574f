"""League games ending at the same moment on PostgreSQL: the family's ledger row lock
rates them one at a time, each exactly once (a retried finish racing the real one
included), with no rating update lost between games that share players."""

from __future__ import annotations

import itertools
import random
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from clubs import rating, services
from clubs.models import PlayerRating, RatedGame, RatingChange, RatingLedger
from games import engine
from games import services as game_services
from games.models import Game
from games.state import load_state
from tests.clubs.conftest import league_table, make_club, open_season
from tests.conftest import uses_postgres
from tests.games.conftest import seated_users

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not uses_postgres(), reason="row locks need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def to_last_move(game: Game, rng: random.Random) -> tuple[User, dict[str, Any], int]:
    """Play random moves until the next one would end the game; that move."""
    for _ in range(1000):
        game.refresh_from_db()
        state = load_state(game)
        seat, action = engine.random_action(state, rng)
        user = seated_users(game)[seat]
        after, _events = engine.apply(state, seat, action)
        if engine.outcome(after) is not None:
            return user, action, game.turn
        game_services.game_act(game=game, user=user, action=action, turn=game.turn)
    raise AssertionError("the game did not come to its end")


def run_together(calls: list[Callable[[], object]]) -> list[BaseException]:
    start = threading.Barrier(len(calls))
    failures: list[BaseException] = []

    def run(call: Callable[[], object]) -> None:
        try:
            start.wait(timeout=10)
            call()
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return failures


def test_simultaneous_finishes_are_each_rated_exactly_once() -> None:
    club = make_club(members=8)
    season = open_season(club)
    everyone = club.everyone
    rng = random.Random(17)
    games, last_moves = [], []
    for index in range(4):
        players = [everyone[(index * 2 + i) % len(everyone)] for i in range(6)]
        game = league_table(club, players, season=season)
        games.append(game)
        last_moves.append(to_last_move(game, rng))
    calls: list[Callable[[], object]] = []
    for game, (user, action, turn) in zip(games, last_moves, strict=True):
        calls.append(
            lambda game=game, user=user, action=action, turn=turn: (
                game_services.game_act(game=game, user=user, action=action, turn=turn)
            )
        )
        # The same game's rating asked for again at the same moment (a retry).
        calls.append(lambda game=game: services.rating_game_rate(game=game))
    assert run_together(calls) == []

    assert {g.status for g in Game.objects.filter(pk__in=[g.pk for g in games])} == {
        Game.Status.FINISHED
    }
    rated = list(RatedGame.objects.order_by("number"))
    assert sorted(r.game_id for r in rated) == sorted(g.pk for g in games)
    assert [r.number for r in rated] == [1, 2, 3, 4]
    assert RatingLedger.objects.get(family="resistance").rated == 4
    played = Counter(
        user_id for g in games for user_id in g.seats.values_list("user_id", flat=True)
    )
    assert dict(PlayerRating.objects.values_list("user_id", "games")) == dict(played)
    # No update lost: each change starts where the player's previous one ended.
    for user_id in played:
        chain = list(RatingChange.objects.filter(user_id=user_id).order_by("number"))
        for previous, change in itertools.pairwise(chain):
            assert (change.mu_before, change.sigma_before) == (
                previous.mu,
                previous.sigma,
            )
    results = []
    for r in rated:
        seats = r.game.seats.all()
        results.append(
            rating.GameResult(
                r.game_id,
                r.game.ruleset,
                r.game.seat_count,
                tuple(rating.SeatResult(s.user_id, s.side, bool(s.won)) for s in seats),
            )
        )
    book, _ = rating.rate_all(results)
    for stored in PlayerRating.objects.all():
        skill = book.players[stored.user_id]
        assert (stored.mu, stored.sigma) == pytest.approx((skill.mu, skill.sigma))
