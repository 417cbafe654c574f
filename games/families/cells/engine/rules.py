"""The rules of ``cells`` (docs/rules.md §2, seed 003): the deal, the moves, the end.

One function per move.  Each checks the move against the rules, raising the rule's own
:class:`~games.engine.core.IllegalAction` subclass before anything is built, so a
refused move leaves no trace; then it makes the new state with
:func:`~games.families.cells.engine.state.evolve` and says what happened in events.
No event carries a character card or a mission card that is not public (a revealed
mission card is; every character card is once the game is over).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from random import Random
from typing import TYPE_CHECKING, Any, TypeVar

from games.engine.core import (
    Event,
    GameIsOver,
    GameSetup,
    NotSeated,
    Outcome,
    WrongPhase,
)
from games.families.cells.engine.actions import (
    Action,
    Confirm,
    Discard,
    Exchange,
    Mission,
    Peek,
    Swap,
    parse_action,
)
from games.families.cells.engine.errors import (
    AlreadyConfirmed,
    CardNotHeld,
    NoSwapPending,
    NotStarted,
    NotYourTurn,
    ProtectedCentre,
    SelfPartner,
    SwapWithYourself,
    UntouchedSlot,
)
from games.families.cells.engine.sides import ROLES, Side
from games.families.cells.engine.state import (
    BLUE,
    CENTRE,
    PEEK,
    RED,
    SLOTS,
    SWAP,
    GameState,
    MissionRecord,
    Phase,
    Table,
    Touch,
    evolve,
)

if TYPE_CHECKING:
    from games.families.cells.engine.rulesets import CellsRuleset

__all__ = [
    "DRAW",
    "MISSION_DECK",
    "WINS_NEEDED",
    "apply",
    "arranged",
    "deal",
    "decider",
    "legal_actions",
    "reshuffled",
    "roles_now",
    "side_of",
    "start",
    "touched_slots",
    "waiting_for",
]

WINS_NEEDED = 3
"""Three successes or three failures end the game at once."""
DRAW = 3
"""The leader draws three mission cards."""
MISSION_DECK = (BLUE,) * 5 + (RED,) * 5
"""Seed 003: five blue and five red mission cards, shuffled at the start."""

T = TypeVar("T")
Events = list[Event]


# --- the deal -------------------------------------------------------------------------


def deal(ruleset: CellsRuleset, game_setup: GameSetup) -> GameState:
    """Deal the character cards and the mission deck, and pick the first player.

    Everything comes from ``random.Random(seed)`` in this order: shuffle the 3N
    character cards (N+1 red) and deal them three by three in seat order (left,
    centre, right), shuffle the mission deck, pick the first player.  The order is
    part of the stored games' meaning: changing it changes every recorded game.
    """
    players = game_setup.players
    rng = Random(game_setup.seed)
    characters = [RED] * (players + 1) + [BLUE] * (2 * players - 1)
    rng.shuffle(characters)
    deck = list(MISSION_DECK)
    rng.shuffle(deck)
    first = rng.randrange(players)
    table = Table(
        ruleset=ruleset,
        setup=game_setup,
        players=players,
        first=first,
        chat=bool(game_setup.options.get("chat")),
    )
    return GameState(
        table=table,
        step=0,
        turn=0,
        phase=Phase.LOOK,
        current=first,
        confirmed=(False,) * players,
        cards=tuple(characters),
        touched=(False,) * (3 * players),
        touches=(),
        mission=None,
        hand=(),
        missions=(),
        deck=tuple(deck),
        discards=(),
        reshuffles=0,
        successes=0,
        failures=0,
        outcome=None,
    )


def arranged(
    ruleset: CellsRuleset,
    game_setup: GameSetup,
    *,
    cards: Iterable[str],
    deck: Iterable[str],
    first: int,
) -> GameState:
    """A deal laid out by hand instead of by the seed: these character cards (three
    per seat, in slot order), this mission deck (top first) and this first player.
    Later reshuffles still come from ``game_setup.seed``.

    Only for replaying a game whose seed is not known (an export's rebuild deals
    stand-ins consistent with its record), never for a game at a table.  Raises
    ``ValueError`` for cards, a deck or a first player the rules could not deal.
    """
    state = deal(ruleset, game_setup)
    cards, deck = tuple(cards), tuple(deck)
    if sorted(cards) != sorted(state.cards):
        raise ValueError("the character cards are not a deal of this game")
    if sorted(deck) != sorted(MISSION_DECK):
        raise ValueError("the mission deck is not the game's")
    if type(first) is not int or not 0 <= first < state.table.players:
        raise ValueError("the first player is not a seat of this table")
    table = dataclasses.replace(state.table, first=first)
    return evolve(state, table=table, current=first, cards=cards, deck=deck)


def start(ruleset: CellsRuleset, game_setup: GameSetup) -> tuple[GameState, Events]:
    """The dealt state and the public ``game_started`` event (no card in it)."""
    state = deal(ruleset, game_setup)
    data = {
        "ruleset": ruleset.code,
        "players": state.table.players,
        "options": dict(game_setup.options),
        "first": state.table.first,
        "deck": len(state.deck),
    }
    return state, [Event("game_started", data)]


def reshuffled(seed: int, number: int, cards: Iterable[str]) -> tuple[str, ...]:
    """The new mission deck of the ``number``-th reshuffle, from ``cards``.

    Its randomness comes from the game's seed and the reshuffle's number alone (a
    string seed, which ``random`` hashes with SHA-512, so it is stable everywhere);
    the cards are sorted first, so the new order depends on which cards there are,
    not on the order they were discarded in.
    """
    pool = sorted(cards)
    Random(f"cells/{seed}/reshuffle/{number}").shuffle(pool)
    return tuple(pool)


# --- public facts derived from the state ----------------------------------------------


def side_of(cards: tuple[str, ...], seat: int) -> Side:
    """``seat``'s side now: the majority colour of its three cards."""
    base = 3 * seat
    reds = (cards[base] == RED) + (cards[base + 1] == RED) + (cards[base + 2] == RED)
    return Side.EVIL if reds >= 2 else Side.GOOD


