"""The cells export's stand-in deal, over many random games without a database: from
nothing but what an export holds (the public deal, the moves without their discards,
the cards turned up), the rebuild replays every game to the same public record, and
what it deals for the mission deck depends on that record alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import engine
from games.families.cells import export
from games.families.cells.engine import GameState
from games.families.cells.engine.bots import random_action
from games.families.cells.review import record_from_views


def _played(players: int, seed: int) -> tuple[GameState, GameState, list[Any]]:
    rng = random.Random(seed)
    dealt: GameState = engine.setup(engine.GameSetup("cells", players, {}, seed))
    state, log = dealt, []
    while state.outcome is None:
        seat, action = random_action(state, rng)
        state, _ = engine.apply(state, seat, action)
        log.append((seat, action))
    return dealt, state, log


def _export(dealt: GameState, final: GameState, log: list[Any]) -> dict[str, Any]:
    """What a cells export holds that the rebuild reads."""
    record = record_from_views(
        engine.view(dealt, None, after=final), engine.view(final, None)
    )
    return {
        "setup": export.export_setup(dealt.table.setup),
        "cells": [{"seat": c.seat, "dealt": c.dealt} for c in record.cells],
        "missions": [{"number": m.number, "card": m.card} for m in record.missions],
        "actions": [export.export_action(dict(action)) for _, action in log],
    }


def _rebuilt(data: dict[str, Any], log: list[Any]) -> GameState:
    state = export.import_start(data)
    for (seat, _), action in zip(log, data["actions"], strict=True):
        state, _ = engine.apply(
            state, seat, export.import_action(state, seat, action, data)
        )
    return state


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_rebuild_from_what_the_export_holds(players: int) -> None:
    reshuffled = 0
    for seed in range(60):
        dealt, final, log = _played(players, 1000 * players + seed)
        data = _export(dealt, final, log)
        assert "seed" not in data["setup"]
        rebuilt = _rebuilt(data, log)
        assert engine.view(rebuilt, None) == engine.view(final, None)
        assert rebuilt.outcome == final.outcome
        reshuffled += final.reshuffles
        # The stand-in deck follows from the cards turned up alone.
        revealed = [m["card"] for m in data["missions"]]
        assert rebuilt.table.setup.seed == export.stand_in_deck(revealed)[1]
    assert reshuffled  # the reshuffles' stand-ins were exercised


def test_a_record_no_deck_could_make_is_refused() -> None:
    with pytest.raises(ValueError):
        export.stand_in_deck(["blue"] * 6)
    with pytest.raises(ValueError):
        export.stand_in_deck(["green"])
    deck, _seed = export.stand_in_deck(["red", "red", "blue", "red", "red"])
    assert sorted(deck) == ["blue"] * 5 + ["red"] * 5
