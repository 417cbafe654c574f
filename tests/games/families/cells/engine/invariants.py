"""What must hold after every step of every ``cells`` game, and the states a seat
cannot tell apart from the real one.  Used by the property tests.

What a seat may be shown is written out again here from docs/rules.md §2 rather than
taken from the engine (or its oracle), so that the indistinguishability check does not
share a mistake with the code it checks.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

from games.engine import (
    Event,
    GameSetup,
    final_roles,
    legal_actions,
    replay,
    turn,
    view,
    waiting_for,
)
from games.engine.oracle import find_leaks
from games.families.cells.engine import BLUE, RED, GameState, Phase

STATE_FIELDS = {field.name for field in dataclasses.fields(GameState)}
COLOURS = (BLUE, RED)


def check_rules(state: GameState) -> None:
    """The game's own invariants: the cards are conserved, the touched marks follow
    from the public record, each phase waits for the right seats, the end is on time."""
    players = state.players
    assert set(vars(state)) == STATE_FIELDS  # evolve() was given only real fields
    # Character cards: 3N of them, N+1 red, so one or two spies, whatever the swaps.
    assert Counter(state.cards) == {RED: players + 1, BLUE: 2 * players - 1}
    spies = sum(state.cards[3 * s : 3 * s + 3].count(RED) >= 2 for s in range(players))
    assert 1 <= spies <= 2
    # Mission cards: ten in all, the revealed ones out of the deck for good.
    revealed = [record.card for record in state.missions]
    assert None not in revealed
    held = Counter(state.deck) + Counter(state.discards) + Counter(state.hand)
    assert held + Counter(revealed) == {BLUE: 5, RED: 5}
    assert state.successes == revealed.count(BLUE)
    assert state.failures == revealed.count(RED)
    assert state.successes <= 3 and state.failures <= 3
    # The touched marks, derived from the public record alone.
    touched = [False] * (3 * players)
    for touch in state.touches:
        touched[3 * touch.seat + touch.slot] = False
        if touch.kind == "swap":
            assert touch.other is not None and touch.other_slot is not None
            assert touch.other != touch.seat and touch.other_slot != 1
            touched[3 * touch.other + touch.other_slot] = True
    assert tuple(touched) == state.touched
    assert not any(state.touched[3 * s + 1] for s in range(players))  # centres
    assert 0 <= turn(state) <= state.step
    _check_phase(state)


def _check_phase(state: GameState) -> None:
    phase = state.phase
    players = state.players
    assert (phase is Phase.LOOK) == (False in state.confirmed)
    pending = bool(state.touches) and state.touches[-1].exchanged is None
    pending = pending and state.touches[-1].kind == "swap"
    assert (phase is Phase.EXCHANGE) == pending
    assert (state.mission is not None) == (phase in (Phase.LEADER, Phase.PARTNER))
    assert len(state.hand) == {Phase.LEADER: 3, Phase.PARTNER: 2}.get(phase, 0)
    over = phase is Phase.OVER
    assert over == (state.outcome is not None)
    awaited = waiting_for(state)
    if phase is Phase.LOOK:
        assert awaited == {s for s in range(players) if not state.confirmed[s]}
    elif not over:
        assert len(awaited) == 1
    if not over:
        assert state.successes < 3 and state.failures < 3
        return
    assert not awaited
    assert state.outcome is not None
    if state.successes == 3:
        assert (state.outcome.winner, state.outcome.reason) == (
            "good",
            "three_successes",
        )
    else:
        assert state.failures == 3
        assert (state.outcome.winner, state.outcome.reason) == (
            "evil",
            "three_failures",
        )
    for seat, (role, side) in enumerate(final_roles(state)):
        red = state.cards[3 * seat : 3 * seat + 3].count(RED) >= 2
        assert (role, side) == (("spy", "evil") if red else ("resistance", "good"))


def check_legal(state: GameState) -> None:
    """Exactly the awaited seats have something to do."""
    awaited = waiting_for(state)
    for seat in range(state.players):
        assert bool(legal_actions(state, seat)) == (seat in awaited)
    assert legal_actions(state, None) == ()


def check_views(state: GameState, events: Sequence[Event], rng: Random) -> None:
    """Views are plain JSON, leak nothing, and are the same in every state the seat
    cannot tell from this one; events leak nothing to those who may see them."""
    for seat in [None, *range(state.players)]:
        seen = view(state, seat)
        text = json.dumps(seen)
        assert json.loads(text) == seen
        assert find_leaks(state, seat, seen) == []
        for event in events:
            if event.visible(seat):
                assert find_leaks(state, seat, dict(event.data)) == [], event
        other = alternative(state, seat, rng)
        assert view(other, seat) == seen, f"seat {seat} can tell the states apart"


def check_replay(
    game: GameSetup, log: list[tuple[int, dict[str, Any]]], state: GameState
) -> None:
    assert replay(game, log) == state


def check_perspectives(states: Sequence[GameState]) -> None:
    """A finished game's replay: each player's is what they saw, someone else's
    leaves their mission cards out, the review turns up the character cards only."""
    final = states[-1]
    for state in states:
        review = view(state, None, after=final)
        assert find_leaks(state, None, review, after=final) == []
        for seat in range(state.players):
            assert view(state, seat, after=final) == view(state, seat)
            watched = view(state, seat, after=final, own=False)
            assert find_leaks(state, seat, watched, after=final, own=False) == []


# --- states a seat cannot tell apart --------------------------------------------------


def on_show(state: GameState, seat: int | None) -> set[int]:
    """The card positions ``seat`` is shown now (docs/rules.md §2, "how long the site
    shows
    a card"): everything after the game; its own three until it confirms the first
    look; the two cards of its swap until it decides; a card it peeked at until the
    next move."""
    if state.phase is Phase.OVER:
        return set(range(3 * state.players))
    if seat is None:
        return set()
    if state.phase is Phase.LOOK:
        return (
            set() if state.confirmed[seat] else {3 * seat, 3 * seat + 1, 3 * seat + 2}
        )
    if not state.touches:
        return set()
    last = state.touches[-1]
    if last.seat != seat:
        return set()
    if last.kind == "swap" and last.exchanged is None:
        assert last.other is not None and last.other_slot is not None
        return {3 * seat + last.slot, 3 * last.other + last.other_slot}
    if last.kind == "peek" and last.step == state.step:
        return {3 * seat + last.slot}
    return set()


def _holder(state: GameState) -> int | None:
    if state.mission is None:
        return None
    if state.phase is Phase.LEADER:
        return state.mission.leader
    return state.mission.partner


def alternative(state: GameState, seat: int | None, rng: Random) -> GameState:
    """Another state ``seat`` must not be able to tell from ``state``: the character
    cards it is not shown dealt among their places differently, what swaps and peeks
    showed and (until the end) whether swaps exchanged changed, the mission cards it
    does not hold dealt differently among the deck, the discards and the hand."""
    over = state.phase is Phase.OVER
    shown = on_show(state, seat)
    cards = list(state.cards)
    hidden = [where for where in range(len(cards)) if where not in shown]
    values = [cards[where] for where in hidden]
    rng.shuffle(values)
    for where, colour in zip(hidden, values, strict=True):
        cards[where] = colour
    touches = tuple(
        touch._replace(
            seen=tuple(rng.choice(COLOURS) for _ in touch.seen),
            exchanged=touch.exchanged
            if over or touch.exchanged is None
            else rng.random() < 0.5,
        )
        if not (touch is state.touches[-1] and shown and not over)
        else touch
        for touch in state.touches
    )
    holds = _holder(state) == seat and seat is not None
    pool = list(state.deck) + list(state.discards) + ([] if holds else list(state.hand))
    rng.shuffle(pool)
    deck = tuple(pool[: len(state.deck)])
    discards = tuple(pool[len(state.deck) : len(state.deck) + len(state.discards)])
    hand = state.hand if holds else tuple(pool[len(deck) + len(discards) :])
    missions = tuple(
        record._replace(
            drawn=tuple(rng.choice(COLOURS) for _ in record.drawn),
            leader_discard=rng.choice(COLOURS),
            partner_discard=rng.choice(COLOURS),
        )
        for record in state.missions
    )
    mission = state.mission
    if mission is not None:  # what the leader drew and discarded is never shown
        mission = mission._replace(
            drawn=tuple(rng.choice(COLOURS) for _ in mission.drawn),
            leader_discard=mission.leader_discard and rng.choice(COLOURS),
        )
    return dataclasses.replace(
        state,
        mission=mission,
        cards=tuple(cards),
        touches=touches,
        deck=deck,
        discards=discards,
        hand=hand,
        missions=missions,
    )
