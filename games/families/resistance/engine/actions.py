"""The moves of the Resistance family and their JSON form.

The JSON dict is what the database stores and the API carries; :func:`parse_action`
turns it into one of the small frozen classes here, checking its shape and that every
seat it names exists.  Whether the move is allowed *now* is for :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine.core import BadTarget, MalformedAction
from games.families.resistance.engine.errors import DuplicateMember
from games.families.resistance.engine.sides import Side
from games.families.resistance.engine.state import CARDS

__all__ = [
    "Action",
    "Check",
    "Claim",
    "Play",
    "Propose",
    "Shoot",
    "Vote",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Propose:
    """The leader names the team for the current mission."""

    team: tuple[int, ...]
    type: ClassVar[str] = "propose"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "propose", "team": list(self.team)}


@dataclass(frozen=True, slots=True)
class Vote:
    """A voter approves or rejects the proposed team."""

    approve: bool
    type: ClassVar[str] = "vote"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "vote", "approve": self.approve}


@dataclass(frozen=True, slots=True)
class Play:
    """A team member plays a mission card, ``"success"`` or ``"fail"``."""

    card: str
    type: ClassVar[str] = "play"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "card": self.card}


@dataclass(frozen=True, slots=True)
class Check:
    """The check-token holder checks another player's side."""

    target: int
    type: ClassVar[str] = "check"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "check", "target": self.target}


@dataclass(frozen=True, slots=True)
class Claim:
    """The holder announces a side for the player just checked, true or not."""

    side: Side
    type: ClassVar[str] = "claim"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "claim", "side": str(self.side)}


@dataclass(frozen=True, slots=True)
class Shoot:
    """The sniper shoots one other player, hoping to hit the scout."""

    target: int
    type: ClassVar[str] = "shoot"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "shoot", "target": self.target}


Action = Propose | Vote | Play | Check | Claim | Shoot

_SIDES = {"good": Side.GOOD, "evil": Side.EVIL}


def _malformed(detail: str) -> MalformedAction:
    return MalformedAction(detail=detail)


def _seat(value: object, players: int) -> int:
    """A seat named in an action: a real int (not a bool) of this table."""
    if type(value) is not int:
        raise _malformed(f"a seat must be an int, not {type(value).__name__}")
    if not 0 <= value < players:
        raise BadTarget(target=value)
    return value


def _fields(action: Mapping[Any, Any], wanted: str) -> Any:
    """The one field besides ``type`` that an action of this type carries."""
    if len(action) != 2 or wanted not in action:
        keys = sorted(map(str, action))
        raise _malformed(
            f"a {action['type']} action has exactly 'type' and {wanted!r}, got {keys}"
        )
    return action[wanted]


def _propose(action: Mapping[Any, Any], players: int) -> Propose:
    team = _fields(action, "team")
    if not isinstance(team, list | tuple):
        raise _malformed("the team must be a list of seats")
    seats = tuple(_seat(member, players) for member in team)
    if len(set(seats)) != len(seats):
        raise DuplicateMember(team=list(seats))
    return Propose(seats)


def _vote(action: Mapping[Any, Any], players: int) -> Vote:
    approve = _fields(action, "approve")
    if type(approve) is not bool:
        raise _malformed("'approve' must be true or false")
    return Vote(approve)


def _play(action: Mapping[Any, Any], players: int) -> Play:
    card = _fields(action, "card")
    if card not in CARDS or type(card) is not str:
        raise _malformed("'card' must be 'success' or 'fail'")
    return Play(card)


def _check(action: Mapping[Any, Any], players: int) -> Check:
    return Check(_seat(_fields(action, "target"), players))


def _claim(action: Mapping[Any, Any], players: int) -> Claim:
    side = _fields(action, "side")
    if type(side) is not str or side not in _SIDES:
        raise _malformed("'side' must be 'good' or 'evil'")
    return Claim(_SIDES[side])


def _shoot(action: Mapping[Any, Any], players: int) -> Shoot:
    return Shoot(_seat(_fields(action, "target"), players))


_PARSERS: dict[str, Callable[[Mapping[Any, Any], int], Action]] = {
    "propose": _propose,
    "vote": _vote,
    "play": _play,
    "check": _check,
    "claim": _claim,
    "shoot": _shoot,
}


def parse_action(action: object, players: int) -> Action:
    """The action object for a JSON action (or a re-checked action object).

    Raises :class:`MalformedAction` for anything but exactly the documented shape:
    unknown type, missing or extra keys, a bool where a seat is expected, a seat that
    is not at this table (:class:`BadTarget`), a repeated team member
    (:class:`DuplicateMember`).
    """
    if type(action) is dict or isinstance(action, Mapping):
        kind = action.get("type")
        parser = _PARSERS.get(kind) if type(kind) is str else None
        if parser is None:
            raise _malformed(f"unknown action type {kind!r}")
        return parser(action, players)
    if isinstance(action, Propose | Vote | Play | Check | Claim | Shoot):
        # An object built in code skips JSON but not the checks.
        try:
            as_dict = action.to_dict()
        except TypeError:
            raise _malformed(f"a broken {type(action).__name__} object") from None
        return parse_action(as_dict, players)
    raise _malformed(f"an action is a mapping, not {type(action).__name__}")
