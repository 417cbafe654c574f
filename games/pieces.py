"""A piece of a template drawn once for every equal set of values: ``{% piece %}``.

A shared region is drawn again whenever anything in it changed (``games.drawn``), and
most of it did not: a vote changes one seat's row of the board, not the other nine;
the vote grid and the log only grow, and their finished rows never change. A
``{% piece %}`` block in such a region names the values its markup is made from::

    {% load pieces %}
    {% for row in board.seats %}
      {% piece row leader=board.words.leader %}
        <li>{{ row.name }} {{ leader }}</li>
      {% endpiece %}
    {% endfor %}

and is drawn from those values alone: its block sees nothing but them (``row`` and
``leader`` here; a name it did not list is simply not there), so its HTML is a function
of the values and the active language, and a process keeps it by both
(:data:`_drawn`). Ten seats' rows of which one changed cost one drawing and nine
look-ups. Values are compared as plain data (:func:`frozen`): text (marked safe or
not), numbers, booleans, None, and lists, tuples, dicts and dataclasses of them; a
block given anything else is drawn every time, as if it had no tag.

The values a block names come from the region's context, so a piece holds nothing
that its region does not: it is a cache of the region's own drawing, per process,
bounded (:data:`PIECES_KEPT`), and never shared between languages.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import enum
from collections.abc import Hashable, Iterator
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.safestring import SafeData, SafeString

from games.cache import LRU
from games.drawn import FIELDS, fields_of

PIECES_KEPT = 8192
"""Pieces kept per process: a row is a few hundred bytes, so a few megabytes at most."""

_drawn: LRU[tuple[Hashable, ...], str] = LRU(PIECES_KEPT)
_bypassed: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "pieces_bypassed", default=False
)


class NotPlain(Exception):
    """A value a piece cannot be filed by (the block is then drawn every time)."""


_PLAIN_SCALARS = frozenset({str, int, bool, float, type(None)})


def frozen(value: Any, language: str | None = None) -> Hashable:
    """A hashable that is equal for two values exactly when a template prints them
    the same: the type of a scalar counts (``1`` and ``True`` print differently, and
    so do a safe string and a plain one with the same text), a lazy text is taken in
    the active language (``language``, when the caller has it already)."""
    kind = type(value)
    if kind in _PLAIN_SCALARS:
        return (kind, value)
    if kind is list or kind is tuple:
        return (kind, tuple(frozen(item, language) for item in value))
    fields = FIELDS.get(kind)
    if fields is not None:
        return (kind, tuple(frozen(item, language) for item in fields(value)))
    if kind is dict:
        return (
            dict,
            tuple((frozen(k, language), frozen(v, language)) for k, v in value.items()),
        )
    if isinstance(value, SafeData) and isinstance(value, str):
        return ("safe", str(value))
    if isinstance(value, Promise):
        return ("lazy", text_of(value, language or translation.get_language()))
    if isinstance(value, enum.Enum):
        return (kind, value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        FIELDS[kind] = fields_of(kind)
        return frozen(value, language)
    raise NotPlain(kind.__name__)


TEXTS_KEPT = 4096
"""Lazy texts kept translated, per language: the labels of the site's few hundred
messages, a few hundred kilobytes at most."""

_texts: LRU[tuple[int, str], tuple[Promise, str]] = LRU(TEXTS_KEPT)


def text_of(value: Promise, language: str) -> str:
    """A lazy text in ``language`` (the active one), translated once per process and
    language. The rows of a shared region carry the same few lazy labels ("voted",
    "waiting", a side's name), and filing each row's piece took each of them through
    the whole translation machinery again: some thirty times a board, a tenth of its
    drawing. Filed by the object's identity and checked against it: the entry holds
    the object, so no other object can take its identity while it is filed."""
    key = (id(value), language)
    found = _texts.get(key)
    if found is not None and found[0] is value:
        return found[1]
    text = str(value)
    _texts.put(key, (value, text))
    return text


def find(key: tuple[Hashable, ...]) -> str | None:
    return None if _bypassed.get() else _drawn.get(key)


def keep(key: tuple[Hashable, ...], html: str) -> None:
    if not _bypassed.get():
        _drawn.put(key, html)


@contextlib.contextmanager
def bypassed() -> Iterator[None]:
    """Every piece drawn afresh and none kept, inside the block: what a test
    compares the kept ones with."""
    token = _bypassed.set(True)
    try:
        yield
    finally:
        _bypassed.reset(token)


class Pieced(SafeString):
    """A part's HTML that knows the pieces it holds, in order (each one's HTML is
    in it as it stands). A push compares it with what a socket last sent: when
    only pieces changed, it sends just those (:func:`swaps`)."""

    pieces: tuple[str, ...] = ()
    _skeleton: str | None = None


def marked(html: str) -> SafeString:
    """``html`` marked safe, as ``mark_safe`` marks a str, for a template's own output
    (a str, never a lazy text): the same object when it is marked already, which
    every seat's shared part relies on. ``mark_safe`` first asks, on every call,
    whether any argument is lazy: a tenth of a seat's push was spent asking that of
    parts that never are."""
    if isinstance(html, SafeData):
        return html  # type: ignore[return-value]
    return SafeString(html)


def pieced(html: str, found: tuple[str, ...]) -> str:
    """``html`` that knows its pieces (``html`` itself when it has none)."""
    if not found:
        return html
    made = Pieced(html)
    made.pieces = found
    return made


_NOT_FOUND = "\x00not found\x00"


def skeleton(html: Pieced) -> str:
    """``html`` with each of its pieces cut out (what stays the same when only
    pieces change); kept on the string, which every seat's push shares."""
    if html._skeleton is None:
        around = []
        at = 0
        for piece in html.pieces:
            start = html.find(piece, at)
            if start < 0:
                html._skeleton = _NOT_FOUND
                break
            around.append(html[at:start])
            at = start + len(piece)
        else:
            around.append(html[at:])
            html._skeleton = "\x00".join(around)
    return html._skeleton


