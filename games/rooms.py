"""The tables this process has sockets open at, and the watch that keeps them true.

A change to a table reaches its sockets by the channel layer's group message
(``games.push``). That message can fail to come: the change was made by a process
the layer cannot reach (the clocks' runner, a management command, the admin, another
daphne, all on the default run's in-memory layer), or the layer lost it (a Redis
restart). So every process also looks: every ``LIVE_WATCH_SECONDS`` one query reads
the change number (``Game.change_id``) of every table it has sockets at, and a
socket that knows an older number catches up (``SeatConsumer.catch_up``). A change
is then on every open screen within that interval, whoever made it, on any layer,
with any number of processes; the group message only makes it sooner.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.conf import settings

from games.models import Game

log = logging.getLogger(__name__)

DEFAULT_WATCH_SECONDS = 0.5


class Socket(Protocol):
    game_id: int
    change_id: int | None

    async def catch_up(self, change: int | None) -> None: ...


_open: dict[int, set[Any]] = {}
"""table id -> this process's open sockets there."""
_watch: asyncio.Task[None] | None = None


def watch_seconds() -> float:
    return float(getattr(settings, "LIVE_WATCH_SECONDS", DEFAULT_WATCH_SECONDS))


def joined(socket: Socket) -> None:
    """A socket is open at its table and knows its change number."""
    _open.setdefault(socket.game_id, set()).add(socket)
    global _watch
    loop = asyncio.get_running_loop()
    if _watch is None or _watch.done() or _watch.get_loop() is not loop:
        _watch = loop.create_task(_watching(), name="games.rooms watch")


def left(socket: Socket) -> None:
    sockets = _open.get(socket.game_id)
    if sockets is None:
        return
    sockets.discard(socket)
    if not sockets:
        del _open[socket.game_id]


def open_at(game_id: int) -> int:
    """How many sockets this process has open at the table."""
    return len(_open.get(game_id, ()))


def _change_numbers(game_ids: list[int]) -> dict[int, int]:
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "change_id"))


async def _watching() -> None:
    """Until no socket is open here: read the tables' change numbers, and have
    every socket that knows an older one (or whose table is gone) catch up."""
    while _open:
        await asyncio.sleep(watch_seconds())
        await watch_once()


async def watch_once() -> None:
    """One look at every table this process has sockets at."""
    loop = asyncio.get_running_loop()
    tables = list(_open)
    if not tables:
        return
    try:
        numbers = await database_sync_to_async(_change_numbers)(tables)
    except Exception:  # the next look tries again; a socket keeps what it shows
        log.exception("the tables' change numbers could not be read")
        return
    behind = []
    for game_id in tables:
        current = numbers.get(game_id)
        for socket in list(_open.get(game_id, ())):
            if getattr(socket, "loop", loop) is not loop:
                continue
            known = socket.change_id
            if known is None:
                continue  # still connecting: its first frame reads the table
            if current is None or known < current:
                behind.append(socket.catch_up(current))
    if behind:
        for failed in await asyncio.gather(*behind, return_exceptions=True):
            if isinstance(failed, Exception):
                log.error("a socket could not catch up", exc_info=failed)


def forget_all() -> None:
    """Tests call this between runs: each test's event loop is its own."""
    global _watch
    _open.clear()
    if _watch is not None and not _watch.done():
        _watch.cancel()
    _watch = None
