"""Drawing a template once for every screen that would get the same HTML.

A push draws each region of a table for each connected seat, and most of them come
out as they were: a vote changes the seats' list, not a player's card, and half the
table's "your move" areas are the same. Drawing a Django template is most of what a
push costs, so this module draws a region only when something it would read has
changed.

:func:`draw` renders a template while watching what it reads from its context: each
name, and each attribute, key or call the template follows from it, down to a plain
value (a string, a number, a list or dict of them, a dataclass of them), which it
keeps as it was read (views and boards are made afresh for each screen and never
changed afterwards). The result, a :class:`Drawn`, is the HTML with those reads.
:func:`holds` follows the same reads in another context; if every one gives the
same value, the template would take the same branches and print the same text, so
the HTML is the one it would draw. Nothing is declared by hand, and a region that
starts to read something new is watched for it the first time it reads it.

A read whose value is not plain data (a model instance, a view object) is followed
further through a stand-in that watches the attributes the template reads from it
(``game.turn``, ``board.role_card``), so a large object is compared only where the
template looks. A template that does something the watcher cannot follow (prints
such an object whole, iterates it, calls what has side effects) gets a Drawn that
never holds: it is simply drawn every time, as before.

What a draw depends on besides its context is the active language, so a cache of
Drawn keeps one language's apart from another's (``games.rendering``). The CSRF token
of a seat's forms is the one thing every seat's HTML has of its own: it is drawn as
:data:`CSRF_PLACEHOLDER` and put in afterwards (:func:`with_token`), so two seats with
the same inputs share one drawing.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import operator
from collections.abc import Callable, Mapping
from typing import Any

from django.template import Context, Template
from django.template.loader import get_template
from django.utils.functional import Promise

CSRF_PLACEHOLDER = "csrf0placeholder0drawn0once0for0every0seat0" + "0" * 21
"""The token a shared drawing carries, the length and alphabet of a real one (64
letters and digits), put in place of each seat's own (:func:`with_token`)."""

Step = tuple[str, Any]
Path = tuple[str, tuple[Step, ...]]


class _NotPlain(Exception):
    """A value that is not plain data (it is followed, not kept)."""


class _Never:
    """A read's value that equals nothing: a lookup that failed in a way the template
    might not have, or a call that had to be left to the template."""

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return id(self)


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()
"""The value of a read that found nothing (a key a dict lacks, an attribute an object
lacks): a later context where it is still missing agrees."""

_LOOKUP_ERRORS = (TypeError, AttributeError, KeyError, ValueError, IndexError)
_SCALARS = (str, int, float, bool, type(None), dt.datetime, dt.date, dt.time)


_PLAIN_KINDS = frozenset(_SCALARS)


def fields_of(kind: type) -> Callable[[Any], tuple[Any, ...]]:
    """What gives the values of a dataclass's fields, in order, as one tuple (one
    C call: ``dataclasses.fields`` is slow to ask for every row of every drawing)."""
    names = [f.name for f in dataclasses.fields(kind)]
    if not names:
        return lambda value: ()
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda value: (one(value),)
    return operator.attrgetter(*names)


FIELDS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}
"""``fields_of`` of each dataclass met, by its type (``games.pieces`` uses it too)."""


