"""Random legal games of «پارتیزان» to the end, with the table's options drawn too.

Hypothesis picks the options (every house decision), the deal's seed and the random
players' seed; the random table includes the moderator, who moves the day on, warns,
kicks and starts timers.  Two tests: every invariant after every step, for every
seat, the moderator and a spectator, on a few games (the expensive one); and the
rules' invariants, replay and the final views on more games.  Set
``ENGINE_EXAMPLES`` to multiply the number of games for a longer soak.
"""

from __future__ import annotations

import json
import os
from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Event,
    GameSetup,
    apply,
    outcome,
    random_action,
    replay,
    setup,
    view,
    waiting_for,
)
from games.engine.oracle import find_leaks
from games.families.mafia.engine import OPTIONS, Phase
from tests.games.families.mafia.engine.invariants import (
    VIEWERS,
    check_indistinguishable,
    check_legal,
    check_other_choice,
    check_replay,
    check_rules,
    check_views,
    matches_some,
)

SCALE = max(1, int(os.environ.get("ENGINE_EXAMPLES", "1")))
settings.register_profile(
    "mafia-every-step",
    max_examples=6 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "mafia-many-games",
    settings.get_profile("mafia-every-step"),
    max_examples=40 * SCALE,
)
EVERY_STEP = settings.get_profile("mafia-every-step")
MANY_GAMES = settings.get_profile("mafia-many-games")

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
MAX_ACTIONS = 3000


def _option_values(spec: Any) -> st.SearchStrategy[Any]:
    if spec.choices:
        return st.sampled_from([value for value, _label in spec.choices])
    if isinstance(spec.default, bool):
        return st.booleans()
    return st.integers(min_value=spec.minimum, max_value=spec.maximum)


TABLE_OPTIONS = st.fixed_dictionaries(
    {}, optional={spec.name: _option_values(spec) for spec in OPTIONS}
)


@EVERY_STEP
@given(options=TABLE_OPTIONS, deal=SEEDS, moves=SEEDS)
def test_every_step_of_random_games(
    options: dict[str, Any], deal: int, moves: int
) -> None:
    """Rules, legal moves (each spec of each awaited seat yields an accepted move),
    replay, JSON views, no leak in views and events for every viewer, another choice
    unseen by those who may not know it, swapped deals unseen."""
    game = GameSetup("mafia_partisan", 10, options, deal)
    state = setup(game)
    rng = Random(moves)
    log: list[tuple[int, dict[str, Any]]] = []
    events: list[Event] = []
    compared = 0
    while True:
        check_rules(state)
        check_legal(state, rng)
        check_views(state, events)
        if len(log) % 40 == 0 or state.phase is Phase.DAWN:
            check_replay(game, log, state)
            compared += check_indistinguishable(game, log, state, rng)
        if outcome(state) is not None:
            break
        seat, action = random_action(state, rng)
        assert seat in waiting_for(state)
        assert matches_some(state, seat, action), (seat, action)
        check_other_choice(state, seat, action, rng)
        state, events = apply(state, seat, action)
        log.append((seat, action))
        assert len(log) < MAX_ACTIONS
    check_views(state, events)
    assert state.step == len(log)


@MANY_GAMES
@given(options=TABLE_OPTIONS, deal=SEEDS, moves=SEEDS)
def test_random_games_end_by_the_rules(
    options: dict[str, Any], deal: int, moves: int
) -> None:
    """More games, the rules' invariants at every step; replay (of the log as JSON)
    and the final views (as JSON text too) at the end."""
    game = GameSetup("mafia_partisan", 10, options, deal)
    state = setup(game)
    rng = Random(moves)
    log: list[tuple[int, dict[str, Any]]] = []
    while outcome(state) is None:
        check_rules(state)
        seat, action = random_action(state, rng)
        state, _ = apply(state, seat, action)
        log.append((seat, action))
        assert len(log) < MAX_ACTIONS
    check_rules(state)
    assert replay(game, json.loads(json.dumps(log))) == state
    for seat in VIEWERS:
        assert find_leaks(state, seat, json.dumps(view(state, seat))) == []
