"""Helpers that build ``cells`` games and drive them to a chosen point, for the tests.

Moves go through the public API (``apply``), as the web layer makes them.  Where a
test needs particular cards, a particular deck or a particular player on turn, the
helpers here lay them out by hand on a dealt state (``dataclasses.replace``): the
deal is random, the rule under test is not.  Cards are written as letters, a seat's
three in slot order and seats apart by spaces: ``"BRB RRB BBR"``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from games.engine import GameSetup, apply, setup
from games.families.cells.engine import BLUE, RED, GameState, Phase

LETTERS = {"B": BLUE, "R": RED}


def colours(text: str) -> tuple[str, ...]:
    """``"BR B"`` -> ``("blue", "red", "blue")``: spaces are only for the eye."""
    return tuple(LETTERS[letter] for letter in text if letter != " ")


def new_game(players: int = 3, seed: int = 1, **options: Any) -> GameState:
    state: GameState = setup(GameSetup("cells", players, options, seed))
    return state


def act(state: GameState, seat: int, action: Mapping[str, Any]) -> GameState:
    new, _ = apply(state, seat, dict(action))
    return new


def confirm_all(state: GameState) -> GameState:
    """Every player confirms the first look, in seat order: play starts."""
    for seat in range(state.players):
        state = act(state, seat, {"type": "confirm"})
    assert state.phase is Phase.TURN
    return state


def started(players: int = 3, seed: int = 1) -> GameState:
    return confirm_all(new_game(players, seed))


def laid_out(
    state: GameState,
    cards: str | None = None,
    *,
    deck: str | None = None,
    discards: str | None = None,
    current: int | None = None,
) -> GameState:
    """``state`` with these character cards, mission deck, discard pile or player on
    turn (hand-built: the tests choose what the deal would have left to chance)."""
    changes: dict[str, Any] = {}
    if cards is not None:
        changes["cards"] = colours(cards)
        assert len(changes["cards"]) == 3 * state.players
    if deck is not None:
        changes["deck"] = colours(deck)
    if discards is not None:
        changes["discards"] = colours(discards)
    if current is not None:
        changes["current"] = current
    return dataclasses.replace(state, **changes)


def swap(
    state: GameState,
    mine: str,
    player: int,
    theirs: str,
    exchange: bool | None = None,
) -> GameState:
    """The current player swaps; with ``exchange`` set, also decides."""
    seat = state.current
    action = {"type": "swap", "mine": mine, "player": player, "theirs": theirs}
    state = act(state, seat, action)
    if exchange is None:
        return state
    return act(state, seat, {"type": "exchange", "exchange": exchange})


def mission(
    state: GameState,
    partner: int,
    leader_discard: str | None = None,
    partner_discard: str | None = None,
) -> GameState:
    """The current player leads a mission with ``partner``; the discards (colours)
    are made when given."""
    leader = state.current
    state = act(state, leader, {"type": "mission", "partner": partner})
    if leader_discard is None:
        return state
    state = act(state, leader, {"type": "discard", "card": leader_discard})
    if partner_discard is None:
        return state
    return act(state, partner, {"type": "discard", "card": partner_discard})


def peek(state: GameState, slot: str) -> GameState:
    return act(state, state.current, {"type": "peek", "slot": slot})


def revealing(state: GameState, partner: int, card: str) -> GameState:
    """A whole mission led by the current player whose revealed card is ``card``:
    the deck is laid out so that the draw is three cards of that colour."""
    state = laid_out(state, deck=("B" if card == BLUE else "R") * 3)
    return mission(state, partner, card, card)
