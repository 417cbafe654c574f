"""Reading a page's form fields as a move.

A move arrives as form fields: a plain POST (a QueryDict) or the same form sent over
the socket by htmx's ws extension as JSON. A family's ``MoveCodec.parse`` reads them
with these helpers and raises :class:`NotAMove` for anything malformed: the engine
never sees it, and the player reads "That move is not understood."
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from games.errors import BadAction


class NotAMove(BadAction):
    """Form fields that name no move of the game."""


def field_values(fields: Any, name: str) -> list[str]:
    """All values of a field from a QueryDict or a JSON object (where a single
    checked box comes as a string and several as a list)."""
    if hasattr(fields, "getlist"):
        return [str(v) for v in fields.getlist(name)]
    value = fields.get(name)
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)]


def field_one(fields: Any, name: str) -> str:
    """The single value of a field; a missing or repeated field is not a move."""
    values = field_values(fields, name)
    if len(values) != 1:
        raise NotAMove
    return values[0].strip()


def field_int(text: str) -> int:
    """A small whole number in ASCII digits only. ``str.isdigit`` also accepts "²"
    and "①" (which ``int`` then refuses) and other scripts' digits such as "٣"
    (which ``int`` reads as 3): our own pages always send ASCII digits, so anything
    else is a forged or garbled field, refused before the engine sees it."""
    if not (1 <= len(text) <= 3 and text.isascii() and text.isdigit()):
        raise NotAMove
    return int(text)


def field_ints(fields: Any, name: str) -> list[int]:
    """Every value of a field as a small whole number (a team, a pair of seats)."""
    return [field_int(value.strip()) for value in field_values(fields, name)]


def field_choice(fields: Any, name: str, choices: Collection[str]) -> str:
    """The single value of a field, one of ``choices``."""
    value = field_one(fields, name)
    if value not in choices:
        raise NotAMove
    return value
