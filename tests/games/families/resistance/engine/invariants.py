"""What must hold after every step of every game, and the states a seat cannot tell
apart from the real one.  Used by the property tests.

The knowledge rules below are written out again from docs/rules.md §1 ("What is secret")
rather than taken from the engine, so that the indistinguishability check does not
share a mistake with the code it checks.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from random import Random
from typing import Any

from games.engine import Event, GameSetup, legal_actions, replay, view, waiting_for
from games.engine.oracle import find_leaks
from games.families.resistance.engine import GameState, Phase, Side
from tests.games.families.resistance.engine.support import EVIL

STATE_FIELDS = {field.name for field in dataclasses.fields(GameState)}


def check_rules(state: GameState) -> None:
    """The game's own invariants: one leader, fixed sides, the end exactly on time."""
    table = state.table
    players = table.players
    assert set(vars(state)) == STATE_FIELDS  # evolve() was given only real fields
    assert type(state.leader) is int and 0 <= state.leader < players
    assert len(table.evil) == EVIL[players]
    assert [s for s in range(players) if table.sides[s].value == "evil"] == list(
        table.evil
    )
    assert len(state.missions) <= 5 and 1 <= state.mission <= 5
    assert state.successes + state.failures == len(state.missions)
    assert state.successes == sum(m.success for m in state.missions)
    assert 0 <= state.rejections <= 5
    over = state.phase is Phase.OVER
    assert over == (state.outcome is not None)
    if not over:
        assert state.failures < 3 and state.rejections < 5
        assert state.successes < 3 or state.phase is Phase.SNIPER
        assert waiting_for(state)
        return
    assert not waiting_for(state)
    reason = state.outcome.reason
    decided = {
        "three_successes": state.successes == 3 and table.sniper is None,
        "three_failures": state.failures == 3,
        "five_rejections": state.rejections == 5,
        "scout_shot": state.successes == 3 and state.shot == table.scout,
        "scout_missed": state.successes == 3
        and state.shot is not None
        and state.shot != table.scout,
    }
    assert decided[reason], reason


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


# --- states a seat cannot tell apart --------------------------------------------------


def _fixed(state: GameState, seat: int | None) -> tuple[set[int], set[int]]:
    """Seats whose role, and seats whose side, ``seat`` knows (docs/rules.md §1)."""
    table = state.table
    players = range(table.players)
    if state.phase is Phase.OVER:
        return set(players), set(players)
    if seat is None:
        return set(), set()
    roles, sides = {seat}, {seat}
    if table.sides[seat].value == "evil":
        sides |= set(players)
        roles |= set(table.evil)  # partners and which of them is the sniper
    elif seat == table.scout:
        sides |= set(players)
        roles |= {s for s in players if s not in table.evil}  # the only scout
    for check in state.checks:
        if check.holder == seat:
            sides.add(check.target)
    return roles, sides


def _shuffle_roles(state: GameState, seat: int | None, rng: Random) -> tuple[str, ...]:
    """A deal of the same roles that agrees with everything ``seat`` knows."""
    table = state.table
    known_roles, known_sides = _fixed(state, seat)
    movable = [s for s in range(table.players) if s not in known_roles]
    roles = list(table.roles)
    for _ in range(20):
        values = [table.roles[s] for s in movable]
        rng.shuffle(values)
        candidate = list(roles)
        for s, role in zip(movable, values, strict=True):
            candidate[s] = role
        if all(
            _side_of(state, candidate[s]) == table.sides[s].value for s in known_sides
        ):
            return tuple(candidate)
    return tuple(roles)


def _side_of(state: GameState, role: str) -> str:
    ruleset = state.ruleset
    return "evil" if role in (ruleset.evil_role, ruleset.sniper_role) else "good"


def alternative(state: GameState, seat: int | None, rng: Random) -> GameState:
    """Another state that ``seat`` must not be able to tell from ``state``: hidden
    roles dealt differently, other seats' votes in progress changed, who played which
    mission card shuffled (the counts kept)."""
    table = state.table
    roles = _shuffle_roles(state, seat, rng)
    sides = tuple(Side(_side_of(state, role)) for role in roles)
    new_table = dataclasses.replace(
        table,
        roles=roles,
        sides=sides,
        evil=tuple(s for s, side in enumerate(sides) if side.value == "evil"),
        scout=roles.index(table.ruleset.scout_role)
        if table.scout is not None
        else None,
        sniper=roles.index(table.ruleset.sniper_role)
        if table.sniper is not None
        else None,
    )
    votes = tuple(
        vote if vote is None or s == seat else rng.random() < 0.5
        for s, vote in enumerate(state.votes)
    )
    cards = (
        tuple(
            card if card is None or member == seat else rng.choice(["success", "fail"])
            for member, card in zip(state.team, state.cards, strict=True)
        )
        if state.phase is Phase.MISSION
        else state.cards
    )
    missions = []
    for record in state.missions:
        others = [
            c for m, c in zip(record.team, record.cards, strict=True) if m != seat
        ]
        rng.shuffle(others)
        dealt = iter(others)
        shuffled = tuple(
            c if m == seat else next(dealt)
            for m, c in zip(record.team, record.cards, strict=True)
        )
        missions.append(record._replace(cards=shuffled))
    checks = tuple(
        check if check.holder == seat else check._replace(result=sides[check.target])
        for check in state.checks
    )
    return dataclasses.replace(
        state,
        table=new_table,
        votes=votes,
        cards=cards,
        missions=tuple(missions),
        checks=checks,
    )
