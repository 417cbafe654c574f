"""What must hold after every step of every game, and the states a seat cannot tell
apart from the real one.  Used by the property tests.

Two kinds of indistinguishability are checked.  A *choice* the viewer may not know
(another legal choice by the awake role at this step) must leave the viewer's view
and events unchanged.  A *deal* the viewer cannot tell from the real one (two seats
whose cards the viewer does not know swapped, with their night taps swapped too)
must give the viewer the same view whenever everything public came out the same.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from games.engine import (
    MODERATOR,
    Event,
    GameSetup,
    IllegalAction,
    apply,
    legal_actions,
    replay,
    view,
    waiting_for,
)
from games.engine.oracle import find_leaks
from games.families.mafia.engine import DEALT, GameState, Phase, Side, Step
from games.families.mafia.engine.bots import random_move
from games.families.mafia.engine.knowledge import knows, mafia_team
from games.families.mafia.engine.leaving import winner
from games.families.mafia.engine.records import public_causes, reading_dict
from games.families.mafia.engine.rules import deal

STATE_FIELDS = {field.name for field in dataclasses.fields(GameState)}
VIEWERS: list[int | None] = [None, MODERATOR, *range(10)]
Log = list[tuple[int, dict[str, Any]]]
_SLEEPING = (Phase.NIGHT, Phase.MIDDAY)


def check_rules(state: GameState) -> None:
    """The game's own invariants: the deal, who is in, the counters, the end."""
    table = state.table
    assert set(vars(state)) == STATE_FIELDS  # evolve() was given only real fields
    assert sorted(table.roles) == sorted(DEALT)
    left = [leaver.seat for leaver in state.exits]
    assert len(left) == len(set(left))
    assert [not present for present in state.in_game] == [
        seat in left for seat in range(10)
    ]
    changed = [
        s for s in range(10) if (state.sides[s] is Side.MAFIA) != (s in table.mafia)
    ]
    assert changed == ([] if state.recruit is None else [state.recruit])
    if state.recruit is not None:
        assert table.roles[state.recruit].value == "soldier"
        assert state.recruitment_used
    assert state.inquiries_left + len(state.readings) == 2
    if state.house.slaughters:
        assert state.slaughters_used <= state.house.slaughters
    assert state.tapped <= {s for s in range(10) if state.in_game[s]}
    assert state.kicks <= {s for s in range(10) if state.in_game[s]}
    over = state.phase is Phase.OVER
    assert over == (state.outcome is not None)
    if over:
        assert not waiting_for(state)
        assert state.outcome == winner(state)
        return
    assert waiting_for(state)
    if state.phase in (Phase.DAY, Phase.VOTE, Phase.MIDDAY):
        # The end was checked at the last removal; nobody leaves otherwise by day.
        assert winner(state) is None
    if state.phase in _SLEEPING:
        assert state.sleep is not None and state.awake <= set(range(10))


def _matches(action: Mapping[str, Any], spec: Mapping[str, Any]) -> bool:
    """Whether ``action`` is a move that ``spec`` (from legal_actions) allows."""
    kind = action["type"]
    if kind != spec["type"]:
        return False
    if kind in ("choose", "tap"):
        form = spec["form"]
        if form == "number":
            return action["number"] in spec["numbers"]
        if form == "seat":
            target = action["target"]
            return target in spec["targets"] or (target is None and spec["skip"])
        if form == "pair":
            targets = action["targets"]
            return len(targets) == spec["count"] and set(targets) <= set(
                spec["targets"]
            )
        if form == "general":
            return action["mode"] in spec["modes"] and (
                action["target"] is None or action["target"] in spec["targets"]
            )
        return set(action) == {"type"}
    if kind == "vote":
        chosen = action["candidates"]
        return set(chosen) <= set(spec["candidates"]) and len(chosen) <= spec["most"]
    if kind == "timer":
        return any(
            (t["kind"], t["subject"]) == (action["kind"], action["subject"])
            for t in spec["timers"]
        )
    if kind in ("warn", "kick"):
        return action["target"] in spec["among"]
    if kind == "start_vote":
        return action["vote"] == spec["vote"]
    return True


def matches_some(state: GameState, seat: int, action: Mapping[str, Any]) -> bool:
    return any(_matches(action, spec) for spec in legal_actions(state, seat))


def check_legal(state: GameState, rng: Random) -> None:
    """Exactly the awaited seats have something to do; each legal spec yields a move
    the engine accepts; at a night step every screen has the same shape."""
    awaited = waiting_for(state)
    for seat in [MODERATOR, *range(10)]:
        specs = legal_actions(state, seat)
        assert bool(specs) == (seat in awaited), (seat, specs)
        for spec in specs:
            move = random_move(spec, rng)
            assert _matches(move, spec)
            apply(state, seat, move)  # raises if the spec offered an illegal move
    assert legal_actions(state, None) == ()
    if state.phase in _SLEEPING:
        shapes = {
            frozenset(spec) - {"type"}
            for seat in awaited
            if seat != MODERATOR
            for spec in legal_actions(state, seat)
        }
        assert len(shapes) <= 1, shapes


