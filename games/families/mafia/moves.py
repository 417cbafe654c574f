"""A mafia move as a page's form names it: fields in, the engine's action out.

A night step's form carries its ``form`` (ok, number, seat, pair, general) and the
``action`` ``night`` (the same on every screen: :func:`complete_move` makes it the
seat's ``choose`` or ``tap`` on the server); a ballot its
candidates; the moderator's forms their one or two fields. Only the shape is checked
here; whether the move is allowed is the engine's to say, in its own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kit import (
    NotAMove,
    field_choice,
    field_int,
    field_ints,
    field_one,
    field_values,
)

BARE = ("confirm_night", "inquiry", "midday", "close_vote", "end_day")
MODES = ("shoot", "slaughter", "recruit", "pass")
TIMERS = ("confer", "colonel_speech", "defence")
VOTES = ("defence", "exit")
NONE = "none"
NIGHT = "night"
"""The night form's action: the page does not say choose or tap (a glance at the
page source would tell); :func:`complete_move` asks the seat's legal moves."""


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
        action["targets"] = field_ints(fields, "targets")
        return action
    if form == "general":
        mode = field_choice(fields, "mode", MODES)
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
    raise NotAMove


def parse_move(fields: Any) -> dict[str, Any]:
    """The engine action the submitted fields ask for."""
    kind = field_one(fields, "action")
    if kind in ("choose", "tap", NIGHT):
        return _night(kind, fields)
    if kind == "vote":
        return {
            "type": "vote",
            "candidates": field_ints(fields, "candidates"),
        }
    if kind in BARE:
        return {"type": kind}
    if kind == "timer":
        timer = field_one(fields, "timer")
        timer_kind, _colon, subject = timer.partition(":")
        if timer_kind not in TIMERS:
            raise NotAMove
        return {
            "type": "timer",
            "kind": timer_kind,
            "subject": None if subject in ("", NONE) else field_int(subject),
        }
    if kind == "start_vote":
        return {"type": "start_vote", "vote": field_choice(fields, "vote", VOTES)}
    if kind in ("warn", "kick"):
        return {"type": kind, "target": field_int(field_one(fields, "target"))}
    raise NotAMove


def complete_move(
    action: dict[str, Any], legal: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """A ``night`` move as the seat's own spec names it (``choose`` when awake, else
    ``tap``); any other move as it came.

    Without a night move for the seat now (it has acted at this step already: a
    double click; or no night step is on; or the seat has left), ``night`` becomes a
    ``tap``, so the engine refuses it with the rule it meets first (``AlreadyActed``,
    ``NoSleepNow``, ``HasLeft``...): the same words for every seat, whatever it did
    and whoever it is, where ``night`` itself would be refused as malformed."""
    if action.get("type") != NIGHT:
        return action
    spec = next((s for s in legal if s.get("type") in ("choose", "tap")), None)
    return {**action, "type": "tap" if spec is None else spec["type"]}


def private_refusal(action: Mapping[str, Any]) -> bool:
    """Whether the engine's refusal of ``action`` goes on the seat's card: every
    refusal of a night move (only a chooser's can be refused for its content, so
    saying it on the screen would show a neighbour who is awake)."""
    return action.get("type") in ("choose", "tap", NIGHT)