def plain(value: Any) -> bool:
    """Whether ``value`` is plain data: text, numbers, dates, and lists, tuples,
    dicts, sets and dataclasses of them. Two plain values of one type that are equal
    (``==``) print the same. (A string's text prints the same whether or not it is
    marked safe unless it holds markup, and a presenter gives one field one kind of
    string, so nested strings are compared by their text; :func:`holds`.)

    A template reads a board's rows whole, so this walks every row of every
    drawing: the common kinds are told by their exact type first."""
    kind = type(value)
    if kind in _PLAIN_KINDS:
        return True
    if kind is list or kind is tuple:
        return all(map(plain, value))
    fields = FIELDS.get(kind)
    if fields is not None:
        return all(map(plain, fields(value)))
    if kind is dict:
        return all(plain(k) and plain(v) for k, v in value.items())
    if isinstance(value, (*_SCALARS, Promise, enum.Enum)):
        return True
    if isinstance(value, tuple | list | frozenset | set):
        return all(plain(item) for item in value)
    if isinstance(value, dict):
        return all(plain(k) and plain(v) for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        FIELDS[kind] = fields_of(kind)
        return plain(value)
    return False


def _called(value: Any) -> Any:
    """What a template makes of ``value`` found by a lookup: Django calls what is
    callable (unless it says not to). Raises ``_NotPlain`` where Django would do
    something the watcher does not follow (a call that alters data, or fails)."""
    if not callable(value) or getattr(value, "do_not_call_in_templates", False):
        return value
    if getattr(value, "alters_data", False):
        raise _NotPlain("alters data")
    try:
        return value()
    except TypeError as exc:
        raise _NotPlain("needs arguments") from exc


class _Watch:
    """The reads of one drawing, in the order the template made them."""

    def __init__(self) -> None:
        self.reads: dict[Path, Any] = {}
        self.handed: dict[Path, Any] = {}  # what each path gave the template
        self.broken = False

    def seen(self, path: Path, value: Any, *, root: bool = False) -> Any:
        """:meth:`_seen`; a failure of the watcher's own (which Django would take
        for a missing variable) leaves the drawing unusable rather than wrong."""
        try:
            return self._seen(path, value, root=root)
        except Exception:
            self.broken = True
            return value

    def _seen(self, path: Path, value: Any, *, root: bool = False) -> Any:
        """What the template gets for ``path``, whose lookup gave ``value``: the
        value itself (kept), or a stand-in that watches it further. A
        context's name that holds a dict or an object is always followed (a view
        or a board is read a part at a time). A path read again (a template reads
        ``game.code`` in every form) gives what it gave the first time."""
        if path in self.handed:
            return self.handed[path]
        try:
            value = _called(value)
        except _NotPlain:
            self.broken = True
            return value
        if (not root or isinstance(value, (*_SCALARS, list, tuple, Promise))) and plain(
            value
        ):
            self.reads[path] = value
            self.handed[path] = value
            return value
        self.reads[(path[0], (*path[1], ("type", None)))] = type(value)
        stand = _Stand(self, path, value)
        self.handed[path] = stand
        return stand

    def missed(self, path: Path) -> None:
        self.reads[path] = MISSING


class _Stand:
    """Stands in for an object the template reads into, telling ``_Watch`` each
    attribute, key or truth it asks of it."""

    __slots__ = ("_path", "_real", "_watch")

    def __init__(self, watch: _Watch, path: Path, real: Any) -> None:
        self._watch = watch
        self._path = path
        self._real = real

    def _at(self, step: Step) -> Path:
        return (self._path[0], (*self._path[1], step))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        path = self._at(("attr", name))
        try:
            value = getattr(self._real, name)
        except _LOOKUP_ERRORS:
            self._watch.missed(path)
            raise
        return self._watch.seen(path, value)

    def __getitem__(self, key: Any) -> Any:
        path = self._at(("item", key))
        try:
            value = self._real[key]
        except _LOOKUP_ERRORS:
            self._watch.missed(path)
            raise
        return self._watch.seen(path, value)

    def __bool__(self) -> bool:
        truth = bool(self._real)
        self._watch.reads[self._at(("bool", None))] = truth
        return truth

    def __len__(self) -> int:
        try:
            size = len(self._real)
        except TypeError:
            # Django's for loop lists what has no length; this one is never reused.
            self._watch.broken = True
            return len(list(self._real))
        self._watch.reads[self._at(("len", None))] = size
        return size

    def __iter__(self) -> Any:
        self._watch.broken = True
        return iter(self._real)

    def __contains__(self, item: Any) -> bool:
        self._watch.broken = True
        return item in self._real

    def __eq__(self, other: object) -> bool:
        self._watch.broken = True
        return bool(self._real == other)

    def __hash__(self) -> int:
        self._watch.broken = True
        return hash(self._real)

    def __str__(self) -> str:
        self._watch.broken = True
        return str(self._real)

    def __html__(self) -> str:
        self._watch.broken = True
        return str(self._real.__html__())


class _WatchedContext(Context):
    """A template context that tells ``_Watch`` each name read from the given
    values (names a template sets itself, in a ``with`` or a ``for``, are not
    inputs)."""

    def __init__(self, values: dict[str, Any], watch: _Watch) -> None:
        super().__init__(values, autoescape=True)
        self._given = values
        self._watch = watch
        # Each {% piece %}'s HTML as the template drew it (games.pieces).
        self.piece_log: list[str] | None = []

    def __getitem__(self, key: str) -> Any:
        for found in reversed(self.dicts):
            if key in found:
                if found is self._given:
                    return self._watch.seen((key, ()), found[key], root=True)
                return found[key]
        self._watch.missed((key, ()))
        raise KeyError(key)

    def get(self, key: str, otherwise: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return otherwise

    def __contains__(self, key: object) -> bool:
        try:
            self[key]  # type: ignore[index]
        except KeyError:
            return False
        return True


@dataclasses.dataclass(frozen=True)
class Drawn:
    """A template's HTML and the reads it was drawn from (``reads`` None: the
    drawing cannot be reused), with the HTML of each ``{% piece %}`` it holds, in
    order (``games.pieces``: a push may send only the pieces that changed)."""

    html: str
    reads: tuple[tuple[Path, Any], ...] | None
    pieces: tuple[str, ...] = ()


class _PieceLogged(Context):
    """A template context that watches nothing and logs each ``{% piece %}``."""

    def __init__(self, values: dict[str, Any]) -> None:
        super().__init__(values, autoescape=True)
        self.piece_log: list[str] | None = []


def draw(
    template: str | Template, values: dict[str, Any], *, watched: bool = True
) -> Drawn:
    """``template`` (a name, or a compiled template) rendered with ``values``,
    watching its reads; not ``watched``, the same HTML without its reads (a drawing
    that will not be reused, for what watching costs: about a third more)."""
    if isinstance(template, str):
        template = get_template(template).template  # type: ignore[attr-defined]
    if not watched:
        logged = _PieceLogged(values)
        html = template.render(logged)
        return Drawn(str(html), None, tuple(logged.piece_log or ()))
    watch = _Watch()
    context = _WatchedContext(values, watch)
    html = template.render(context)
    # The stand-ins point back at the watch: let them go with this call, not at the
    # collector's next full pass (a cycle per drawing was most of a push's garbage).
    watch.handed.clear()
    reads = None if watch.broken else tuple(watch.reads.items())
    return Drawn(str(html), reads, tuple(context.piece_log or ()))


class Reader:
    """Follows reads in one context, each path once, for checking several
    drawings against it (:func:`holds`)."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = values
        self.found: dict[Path, Any] = {}

    def value(self, path: Path) -> Any:
        found = self.found.get(path, self)
        if found is self:
            found = self.follow(path)
            self.found[path] = found
        return found

    def follow(self, path: Path) -> Any:
        """What the template would get for ``path`` in this context."""
        name, steps = path
        if name not in self.values:
            return MISSING
        try:
            current = _called(self.values[name])
        except _NotPlain:
            return _Never()
        for index, (op, arg) in enumerate(steps):
            try:
                if op == "attr":
                    current = getattr(current, arg)
                elif op == "item":
                    current = current[arg]
                elif op == "type":
                    return type(current)
                elif op == "bool":
                    return bool(current)
                elif op == "len":
                    return len(current)
                else:
                    return _Never()
            except _LOOKUP_ERRORS:
                return MISSING if index == len(steps) - 1 else _Never()
            try:
                current = _called(current)
            except _NotPlain:
                return _Never()
        return current


_FILED_BY_VALUE = frozenset({str, int, float, bool, type(None)})


def filed_as(value: Any) -> Any:
    """A hashable for filing a read's value, cheap to make: a plain scalar is filed
    by its value, anything else by its type alone (hashing a list or a dataclass,
    or the lazy texts in one, would cost what filing saves). A file is only an
    index: what is found in it is checked by :func:`holds`."""
    kind = type(value)
    if kind in _FILED_BY_VALUE:
        return (kind, value)
    return kind


def holds(drawn: Drawn, reader: Reader) -> bool:
    """Whether ``drawn`` is what its template would draw from ``reader``'s
    context (in the language it was drawn in)."""
    if drawn.reads is None:
        return False
    return reads_hold(drawn.reads, reader)


def reads_outside(drawn: Drawn, name: str) -> tuple[tuple[Path, Any], ...] | None:
    """``drawn``'s reads but those of the context's ``name`` (None: it never holds)."""
    if drawn.reads is None:
        return None
    return tuple(read for read in drawn.reads if read[0][0] != name)


def reads_hold(reads: tuple[tuple[Path, Any], ...], reader: Reader) -> bool:
    """Whether every one of ``reads`` gives the same value in ``reader``'s context."""
    found = reader.found
    follow = reader.follow
    for path, old in reads:
        new = found.get(path, follow)
        if new is follow:
            new = found[path] = follow(path)
        if new is old:
            continue
        if old is MISSING or new is MISSING or type(new) is not type(old):
            return False
        if new != old:
            return False
    return True


def with_token(html: str, token: str | None) -> str:
    """A drawing's HTML with the seat's own CSRF token in its forms."""
    if token and CSRF_PLACEHOLDER in html:
        return html.replace(CSRF_PLACEHOLDER, token)
    return html
