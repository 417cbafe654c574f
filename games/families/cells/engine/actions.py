"""The moves of ``cells`` and their JSON form.

The JSON dict is what the database stores and the API carries; :func:`parse_action`
turns it into one of the small frozen classes here, checking its shape and that every
seat it names exists.  Whether the move is allowed *now* is for :mod:`.rules`.  Slots
travel as their names (``"left"``, ``"centre"``, ``"right"``) and are held as indexes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine.core import BadTarget, MalformedAction
from games.families.cells.engine.state import COLOURS, SLOTS

__all__ = [
    "Action",
    "Confirm",
    "Discard",
    "Exchange",
    "Mission",
    "Peek",
    "Swap",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Confirm:
    """A player has seen their three cards; play starts once everyone has."""

    type: ClassVar[str] = "confirm"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "confirm"}


@dataclass(frozen=True, slots=True)
class Swap:
    """Take one of your cards and another player's left or right card, and look."""

    mine: int
    player: int
    theirs: int
    type: ClassVar[str] = "swap"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "swap",
            "mine": SLOTS[self.mine],
            "player": self.player,
            "theirs": SLOTS[self.theirs],
        }


@dataclass(frozen=True, slots=True)
class Exchange:
    """The swapper gives each card back: exchanged or each to where it was."""

    exchange: bool
    type: ClassVar[str] = "exchange"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "exchange", "exchange": self.exchange}


@dataclass(frozen=True, slots=True)
class Mission:
    """Go on a mission with another player as partner."""

    partner: int
    type: ClassVar[str] = "mission"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "mission", "partner": self.partner}


@dataclass(frozen=True, slots=True)
class Peek:
    """Spend the turn looking at one of your touched cards."""

    slot: int
    type: ClassVar[str] = "peek"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "peek", "slot": SLOTS[self.slot]}


@dataclass(frozen=True, slots=True)
class Discard:
    """Put one mission card of this colour face down (leader, then partner)."""

    card: str
    type: ClassVar[str] = "discard"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "discard", "card": self.card}


Action = Confirm | Swap | Exchange | Mission | Peek | Discard

_SLOT_INDEX = {name: index for index, name in enumerate(SLOTS)}


def _malformed(detail: str) -> MalformedAction:
    return MalformedAction(detail=detail)


def _wrong_keys(action: Mapping[Any, Any], *wanted: str) -> MalformedAction:
    keys = sorted(map(str, action))
    expected = ["type", *wanted]
    return _malformed(f"a {action['type']} action has exactly {expected}, got {keys}")


def _field(action: Mapping[Any, Any], wanted: str) -> Any:
    """The one field besides ``type`` that an action of this type carries."""
    if len(action) != 2 or wanted not in action:
        raise _wrong_keys(action, wanted)
    return action[wanted]


def _seat(value: object, players: int) -> int:
    """A seat named in an action: a real int (not a bool) of this table."""
    if type(value) is not int:
        raise _malformed(f"a seat must be an int, not {type(value).__name__}")
    if not 0 <= value < players:
        raise BadTarget(target=value)
    return value


def _slot(value: object, field: str) -> int:
    index = _SLOT_INDEX.get(value) if type(value) is str else None
    if index is None:
        raise _malformed(f"{field!r} must be 'left', 'centre' or 'right'")
    return index


def _confirm(action: Mapping[Any, Any], players: int) -> Confirm:
    if len(action) != 1:
        raise _malformed("a confirm action has only 'type'")
    return _CONFIRM


def _swap(action: Mapping[Any, Any], players: int) -> Swap:
    if (
        len(action) != 4
        or "mine" not in action
        or "player" not in action
        or "theirs" not in action
    ):
        raise _wrong_keys(action, "mine", "player", "theirs")
    return Swap(
        _slot(action["mine"], "mine"),
        _seat(action["player"], players),
        _slot(action["theirs"], "theirs"),
    )


def _exchange(action: Mapping[Any, Any], players: int) -> Exchange:
    exchange = _field(action, "exchange")
    if type(exchange) is not bool:
        raise _malformed("'exchange' must be true or false")
    return _EXCHANGE if exchange else _KEEP


def _mission(action: Mapping[Any, Any], players: int) -> Mission:
    return Mission(_seat(_field(action, "partner"), players))


def _peek(action: Mapping[Any, Any], players: int) -> Peek:
    return Peek(_slot(_field(action, "slot"), "slot"))


def _discard(action: Mapping[Any, Any], players: int) -> Discard:
    card = _field(action, "card")
    if type(card) is not str or card not in COLOURS:
        raise _malformed("'card' must be 'blue' or 'red'")
    return Discard(card)


_CONFIRM = Confirm()
_EXCHANGE = Exchange(True)
_KEEP = Exchange(False)

_PARSERS: dict[str, Callable[[Mapping[Any, Any], int], Action]] = {
    "confirm": _confirm,
    "swap": _swap,
    "exchange": _exchange,
    "mission": _mission,
    "peek": _peek,
    "discard": _discard,
}


def parse_action(action: object, players: int) -> Action:
    """The action object for a JSON action (or a re-checked action object).

    Raises :class:`MalformedAction` for anything but exactly the documented shape:
    unknown type, missing or extra keys, a bool where a seat is expected, an unknown
    slot or colour, a seat that is not at this table (:class:`BadTarget`).
    """
    if type(action) is dict or isinstance(action, Mapping):
        kind = action.get("type")
        parser = _PARSERS.get(kind) if type(kind) is str else None
        if parser is None:
            raise _malformed(f"unknown action type {kind!r}")
        return parser(action, players)
    if isinstance(action, Confirm | Swap | Exchange | Mission | Peek | Discard):
        # An object built in code skips JSON but not the checks.
        try:
            as_dict = action.to_dict()
        except (TypeError, IndexError):
            raise _malformed(f"a broken {type(action).__name__} object") from None
        return parse_action(as_dict, players)
    raise _malformed(f"an action is a mapping, not {type(action).__name__}")
