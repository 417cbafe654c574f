"""The ``cells`` part of a finished game's JSON export (docs/export-format.md).

Everything the review shows: every cell as dealt and as it ended, every swap and look
with each swap's decision, every mission with the card turned up. One thing is left
out on purpose: the mission cards each leader and partner discarded, which stay
secret forever (RULES.md §2), so a ``discard`` action is exported without its card.

To replay an export, :func:`import_action` fills each missing discard back in with a
stand-in that turns up the recorded card: the leader keeps the recorded colour and
discards another card, the partner discards the card that is not turned up. Both
discards of a mission always make up the draw minus the card turned up; which was the
leader's is the rebuild's choice, and nothing may present the stand-ins as the real
discards.

The seed is left out too: the engine deals the mission deck from it, and every
reshuffle, so with it anyone could work out the three cards each leader drew and,
from the card turned up, the discards. The export's ``setup`` says what is public of
the deal instead (the first player; the character cards as dealt are in ``cells``),
and :func:`import_start` deals stand-ins: the recorded character cards and first
player, a mission deck whose draws turn up the recorded cards, and a stand-in seed,
found by trying, whose reshuffles do the same. Only the public record is the real
game's (with the counts of the deck and the discard pile, and the kinds of cards in
both together); what each draw held, the undrawn deck and the discards are inventions
of the rebuild.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games import engine
from games.families.cells.engine import SLOTS, CellsRuleset, GameState, Phase
from games.families.cells.engine.rules import (
    DRAW,
    MISSION_DECK,
    arranged,
    reshuffled,
)
from games.families.cells.review import CellsRecord, game_record
from games.kit import States

if TYPE_CHECKING:
    from games.kit import Game, Seat

STAND_IN_SEEDS = 10_000
"""How many stand-in seeds :func:`import_start` tries for the reshuffles (a fitting
one is usually among the first few)."""


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


def export(game: Game, seats: Sequence[Seat], states: States) -> dict[str, Any]:
    return _as_export(game_record(game, states))


def export_setup(setup: engine.GameSetup) -> dict[str, Any]:
    """The setup without its seed, with the first player (public from the deal on)."""
    state: GameState = engine.setup(setup)
    return {
        "ruleset": setup.ruleset,
        "players": setup.players,
        "options": dict(setup.options),
        "first": state.table.first,
    }


def _turns_up(deck: Sequence[str], seed: int, revealed: Sequence[str]) -> bool:
    """Whether, dealt ``deck`` and reshuffling with ``seed`` as the engine does, each
    mission's three cards hold the card recorded as turned up (the discards being
    the other two, whichever order they were made in)."""
    left, reshuffles = tuple(deck), 0
    discards: tuple[str, ...] = ()
    for card in revealed:
        if len(left) < DRAW:
            reshuffles += 1
            left, discards = reshuffled(seed, reshuffles, left + discards), ()
        hand = list(left[:DRAW])
        left = left[DRAW:]
        if card not in hand:
            return False
        hand.remove(card)
        discards += tuple(hand)
    return True


def stand_in_deck(revealed: Sequence[str]) -> tuple[tuple[str, ...], int]:
    """A mission deck and a seed for its reshuffles under which the missions turn
    up ``revealed``, in order; raises ``ValueError`` when there is none (a record
    no game could have made).

    The deck puts each recorded card on top of its mission's draw, the other cards
    after them in a fixed order; the seed is the first that makes every reshuffle's
    draws fit too. A reshuffle shuffles the sorted cards left and discarded, whose
    kinds follow from the cards turned up before it alone, so these stand-ins make
    the same counts and kinds of cards in the deck and the discard pile as the
    real game, and nothing of the real order.
    """
    dealt = len(MISSION_DECK) // DRAW  # missions drawn before any reshuffle
    rest = Counter(MISSION_DECK)
    rest.subtract(revealed)  # a card turned up never goes back into the deck
    if min(rest.values()) < 0 or len(rest) != len(set(MISSION_DECK)):
        raise ValueError("no deck of the game turns up the recorded cards")
    rest = Counter(MISSION_DECK)
    rest.subtract(revealed[:dealt])
    filler = sorted(rest.elements())
    deck: list[str] = []
    for card in revealed[:dealt]:
        deck += [card, filler.pop(), filler.pop()]
    deck += filler
    for seed in range(STAND_IN_SEEDS):
        if _turns_up(deck, seed, revealed):
            return tuple(deck), seed
    raise ValueError("no stand-in deal turns up the recorded cards")


def import_start(export: Mapping[str, Any]) -> GameState:
    """The deal an export's replay starts from: stand-ins consistent with its record
    (see the module doc). An export that still carries its seed (made before the
    seed was left out) is dealt from it."""
    stated = export["setup"]
    options = dict(stated["options"])
    if "seed" in stated:
        state: GameState = engine.setup(engine.GameSetup.from_dict(stated))
        return state
    game_setup = engine.GameSetup(str(stated["ruleset"]), stated["players"], options)
    dealt = {int(cell["seat"]): cell["dealt"] for cell in export["cells"]}
    cards = [dealt[seat][slot] for seat in range(game_setup.players) for slot in SLOTS]
    missions = sorted(export["missions"], key=lambda m: int(m["number"]))
    deck, seed = stand_in_deck([str(m["card"]) for m in missions])
    rules = engine.get_ruleset(game_setup.ruleset)
    if not isinstance(rules, CellsRuleset):
        raise ValueError("not a cells game")
    return arranged(
        rules,
        dataclasses.replace(game_setup, seed=seed),
        cards=cards,
        deck=deck,
        first=stated["first"],
    )


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
