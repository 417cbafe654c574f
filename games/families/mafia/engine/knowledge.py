"""Who knows what about whom (docs/rules.md §3 "Secrets"), and what reads as what.

Two kinds of answers.  What a seat is *told*: the mafia know each other (a recruit
and the mafia learn each other when he first wakes with them), the Partisan sees
three seats unlabelled, the radio operator his readings, the General his guess.
What is *public*: who has left and how the town was told, sides read out by an
inquiry or after the colonel's shot.  :func:`knows` joins them per seat for the leak
oracle; facts only play reveals (a nurse not woken learns it was a slaughter night)
are not counted, since no view states them.
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.core import MODERATOR
from games.families.mafia.engine.roles import Role, Side
from games.families.mafia.engine.state import GameState, Phase

__all__ = [
    "Known",
    "knows",
    "knows_team",
    "mafia_team",
    "present",
    "publicly_read",
    "read_side",
    "reads_as_mafia",
    "team_known_to",
    "woke_with_team",
]


class Known(NamedTuple):
    """What a viewer knows of one seat; ``None`` where it does not know."""

    side: Side | None
    role: Role | None


_UNKNOWN = Known(None, None)


def mafia_team(state: GameState) -> tuple[int, ...]:
    """The mafia cards as the team knows itself now: the dealt three, and a recruit
    once he has woken with them (who of them is still in the game is another
    question: see :func:`present`)."""
    table = state.table
    recruit = state.recruit
    if recruit is not None and state.recruit_met:
        return (*table.mafia, recruit)
    return table.mafia


def present(state: GameState, seat: int, night: int) -> bool:
    """Whether ``seat`` was in the game during night ``night`` (a player leaving with
    a night's dead was there that night; one voted out on day ``d`` was not in night
    ``d``, which follows)."""
    for leaver in state.exits:
        if leaver.seat == seat:
            if leaver.at == "night":
                return night <= leaver.number
            return night < leaver.number
    return True


def woke_with_team(state: GameState, seat: int, night: int) -> bool:
    """Whether ``seat`` was awake with the mafia on ``night`` (from the introduction
    night for the dealt mafia, from the night after his recruitment for a recruit),
    so saw the demolisher's pick and the mafia's action."""
    table = state.table
    if seat in table.mafia:
        return present(state, seat, night)
    return (
        seat == state.recruit
        and state.recruit_met
        and night > state.recruit_night
        and present(state, seat, night)
    )


def knows_team(state: GameState, seat: int) -> bool:
    """Whether ``seat`` knows the mafia team (is one of it, as they know it)."""
    return len(team_known_to(state, seat)) > 1


def team_known_to(state: GameState, seat: int) -> tuple[int, ...]:
    """The mafia members ``seat`` knows, itself included; ``()`` for a citizen.

    The dealt mafia know each other from the introduction night; a recruit and the
    mafia know each other once they have woken together (the night after his
    recruitment, among those then in the game).  A recruit who has not yet woken
    with them knows only himself.
    """
    table = state.table
    recruit = state.recruit
    meeting = state.recruit_night + 1
    if seat in table.mafia:
        if recruit is not None and state.recruit_met and present(state, seat, meeting):
            return (*table.mafia, recruit)
        return table.mafia
    if seat != recruit:
        return ()
    if not state.recruit_met:
        return (seat,)
    seen = tuple(other for other in table.mafia if present(state, other, meeting))
    return (*seen, seat)


def reads_as_mafia(state: GameState, seat: int, night: int) -> bool:
    """Whether the radio operator and the sniper see ``seat`` as mafia on ``night``.

    The dealt mafia always; a recruit from the night after his recruitment, or from
    the recruitment night itself when the house says so.
    """
    if seat in state.table.mafia:
        return True
    if seat != state.recruit:
        return False
    if state.recruit_night < night:
        return True
    return (
        state.recruit_night == night and state.house.recruit_counts_from == "same_night"
    )


def read_side(state: GameState, seat: int) -> Side:
    """The side an inquiry reads out for a player who has left."""
    if seat == state.recruit and state.house.left_recruit_reads == "citizens":
        return Side.CITIZENS
    return state.sides[seat]


def publicly_read(state: GameState) -> dict[int, Side]:
    """Every side read out to the table, per seat: the inquiries (when the house reads
    sides one by one) and the readings after the colonel's shots."""
    read: dict[int, Side] = {}
    if state.house.inquiry_reading == "sides":
        for reading in state.readings:
            read.update(reading.entries)
    for morning in state.mornings:
        if morning.colonel_reading is not None:
            seat, side = morning.colonel_reading
            read[seat] = side
    return read


def knows(state: GameState, seat: int | None) -> tuple[Known, ...]:
    """Everything ``seat`` (``None``: a spectator) knows of each seat's side and role.

    The moderator and, after the game, everyone know everything.  A side read out is
    known only when the reading is the truth (a recruit who left may be read as a
    citizen).
    """
    table = state.table
    players = table.players
    if state.phase is Phase.OVER or seat == MODERATOR:
        return tuple(Known(state.sides[s], table.roles[s]) for s in range(players))
    knowledge = [_UNKNOWN] * players
    for other, side in publicly_read(state).items():
        if side is state.sides[other]:
            knowledge[other] = Known(side, None)
    if seat is None:
        return tuple(knowledge)
    team = team_known_to(state, seat)
    if len(team) > 1:
        # One of the mafia as they know themselves.  A dealt member knows every
        # other seat is a citizen, except a recruit he has not woken with; a recruit
        # knows it only if he has seen all three dealt members.
        recruit = state.recruit
        hidden = recruit if recruit not in team else None
        complete = seat in table.mafia or set(table.mafia) <= set(team)
        for other in range(players):
            if other in team:
                knowledge[other] = Known(Side.MAFIA, table.roles[other])
            elif complete and other != hidden:
                knowledge[other] = Known(Side.CITIZENS, knowledge[other].role)
    knowledge[seat] = Known(state.sides[seat], table.roles[seat])
    return tuple(knowledge)
