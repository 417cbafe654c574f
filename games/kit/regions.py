"""A family's live page: regions, each a template and the inputs it is drawn from.

A region names the keys of the engine's view it shows (``reads``) and the table's
facts it shows besides (``facts``: the table's turn, its status, the viewer's
private chat...). Its template, and the family's board built for it, get those and
nothing else: a :class:`Slice` of the view that raises :class:`UndeclaredInput` for
any other key, and facts that raise for any other name. What a region shows is
therefore a function of its inputs (:meth:`Region.inputs`) and the language, by
construction: a page and every push draw it from the same inputs, and a region whose
inputs did not change is not drawn again (``live``).

A public region is drawn from the spectator's view: the same for every seat, so it
can carry nothing secret, and it is drawn once per change for all of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import trans_real

ALWAYS = ("ruleset", "players")
"""View keys every slice holds: they never change during a game."""

CSRF_PLACEHOLDER = "csrf0placeholder0drawn0once0for0every0seat0" + "0" * 21
"""The token a drawing's forms carry, the length and alphabet of a real one, put in
place of each screen's own when the drawing is sent (:func:`with_token`): screens
whose inputs are equal share one drawing."""


class UndeclaredInput(RuntimeError):
    """A region read a view key or a table fact it does not declare. Not a
    ``KeyError``: templates would print it as an empty string."""


_MISSING = object()
_shapes: dict[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]] = {}


def shape(keys: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``keys`` as (name, the entries declared inside it; none: all of it), worked
    out once per set of keys (a region's reads are constants of its family)."""
    found = _shapes.get(keys)
    if found is None:
        inner: dict[str, list[str] | None] = {}
        for key in keys:
            name, _dot, rest = key.partition(".")
            parts = inner.setdefault(name, [])
            if not rest:
                inner[name] = None  # the whole entry
            elif parts is not None:
                parts.append(rest)
        found = _shapes[keys] = tuple(
            (name, tuple(parts or ())) for name, parts in inner.items()
        )
    return found


class Slice(Mapping[str, Any]):
    """The keys of a view a region declared, as the view has them (a key the view
    lacks reads as missing, as in the view); any other key raises. A key read as
    ``"proposal.team"`` declares only that entry of the view's ``proposal`` (when
    it is a mapping): the region does not change when the proposal's other
    entries do."""

    __slots__ = ("_items",)

    def __init__(self, view: Mapping[str, Any], keys: tuple[str, ...]) -> None:
        items: dict[str, Any] = {}
        for name, parts in shape(keys):
            value = view.get(name, _MISSING)
            if parts and isinstance(value, Mapping):
                value = Slice(value, parts)
            items[name] = value
        self._items = items

    def __getitem__(self, key: str) -> Any:
        value = self._items.get(key, self)
        if value is self:
            raise UndeclaredInput(f"the view's {key!r} is not among the region's reads")
        if value is _MISSING:
            raise KeyError(key)
        return value

    def __iter__(self) -> Iterator[str]:
        return (key for key, value in self._items.items() if value is not _MISSING)

    def __len__(self) -> int:
        return sum(1 for value in self._items.values() if value is not _MISSING)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Slice) and self._items == other._items

    def __hash__(self) -> int:  # compared, never filed by hash
        raise TypeError("a Slice is compared, not hashed")

    def __repr__(self) -> str:
        return f"Slice({sorted(self._items)})"


@dataclass(frozen=True)
class Facts:
    """What a region may show of the table besides its view (each region declares
    the names it reads in ``Region.facts``)."""

    code: str
    turn: int = 0
    status: str = ""
    version: int = 0
    chats: tuple[tuple[str, str, tuple[Any, ...], bool], ...] = ()
    """The viewer's readable private channels: (channel, label, lines, can write)."""
    countdown: str = ""
    """A running countdown's markup (a speech timer), the same on every screen."""
    ended_by: str = ""
    """Who ended the game before its end (its host's name), once it is abandoned."""


class DeclaredFacts:
    """A region's facts: the code and those it declares; any other raises."""

    __slots__ = ("_facts", "_names")

    def __init__(self, facts: Facts, names: tuple[str, ...]) -> None:
        self._facts = facts
        self._names = ("code", *names)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._names:
            raise UndeclaredInput(
                f"the table's {name!r} is not among the region's facts"
            )
        return getattr(self._facts, name)


