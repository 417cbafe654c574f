"""Random legal games of every ruleset, player count and preset combination.

The 42 combinations (``COMBOS`` x 5..10 players) are parametrised, so each is covered
on every run; Hypothesis picks the deal's seed and the random players' seed.  Two
tests: every invariant after every step, for every seat and the spectator, on a few
games per combination (the expensive one); and the game's own invariants on more games.
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
    legal_actions,
    outcome,
    random_action,
    replay,
    setup,
    view,
)
from games.engine.oracle import find_leaks
from tests.games.families.resistance.engine.invariants import (
    check_legal,
    check_replay,
    check_rules,
    check_views,
)
from tests.games.families.resistance.engine.support import COMBOS, allowed

SCALE = max(1, int(os.environ.get("ENGINE_EXAMPLES", "1")))
# Named profiles, applied per test rather than loaded globally, so the rest of the
# suite keeps its own Hypothesis settings.  About 30 s for the whole engine suite on
# two cores; ENGINE_EXAMPLES=10 makes a soak of a few minutes.
settings.register_profile(
    "engine-every-step",
    max_examples=3 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "engine-many-games",
    settings.get_profile("engine-every-step"),
    max_examples=8 * SCALE,
)
EVERY_STEP = settings.get_profile("engine-every-step")
MANY_GAMES = settings.get_profile("engine-many-games")

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
ALL_TABLES = pytest.mark.parametrize(
    ("code", "options", "players"),
    [(code, options, players) for code, options in COMBOS for players in range(5, 11)],
    ids=lambda value: str(value),
)


@ALL_TABLES
@EVERY_STEP
@given(deal=SEEDS, moves=SEEDS)
def test_every_step_of_random_games(
    code: str, options: dict[str, bool], players: int, deal: int, moves: int
) -> None:
    """Rules, legal moves, replay, JSON views, no leak (views and events) and
    indistinguishability, after every step."""
    game = GameSetup(code, players, options, deal)
    state = setup(game)
    rng = Random(moves)
    log: list[tuple[int, dict[str, Any]]] = []
    events: list[Event] = []
    while True:
        check_rules(state)
        check_legal(state)
        check_views(state, events, rng)
        check_replay(game, log, state)
        if outcome(state) is not None:
            break
        seat, action = random_action(state, rng)
        assert any(allowed(action, spec) for spec in legal_actions(state, seat))
        state, events = apply(state, seat, action)
        log.append((seat, action))
        assert len(log) < 400
    assert state.step == len(log)


@ALL_TABLES
@MANY_GAMES
@given(deal=SEEDS, moves=SEEDS)
def test_random_games_end_by_the_rules(
    code: str, options: dict[str, bool], players: int, deal: int, moves: int
) -> None:
    """More games, the rules' invariants at every step; replay and the final views
    (as JSON text too) checked at the end."""
    game = GameSetup(code, players, options, deal)
    state = setup(game)
    rng = Random(moves)
    log: list[tuple[int, dict[str, Any]]] = []
    while outcome(state) is None:
        check_rules(state)
        seat, action = random_action(state, rng)
        state, _ = apply(state, seat, action)
        log.append((seat, action))
        assert len(log) < 400
    check_rules(state)
    assert replay(game, json.loads(json.dumps(log))) == state
    for seat in [None, *range(players)]:
        assert find_leaks(state, seat, json.dumps(view(state, seat))) == []
