"""The leak oracle's door: every fact a viewer may not know, and the ones a payload
gives away, for any game; and the scanner the families' oracles share.

The oracle is a companion for tests and benchmarks, not part of a game's runtime: each
family keeps its own in ``games/families/<family>/engine/oracle.py`` (module-level
``secrets(state, seat)`` and ``find_leaks(state, seat, payload, words=None)``), and this
module finds it through the state's ruleset.  Pages, sockets and the API never call it;
tests run it over everything those send.

What every family's oracle reads the same way is here: a payload as JSON data or as
HTML (:func:`scan`), seat numbers in it (:func:`seat_of`), the path to a value
(:func:`render`), and an HTML page's elements with the seat each is about and the
text shown in it (:class:`SeatScanner`). A family says which marks and words are
secrets.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from html.parser import HTMLParser
from importlib import import_module
from types import ModuleType
from typing import Any

__all__ = [
    "LEAVES",
    "Element",
    "SeatScanner",
    "Where",
    "all_seat_keys",
    "find_leaks",
    "oracle_for",
    "render",
    "scan",
    "seat_of",
    "seats_named",
    "secrets",
]


def oracle_for(state: Any) -> ModuleType:
    """The oracle module of ``state``'s family."""
    return import_module(f"games.families.{state.ruleset.family}.engine.oracle")


def secrets(state: Any, seat: int | None, **perspective: Any) -> list[Any]:
    """Every fact ``seat`` may not know at this point (the leak oracle's list).

    ``perspective`` takes the same ``after``/``own`` as :func:`games.engine.view` for a
    replay's step, when the family's oracle supports it."""
    result: list[Any] = oracle_for(state).secrets(state, seat, **perspective)
    return result


def find_leaks(
    state: Any,
    seat: int | None,
    payload: Any,
    words: Mapping[str, Sequence[str]] | None = None,
    **perspective: Any,
) -> list[Any]:
    """The secrets of ``seat`` that ``payload`` (dict, JSON or HTML) gives away."""
    result: list[Any] = oracle_for(state).find_leaks(
        state, seat, payload, words, **perspective
    )
    return result


# --- what the families' oracles share ------------------------------------------------

Where = Any
"""Where a value is in a payload: ``"$"``, or ``(where, key)`` one level down."""

LEAVES = frozenset({str, int, bool, float, type(None)})
"""The types of a JSON value with nothing inside."""

VOID = frozenset(
    {
        "area", "base", "br", "col", "embed", "hr", "img", "input",
        "link", "meta", "source", "track", "wbr",
    }
)  # fmt: skip
"""HTML elements without an end tag."""


def render(where: Where) -> str:
    """A value's path as text: ``$.seats[2].role``."""
    parts = []
    while type(where) is tuple:
        where, key = where
        parts.append(f"[{key}]" if type(key) is int else f".{key}")
    return str(where) + "".join(reversed(parts))


def seat_of(value: object) -> int | None:
    """A seat number written as an int or a string of digits (JSON object keys,
    ``data-seat`` marks)."""
    if type(value) is int:
        return value
    if type(value) is str and value.strip().isdigit():
        return int(value)
    return None


def seats_named(value: object) -> list[int]:
    """The seats a value names: one seat, or a list of them."""
    if isinstance(value, list | tuple):
        return [s for s in map(seat_of, value) if s is not None]
    seat = seat_of(value)
    return [] if seat is None else [seat]


def all_seat_keys(mapping: Mapping[Any, Any]) -> bool:
    """Whether a mapping is keyed by seats (``{"0": ..., "3": ...}``)."""
    return bool(mapping) and all(seat_of(key) is not None for key in mapping)


def scan(
    payload: Any,
    data: Callable[[Any], None],
    page: Callable[[str], None],
) -> None:
    """Hand ``payload`` to ``data`` as JSON data (a dict, a list, or bytes or text
    that parse as JSON), else to ``page`` as HTML."""
    if isinstance(payload, bytes):
        payload = payload.decode("utf-8")
    if isinstance(payload, str):
        text = payload.strip()
        if text[:1] in ("{", "["):
            with contextlib.suppress(ValueError):  # not JSON: read it as HTML
                payload = json.loads(text)
        if isinstance(payload, str):
            page(payload)
            return
    data(payload)


class Element:
    """An open element of a scanned page: its tag, the seat it is about (its
    ``data-seat``), whether its text is someone's own words that name no secret
    (``quiet``: a claim, a chat line), the text shown in it, and whatever the
    family's scanner keeps with it (``extra``)."""

    __slots__ = ("extra", "quiet", "seat", "tag", "text")

    def __init__(
        self, tag: str, seat: int | None, *, quiet: bool = False, extra: Any = None
    ) -> None:
        self.tag = tag
        self.seat = seat
        self.quiet = quiet
        self.extra = extra
        self.text: list[str] = []


class SeatScanner(HTMLParser):
    """Walks a page fragment element by element. A family's scanner says what an
    element's start shows (:meth:`opened`, which checks its marks and makes its
    :class:`Element`) and what the text of an element about a seat shows
    (:meth:`closed`, with :meth:`shows` to look for a code's words in it)."""

    def __init__(self, words: Mapping[str, Sequence[str]] | None) -> None:
        super().__init__(convert_charrefs=True)
        # Whole words only, so that one word inside another is not read as it (the
        # evil side's "traitors" is not the role "traitor").
        self.words = {
            str(code).casefold(): [
                re.compile(rf"(?<!\w){re.escape(w.casefold())}(?!\w)")
                for w in shown
                if w
            ]
            for code, shown in (words or {}).items()
        }
        self.stack: list[Element] = []

    def opened(
        self, tag: str, marks: dict[str, str], parent: Element | None
    ) -> Element:
        """The element that starts here (its marks checked)."""
        raise NotImplementedError

    def closed(self, element: Element, text: str) -> None:
        """An element about a seat ends, showing ``text`` (casefolded, read both run
        together and split at tags)."""

    def shows(self, code: object, text: str) -> bool:
        """Whether ``text`` names ``code`` in one of its words."""
        return any(p.search(text) for p in self.words.get(str(code).casefold(), ()))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        marks = {name: value or "" for name, value in attrs}
        element = self.opened(tag, marks, self.stack[-1] if self.stack else None)
        if tag in VOID:
            self._close(element)
        else:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1].tag == tag:
            self._close(self.stack.pop())

    def handle_endtag(self, tag: str) -> None:
        if not any(element.tag == tag for element in self.stack):
            return  # a stray end tag: browsers ignore it too
        while self.stack:
            element = self.stack.pop()
            self._close(element)
            if element.tag == tag:
                break

    def handle_data(self, data: str) -> None:
        for element in reversed(self.stack):
            if element.quiet:
                return
            if element.seat is not None:
                element.text.append(data)
                return

    def read(self, page: str) -> None:
        """Scan a whole page, closing what it left open."""
        self.feed(page)
        self.close()
        while self.stack:
            self._close(self.stack.pop())

    def _close(self, element: Element) -> None:
        if element.seat is None or not self.words:
            return
        # Read the text both run together and split at tags: "шпи<b>он</b>" and
        # "шпион<br>ok" each show a word to someone.
        text = "".join(element.text).casefold()
        if not text.strip():
            return
        self.closed(element, text + "\n" + " ".join(element.text).casefold())