def check_views(state: GameState, events: Sequence[Event]) -> None:
    """Views are plain JSON and leak nothing; events leak nothing to those who may
    see them."""
    for seat in VIEWERS:
        seen = view(state, seat)
        text = json.dumps(seen)
        assert json.loads(text) == seen
        assert find_leaks(state, seat, seen) == [], (
            seat,
            find_leaks(state, seat, seen),
        )
        for event in events:
            if event.visible(seat):
                assert find_leaks(state, seat, dict(event.data)) == [], (seat, event)
    for event in events:
        json.dumps(dict(event.data))


def check_replay(game: GameSetup, log: Log, state: GameState) -> None:
    assert replay(game, log) == state


# --- a choice the viewer may not know -------------------------------------------------


def _may_know_choice(state: GameState, seat: int | None, actor: int) -> bool:
    """Who may learn of ``actor``'s choice at this step at once: the actor, the
    moderator, the mafia for the mafia's steps."""
    if seat is None:
        return False
    if seat in (actor, MODERATOR):
        return True
    if state.sleep in (Step.MEET, Step.CONFER, Step.DEMOLISHER, Step.GENERAL):
        return seat in mafia_team(state) and state.in_game[seat]
    return False


def check_other_choice(
    state: GameState, actor: int, action: Mapping[str, Any], rng: Random
) -> None:
    """Another real choice by the awake ``actor`` gives every seat that may not know it
    the same view and the same events."""
    if action["type"] != "choose":
        return
    (spec,) = legal_actions(state, actor)
    other = None
    for _ in range(8):
        candidate = random_move(spec, rng)
        if candidate != action:
            other = candidate
            break
    if other is None:
        return
    first, first_events = apply(state, actor, dict(action))
    second, second_events = apply(state, actor, other)
    ended = first.sleep != state.sleep or first.phase != state.phase
    if ended and state.phase is Phase.MIDDAY:
        return  # the colonel's choice is announced when the sleep ends
    excused: set[int] = set()
    if ended and state.sleep is Step.GENERAL:
        excused.add(state.table.nurse)  # not woken on a slaughter night (the seed)
    for chosen in (action, other):
        if chosen.get("mode") == "recruit":
            excused.add(chosen["target"])  # a recruit is told at once
    for seat in VIEWERS:
        if seat in excused or _may_know_choice(state, seat, actor):
            continue
        assert view(first, seat) == view(second, seat), (seat, action, other)
        assert [e for e in first_events if e.visible(seat)] == [
            e for e in second_events if e.visible(seat)
        ], (seat, action, other)


# --- a deal the viewer cannot tell from the real one ----------------------------------


def _swappable(state: GameState, seat: int) -> list[int]:
    """Seats whose card ``seat`` does not know (nor, for a mafia swap, their side)."""
    known = knows(state, seat)
    return [other for other in range(10) if other != seat and known[other].role is None]


def alternative(
    game: GameSetup, log: Log, state: GameState, seat: int, rng: Random
) -> GameState | None:
    """The same game with the cards of two seats ``seat`` cannot tell apart swapped,
    and their taps at every night step and midday sleep swapped with them; ``None``
    when that log is not a legal game."""
    candidates = _swappable(state, seat)
    if len(candidates) < 2:
        return None
    first, second = rng.sample(candidates, 2)
    known = knows(state, seat)
    table = state.table
    if state.sides[first] is not state.sides[second] and (
        known[first].side is not None or known[second].side is not None
    ):
        return None
    roles = list(table.roles)
    roles[first], roles[second] = roles[second], roles[first]
    swap = {first: second, second: first}
    alt = deal(table.ruleset, game, roles)
    try:
        for actor, action in log:
            if action["type"] in ("choose", "tap"):
                actor = swap.get(actor, actor)
            alt, _ = apply(alt, actor, action)
    except IllegalAction:
        return None
    return alt


def public_facts(state: GameState) -> tuple[Any, ...]:
    """Everything the table was told, read from the state (not from a view): when two
    states agree on these, no view but the seats' own may tell them apart."""
    midday = state.midday
    return (
        state.phase,
        state.night,
        state.sleep,
        state.step,
        state.turn,
        state.in_game,
        tuple(
            (leaver.seat, leaver.at, leaver.number, tuple(public_causes(leaver.causes)))
            for leaver in state.exits
        ),
        state.mornings,
        tuple(reading_dict(state, reading) for reading in state.readings),
        tuple((m.day, m.named, m.target, m.left) for m in state.middays),
        None if midday is None else (midday.day, midday.stage),
        None
        if midday is None or midday.stage not in ("named", "shooting", "done")
        else midday.named,
        state.day,
        state.vote,
        state.votes,
        state.discipline,
        state.kicks,
        state.warnings,
        state.timer,
        state.inquiries_left,
        state.outcome,
    )


def check_indistinguishable(
    game: GameSetup, log: Log, state: GameState, rng: Random
) -> int:
    """For a few seats, a swapped deal that came out the same in public gives the seat
    and a spectator the same view.  Returns how many comparisons were made."""
    compared = 0
    for seat in rng.sample(range(10), 3):
        alt = alternative(game, log, state, seat, rng)
        if alt is None or public_facts(alt) != public_facts(state):
            continue
        assert view(alt, None) == view(state, None), "a spectator can tell"
        mine, theirs = view(state, seat), view(alt, seat)
        if mine["me"] != theirs["me"]:
            continue  # the seat's own results differ (checked by the oracle)
        assert mine == theirs, seat
        compared += 1
    return compared
