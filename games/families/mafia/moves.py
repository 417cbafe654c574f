"""A mafia move as a page's form names it: fields in, the engine's action out.

A night step's form carries its ``form`` (ok, number, seat, pair, general) and the
``action`` its spec names (choose or tap, the same fields either way); a ballot its
candidates; the moderator's forms their one or two fields. Only the shape is checked
here; whether the move is allowed is the engine's to say, in its own words.
"""

from __future__ import annotations

from typing import Any

from games import errors
from games.forms import field_int, field_one, field_values

BARE = ("confirm_night", "inquiry", "midday", "close_vote", "end_day")
MODES = ("shoot", "slaughter", "recruit", "pass")
TIMERS = ("confer", "colonel_speech", "defence")
VOTES = ("defence", "exit")
NONE = "none"


def _seat_or_none(text: str) -> int | None:
    return None if text == NONE else field_int(text)


def _night(kind: str, fields: Any) -> dict[str, Any]:
    form = field_one(fields, "form")
    action: dict[str, Any] = {"type": kind}
    if form == "ok":
        return action
    if form == "number":
        action["number"] = field_int(field_one(fields, "number"))
        return action
    if form == "seat":
        action["target"] = _seat_or_none(field_one(fields, "target"))
        return action
    if form == "pair":
        action["targets"] = [
            field_int(v.strip()) for v in field_values(fields, "targets")
        ]
        return action
    if form == "general":
        mode = field_one(fields, "mode")
        if mode not in MODES:
            raise errors.BadAction
        action["mode"] = mode
        target = field_values(fields, "target")
        action["target"] = (
            None if mode == "pass" or not target else _seat_or_none(target[0].strip())
        )
        guess = field_values(fields, "guess")
        action["guess"] = (
            guess[0].strip() if mode == "slaughter" and guess and guess[0] else None
        )
        return action
    raise errors.BadAction


def parse_move(fields: Any) -> dict[str, Any]:
    """The engine action the submitted fields ask for."""
    kind = field_one(fields, "action")
    if kind in ("choose", "tap"):
        return _night(kind, fields)
    if kind == "vote":
        return {
            "type": "vote",
            "candidates": [
                field_int(v.strip()) for v in field_values(fields, "candidates")
            ],
        }
    if kind in BARE:
        return {"type": kind}
    if kind == "timer":
        timer = field_one(fields, "timer")
        timer_kind, _colon, subject = timer.partition(":")
        if timer_kind not in TIMERS:
            raise errors.BadAction
        return {
            "type": "timer",
            "kind": timer_kind,
            "subject": None if subject in ("", NONE) else field_int(subject),
        }
    if kind == "start_vote":
        vote = field_one(fields, "vote")
        if vote not in VOTES:
            raise errors.BadAction
        return {"type": "start_vote", "vote": vote}
    if kind in ("warn", "kick"):
        return {"type": kind, "target": field_int(field_one(fields, "target"))}
    raise errors.BadAction
