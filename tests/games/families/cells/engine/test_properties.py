"""Random legal games of ``cells`` for three and four players, played to the end.

Hypothesis picks the deal's seed and the random players' seed.  Three tests: every
invariant after every step, for every seat and the spectator, with the replay
perspectives checked at the end (the expensive one); the game's own invariants on
more games; and games where every seat is the sensible bot, which sees only its view.
Set ``ENGINE_EXAMPLES`` to multiply the number of games for a longer soak.
"""

from __future__ import annotations

import json
import os
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Event,
    GameSetup,
    apply,
    bot_action,
    legal_actions,
    outcome,
    random_action,
    replay,
    setup,
    view,
)
from games.engine.oracle import find_leaks
from games.families.cells.engine import GameState
from tests.games.families.cells.engine.invariants import (
    check_legal,
    check_perspectives,
    check_replay,
    check_rules,
    check_views,
)

SCALE = max(1, int(os.environ.get("ENGINE_EXAMPLES", "1")))
# Named profiles of this family, applied per test rather than loaded globally, so the
# rest of the suite keeps its own Hypothesis settings.
settings.register_profile(
    "cells-every-step",
    max_examples=15 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "cells-many-games",
    settings.get_profile("cells-every-step"),
    max_examples=60 * SCALE,
)
EVERY_STEP = settings.get_profile("cells-every-step")
MANY_GAMES = settings.get_profile("cells-many-games")

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PLAYERS = pytest.mark.parametrize("players", [3, 4])
LONGEST = 300
"""No game comes near: each turn is a mission with even odds at least, and the fifth
mission at the latest decides."""


def _matches(action: dict[str, Any], spec: dict[str, Any]) -> bool:
    """Whether ``action`` is a move that ``spec`` (from legal_actions) allows."""
    kind = action["type"]
    if kind != spec["type"]:
        return False
    if kind == "confirm":
        return action == {"type": "confirm"}
    if kind == "swap":
        return (
            action["mine"] in spec["mine"]
            and action["player"] in spec["among"]
            and action["theirs"] in spec["theirs"]
        )
    field, choices = {
        "mission": ("partner", "among"),
        "peek": ("slot", "slots"),
        "exchange": ("exchange", "choices"),
        "discard": ("card", "cards"),
    }[kind]
    return action[field] in spec[choices]


@PLAYERS
@EVERY_STEP
@given(deal=SEEDS, moves=SEEDS)
def test_every_step_of_random_games(players: int, deal: int, moves: int) -> None:
    """Rules, legal moves, replay, JSON views, no leak (views and events) and
    indistinguishability after every step; the replay perspectives at the end."""
    game = GameSetup("cells", players, {}, deal)
    state = setup(game)
    rng = Random(moves)
    log: list[tuple[int, dict[str, Any]]] = []
    events: list[Event] = []
    states = [state]
    while True:
        check_rules(state)
        check_legal(state)
        check_views(state, events, rng)
        check_replay(game, log, state)
        if outcome(state) is not None:
            break
        seat, action = random_action(state, rng)
        assert any(_matches(action, spec) for spec in legal_actions(state, seat))
        state, events = apply(state, seat, action)
        log.append((seat, action))
        states.append(state)
        assert len(log) < LONGEST
    assert state.step == len(log)
    check_perspectives(states)


@PLAYERS
@MANY_GAMES
@given(deal=SEEDS, moves=SEEDS)
def test_random_games_end_by_the_rules(players: int, deal: int, moves: int) -> None:
    """More games, the rules' invariants at every step; replay from JSON and the
    final views (as JSON text too) checked at the end."""
    game = GameSetup("cells", players, {}, deal)
    state = setup(game)
    rng = Random(moves)
    log: list[tuple[int, dict[str, Any]]] = []
    while outcome(state) is None:
        check_rules(state)
        seat, action = random_action(state, rng)
        state, _ = apply(state, seat, action)
        log.append((seat, action))
        assert len(log) < LONGEST
    check_rules(state)
    assert replay(game, json.loads(json.dumps(log))) == state
    for seat in [None, *range(players)]:
        assert find_leaks(state, seat, json.dumps(view(state, seat))) == []


@PLAYERS
@MANY_GAMES
@given(deal=SEEDS, moves=SEEDS)
def test_bots_play_legal_games_from_their_views(
    players: int, deal: int, moves: int
) -> None:
    """Every seat a bot that sees only its own view: every move it makes is legal
    and the game ends."""
    state: GameState = setup(GameSetup("cells", players, {}, deal))
    rng = Random(moves)
    steps = 0
    while outcome(state) is None:
        seat = min(s for s in range(players) if legal_actions(state, s))
        action = bot_action(view(state, seat), rng)
        assert any(_matches(action, spec) for spec in legal_actions(state, seat))
        state, _ = apply(state, seat, action)
        steps += 1
        assert steps < LONGEST
    check_rules(state)