def roles_now(state: GameState) -> list[tuple[str, str]]:
    """``(role, side)`` of every seat by the cards as they lie now."""
    result = []
    for seat in range(state.table.players):
        side = side_of(state.cards, seat)
        result.append((ROLES[side], side.value))
    return result


def touched_slots(state: GameState, seat: int) -> list[int]:
    """``seat``'s slots that another player's swap touched since it last saw them."""
    base = 3 * seat
    touched = state.touched
    return [slot for slot in range(3) if touched[base + slot]]


def decider(state: GameState) -> int:
    """The one seat the table waits for in the turn, exchange and mission phases."""
    phase = state.phase
    if phase is Phase.LEADER:
        assert state.mission is not None
        return state.mission.leader
    if phase is Phase.PARTNER:
        assert state.mission is not None
        return state.mission.partner
    return state.current


def waiting_for(state: GameState) -> frozenset[int]:
    """The seats whose move the game awaits; every one of them is public."""
    phase = state.phase
    if phase is Phase.OVER:
        return frozenset()
    if phase is Phase.LOOK:
        return frozenset(seat for seat, done in enumerate(state.confirmed) if not done)
    return frozenset((decider(state),))


def legal_actions(state: GameState, seat: int | None) -> tuple[dict[str, Any], ...]:
    """What ``seat`` may do now, in the JSON shapes of the README."""
    players = state.table.players
    if type(seat) is not int or not 0 <= seat < players:
        return ()
    phase = state.phase
    if phase is Phase.LOOK:
        return () if state.confirmed[seat] else ({"type": "confirm"},)
    if phase is Phase.OVER or seat != decider(state):
        return ()
    if phase is Phase.TURN:
        others = [other for other in range(players) if other != seat]
        moves: list[dict[str, Any]] = [
            {
                "type": "swap",
                "mine": list(SLOTS),
                "among": others,
                "theirs": [SLOTS[0], SLOTS[2]],
            },
            {"type": "mission", "among": others},
        ]
        touched = touched_slots(state, seat)
        if touched:
            moves.append({"type": "peek", "slots": [SLOTS[s] for s in touched]})
        return tuple(moves)
    if phase is Phase.EXCHANGE:
        return ({"type": "exchange", "choices": [True, False]},)
    return ({"type": "discard", "cards": sorted(set(state.hand))},)


# --- moves ----------------------------------------------------------------------------


def _replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with one entry changed."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _on_turn(state: GameState, seat: int, action: Action) -> None:
    """A swap, mission or peek: only in the turn phase, only by the current player."""
    if state.phase is not Phase.TURN:
        raise WrongPhase(action=action.type, phase=state.phase.value)
    if seat != state.current:
        raise NotYourTurn()


def _next_turn(
    state: GameState, player: int, step: int, events: Events, **changes: Any
) -> tuple[GameState, Events]:
    """``player``'s turn is over: the next seat (seat + 1) plays."""
    current = (player + 1) % state.table.players
    events.append(Event("turn_passed", {"current": current}))
    new = evolve(
        state, step=step, turn=step, phase=Phase.TURN, current=current, **changes
    )
    return new, events


