"""``view(state, seat)``: the only door through which a game's state leaves the engine.

Everything a page, a socket push or the API shows comes from here, already cut to what
the seat may see *now* (docs/rules.md §2).  In ``cells`` that is stricter than what a
seat knows: a player must remember their cards, so a card of theirs is shown only at the
first look (until they confirm), during their own swap (until they decide) and on a
peek (until the next move); the view never reminds them, and never states their side
while the game runs.  The result is plain JSON data; the schema is in the README.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import NotSeated
from games.families.cells.engine.rules import (
    legal_actions,
    roles_now,
    touched_slots,
    waiting_for,
)
from games.families.cells.engine.state import (
    BLUE,
    PEEK,
    SLOTS,
    SWAP,
    GameState,
    Phase,
    Touch,
)

__all__ = ["view"]


def _layout(cards: tuple[str, ...], seat: int) -> dict[str, str]:
    base = 3 * seat
    return {"left": cards[base], "centre": cards[base + 1], "right": cards[base + 2]}


def _cells(state: GameState, over: bool) -> list[dict[str, Any]]:
    """Every seat's cell: its touched marks (public); its cards after the game."""
    return [
        {
            "seat": seat,
            "cards": _layout(state.cards, seat) if over else None,
            "touched": [SLOTS[slot] for slot in touched_slots(state, seat)],
        }
        for seat in range(state.table.players)
    ]


def _touch(touch: Touch, over: bool) -> dict[str, Any]:
    swap = touch.kind == SWAP
    return {
        "step": touch.step,
        "kind": touch.kind,
        "seat": touch.seat,
        "slot": SLOTS[touch.slot],
        "player": touch.other,
        "theirs": SLOTS[touch.other_slot] if touch.other_slot is not None else None,
        "exchanged": touch.exchanged if over and swap else None,
    }


def _mission(state: GameState) -> dict[str, Any] | None:
    mission = state.mission
    if mission is None:
        return None
    return {
        "number": mission.number,
        "step": mission.step,
        "leader": mission.leader,
        "partner": mission.partner,
        "stage": state.phase.value,
    }


def _missions(state: GameState) -> list[dict[str, Any]]:
    """Every finished mission: who went with whom and the revealed card."""
    return [
        {
            "number": record.number,
            "step": record.step,
            "leader": record.leader,
            "partner": record.partner,
            "card": record.card,
            "result": "success" if record.card == BLUE else "fail",
        }
        for record in state.missions
    ]


def _swap_seen(state: GameState, seat: int) -> dict[str, Any] | None:
    """The two cards of the viewer's own swap, while they decide."""
    if state.phase is not Phase.EXCHANGE or state.current != seat:
        return None
    touch = state.touches[-1]
    assert touch.other is not None and touch.other_slot is not None
    cards = state.cards
    return {
        "kind": SWAP,
        "step": touch.step,
        "mine": {
            "seat": seat,
            "slot": SLOTS[touch.slot],
            "card": cards[3 * seat + touch.slot],
        },
        "theirs": {
            "seat": touch.other,
            "slot": SLOTS[touch.other_slot],
            "card": cards[3 * touch.other + touch.other_slot],
        },
    }


def _peek_seen(state: GameState, seat: int) -> dict[str, Any] | None:
    """The card the viewer has just peeked at, until the next move is made."""
    if not state.touches:
        return None
    touch = state.touches[-1]
    if touch.kind != PEEK or touch.seat != seat or touch.step != state.step:
        return None
    return {
        "kind": PEEK,
        "step": touch.step,
        "seat": seat,
        "slot": SLOTS[touch.slot],
        "card": state.cards[3 * seat + touch.slot],
    }


def _hand(state: GameState, seat: int) -> list[str] | None:
    """The mission cards the viewer holds while deciding (sorted: the order they
    were drawn in is the deck's and says nothing)."""
    mission = state.mission
    if mission is None:
        return None
    holder = mission.leader if state.phase is Phase.LEADER else mission.partner
    return sorted(state.hand) if holder == seat else None


def _me(state: GameState, seat: int, over: bool) -> dict[str, Any]:
    looking = state.phase is Phase.LOOK and not state.confirmed[seat]
    role: str | None = None
    side: str | None = None
    if looking or over:
        # The three cards are in front of the player: so is their majority.
        role, side = roles_now(state)[seat]
    return {
        "seat": seat,
        "side": side,
        "role": role,
        "confirmed": state.confirmed[seat],
        "cards": _layout(state.cards, seat) if looking else None,
        "touched": [SLOTS[slot] for slot in touched_slots(state, seat)],
        "swap": _swap_seen(state, seat),
        "peek": _peek_seen(state, seat),
        "hand": _hand(state, seat),
        "channels": ["table"] if state.table.chat else [],
    }


def view(
    state: GameState,
    seat: int | None,
    *,
    after: GameState | None = None,
    own: bool = True,
) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) sees of ``state``; see the module doc.

    For a replay of a finished game ``after`` is its final state.  Seen by everyone
    (``seat=None``), every character card is turned up as it lay at this step, each
    decided swap says whether it exchanged, and the final roles are shown (the
    review); mission hands, discards and the deck stay hidden.  Seen as one player,
    the step is exactly what that player saw then.  ``own=False`` (the person
    watching is not that player) leaves out the mission cards the player held, and
    the colours they could discard (the hand's colours, under another name): with
    the revealed card either would give the discards away.  The discard stays
    among the moves, with no card, so the step has the same shape whatever the hand.
    """
    shown = _view(state, seat)
    if after is not None and seat is None:
        _reveal(shown, state, after)
    if not own and shown["me"]:
        shown["me"] = {**shown["me"], "hand": None}
        shown["legal"] = [
            {**move, "cards": []} if move["type"] == "discard" else move
            for move in shown["legal"]
        ]
    return shown


def _reveal(shown: dict[str, Any], state: GameState, final: GameState) -> None:
    """Lay the review over a spectator's view of a finished game's step."""
    for cell in shown["cells"]:
        cell["cards"] = _layout(state.cards, cell["seat"])
    for entry, touch in zip(shown["touches"], state.touches, strict=True):
        entry["exchanged"] = touch.exchanged
    shown["roles"] = _view(final, None)["roles"]


def _view(state: GameState, seat: int | None) -> dict[str, Any]:
    table = state.table
    players = table.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise NotSeated(seat=repr(seat))
    over = state.phase is Phase.OVER
    result = state.outcome
    return {
        "ruleset": table.ruleset.code,
        "players": players,
        "options": dict(table.setup.options),
        "step": state.step,
        "phase": state.phase.value,
        "first": table.first,
        "current": state.current,
        "confirmed": [s for s, done in enumerate(state.confirmed) if done],
        "cells": _cells(state, over),
        "touches": [_touch(touch, over) for touch in state.touches],
        "mission": _mission(state),
        "missions": _missions(state),
        "successes": state.successes,
        "failures": state.failures,
        "deck": {
            "cards": len(state.deck),
            "discards": len(state.discards),
            "reshuffles": state.reshuffles,
        },
        "me": None if seat is None else _me(state, seat, over),
        "legal": list(legal_actions(state, seat)),
        "waiting_for": sorted(waiting_for(state)),
        "outcome": None if result is None else result.to_dict(),
        "roles": [
            {"seat": other, "side": side, "role": role}
            for other, (role, side) in enumerate(roles_now(state))
        ]
        if over
        else None,
    }
