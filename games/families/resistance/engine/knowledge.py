"""What a seat knows about the others: docs/rules.md §1, "What is secret, from whom".

Two answers, for two users.  :func:`told` is what the game *tells* a seat (evil
partners, the scout's list, check results): the view's ``me.known``.  :func:`knows` adds
what follows from it with no guessing, so the leak oracle does not call a fact secret
that the seat can work out: an evil player knows every other seat's side (the ones not
on the evil list are good), the scout too, and where a side has a single role in this
game the side gives the role.  Facts that only play reveals (a two-player team with
two fails) are not counted: no view states them.
"""

from __future__ import annotations

from typing import NamedTuple

from games.families.resistance.engine.sides import Side
from games.families.resistance.engine.state import GameState, Phase

__all__ = ["Known", "knows", "told"]


class Known(NamedTuple):
    """What a viewer knows of one seat; ``None`` where it does not know."""

    side: Side | None
    role: str | None


_UNKNOWN = Known(None, None)


def told(state: GameState, seat: int) -> dict[int, Known]:
    """What the game tells ``seat`` about other seats, by seat, in seat order.

    Evil players see each other with their roles (so they know the sniper); the scout
    sees the evil seats without roles (not which is the sniper: a house decision); a
    check-token holder sees the side of the seat they checked.
    """
    table = state.table
    sides = table.sides
    known: dict[int, Known] = {}
    if sides[seat] is Side.EVIL:
        for other in table.evil:
            if other != seat:
                known[other] = Known(Side.EVIL, table.roles[other])
    elif seat == table.scout:
        for other in table.evil:
            known[other] = Known(Side.EVIL, None)
    for check in state.checks:
        if check.holder == seat and check.target not in known:
            known[check.target] = Known(check.result, None)
    return dict(sorted(known.items()))


def _single_roles(state: GameState) -> dict[Side, str | None]:
    """For each side, its role when the side has only one in this game, else None."""
    table = state.table
    ruleset = table.ruleset
    with_presets = table.scout is not None
    return {
        Side.GOOD: None if with_presets else ruleset.good_role,
        Side.EVIL: None if with_presets else ruleset.evil_role,
    }


def knows(state: GameState, seat: int | None) -> tuple[Known, ...]:
    """Everything ``seat`` (``None``: a spectator) knows or can derive, per seat.

    After the game everyone knows every side and role.
    """
    table = state.table
    players = table.players
    if state.phase is Phase.OVER:
        return tuple(Known(table.sides[s], table.roles[s]) for s in range(players))
    if seat is None:
        return (_UNKNOWN,) * players
    single = _single_roles(state)
    knowledge = [_UNKNOWN] * players
    knows_all_sides = table.sides[seat] is Side.EVIL or seat == table.scout
    if knows_all_sides:
        for other in range(players):
            side = table.sides[other]
            knowledge[other] = Known(side, single[side])
        if seat == table.scout:
            # The only scout: every other good seat holds the plain good role.
            for other in range(players):
                if table.sides[other] is Side.GOOD:
                    knowledge[other] = Known(Side.GOOD, table.roles[other])
    for other, fact in told(state, seat).items():
        role = fact.role if fact.role is not None else knowledge[other].role
        if role is None and fact.side is not None:
            role = single[fact.side]
        knowledge[other] = Known(fact.side, role)
    knowledge[seat] = Known(table.sides[seat], table.roles[seat])
    return tuple(knowledge)
