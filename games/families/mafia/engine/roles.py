"""The two sides and nine roles of the «پارتیزان» scenario (seed 004), as codes.

The codes are English snake_case; the words layer names them (the seed's Persian
names are in this engine's README).  The deal is the seed's one composition for ten
players: three mafia, seven citizens, two of them plain soldiers.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "DEALT",
    "MAFIA_ROLES",
    "ROLE_CODES",
    "SIDES",
    "Role",
    "Side",
]


class Side(StrEnum):
    """The side a player wins with; the values are what views and events carry."""

    CITIZENS = "citizens"
    MAFIA = "mafia"


class Role(StrEnum):
    """A player's role card.  A recruited soldier keeps the ``soldier`` card and
    changes side."""

    GENERAL = "general"
    DEMOLISHER = "demolisher"
    TRAITOR = "traitor_soldier"
    PARTISAN = "partisan"
    RADIO = "radio_operator"
    COLONEL = "colonel"
    NURSE = "nurse"
    SNIPER = "sniper"
    SOLDIER = "soldier"


SIDES = (Side.CITIZENS.value, Side.MAFIA.value)

MAFIA_ROLES = frozenset({Role.GENERAL, Role.DEMOLISHER, Role.TRAITOR})
"""The roles dealt to the mafia (a recruit is a soldier who joined them)."""

DEALT: tuple[Role, ...] = (
    Role.GENERAL,
    Role.DEMOLISHER,
    Role.TRAITOR,
    Role.PARTISAN,
    Role.RADIO,
    Role.COLONEL,
    Role.NURSE,
    Role.SNIPER,
    Role.SOLDIER,
    Role.SOLDIER,
)
"""The seed's composition, the only one: the deal shuffles exactly these cards."""

ROLE_CODES: tuple[str, ...] = tuple(role.value for role in Role)
"""Every role code once, in the order above (the General's slaughter guesses one)."""