@dataclass(frozen=True)
class Inputs:
    """Everything one region is drawn from; equal inputs draw equal HTML (in one
    language)."""

    view: Slice
    facts: tuple[Any, ...]
    playing: bool
    readonly: bool


@dataclass(frozen=True)
class Region:
    """One region of a table's live page, drawn by a family template.

    ``reads``: the keys of the view the region shows; ``facts``: the names of
    :class:`Facts` it shows. ``public``: drawn from the spectator's view, the same
    for every seat. ``column`` places it: ``top`` (full width, first), ``main`` or
    ``side`` (two columns on a wide screen, one after the other on a phone).

    The template gets ``view`` (the slice), ``board`` (the family's board of that
    slice, built when the template first reads it), ``game`` (the facts), ``names``,
    ``readonly`` and the forms' ``csrf_token``."""

    id: str
    template: str
    reads: tuple[str, ...] | Callable[[Mapping[str, Any]], tuple[str, ...]]
    """The view's keys, or a function of the view that names them (a region that
    reads a key only in some phases, so that it does not change with it in the
    others)."""
    public: bool = False
    column: str = "main"
    facts: tuple[str, ...] = ()

    def inputs(
        self,
        view: Mapping[str, Any],
        facts: Facts,
        *,
        playing: bool = True,
        readonly: bool = False,
    ) -> Inputs:
        reads = self.reads if isinstance(self.reads, tuple) else self.reads(view)
        return Inputs(
            view=Slice(view, (*ALWAYS, *reads)),
            facts=tuple(getattr(facts, name) for name in self.facts),
            playing=playing,
            readonly=readonly,
        )


Board = Callable[[Mapping[str, Any], Mapping[int, str], bool], Any]


ROW, ROW_END = "<!--row-->", "<!--/row-->"
"""What a region's template writes around a row (``{% filter row %}``): one element
with an id of its own, such as a seat's line on the board."""

_ROW_ID = re.compile(r'\s*<[a-zA-Z][\w-]*\b[^>]*?\sid="([^"]+)"')
_FIRST_TAG = re.compile(r"^(\s*<[a-zA-Z][\w-]*)")


@dataclass
class Drawing:
    """A region's HTML with the forms' token as a placeholder, and its rows: the
    HTML of each element the template marked as a row, by id, and the rest of the
    region (``frame``) with each row's place named. A screen that shows a drawing of
    the same frame is sent only the rows that changed (:func:`changed_rows`)."""

    html: SafeString
    has_token: bool = field(init=False)
    frame: str = field(init=False, default="")
    rows: dict[str, str] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.has_token = CSRF_PLACEHOLDER in self.html
        if ROW not in self.html:
            return
        first, *marked = self.html.split(ROW)
        html, frame = [first], [first]
        for chunk in marked:
            row, _end, after = chunk.partition(ROW_END)
            found = _ROW_ID.match(row)
            if found:
                self.rows[found.group(1)] = row
                frame.append(f"<!--row:{found.group(1)}-->")
            else:
                frame.append(row)
            html.append(row)
            html.append(after)
            frame.append(after)
        self.html = mark_safe("".join(html))  # noqa: S308 - the drawing's own HTML
        self.frame = "".join(frame)


def changed_rows(shown: Drawing, drawn: Drawing) -> list[str] | None:
    """What a screen that shows ``shown`` is sent to show ``drawn``: the rows that
    changed, each marked to be swapped in by its id, and the rows that came, each
    put next to a row the screen has (:func:`_added`), when the rest of the region
    is the same and no row went; None: the whole region."""
    if not drawn.rows:
        return None
    added: dict[str, str] = {}
    if shown.frame != drawn.frame:
        found = _added(shown, drawn)
        if found is None:
            return None
        added = found
    sent = []
    for ident, row in drawn.rows.items():
        if ident in added:
            sent.append(added[ident])
        elif shown.rows.get(ident) != row:
            if _tag(row) in _TABLE_PARTS:
                # A browser parses a frame's <tbody> or <tr> outside a <table> as
                # nothing, and htmx puts no wrapper's children in a row's place.
                return None
            sent.append(_FIRST_TAG.sub(r'\1 hx-swap-oob="true"', row, count=1))
    return sent


def _tag(row: str) -> str:
    found = _FIRST_TAG.match(row)
    return found.group(1).strip()[1:].lower() if found else ""


