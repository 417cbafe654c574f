"""A table as this process last read it, shared by every socket that pushes it.

One move makes every connected seat's socket render its own view. Reading the table's
row, its players and the viewer's seat for each of them would cost three queries per
seat, thirty per move at a table of ten. A snapshot holds the row, the players and the
engine state at the row's version; it is read once per table and version in each
process and shared. Players are read again only while the table is open: seats are
dealt at the start and never change after. A push that a snapshot already covers needs
no database at all, so a consumer can answer it on the event loop.

A snapshot hands out nothing by itself: pages, pushes and API answers still take each
viewer's own ``engine.view`` (``games.selectors.table_context``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from games.models import Game
from games.selectors import Player, players_of
from games.state import load_state

SNAPSHOTS_KEPT = 4096


@dataclass(frozen=True)
class Snapshot:
    """A committed row of a table with its players and its engine state."""

    game: Game
    players: tuple[Player, ...]
    positions: dict[int, int | None]  # user id -> seat position
    state: Any = None  # the engine state at ``game.version``, once started

    def covers(self, version: int, status: str) -> bool:
        """Whether this row is at least as new as a push for (version, status).
        An open table's pushes (seats taken or left) always need a fresh read."""
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


_snapshots: OrderedDict[tuple[int, str], Snapshot] = OrderedDict()
_lock = threading.Lock()


def cached(game_id: int, code: str) -> Snapshot | None:
    with _lock:
        return _snapshots.get((game_id, code))


def _keep(snapshot: Snapshot) -> None:
    key = (snapshot.game.pk, snapshot.game.code)
    with _lock:
        current = _snapshots.get(key)
        if current is None or current.game.version <= snapshot.game.version:
            _snapshots[key] = snapshot
            _snapshots.move_to_end(key)
            while len(_snapshots) > SNAPSHOTS_KEPT:
                _snapshots.popitem(last=False)


def of(game: Game) -> Snapshot:
    """``game`` (a row just read or just written) with its players and state."""
    known = cached(game.pk, game.code)
    if known is not None and known.players_still_hold(game):
        players = known.players
    else:
        players = tuple(players_of(game))
    state = None
    if game.status != Game.Status.OPEN and game.seed is not None:
        state = load_state(game)
    positions = {p.user_id: p.position for p in players}
    snapshot = Snapshot(game, players, positions, state)
    _keep(snapshot)
    return snapshot


def covering(game_id: int, code: str, push: tuple[int, str]) -> Snapshot | None:
    """A snapshot at least as new as the push, without touching the database (safe
    on the event loop), or None."""
    known = cached(game_id, code)
    if known is not None and known.covers(*push):
        return known
    return None


def for_push(game_id: int, code: str, push: tuple[int, str] | None) -> Snapshot | None:
    """A snapshot for a push of (version, status): one already read if it covers
    the push, else a new read; None when the table is gone."""
    if push is not None:
        found = covering(game_id, code, push)
        if found is not None:
            return found
    game = (
        Game.objects.select_related("host", "next_game")
        .filter(pk=game_id, code=code)
        .first()
    )
    if game is None:
        with _lock:
            _snapshots.pop((game_id, code), None)
        return None
    return of(game)


def forget_all() -> None:
    """Tests call this between runs that reuse ids."""
    with _lock:
        _snapshots.clear()
