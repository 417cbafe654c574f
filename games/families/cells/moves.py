"""A ``cells`` move as a page's form names it: fields in, the engine's action out.

A move arrives as form fields (a plain POST, or the same form sent over the socket by
htmx's ws extension as JSON). Only the shape is checked here: a field missing,
repeated or not one of the words our forms write is ``NotAMove``. Whether the move
is allowed (the centre card, your own card, an untouched slot, yourself as partner, a
colour you do not hold, someone else's turn) is the engine's to say, in its own words.
"""

from __future__ import annotations

from typing import Any

from games.kit import NotAMove, field_choice, field_int, field_one

SLOTS = ("left", "centre", "right")
COLOURS = ("blue", "red")
CHOICES = {"yes": True, "no": False}


def _slot(fields: Any, name: str) -> str:
    return field_choice(fields, name, SLOTS)


def _card(fields: Any) -> tuple[int, str]:
    """Another player's card, as the swap form names it: ``"<seat>:<slot>"``."""
    seat, _colon, slot = field_one(fields, "theirs").partition(":")
    if slot not in SLOTS:
        raise NotAMove
    return field_int(seat), slot


def parse_move(fields: Any) -> dict[str, Any]:
    """The engine action the submitted fields ask for."""
    kind = field_one(fields, "action")
    if kind == "confirm":
        return {"type": "confirm"}
    if kind == "swap":
        player, theirs = _card(fields)
        return {
            "type": "swap",
            "mine": _slot(fields, "mine"),
            "player": player,
            "theirs": theirs,
        }
    if kind == "exchange":
        choice = field_choice(fields, "exchange", CHOICES)
        return {"type": "exchange", "exchange": CHOICES[choice]}
    if kind == "mission":
        return {"type": "mission", "partner": field_int(field_one(fields, "partner"))}
    if kind == "peek":
        return {"type": "peek", "slot": _slot(fields, "slot")}
    if kind == "discard":
        return {"type": "discard", "card": field_choice(fields, "card", COLOURS)}
    raise NotAMove