_PLACE = re.compile(r"<!--row:([^>]+?)-->")
_WRAPPER = {"li": "ul", "tbody": "table"}
_TABLE_PARTS = {"tbody", "thead", "tfoot", "tr", "td", "th", "caption", "colgroup"}
"""What a new row is sent inside, so that it parses where it goes: htmx puts the
wrapper's children next to the row it names."""


def _added(shown: Drawing, drawn: Drawing) -> dict[str, str] | None:
    """The rows ``drawn`` has and ``shown`` has not, each as the frame puts it next
    to a row the screen shows (or one put there before it): after the row just
    before it (``afterend``), or before the first row the screen has that follows
    it (``beforebegin``), with only white space between, which goes with it. None
    when a row went, or the frames differ by more than the rows that came (a list's
    first row, a heading that changed)."""
    if any(ident not in drawn.rows for ident in shown.rows):
        return None
    pieces = _PLACE.split(drawn.frame)  # text, id, text, id, ..., text
    ids = pieces[1::2]
    dropped: set[int] = set()
    added: dict[str, str] = {}
    for index, ident in enumerate(ids):
        if ident in shown.rows:
            continue
        at = 2 * index + 1
        before, after = pieces[at - 1], pieces[at + 1]
        if index and not before.strip() and at - 1 not in dropped:
            how, anchor, space = "afterend", ids[index - 1], before
            dropped.add(at - 1)
        else:
            following = next(
                (
                    (later, ids[later])
                    for later in range(index + 1, len(ids))
                    if ids[later] in shown.rows
                ),
                None,
            )
            runs = following is not None and all(
                not pieces[2 * between + 2].strip()
                for between in range(index, following[0])
            )
            if following is None or not runs or after.strip():
                return None
            how, anchor, space = "beforebegin", following[1], after
            dropped.add(at + 1)
        dropped.add(at)
        row = drawn.rows[ident]
        tag = _tag(row)
        if tag in _TABLE_PARTS and tag not in _WRAPPER:
            return None  # a <tr> has no wrapper whose children it would be
        wrapper = _WRAPPER.get(tag, "div")
        inner = space + row if how == "afterend" else row + space
        added[ident] = f'<{wrapper} hx-swap-oob="{how}:#{anchor}">{inner}</{wrapper}>'
    rest = "".join(
        f"<!--row:{piece}-->" if at % 2 else piece
        for at, piece in enumerate(pieces)
        if at not in dropped
    )
    return added if rest == shown.frame else None


def draw(
    region: Region,
    inputs: Inputs,
    facts: Facts,
    names: Mapping[int, str],
    board: Board,
    *,
    extra: Mapping[str, Any] | None = None,
) -> Drawing:
    """``region`` drawn from ``inputs`` in the active language (``extra``: what a
    page adds that no push does, such as a refusal flashed into the card)."""
    context = {
        "view": inputs.view,
        "board": Lazy(lambda: board(inputs.view, names, inputs.playing)),
        "game": DeclaredFacts(facts, region.facts),
        "names": names,
        "readonly": inputs.readonly,
        "csrf_token": CSRF_PLACEHOLDER,
        "catalogue": catalogue(),
        **(extra or {}),
    }
    html = engines["jinja2"].get_template(region.template).render(context)
    return Drawing(mark_safe(compact(html)))  # noqa: S308 - a template's output


class Lazy:
    """An object made when a template first reads one of its attributes (the
    family's board: a region that shows nothing of it never builds it)."""

    __slots__ = ("_made", "_make")

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make
        self._made: Any = _MISSING

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self._made is _MISSING:
            self._made = self._make()
        return getattr(self._made, name)


def with_token(drawing: Drawing, token: str | None) -> str:
    """The drawing with a screen's own token in its forms."""
    if not drawing.has_token:
        return drawing.html
    return drawing.html.replace(CSRF_PLACEHOLDER, token or "")


def compact(html: str) -> str:
    """A template's output without its indentation and blank lines: a run of white
    space that holds a line break becomes one line break, which HTML shows exactly
    as it showed the run (no live template has a <pre> or a <textarea>)."""
    if "\n" not in html:
        return html
    lines = html.split("\n")
    kept = [lines[0].rstrip()]
    kept.extend(line for line in map(str.strip, lines[1:-1]) if line)
    kept.append(lines[-1].lstrip())
    return "\n".join(kept)


def catalogue() -> Any:
    """The active language's translation object (``config.jinja``'s sentences are
    looked up in it), or None when no language is active."""
    code = translation.get_language()
    return trans_real.translation(code) if code else None
