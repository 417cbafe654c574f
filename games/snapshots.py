"""A table as this process last read it, shared by every socket that pushes it.

One move makes every connected seat's socket render its own view. Reading the table's
row, its players and the viewer's seat for each of them would cost three queries per
seat, thirty per move at a table of ten. A snapshot holds the row, the players and the
engine state at the row's version. The service that commits a move leaves the new
snapshot here (:func:`committed`), so the sockets of the process that took the move
answer its push with no database at all; a process that did not take it reads the
table once (:func:`fetch`: the sockets that miss at the same moment wait for the same
read) and shares it. Players are read again only while the table is open: seats are
dealt at the start and never change after.

A snapshot hands out nothing by itself: pages, pushes and API answers still take each
viewer's own ``engine.view`` (``games.selectors.seat_view``).
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async

from games import engine
from games.cache import LRU, MadeOnce
from games.models import Game
from games.selectors import Player, finished_chats, players_of
from games.state import load_state

log = logging.getLogger(__name__)

SNAPSHOTS_KEPT = 4096


@dataclass(frozen=True)
class Snapshot:
    """A committed row of a table with its players and its engine state."""

    game: Game
    players: tuple[Player, ...]
    positions: dict[int, int | None]  # user id -> seat position
    state: Any = None  # the engine state at ``game.version``, once started
    # For each seat whose own parts of the page stand as they were before the move
    # that made this version (``Family.quiet_seats``), the version since which they
    # have (the moves since left it quiet too). Known only to the process that took
    # the moves, and never sent anywhere.
    quiet: Mapping[int, int] = field(default_factory=dict)
    # The spectator's view of ``state``, drawn once for every socket that pushes
    # this snapshot (each seat's own view is still its own).
    _public: list[Any] = field(default_factory=list, compare=False, repr=False)

    def public_view(self) -> dict[str, Any] | None:
        """``engine.view(state, None)``, once per snapshot; None before the start."""
        if self.state is None:
            return None
        if not self._public:
            self._public.append(public_view_of(self.state))
        view: dict[str, Any] = self._public[0]
        return view

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


PUBLIC_VIEWS_KEPT = 64

public_view_of: MadeOnce[Any, dict[str, Any]] = MadeOnce(
    PUBLIC_VIEWS_KEPT, lambda state: engine.view(state, None)
)
"""The spectator's view of a state, made once: the move that made the state reads
its phase from it (``services``), and the snapshot of the committed move hands the
same view to every socket's push, instead of making it again on the event loop.
Like every view, read and never changed."""


_snapshots: LRU[tuple[int, str], Snapshot] = LRU(SNAPSHOTS_KEPT)


def cached(game_id: int, code: str) -> Snapshot | None:
    return _snapshots.get((game_id, code))


def _keep(snapshot: Snapshot) -> None:
    version = snapshot.game.version
    _snapshots.put_if(
        (snapshot.game.pk, snapshot.game.code),
        snapshot,
        lambda current: current.game.version <= version,
    )


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


def committed(game: Game, state: Any, quiet: Iterable[int] = ()) -> None:
    """The service committed a move of a started table: keep its new row and state,
    with the players this process already knows (seats never change after the start),
    so that every socket here answers the push without the database. Called after
    the commit only; a process that knows no snapshot of the table reads it on the
    first push instead.

    The move that ends a game also reads the game's private channels, open to
    every seat now (``selectors.finished_chats``): each socket's last push shows
    them, and without them kept each socket went off the loop to read them itself.

    ``quiet``: the seats whose own parts of the page the move left as they were
    (``Family.quiet_seats``, ``Snapshot.quiet``)."""
    if game.status == Game.Status.FINISHED:
        try:
            finished_chats(game)
        except Exception:  # the sockets read them themselves, as before
            log.exception("table %s: the finished game's chats were not read", game.pk)
    known = cached(game.pk, game.code)
    if known is None or not known.players_still_hold(game):
        return
    row = copy.copy(game)
    # The related rows a page may touch, carried over so nothing is read lazily:
    # the host never changes, and a rematch exists only once the game is over.
    row.host = known.game.host
    if game.status == Game.Status.PLAYING:
        row.next_game = None
    _keep(
        Snapshot(
            row, known.players, known.positions, state, quiet=_quiet(known, game, quiet)
        )
    )


def _quiet(known: Snapshot, game: Game, seats: Iterable[int]) -> dict[int, int]:
    """``Snapshot.quiet`` of ``game``'s new version, whose move left ``seats``
    quiet: since the version before, or since when the snapshot of that version
    says (a seat quiet move after move). A snapshot of another version (a move
    another process took, or one whose commit came first) says nothing."""
    before = game.version - 1
    if known.game.version == before and known.game.status == game.status:
        return {seat: known.quiet.get(seat, before) for seat in seats}
    return dict.fromkeys(seats, before)


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
        _snapshots.pop((game_id, code))
        return None
    return of(game)


_reading: dict[tuple[Any, ...], asyncio.Future[Snapshot | None]] = {}

OPEN_READS_KEPT = 256
_open_reads: LRU[tuple[int, str, int], Snapshot] = LRU(OPEN_READS_KEPT)
"""Reads of tables not started yet, by the change whose push asked for them: for the
sockets of this process that handle that push after the read has ended."""


async def fetch(
    game_id: int, code: str, push: tuple[int, str], change: int | None = None
) -> Snapshot | None:
    """A snapshot for a push, from the event loop: the one this process holds, or
    one read from the database by the first socket that needs it while the others
    wait for the same read (one query and one thread hop per process and version,
    not one per socket).

    Before the start the version stays 0 while seats are taken, so a version does
    not name what a push is about. A push then names its change (``change``, the
    table's change number, ``Game.change_id``), and the sockets of this process that
    get it share one read made after it came. That read began after the change was
    committed (the push is sent only then), so it shows the change, or a newer state
    whose own push follows. A push without a name reads the table itself."""
    found = covering(game_id, code, push)
    if found is not None:
        return found
    read_for = None
    key: tuple[Any, ...] = (game_id, code, *push)
    if push[1] == Game.Status.OPEN:
        if change is None:
            return await database_sync_to_async(for_push)(game_id, code, push)
        key = read_for = (game_id, code, change)
        made = _open_reads.get(read_for)
        if made is not None:
            return made
    waiting = _reading.get(key)
    if waiting is not None:
        return await asyncio.shield(waiting)
    future: asyncio.Future[Snapshot | None] = asyncio.get_running_loop().create_future()
    _reading[key] = future
    try:
        snapshot = await database_sync_to_async(for_push)(game_id, code, push)
    except BaseException as exc:
        future.set_exception(exc)
        future.exception()  # retrieved: the waiters see it, nobody else must
        raise
    else:
        future.set_result(snapshot)
        if read_for is not None and snapshot is not None:
            _open_reads.put(read_for, snapshot)
        return snapshot
    finally:
        _reading.pop(key, None)


def forget(game_id: int, code: str) -> None:
    """Let go of a table's snapshot: its last socket in this process has closed. As
    if the cache's bound had pushed it out, which may happen at any time: whoever
    needs the table next reads it. Kept, a table's row, players and engine state
    stayed for four thousand tables more, and each full collection of Python's
    collector walked them again."""
    _snapshots.pop((game_id, code))
    _open_reads.discard_where(lambda key: key[0] == game_id)


def forget_all() -> None:
    """Tests call this between runs that reuse ids."""
    _snapshots.clear()
    _open_reads.clear()
