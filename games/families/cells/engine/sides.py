"""The sides and roles of ``cells``, as its views, events and records say them.

A player's side is not dealt: it is the majority colour of the three character cards
they hold *now*, so it can change with every swap.  Blue cards are the resistance, red
cards the spies; the words layer names the sides.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["RESISTANCE", "ROLES", "SIDES", "SPY", "Side"]


class Side(StrEnum):
    """The side a player wins with.  The values are what views and events carry."""

    GOOD = "good"
    EVIL = "evil"


SIDES = (Side.GOOD.value, Side.EVIL.value)

RESISTANCE = "resistance"
"""The role of a player whose cards are mostly blue."""
SPY = "spy"
"""The role of a player whose cards are mostly red."""
ROLES = {Side.GOOD: RESISTANCE, Side.EVIL: SPY}