def _confirm(state: GameState, seat: int, action: Confirm) -> tuple[GameState, Events]:
    if state.confirmed[seat]:
        raise AlreadyConfirmed()
    confirmed = _replaced(state.confirmed, seat, True)
    step = state.step + 1
    events = [Event("confirmed", {"seat": seat})]
    if False in confirmed:
        # Others are still looking: the decision asked of them has not changed.
        return evolve(state, step=step, confirmed=confirmed), events
    events.append(Event("play_started", {"current": state.current}))
    new = evolve(state, step=step, turn=step, phase=Phase.TURN, confirmed=confirmed)
    return new, events


def _swap(state: GameState, seat: int, action: Swap) -> tuple[GameState, Events]:
    _on_turn(state, seat, action)
    other = action.player
    if other == seat:
        raise SwapWithYourself()
    if action.theirs == CENTRE:
        raise ProtectedCentre()
    mine = 3 * seat + action.mine
    theirs = 3 * other + action.theirs
    cards = state.cards
    step = state.step + 1
    touch = Touch(
        SWAP, step, seat, action.mine, other, action.theirs, None,
        (cards[mine], cards[theirs]),
    )  # fmt: skip
    # The swapper sees their own card now; the other player's card was touched.
    touched = list(state.touched)
    touched[mine] = False
    touched[theirs] = True
    event = Event(
        "swapped",
        {
            "seat": seat,
            "mine": SLOTS[action.mine],
            "player": other,
            "theirs": SLOTS[action.theirs],
        },
    )
    new = evolve(
        state,
        step=step,
        turn=step,
        phase=Phase.EXCHANGE,
        touched=tuple(touched),
        touches=(*state.touches, touch),
    )
    return new, [event]


def _exchange(
    state: GameState, seat: int, action: Exchange
) -> tuple[GameState, Events]:
    if state.phase is not Phase.EXCHANGE:
        raise NoSwapPending()
    if seat != state.current:
        raise NotYourTurn()
    touch = state.touches[-1]
    assert touch.other is not None and touch.other_slot is not None
    cards = state.cards
    if action.exchange:
        mine = 3 * seat + touch.slot
        theirs = 3 * touch.other + touch.other_slot
        swapped = list(cards)
        swapped[mine], swapped[theirs] = cards[theirs], cards[mine]
        cards = tuple(swapped)
    decided = Touch(
        SWAP, touch.step, seat, touch.slot, touch.other, touch.other_slot,
        action.exchange, touch.seen,
    )  # fmt: skip
    touches = (*state.touches[:-1], decided)
    # Public: that the swapper decided, never what.
    events = [Event("swap_decided", {"seat": seat})]
    return _next_turn(state, seat, state.step + 1, events, cards=cards, touches=touches)


def _peek(state: GameState, seat: int, action: Peek) -> tuple[GameState, Events]:
    _on_turn(state, seat, action)
    where = 3 * seat + action.slot
    if not state.touched[where]:
        raise UntouchedSlot(slot=SLOTS[action.slot])
    step = state.step + 1
    touch = Touch(
        PEEK, step, seat, action.slot, None, None, None, (state.cards[where],)
    )
    events = [Event("peeked", {"seat": seat, "slot": SLOTS[action.slot]})]
    return _next_turn(
        state,
        seat,
        step,
        events,
        touched=_replaced(state.touched, where, False),
        touches=(*state.touches, touch),
    )


def _mission(state: GameState, seat: int, action: Mission) -> tuple[GameState, Events]:
    _on_turn(state, seat, action)
    partner = action.partner
    if partner == seat:
        raise SelfPartner()
    number = len(state.missions) + 1
    events = [
        Event("mission_started", {"number": number, "leader": seat, "partner": partner})
    ]
    deck, discards, reshuffles = state.deck, state.discards, state.reshuffles
    if len(deck) < DRAW:
        # House decision: checked as the leader is about to draw; revealed mission
        # cards stay out of the new deck.
        reshuffles += 1
        deck = reshuffled(state.table.setup.seed, reshuffles, deck + discards)
        discards = ()
        events.append(
            Event("deck_reshuffled", {"deck": len(deck), "reshuffles": reshuffles})
        )
    step = state.step + 1
    hand = deck[:DRAW]
    record = MissionRecord(
        number, step, seat, partner, reshuffles != state.reshuffles, hand,
        None, None, None,
    )  # fmt: skip
    new = evolve(
        state,
        step=step,
        turn=step,
        phase=Phase.LEADER,
        mission=record,
        hand=hand,
        deck=deck[DRAW:],
        discards=discards,
        reshuffles=reshuffles,
    )
    return new, events


