"""The two sides of the Resistance family, as its views, events and records say them."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["SIDES", "Side"]


class Side(StrEnum):
    """The side a player wins with.  The values are what views and events carry."""

    GOOD = "good"
    EVIL = "evil"


SIDES = (Side.GOOD.value, Side.EVIL.value)
