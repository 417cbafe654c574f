"""A Resistance move as a page's form names it: fields in, the engine's action out.

A move arrives as form fields (a plain POST, or the same form sent over the socket by
htmx's ws extension as JSON); :func:`parse_move` turns either into the engine's action
dict. Anything malformed is ``NotAMove``: the engine never sees it.
"""

from __future__ import annotations

from typing import Any

from games.kit import field_choice, field_int, field_ints, field_one

MOVE_TYPES = {"propose", "vote", "play", "check", "claim", "shoot"}


def parse_move(fields: Any) -> dict[str, Any]:
    """The engine action the submitted fields ask for."""
    kind = field_choice(fields, "action", MOVE_TYPES)
    if kind == "propose":
        return {
            "type": "propose",
            "team": field_ints(fields, "team"),
        }
    if kind == "vote":
        choice = field_choice(fields, "approve", ("yes", "no"))
        return {"type": "vote", "approve": choice == "yes"}
    if kind == "play":
        card = field_choice(fields, "card", ("success", "fail"))
        return {"type": "play", "card": card}
    if kind == "claim":
        side = field_choice(fields, "side", ("good", "evil"))
        return {"type": "claim", "side": side}
    return {"type": kind, "target": field_int(field_one(fields, "target"))}