def _discard(state: GameState, seat: int, action: Discard) -> tuple[GameState, Events]:
    phase = state.phase
    if phase is not Phase.LEADER and phase is not Phase.PARTNER:
        raise WrongPhase(action=action.type, phase=phase.value)
    mission = state.mission
    assert mission is not None
    if seat != (mission.leader if phase is Phase.LEADER else mission.partner):
        raise NotYourTurn()
    card = action.card
    hand = state.hand
    if card not in hand:
        raise CardNotHeld(card=card)
    where = hand.index(card)
    rest = hand[:where] + hand[where + 1 :]
    discards = (*state.discards, card)
    step = state.step + 1
    number = mission.number
    if phase is Phase.LEADER:
        event = Event(
            "cards_passed",
            {"number": number, "leader": seat, "partner": mission.partner},
        )
        # A record built whole: NamedTuple._replace costs several times more.
        passed = MissionRecord(
            number, mission.step, seat, mission.partner, mission.reshuffled,
            mission.drawn, card, None, None,
        )  # fmt: skip
        new = evolve(
            state,
            step=step,
            turn=step,
            phase=Phase.PARTNER,
            mission=passed,
            hand=rest,
            discards=discards,
        )
        return new, [event]
    (revealed,) = rest
    success = revealed == BLUE
    done = MissionRecord(
        number, mission.step, mission.leader, seat, mission.reshuffled,
        mission.drawn, mission.leader_discard, card, revealed,
    )  # fmt: skip
    events = [
        Event(
            "mission_done",
            {
                "number": number,
                "leader": mission.leader,
                "partner": seat,
                "card": revealed,
                "success": success,
            },
        )
    ]
    successes = state.successes + success
    failures = state.failures + (not success)
    changes: dict[str, Any] = {
        "mission": None,
        "hand": (),
        "missions": (*state.missions, done),
        "discards": discards,
        "successes": successes,
        "failures": failures,
    }
    if successes == WINS_NEEDED or failures == WINS_NEEDED:
        return _finish(state, step, events, **changes)
    return _next_turn(state, mission.leader, step, events, **changes)


def _finish(
    state: GameState, step: int, events: Events, **changes: Any
) -> tuple[GameState, Events]:
    """Three successes or three failures: every character card is turned up.

    House decision: three successes win for every player whose cards are mostly
    blue, three failures for every player whose cards are mostly red.
    """
    won = changes["successes"] == WINS_NEEDED
    winner, reason = (
        (Side.GOOD, "three_successes") if won else (Side.EVIL, "three_failures")
    )
    cards = state.cards
    players = state.table.players
    roles = []
    layout = []
    for seat in range(players):
        side = side_of(cards, seat)
        roles.append({"seat": seat, "side": side.value, "role": ROLES[side]})
        base = 3 * seat
        layout.append(
            {
                "seat": seat,
                "cards": dict(zip(SLOTS, cards[base : base + 3], strict=True)),
            }
        )
    exchanges = [
        {"step": touch.step, "seat": touch.seat, "exchanged": touch.exchanged}
        for touch in state.touches
        if touch.kind == SWAP
    ]
    events.append(
        Event(
            "game_over",
            {
                "winner": winner.value,
                "reason": reason,
                "roles": roles,
                "cells": layout,
                "exchanges": exchanges,
            },
        )
    )
    new = evolve(
        state,
        step=step,
        turn=step,
        phase=Phase.OVER,
        outcome=Outcome(winner.value, reason),
        **changes,
    )
    return new, events


_MOVES: dict[type, Callable[[GameState, int, Any], tuple[GameState, Events]]] = {
    Confirm: _confirm,
    Swap: _swap,
    Exchange: _exchange,
    Mission: _mission,
    Peek: _peek,
    Discard: _discard,
}


def apply(
    state: GameState, seat: int, action: Mapping[str, Any] | Action
) -> tuple[GameState, Events]:
    """Play ``action`` for ``seat``; see :func:`games.engine.core.apply`.

    Checks in this order: the seat exists, the action is well formed, the game is not
    over, play has started (every move but the confirmation waits for it), the phase
    and the seat, then the move's own rules.
    """
    table = state.table
    if type(seat) is not int or not 0 <= seat < table.players:
        raise NotSeated(seat=repr(seat))
    move = parse_action(action, table.players)
    if state.outcome is not None:
        raise GameIsOver()
    if state.phase is Phase.LOOK and type(move) is not Confirm:
        raise NotStarted()
    return _MOVES[type(move)](state, seat, move)