_IN_TABLES = ("<tr", "<td", "<th", "<tbody", "<thead", "<tfoot", "<caption", "<col")
"""Elements a browser parses only inside a table: a frame that holds one at its top
level loses it (and what follows it), so such a row goes with its whole part."""


def _has_id(piece: str) -> bool:
    """Whether the piece is one element with an id, to be swapped in by it, that a
    frame can carry on its own."""
    end = piece.find(">")
    if not piece.startswith("<") or end < 0 or ' id="' not in piece[:end]:
        return False
    tag = piece[: min(i for i in (piece.find(" "), end) if i > 0)]
    return tag not in _IN_TABLES


def swaps(old: str | None, new: str) -> list[str] | None:
    """The pieces of ``new`` that are not ``old``'s, when nothing else of the part
    changed and each is an element with an id (htmx's socket extension swaps each
    element of a frame in for the one with its id); None when the whole part must
    go (its shape changed, a row came or went, or most of it changed)."""
    if not isinstance(old, Pieced) or not isinstance(new, Pieced):
        return None
    if len(old.pieces) != len(new.pieces):
        return None
    changed = [n for o, n in zip(old.pieces, new.pieces, strict=True) if o != n]
    if not changed or not all(_has_id(piece) for piece in changed):
        return None
    if 2 * sum(len(piece) for piece in changed) > len(new):
        return None
    shape = skeleton(new)
    if shape is _NOT_FOUND or skeleton(old) != shape:
        return None
    return changed


def kept() -> tuple[int, int]:
    """How many pieces this process keeps, and their HTML's size in characters."""
    found = _drawn.values()
    return len(found), sum(len(html) for html in found)


def forget_all() -> None:
    """Tests call this between runs."""
    _drawn.clear()
    _texts.clear()
