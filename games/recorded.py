"""A seat's board kept from one push to the next while what it read is unchanged.

A family's board (``Family.board``) turns a seat's view into what its regions show:
its banner, its card, its move. A push after a vote changes a few entries of every
seat's view (who has voted, whom the table waits for), and most boards read none of
them: the seat's card, its move and its banner come out as they were. Building the
board again is most of what such a seat's push costs.

:class:`Recorder` hands the family a view that notes every entry the board reads,
path by path (``view["me"]["vote"]``), with the value it found; an entry read whole
(iterated, measured, a list or a number) is noted with its whole value. :func:`kept`
gives a socket the board it built last time when every noted path has the same
value in the new view (and the names, the game's being played and the language are
the same): whatever the board worked out, or works out later, it worked out from
equal data. The reused board then reads the new view, so a part it works out only
now is worked out from the new data.

A board is reused only for the socket that built it, from its own seat's view: a
socket never gets a board made from another seat's view, so no seat can be shown
what another may know. The board never reads the view in a way this cannot follow:
a read it cannot follow (anything but ``[]``, ``get``, ``in``, ``len`` and iteration)
does not exist on a mapping.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import translation

Path = tuple[Any, ...]


class _Mark:
    """A note that is not a value read."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


MISSING = _Mark("MISSING")
"""The note for a key the view lacks."""
A_MAPPING = _Mark("A_MAPPING")
"""The note for a path read into, not read whole: it held a mapping."""
TRUTH = _Mark("TRUTH")
"""The last step of a path whose note is a mapping's truth (``if view["me"]``)."""


class Recorder:
    """The reads of one board, and the views it is reading (:meth:`rebind`)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.notes: dict[Path, Any] = {}
        self.handed: dict[Path, Recorded] = {}
        self.root = Recorded(view, (), self)
        self.handed[()] = self.root

    def holds(self, view: Mapping[str, Any]) -> bool:
        """Whether every path noted has the same value in ``view``."""
        for path, old in self.notes.items():
            new = _at(view, path)
            if old is A_MAPPING:
                if type(new) is not dict and not isinstance(new, Mapping):
                    return False
            elif new is MISSING or old is MISSING:
                if new is not old:
                    return False
            elif type(new) is not type(old) or new != old:
                return False
        return True

    def rebind(self, view: Mapping[str, Any]) -> None:
        """Read ``view`` from now on (one that :meth:`holds`), at every path that
        was handed out."""
        for path, recorded in self.handed.items():
            found = _at(view, path)
            assert isinstance(found, Mapping)
            recorded._data = found


def _at(view: Mapping[str, Any], path: Path) -> Any:
    found: Any = view
    for key in path:
        # A view is made of plain dicts: the exact type first, the ABC (slow) after.
        if type(found) is not dict and not isinstance(found, Mapping):
            return MISSING
        if key is TRUTH:
            return bool(found)
        try:
            found = found[key]
        except KeyError:
            return MISSING
    return found


class Recorded(Mapping[Any, Any]):
    """A view, or a mapping inside one, that notes each read (:class:`Recorder`)."""

    # The recorder is reached by a weak reference: it holds every mapping it handed
    # out, and a cycle back to it would leave each replaced board (and all it
    # refers to) for the collector's next full pass, instead of freeing it at once.
    __slots__ = ("_data", "_notes", "_path", "_recorder")

    def __init__(self, data: Mapping[Any, Any], path: Path, recorder: Recorder):
        self._data = data
        self._path = path
        self._notes = recorder.notes
        self._recorder = weakref.ref(recorder)

    def __getitem__(self, key: Any) -> Any:
        path = (*self._path, key)
        notes = self._notes
        try:
            value = self._data[key]
        except KeyError:
            notes.setdefault(path, MISSING)
            raise
        if type(value) is dict or isinstance(value, Mapping):
            recorder = self._recorder()
            assert recorder is not None, "a board outlived its recorder"
            handed = recorder.handed.get(path)
            if handed is None or handed._data is not value:
                handed = recorder.handed[path] = Recorded(value, path, recorder)
            notes.setdefault(path, A_MAPPING)
            return handed
        notes[path] = value
        return value

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        try:
            self[key]
        except KeyError:
            return False
        return True

    def __bool__(self) -> bool:
        truth = bool(self._data)
        self._notes[(*self._path, TRUTH)] = truth
        return truth

    def _whole(self) -> Mapping[Any, Any]:
        self._notes[self._path] = self._data
        return self._data

    def __iter__(self) -> Iterator[Any]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def __repr__(self) -> str:
        return f"Recorded({self._data!r})"


@dataclass
class Kept:
    """A socket's last board and what it was built from."""

    family: Any
    board: Any
    recorder: Recorder
    names: Mapping[int, str]
    playing: bool
    language: str | None


BOARD = ("games.recorded", "board")
"""Where a socket's memo (``games.rendering``) keeps its board."""


def kept(
    memo: dict[Any, Any] | None,
    family: Any,
    view: Mapping[str, Any],
    names: Mapping[int, str],
    *,
    playing: bool,
) -> Any:
    """The board of ``view`` for the socket whose memo this is: the one it built
    last time if what that one read is unchanged, else a new one (kept for next
    time). Without a memo, simply a new board."""
    if memo is None:
        return family.board(view, names, playing=playing)
    language = translation.get_language()
    last: Kept | None = memo.get(BOARD)
    if (
        last is not None
        and last.family is family
        and last.playing == playing
        and last.language == language
        and last.names == names
        and last.recorder.holds(view)
    ):
        last.recorder.rebind(view)
        return last.board
    recorder = Recorder(view)
    board = family.board(recorder.root, names, playing=playing)
    memo[BOARD] = Kept(family, board, recorder, names, playing, language)
    return board
