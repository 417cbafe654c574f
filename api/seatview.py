"""A seat's view of a table for the API and the JSON socket, read cheaply.

One move makes every connected seat's socket render its view. ``table_context``
would read the table's row, its players and the viewer's seat for each of them: three
queries per seat, thirty per move at a table of ten. Here the row and the players are
read once per table and version in each process and shared (``_snapshot``); players
are read again only while the table is open, since seats are dealt at the start and
never change after. The engine state comes from ``games.state`` with the row and is
kept with it, so a push that a row already read covers needs no database at all and
the consumer answers it on the event loop, without a hop to the database thread.

What a viewer gets is exactly what ``table_context`` gives them: ``engine.view`` for
the seat the viewer holds in the table's Seat rows (``players_of``), or the
spectator's view; ``tests/api/test_sockets.py`` checks that seat by seat.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from api import payloads
from games import engine
from games.models import Game
from games.selectors import Player, players_of
from games.state import load_state

SNAPSHOTS_KEPT = 4096


@dataclass(frozen=True)
class _Snapshot:
    """A committed row of a table with its players, as this process last read it."""

    game: Game
    players: tuple[Player, ...]
    positions: dict[int, int | None]
    state: Any = None  # the engine state at ``game.version``, once started

    def covers(self, version: int, status: str) -> bool:
        """Whether this row is at least as new as a push for (version, status)."""
        return (
            self.game.status != Game.Status.OPEN
            and self.game.status == status
            and self.game.version >= version
        )

    def players_still_hold(self, game: Game) -> bool:
        """Whether these players are those of ``game`` (a newer read of the row)."""
        return (
            self.game.code == game.code
            and self.game.status != Game.Status.OPEN
            and game.status != Game.Status.OPEN
        )


_snapshots: OrderedDict[tuple[int, str], _Snapshot] = OrderedDict()
_lock = threading.Lock()


def _cached(game_id: int, code: str) -> _Snapshot | None:
    with _lock:
        return _snapshots.get((game_id, code))


def _keep(snapshot: _Snapshot) -> None:
    key = (snapshot.game.pk, snapshot.game.code)
    with _lock:
        current = _snapshots.get(key)
        if current is None or current.game.version <= snapshot.game.version:
            _snapshots[key] = snapshot
            _snapshots.move_to_end(key)
            while len(_snapshots) > SNAPSHOTS_KEPT:
                _snapshots.popitem(last=False)


def _with_players(game: Game) -> _Snapshot:
    """``game`` (a row just read or just written) with its players."""
    cached = _cached(game.pk, game.code)
    if cached is not None and cached.players_still_hold(game):
        players = cached.players
    else:
        players = tuple(players_of(game))
    state = None
    if game.status != Game.Status.OPEN and game.seed is not None:
        state = load_state(game)
    positions = {p.user_id: p.position for p in players}
    snapshot = _Snapshot(game, players, positions, state)
    _keep(snapshot)
    return snapshot


def _envelope(snapshot: _Snapshot, user: Any) -> dict[str, Any]:
    game = snapshot.game
    position = None
    if user is not None and user.is_authenticated:
        position = snapshot.positions.get(user.pk)
    view = None if snapshot.state is None else engine.view(snapshot.state, position)
    return payloads.envelope_parts(game, snapshot.players, position, view)


def envelope(game: Game, user: Any) -> dict[str, Any]:
    """``user``'s view of ``game`` at the row's own version (a move's answer names
    the version that move made)."""
    return _envelope(_with_players(game), user)


def cached_envelope(
    game_id: int, code: str, user: Any, push: tuple[int, str]
) -> dict[str, Any] | None:
    """``user``'s view for a push of (version, status) from what this process has
    read already for another seat, or None. Touches no database, so a consumer can
    call it on the event loop and skip the hop to the database thread."""
    cached = _cached(game_id, code)
    if cached is not None and cached.covers(*push):
        return _envelope(cached, user)
    return None


def pushed_envelope(
    game_id: int, code: str, user: Any, push: tuple[int, str] | None
) -> dict[str, Any] | None:
    """``user``'s view for a push of (version, status): from a row at least that
    new that this process has read already for another seat, else from a new read;
    None when the table is gone."""
    if push is not None:
        found = cached_envelope(game_id, code, user, push)
        if found is not None:
            return found
    game = Game.objects.filter(pk=game_id, code=code).first()
    if game is None:
        with _lock:
            _snapshots.pop((game_id, code), None)
        return None
    return _envelope(_with_players(game), user)


def forget_all() -> None:
    """Tests call this between runs that reuse ids."""
    with _lock:
        _snapshots.clear()
