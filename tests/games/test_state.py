"""``games.state.load_state``: a process that holds a table's state a few versions
back reads only the actions since and applies them; the state it gets is the one a
replay of the whole game gives, move after move, in every family."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import engine, services, state
from games.models import Game
from tests.games import conftest as resistance
from tests.games.families.mafia import support as mafia

pytestmark = pytest.mark.django_db


def _users(game: Game) -> dict[int, User]:
    if game.ruleset == "mafia_partisan":
        return mafia.users_by_seat(game)
    return resistance.seated_users(game)


def _replayed(game: Game) -> Any:
    return engine.replay(
        state.game_setup(game), state.action_log(game, upto=game.version)
    )


def _seen(game: Game, found: Any) -> list[Any]:
    """Everything any viewer of ``found`` may see, and what is still to come."""
    viewers: list[int | None] = [None, *sorted(_users(game))]
    return [
        [engine.view(found, viewer) for viewer in viewers],
        engine.turn(found),
        engine.outcome(found),
        sorted(engine.waiting_for(found)),
        engine.legal_actions(found, None),
    ]


@pytest.mark.parametrize(
    ("start", "seed"),
    [
        (
            lambda: resistance.start_table(
                "partisans", 7, {"scout": True, "check": True}
            ),
            1,
        ),
        (lambda: resistance.start_table("trust_no_one", 6), 2),
        (lambda: resistance.start_table("werewolves", 8), 3),
        (lambda: resistance.start_table("cells", 4), 4),
        (lambda: mafia.start_table()[0], 5),
    ],
    ids=["partisans", "trust_no_one", "werewolves", "cells", "mafia"],
)
def test_the_state_one_version_on_is_the_replays_all_game_long(
    start: Callable[[], Game], seed: int
) -> None:
    """The state this "process" carries from move to move is only ever its own
    (the one it worked out a version before), so a difference would grow."""
    game = start()
    rng = random.Random(seed)
    carried = _replayed(game)
    moves = 0
    # A random Mafia game of ten takes ~320 moves, at times over 500.
    while game.status == Game.Status.PLAYING and moves < 1500:
        seat, action = engine.random_action(carried, rng)
        services.game_act(
            game=game, user=_users(game)[seat], action=action, turn=game.turn
        )
        game.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            carried = state.load_state(game, known=(game.version - 1, carried))
        # One read, of the new action alone.
        assert len(queries.captured_queries) == 1
        assert '"number" >' in queries.captured_queries[0]["sql"]
        assert _seen(game, carried) == _seen(game, _replayed(game))
        moves += 1
    assert game.status == Game.Status.FINISHED
    assert moves > 10


def test_a_state_several_versions_back_is_brought_up_to_date() -> None:
    game = resistance.start_table("partisans", 5)
    rng = random.Random(7)
    for _ in range(3):
        resistance.play_one(game, rng)
    old = engine.replay(state.game_setup(game), state.action_log(game, upto=1))
    for _ in range(4):
        resistance.play_one(game, rng)
    game.refresh_from_db()
    found = state.load_state(game, known=(1, old))
    assert _seen(game, found) == _seen(game, _replayed(game))


def test_a_process_holding_nothing_recent_replays_the_game() -> None:
    game = resistance.start_table("partisans", 5)
    rng = random.Random(8)
    for _ in range(state.LOOK_BACK + 3):
        resistance.play_one(game, rng)
    game.refresh_from_db()
    too_old = engine.replay(state.game_setup(game), state.action_log(game, upto=1))
    with CaptureQueriesContext(connection) as queries:
        found = state.load_state(game, known=(1, too_old))
    assert len(queries.captured_queries) == 1
    assert '"number" >' not in queries.captured_queries[0]["sql"]
    assert _seen(game, found) == _seen(game, _replayed(game))
