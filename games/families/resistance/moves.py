"""A Resistance move as a page's form names it: fields in, the engine's action out.

A move arrives as form fields (a plain POST, or the same form sent over the socket by
htmx's ws extension as JSON); :func:`parse_move` turns either into the engine's action
dict. Anything malformed is a ``BadAction``: the engine never sees it.
"""

from __future__ import annotations

from typing import Any

from games import errors
from games.forms import field_int, field_one, field_values

MOVE_TYPES = {"propose", "vote", "play", "check", "claim", "shoot"}


def parse_move(fields: Any) -> dict[str, Any]:
    """The engine action the submitted fields ask for."""
    kind = field_one(fields, "action")
    if kind not in MOVE_TYPES:
        raise errors.BadAction
    if kind == "propose":
        return {
            "type": "propose",
            "team": [field_int(v.strip()) for v in field_values(fields, "team")],
        }
    if kind == "vote":
        choice = field_one(fields, "approve")
        if choice not in ("yes", "no"):
            raise errors.BadAction
        return {"type": "vote", "approve": choice == "yes"}
    if kind == "play":
        card = field_one(fields, "card")
        if card not in ("success", "fail"):
            raise errors.BadAction
        return {"type": "play", "card": card}
    if kind == "claim":
        side = field_one(fields, "side")
        if side not in ("good", "evil"):
            raise errors.BadAction
        return {"type": "claim", "side": side}
    return {"type": kind, "target": field_int(field_one(fields, "target"))}
