"""Leaving the game and the end (docs/rules.md §3: who wins, and when it is checked)."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.core import Event, Outcome
from games.families.mafia.engine.records import public_causes
from games.families.mafia.engine.roles import Side
from games.families.mafia.engine.state import Exit, GameState, Phase, evolve

__all__ = ["check_end", "remove", "winner"]

Events = list[Event]


def remove(
    state: GameState,
    leaving: Sequence[tuple[int, tuple[str, ...]]],
    at: str,
    number: int,
    events: Events,
) -> GameState:
    """Take players out of the game (public: who, and the public word for how)."""
    if not leaving:
        return state
    in_game = list(state.in_game)
    exits = list(state.exits)
    for seat, causes in leaving:
        in_game[seat] = False
        exits.append(Exit(seat, at, number, causes))
        events.append(
            Event(
                "left",
                {
                    "seat": seat,
                    "at": at,
                    "number": number,
                    "how": public_causes(causes),
                },
            )
        )
    kicks = state.kicks - {seat for seat, _ in leaving}
    return evolve(state, in_game=tuple(in_game), exits=tuple(exits), kicks=kicks)


def winner(state: GameState) -> Outcome | None:
    """Citizens win when no mafia is left; the mafia when they are at least as many
    as the citizens.  Players due to leave still count (they are in the game)."""
    mafia = citizens = 0
    for seat, present in enumerate(state.in_game):
        if present:
            if state.sides[seat] is Side.MAFIA:
                mafia += 1
            else:
                citizens += 1
    if mafia == 0:
        return Outcome(Side.CITIZENS.value, "no_mafia_left")
    if mafia >= citizens:
        return Outcome(Side.MAFIA.value, "mafia_parity")
    return None


def check_end(state: GameState, events: Events) -> tuple[GameState, Events]:
    """The end is checked after a night's resolution, the colonel's shot and an exit
    vote (not at a kick)."""
    result = winner(state)
    if result is None:
        return state, events
    table = state.table
    roles = [
        {"seat": seat, "side": state.sides[seat].value, "role": table.roles[seat].value}
        for seat in range(table.players)
    ]
    events.append(
        Event(
            "game_over",
            {"winner": result.winner, "reason": result.reason, "roles": roles},
        )
    )
    over = evolve(
        state,
        phase=Phase.OVER,
        outcome=result,
        sleep=None,
        awake=frozenset(),
        tapped=frozenset(),
        vote=None,
        timer=None,
    )
    return over, events
