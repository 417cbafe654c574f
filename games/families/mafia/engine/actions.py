"""The moves of the «پارتیزان» scenario and their JSON form.

Players: ``choose`` (a real choice at a night step or a midday sleep), ``tap`` (the
same screen, for everyone who has no choice at that step: no effect) and ``vote``.
The moderator: ``confirm_night``, ``inquiry``, ``midday``, ``timer``, ``start_vote``,
``close_vote``, ``end_day``, ``warn``, ``kick``.

:func:`parse_action` checks the shape only (types, seats of this table, the fields a
night form may carry); whether the move is allowed now is for :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine.core import BadTarget, MalformedAction
from games.families.mafia.engine.errors import DuplicateTarget, GuessMismatch
from games.families.mafia.engine.roles import ROLE_CODES
from games.families.mafia.engine.state import (
    MODES,
    NUMBERS,
    PASS,
    SLAUGHTER,
)

__all__ = [
    "MODERATOR_MOVES",
    "TIMER_KINDS",
    "VOTE_KINDS",
    "Action",
    "CloseVote",
    "ConfirmNight",
    "EndDay",
    "Inquiry",
    "Kick",
    "MiddaySleep",
    "NightMove",
    "StartTimer",
    "StartVote",
    "Vote",
    "Warn",
    "parse_action",
]

TIMER_KINDS = ("confer", "colonel_speech", "defence")
VOTE_KINDS = ("defence", "exit")
_NIGHT_KEYS = frozenset({"number", "target", "targets", "mode", "guess"})


@dataclass(frozen=True, slots=True)
class NightMove:
    """A tap at a night step or a midday sleep: ``choose`` (the awake role's real
    choice) or ``tap`` (everyone else: same fields, no effect).

    ``keys`` are the fields the JSON carried; the step's form says which it needs.
    """

    choose: bool
    keys: frozenset[str]
    number: int | None = None
    target: int | None = None
    targets: tuple[int, ...] = ()
    mode: str | None = None
    guess: str | None = None

    @property
    def type(self) -> str:
        return "choose" if self.choose else "tap"

    def to_dict(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"type": self.type}
        for key in sorted(self.keys):
            value = getattr(self, key)
            shown[key] = list(value) if key == "targets" else value
        return shown


@dataclass(frozen=True, slots=True)
class Vote:
    """A ballot: every candidate this player votes for (none, one or several)."""

    candidates: tuple[int, ...]
    type: ClassVar[str] = "vote"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "vote", "candidates": list(self.candidates)}


@dataclass(frozen=True, slots=True)
class ConfirmNight:
    """The moderator confirms the computed resolution: the morning is announced."""

    type: ClassVar[str] = "confirm_night"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class Inquiry:
    """The moderator calls one of the two inquiries of those who have left."""

    type: ClassVar[str] = "inquiry"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class MiddaySleep:
    """The moderator calls the colonel's (first or second) midday sleep."""

    type: ClassVar[str] = "midday"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class StartTimer:
    """A speech countdown: ``confer`` (the mafia's minute), ``colonel_speech`` (30 s,
    one of the two the colonel named), ``defence`` (the house's length, a defended
    player).  The engine has no clock: the platform counts from this action's time."""

    kind: str
    subject: int | None
    type: ClassVar[str] = "timer"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "kind": self.kind, "subject": self.subject}


@dataclass(frozen=True, slots=True)
class StartVote:
    """Open the day's vote to send players to defence, or the exit vote."""

    vote: str
    type: ClassVar[str] = "start_vote"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "vote": self.vote}


@dataclass(frozen=True, slots=True)
class CloseVote:
    """Close the open vote before every ballot is in (a missing ballot is empty)."""

    type: ClassVar[str] = "close_vote"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class EndDay:
    """End the day: the next night begins."""

    type: ClassVar[str] = "end_day"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class Warn:
    target: int
    type: ClassVar[str] = "warn"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "target": self.target}


@dataclass(frozen=True, slots=True)
class Kick:
    """A kick, with or without earlier warnings: the player leaves with the next
    night's dead."""

    target: int
    type: ClassVar[str] = "kick"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "target": self.target}


Action = (
    NightMove
    | Vote
    | ConfirmNight
    | Inquiry
    | MiddaySleep
    | StartTimer
    | StartVote
    | CloseVote
    | EndDay
    | Warn
    | Kick
)

MODERATOR_MOVES: frozenset[type] = frozenset(
    {
        ConfirmNight,
        Inquiry,
        MiddaySleep,
        StartTimer,
        StartVote,
        CloseVote,
        EndDay,
        Warn,
        Kick,
    }
)
"""The moves only the moderator makes (the rest only players make)."""


def _malformed(detail: str) -> MalformedAction:
    return MalformedAction(detail=detail)


def _seat(value: object, players: int) -> int:
    """A seat named in an action: a real int (not a bool) of this table."""
    if type(value) is not int:
        raise _malformed(f"a seat must be an int, not {type(value).__name__}")
    if not 0 <= value < players:
        raise BadTarget(target=value)
    return value


