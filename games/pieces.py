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
import re
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


_NAMES: dict[type, str] = {}


def _named(kind: type) -> str:
    """A class of the site's own (a dataclass, an enumeration) as text for a key:
    unlike the class itself, a key made of text and numbers alone is one the
    garbage collector stops looking at (it untracks a tuple of such values, a
    level of nesting at each collection it lives through), and thousands of
    pieces are kept. The name is the class's own with its identity: two classes
    never share one (the table holds each class it names, so none is ever freed
    and its identity taken)."""
    name = _NAMES.get(kind)
    if name is None:
        name = _NAMES.setdefault(
            kind, f"{kind.__module__}.{kind.__qualname__}@{id(kind):x}"
        )
    return name


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
        return (_named(kind), tuple(frozen(item, language) for item in fields(value)))
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
        return (_named(kind), value.value)
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
    _swaps_from: tuple[str, list[str] | None] | None = None


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


def swaps(old: str | None, new: str) -> list[str] | None:
    """What a socket that last sent ``old`` must send for the part to be ``new``,
    piece by piece (:func:`_piecewise`); None when the whole part must go (a piece
    went or moved, something outside the pieces changed, or most of it changed)."""
    if not isinstance(old, Pieced) or not isinstance(new, Pieced):
        return None
    if len(old.pieces) > len(new.pieces) or old.pieces == new.pieces:
        return None
    # Every seat's push of a shared part asks this of the same two drawings.
    known = new._swaps_from
    if known is not None and known[0] is old:
        return known[1]
    found = _piecewise(old, new)
    new._swaps_from = (old, found)
    return found


_ELEMENT = re.compile(r'<([a-z][a-z0-9]*)\b[^>]*?\sid="([A-Za-z][\w-]*)"')
_HELD_BY_A_TABLE = frozenset({"tbody", "thead", "tfoot", "caption", "colgroup"})
_HELD_BY_A_ROW = frozenset({"tr", "td", "th", "col"})
"""Elements a browser parses only inside a table (or a table's row): a frame that
holds one at its top level loses it, so it travels inside a ``<table>``, or not on
its own at all."""


def _element(piece: str) -> tuple[str, str] | None:
    """(tag, id) of a piece that is an element with an id (one a CSS selector can
    name as ``#id``), else None."""
    found = _ELEMENT.match(piece)
    return (found[1], found[2]) if found else None


def _spans(html: Pieced) -> list[tuple[int, int]] | None:
    """Where each of ``html``'s pieces stands in it, in order."""
    found = []
    at = 0
    for piece in html.pieces:
        start = html.find(piece, at)
        if start < 0:
            return None
        at = start + len(piece)
        found.append((start, at))
    return found


def _piecewise(old: Pieced, new: Pieced) -> list[str] | None:
    """A part whose pieces only changed or came in among the old ones (a seat's row,
    a new row of the vote grid, a new line of the log, a row's result filled in):
    each changed piece by its id (htmx's socket extension swaps each element of a
    frame in for the one with its id), and each run of new pieces inserted beside an
    old piece it stands next to (htmx's ``hx-swap-oob="beforebegin:#next"`` or
    ``"afterend:#previous"``, which move in the children of the element that
    carries it: a ``<div>``, or a ``<table>`` for a table's row groups). A changed
    piece that a frame cannot carry on its own (a ``<tbody>``) goes out
    (``"delete:#it"``) and comes back in as a new one. The result is checked by
    doing it to ``old``'s HTML: it must give ``new``'s character for character.
    None when it does not, or when what would go is most of the part anyway."""
    olds = [_element(piece) for piece in old.pieces]
    news = [_element(piece) for piece in new.pieces]
    if None in olds or None in news:
        return None
    old_ids = [found[1] for found in olds if found]
    new_ids = [found[1] for found in news if found]
    tags = [found[0] for found in news if found]
    was = {ident: index for index, ident in enumerate(old_ids)}
    if len(set(new_ids)) != len(new_ids) or len(was) != len(old_ids):
        return None
    if [ident for ident in new_ids if ident in was] != old_ids:
        return None  # a piece went, or moved
    spans = _spans(new)
    if spans is None:
        return None
    html = str(new)
    count = len(new_ids)
    # Pieces put in afresh: the new ones, and the changed ones no frame can carry.
    placed = [False] * count
    gone: list[tuple[str, str]] = []  # (the old piece, its id)
    swapped: list[tuple[str, str]] = []
    for index, ident in enumerate(new_ids):
        if ident not in was:
            placed[index] = True
            continue
        before = old.pieces[was[ident]]
        if before == new.pieces[index]:
            continue
        if tags[index] in _HELD_BY_A_TABLE:
            placed[index] = True
            gone.append((before, ident))
        elif tags[index] in _HELD_BY_A_ROW:
            return None
        else:
            swapped.append((before, new.pieces[index]))
    frame = [f'<div hx-swap-oob="delete:#{ident}"></div>' for _piece, ident in gone]
    frame += [piece for _before, piece in swapped]
    inserts: list[tuple[str, str, str]] = []  # (where, anchor's HTML, what goes in)
    index = 0
    while index < count:
        if not placed[index]:
            index += 1
            continue
        # A run of pieces side by side (only white space between them: one list's,
        # one table's), put in beside a piece of the same list that stays.
        end = index + 1
        while (
            end < count
            and placed[end]
            and not html[spans[end - 1][1] : spans[end][0]].strip()
        ):
            end += 1
        run = set(tags[index:end])
        if run <= _HELD_BY_A_TABLE:
            wrapper = "table"
        elif run & (_HELD_BY_A_TABLE | _HELD_BY_A_ROW):
            return None
        else:
            wrapper = "div"
        if end < count and not html[spans[end - 1][1] : spans[end][0]].strip():
            anchor = end
            what = html[spans[index][0] : spans[end][0]]
            where = "beforebegin"
        elif index > 0 and not html[spans[index - 1][1] : spans[index][0]].strip():
            anchor = index - 1
            what = html[spans[index - 1][1] : spans[end - 1][1]]
            where = "afterend"
        else:
            return None
        if placed[anchor]:
            return None  # the piece beside it must be there already
        frame.append(
            f'<{wrapper} hx-swap-oob="{where}:#{new_ids[anchor]}">{what}</{wrapper}>'
        )
        inserts.append((where, new.pieces[anchor], what))
        index = end
    if 2 * sum(len(swap) for swap in frame) > len(new):
        return None
    # Done to the old HTML in the frame's order, it must give the new.
    done = str(old)
    for piece, _ident in gone:
        done = done.replace(piece, "", 1)
    for before, piece in swapped:
        done = done.replace(before, piece, 1)
    for where, anchor_html, what in inserts:
        if where == "beforebegin":
            done = done.replace(anchor_html, what + anchor_html, 1)
        else:
            done = done.replace(anchor_html, anchor_html + what, 1)
    return frame if done == html else None


def kept() -> tuple[int, int]:
    """How many pieces this process keeps, and their HTML's size in characters."""
    found = _drawn.values()
    return len(found), sum(len(html) for html in found)


def forget_all() -> None:
    """Tests call this between runs."""
    _drawn.clear()
    _texts.clear()
