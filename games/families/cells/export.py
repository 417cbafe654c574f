"""The ``cells`` part of a finished game's JSON export (docs/export-format.md).

Everything the review shows: every cell as dealt and as it ended, every swap and look
with each swap's decision, every mission with the card turned up. One thing is left
out on purpose: the mission cards each leader and partner discarded, which stay
secret forever (RULES.md §2), so a ``discard`` action is exported without its card.

To replay an export, :func:`import_action` fills each missing discard back in with a
stand-in that turns up the recorded card: the leader keeps the recorded colour and
discards another card, the partner discards the card that is not turned up. Both
discards of a mission always make up the same two cards (the three drawn minus the
one turned up), so the discard pile, every later reshuffle and every later draw are
exactly the real game's; only which of the two was the leader's may differ, and
nothing may present the stand-ins as the real discards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.families.cells.engine import GameState, Phase
from games.families.cells.review import CellsRecord, game_record
from games.models import Game, Seat


def _as_export(record: CellsRecord) -> dict[str, Any]:
    return {
        "cells": [
            {"seat": c.seat, "dealt": c.dealt, "final": c.final} for c in record.cells
        ],
        "touches": [
            {
                "step": t.step,
                "kind": t.kind,
                "seat": t.seat,
                "slot": t.slot,
                "player": t.player,
                "theirs": t.theirs,
                "exchanged": t.exchanged,
            }
            for t in record.touches
        ],
        "missions": [
            {
                "number": m.number,
                "step": m.step,
                "leader": m.leader,
                "partner": m.partner,
                "card": m.card,
                "result": m.result,
            }
            for m in record.missions
        ],
    }


def export(game: Game, seats: Sequence[Seat]) -> dict[str, Any]:
    return _as_export(game_record(game))


def export_action(action: dict[str, Any]) -> dict[str, Any]:
    if action.get("type") == "discard":
        return {"type": "discard"}  # a discarded mission card is never shown
    return action


def import_action(
    state: GameState, seat: int, action: dict[str, Any], export: Mapping[str, Any]
) -> dict[str, Any]:
    """A ``discard`` gets a card that turns up the mission's recorded card."""
    if action.get("type") != "discard" or state.mission is None:
        return action
    if state.phase not in (Phase.LEADER, Phase.PARTNER):
        return action
    number = state.mission.number
    revealed = next(
        (m["card"] for m in export["missions"] if m["number"] == number), None
    )
    hand = list(state.hand)
    if revealed not in hand:
        return {**action, "card": hand[0]}  # the replay will not match: verify says so
    kept = list(hand)
    kept.remove(revealed)
    others = [card for card in kept if card != revealed]
    card = others[0] if others else revealed
    return {**action, "card": card}


TOUCH_KEYS = ("step", "kind", "seat", "slot", "player", "theirs", "exchanged")
MISSION_KEYS = ("number", "step", "leader", "partner", "card", "result")


def _rows(rows: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> list[list[Any]]:
    return [[row.get(key) for key in keys] for row in rows]


def verify(final: Mapping[str, Any], export: Mapping[str, Any]) -> list[str]:
    """Differences between the export's records and the replay's final public
    view: the same cells at the end, the same swaps, looks and decisions, the same
    missions and cards turned up."""
    problems = []
    final_cells = {cell["seat"]: cell["cards"] for cell in final["cells"]}
    stated_cells = {int(c["seat"]): c["final"] for c in export.get("cells", [])}
    if final_cells != stated_cells:
        problems.append("the cells at the end differ from the record")
    if _rows(final["touches"], TOUCH_KEYS) != _rows(
        export.get("touches", []), TOUCH_KEYS
    ):
        problems.append("the swaps and looks differ from the record")
    if _rows(final["missions"], MISSION_KEYS) != _rows(
        export.get("missions", []), MISSION_KEYS
    ):
        problems.append("the missions differ from the record")
    return problems
