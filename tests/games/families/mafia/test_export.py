"""The Partisan (Mafia) export: every night's real choices and resolution, every
morning, inquiry, midday, vote, warning, kick and exit; a sleeper's tap without what
was tapped; and the rebuild from nothing but the file replays to the same game.

Random games without a database first (the engine's bots), then real ones through
the services and the history's download."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.families.mafia import export
from games.state import load_state
from history import export as history_export
from tests.games.families.mafia.test_history import finished_game

RULESET = "mafia_partisan"


def _played(seed: int, options: dict[str, Any] | None = None) -> tuple[Any, list[Any]]:
    rng = random.Random(seed)
    setup = engine.GameSetup(RULESET, 10, options or {}, seed)
    state = engine.setup(setup)
    log = []
    while engine.outcome(state) is None:
        seat, action = engine.random_action(state, rng)
        state, _ = engine.apply(state, seat, action)
        log.append((seat, action))
    return state, log


@pytest.mark.parametrize(
    "options", [{}, {"inquiry_reading": "counts", "ballot": "one", "slaughters": 0}]
)
def test_random_games_rebuild_from_what_the_export_holds(
    options: dict[str, Any],
) -> None:
    taps = 0
    for seed in range(12):
        final, log = _played(500 + seed, options)
        view = engine.view(final, None)
        data = export.records(view)
        actions = [export.export_action(dict(action)) for _, action in log]
        # A tap says nothing but that it was one.
        assert all(a == {"type": "tap"} for a in actions if a["type"] == "tap")
        taps += sum(a["type"] == "tap" for a in actions)
        # Every real choice is there, with what it did.
        picks = [p for n in view["ledger"]["nights"] for p in n["picks"]]
        assert [p for n in data["nights"] for p in n["picks"]] == picks
        assert data["votes"] == view["votes"] and data["exits"]
        state = engine.setup(final.table.setup)
        for (seat, _), action in zip(log, actions, strict=True):
            state, _ = engine.apply(
                state, seat, export.import_action(state, seat, action, data)
            )
        assert engine.view(state, None) == view
        assert export.verify(engine.view(state, None), data) == []
    assert taps


def test_a_stand_in_tap_fits_every_screen() -> None:
    final, log = _played(77)
    state = engine.setup(final.table.setup)
    forms = set()
    for seat, action in log:
        if action["type"] == "tap":
            spec = next(s for s in engine.legal_actions(state, seat))
            forms.add(spec["form"])
            stand_in = export.stand_in_tap(spec)
            assert stand_in.keys() == action.keys()
            engine.apply(state, seat, stand_in)  # accepted
        state, _ = engine.apply(state, seat, action)
    assert forms >= {"ok", "seat", "general"}


@pytest.mark.django_db
def test_the_download_carries_the_record_and_rebuilds_the_game() -> None:
    game = finished_game(21)
    response = Client().get(f"/history/g/{game.code}/export.json")
    assert response.status_code == 200
    data = json.loads(response.content)
    final = engine.view(load_state(game), None)
    assert data["setup"]["seed"] == game.seed
    for key in export.RECORDS:
        assert key in data
    assert data["nights"] == final["ledger"]["nights"]
    assert data["votes"] == final["votes"] and data["mornings"] == final["mornings"]
    assert data["discipline"] == final["discipline"]
    assert data["inquiries"] == final["inquiries"]
    assert data["code"]["radio_code"] == final["ledger"]["radio_code"]
    moderator = [a for a in data["actions"] if a["seat"] == engine.MODERATOR]
    assert moderator and all(a["action"]["type"] != "tap" for a in moderator)
    taps = [a["action"] for a in data["actions"] if a["action"]["type"] == "tap"]
    assert taps and all(tap == {"type": "tap"} for tap in taps)
    assert history_export.verify(data) == []
    state, outcome = history_export.rebuild(data)
    assert outcome is not None and outcome.winner == game.winner
    assert engine.view(state, None) == final
    # A file whose record says otherwise than its moves is caught.
    forged = copy.deepcopy(data)
    forged["votes"][0]["counts"] = dict.fromkeys(forged["votes"][0]["counts"], 0)
    forged["nights"][-1]["picks"] = forged["nights"][-1]["picks"][:-1]
    problems = history_export.verify(forged)
    assert "the votes differ from the record" in problems
    assert "the nights differ from the record" in problems
    # And a move the rules refuse does not rebuild.
    broken = copy.deepcopy(data)
    choose = next(a for a in broken["actions"] if a["action"]["type"] == "choose")
    choose["action"] = {"type": "tap"}
    with pytest.raises(history_export.ExportError):
        history_export.rebuild(broken)