def _only(action: Mapping[Any, Any], *wanted: str) -> None:
    keys = set(action) - {"type"}
    if keys != set(wanted):
        raise _malformed(
            f"a {action['type']} action has exactly 'type' and {sorted(wanted)}, "
            f"got {sorted(map(str, action))}"
        )


def _night(action: Mapping[Any, Any], players: int) -> NightMove:
    keys = frozenset(action) - {"type"}
    if not keys <= _NIGHT_KEYS:
        raise _malformed(f"unknown keys {sorted(map(str, keys - _NIGHT_KEYS))}")
    fields: dict[str, Any] = {}
    if "number" in keys:
        number = action["number"]
        if type(number) is not int or number not in NUMBERS:
            raise _malformed("'number' must be an int from 1 to 5")
        fields["number"] = number
    if "target" in keys:
        target = action["target"]
        fields["target"] = None if target is None else _seat(target, players)
    if "targets" in keys:
        targets = action["targets"]
        if not isinstance(targets, list | tuple):
            raise _malformed("'targets' must be a list of seats")
        seats = tuple(_seat(seat, players) for seat in targets)
        if len(set(seats)) != len(seats):
            raise DuplicateTarget(targets=list(seats))
        fields["targets"] = seats
    if "mode" in keys:
        mode = action["mode"]
        if type(mode) is not str or mode not in MODES:
            raise _malformed(f"'mode' must be one of {list(MODES)}")
        fields["mode"] = mode
    if "guess" in keys:
        guess = action["guess"]
        if guess is not None and (type(guess) is not str or guess not in ROLE_CODES):
            raise _malformed("'guess' must be a role code or null")
        fields["guess"] = guess
    if "mode" in fields:
        mode = fields["mode"]
        guess, target = fields.get("guess"), fields.get("target")
        if (guess is not None) != (mode == SLAUGHTER) or (
            (target is None) != (mode == PASS)
        ):
            raise GuessMismatch(mode=mode)
    return NightMove(action["type"] == "choose", keys, **fields)


def _vote(action: Mapping[Any, Any], players: int) -> Vote:
    _only(action, "candidates")
    candidates = action["candidates"]
    if not isinstance(candidates, list | tuple):
        raise _malformed("'candidates' must be a list of seats")
    seats = tuple(_seat(seat, players) for seat in candidates)
    if len(set(seats)) != len(seats):
        raise DuplicateTarget(targets=list(seats))
    return Vote(tuple(sorted(seats)))


def _bare(move: Callable[[], Action]) -> Callable[[Mapping[Any, Any], int], Action]:
    def parse(action: Mapping[Any, Any], players: int) -> Action:
        _only(action)
        return move()

    return parse


def _timer(action: Mapping[Any, Any], players: int) -> StartTimer:
    _only(action, "kind", "subject")
    kind, subject = action["kind"], action["subject"]
    if type(kind) is not str or kind not in TIMER_KINDS:
        raise _malformed(f"'kind' must be one of {list(TIMER_KINDS)}")
    return StartTimer(kind, None if subject is None else _seat(subject, players))


def _start_vote(action: Mapping[Any, Any], players: int) -> StartVote:
    _only(action, "vote")
    vote = action["vote"]
    if type(vote) is not str or vote not in VOTE_KINDS:
        raise _malformed(f"'vote' must be one of {list(VOTE_KINDS)}")
    return StartVote(vote)


def _warn(action: Mapping[Any, Any], players: int) -> Warn:
    _only(action, "target")
    return Warn(_seat(action["target"], players))


def _kick(action: Mapping[Any, Any], players: int) -> Kick:
    _only(action, "target")
    return Kick(_seat(action["target"], players))


_PARSERS: dict[str, Callable[[Mapping[Any, Any], int], Action]] = {
    "choose": _night,
    "tap": _night,
    "vote": _vote,
    "confirm_night": _bare(ConfirmNight),
    "inquiry": _bare(Inquiry),
    "midday": _bare(MiddaySleep),
    "timer": _timer,
    "start_vote": _start_vote,
    "close_vote": _bare(CloseVote),
    "end_day": _bare(EndDay),
    "warn": _warn,
    "kick": _kick,
}


def parse_action(action: object, players: int) -> Action:
    """The action object for a JSON action (or a re-checked action object).

    Raises :class:`MalformedAction` for anything but the documented shapes: unknown
    type, missing or extra keys, a bool where a seat is expected, a seat that is not
    at this table (:class:`BadTarget`), a seat named twice
    (:class:`.errors.DuplicateTarget`), a General's choice whose mode does not match
    its target and guess (:class:`.errors.GuessMismatch`).
    """
    if isinstance(action, Mapping):
        kind = action.get("type")
        parser = _PARSERS.get(kind) if type(kind) is str else None
        if parser is None:
            raise _malformed(f"unknown action type {kind!r}")
        return parser(action, players)
    to_dict = getattr(action, "to_dict", None)
    if type(action) in MODERATOR_MOVES or type(action) in (NightMove, Vote):
        # An object built in code skips JSON but not the checks.
        assert to_dict is not None
        try:
            as_dict = to_dict()
        except (TypeError, AttributeError):
            raise _malformed(f"a broken {type(action).__name__} object") from None
        return parse_action(as_dict, players)
    raise _malformed(f"an action is a mapping, not {type(action).__name__}")
