"""One room per live table per process: the one owner of what this process knows of
the table while any of its screens is open here.

A room is made by its table's first screen (socket) in this process and dropped by
its last. It holds the table as last read or committed here (``live.table.Table``:
row, players, engine state, who is away, private lines), the table's change number
it shows, and the drawings of its screens' parts (``live.parts.Drawings``). It
listens to the table's group on the channel layer with one channel of its own, and
hands every change to each screen, which makes its own frame from its own view: a
secret never travels through a message two screens share.

Every change a screen must show is counted in the table's row (``Game.change_id``,
``games.push``). A message for the next number is taken as it comes; a later one
means one was missed, and the room reads the table afresh (:meth:`Room.catch_up`).
Every ``LIVE_WATCH_SECONDS`` each process also reads the change numbers of the
tables it has rooms for, and a room behind catches up: a change made by a process
the layer cannot reach (the clocks' runner on the default run's in-memory layer, a
command, another daphne), or a message the layer lost, is on every screen within
that interval.

A move this process commits hands its new row and state to the room
(``games.hooks.commit_hooks``), so the push that follows reads nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from games import hooks, push, services
from games.models import ChatMessage, Game
from games.presence import Away
from live import table as tables
from live.parts import Drawings
from live.table import Table

log = logging.getLogger(__name__)

CLOSE_NO_SUCH_TABLE = 4404


class Screen(Protocol):
    """An open socket at a table, as its room sees it."""

    user: Any

    def table_frame(self, table: Table, room: Room) -> str | None: ...
    def chat_frame(self, table: Table, message: ChatMessage) -> str | None: ...
    def presence_frame(self, table: Table, away: tuple[Away, ...]) -> str | None: ...
    async def deliver(self, frame: str) -> None: ...
    async def close(self, code: int | None = None) -> None: ...
    def may_still_reach(self, game: Game) -> bool: ...


class Room:
    def __init__(self, game_id: int, code: str) -> None:
        self.game_id = game_id
        self.code = code
        self.screens: set[Screen] = set()
        self.table: Table | None = None
        self.change_id = 0
        self.chat_seen = 0
        self.drawings = Drawings()
        self.lock = asyncio.Lock()
        self.loop = asyncio.get_running_loop()
        # (version, row, state) of the last move this process committed here.
        self.committed: tuple[int, Game, Any] | None = None
        self._channel: str | None = None
        self._listener: asyncio.Task[None] | None = None

    # --- opening and closing ---------------------------------------------------------

    async def open(self) -> bool:
        """Listen to the table's group, then read it: every change after the read
        comes as a message. False when the table is gone."""
        layer = get_channel_layer()
        if layer is not None:
            self._channel = await layer.new_channel()
            await layer.group_add(push.table_group(self.game_id), self._channel)
            self._listener = asyncio.create_task(
                self._listen(), name=f"live room {self.game_id}"
            )
        return await self.catch_up()

    async def shut(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
        layer = get_channel_layer()
        if layer is not None and self._channel is not None:
            try:
                await layer.group_discard(push.table_group(self.game_id), self._channel)
            except Exception:  # a lost layer forgets the group by itself
                log.warning("table %s: the room left its group badly", self.game_id)
        self.drawings.forget()

    async def _listen(self) -> None:
        layer = get_channel_layer()
        assert layer is not None and self._channel is not None
        while True:
            message = await layer.receive(self._channel)
            try:
                await self.heard(message)
            except Exception:
                log.exception("table %s: a change could not be shown", self.game_id)

    # --- the table's changes ---------------------------------------------------------

    async def heard(self, message: dict[str, Any]) -> None:
        """One message of the table's group."""
        async with self.lock:
            change = message.get("change")
            if isinstance(change, int):
                if change <= self.change_id:
                    return  # shown already (a catch-up came first)
                if change != self.change_id + 1:
                    await self._catch_up()  # a change was missed
                    return
                self.change_id = change
            kind = message.get("type")
            if kind == "table.changed":
                await self._table_changed(message.get("version"))
            elif kind == "chat.posted":
                await self._chat_posted(message["message_id"])
            elif kind == "presence.changed":
                await self._presence_changed()
            elif kind == "access.changed":
                await self._access_changed()

    async def _table_changed(self, version: Any) -> None:
        known = self.table
        committed = self.committed
        table = None
        if (
            known is not None
            and known.started
            and committed is not None
            and committed[0] == version
        ):
            table = tables.after_move(known, committed[1], committed[2])
        if table is None:
            table = await database_sync_to_async(tables.read)(
                self.game_id, self.code, known
            )
        await self._show(table)

    async def _chat_posted(self, message_id: int) -> None:
        message = await database_sync_to_async(_chat_line)(self.game_id, message_id)
        if message is None or self.table is None:
            return
        self.chat_seen = max(self.chat_seen, message.pk)
        if message.channel != ChatMessage.Channel.TABLE:
            self.table = self.table.with_line(message)
        await self._send_line(self.table, message)

    async def _send_line(self, table: Table, message: ChatMessage) -> None:
        await self._to_each(lambda screen: screen.chat_frame(table, message))

    async def _presence_changed(self) -> None:
        before = self.table
        if before is None:
            return
        table = await database_sync_to_async(tables.with_away)(before)
        self.table = table
        await self._show_away(before, table)

    async def _show_away(self, before: Table, table: Table) -> None:
        """Who is away now, unless nobody is who was not before (a socket came and
        went, say)."""
        if table.away != before.away:
            await self._to_each(lambda screen: screen.presence_frame(table, table.away))

    async def _access_changed(self) -> None:
        for screen in list(self.screens):
            if self.table is None or not await database_sync_to_async(
                screen.may_still_reach
            )(self.table.game):
                await screen.close(code=CLOSE_NO_SUCH_TABLE)

    async def _show(self, table: Table | None) -> None:
        if table is None:
            await self._gone()
            return
        self.table = table
        await self._to_each(lambda screen: screen.table_frame(table, self))

    async def _to_each(self, frame_of: Callable[[Screen], str | None]) -> None:
        """Each screen's own frame, made by ``frame_of`` from its own viewer's view
        (None: nothing for that screen): no screen's frame goes to another."""
        for screen in list(self.screens):
            await _send(screen, frame_of(screen))

    async def _gone(self) -> None:
        self.table = None
        for screen in list(self.screens):
            await screen.close(code=CLOSE_NO_SUCH_TABLE)

    # --- catching up -----------------------------------------------------------------

    async def catch_up(self, change: int | None = None) -> bool:
        """Read the table afresh and show it, unless the room already shows the
        change number ``change`` (the watch read it); False when it is gone."""
        async with self.lock:
            if change is not None and change <= self.change_id:
                return True
            return await self._catch_up()

    async def _catch_up(self) -> bool:
        found = await database_sync_to_async(_read_afresh)(
            self.game_id, self.code, self.table, self.chat_seen
        )
        if found is None:
            await self._gone()
            return False
        table, lines, last_line = found
        before = self.table
        self.change_id = max(self.change_id, table.game.change_id)
        self.table = table
        self.chat_seen = max(self.chat_seen, last_line)
        if before is None:
            return True  # the room's first read: its screens are greeted
        await self._show(table)
        for line in lines:
            await self._send_line(table, line)
        await self._show_away(before, table)
        return True

    # --- a screen's own requests ---------------------------------------------------

    async def greet(self, screen: Screen) -> None:
        """A screen's first frame: the table as this room holds it."""
        async with self.lock:
            if self.table is None:
                await screen.close(code=CLOSE_NO_SUCH_TABLE)
                return
            await _send(screen, screen.table_frame(self.table, self))

    def known(self) -> services.Known | None:
        """The table as this room last knew it committed, for a move to be tried
        on without reading it."""
        table = self.table
        if table is None or not table.started:
            return None
        return services.Known(
            game=table.game,
            state=table.state,
            seats=tuple(
                (player.seat_id, player.position, player.user_id)
                for player in table.players
                if player.position is not None
            ),
        )


async def _send(screen: Screen, frame: str | None) -> None:
    if frame is None:
        return  # nothing for this screen
    try:
        await screen.deliver(frame)
    except Exception:
        # A socket that has gone drops its frames itself (live.sockets' guard):
        # what reaches here is a fault, logged; the other screens still get theirs.
        log.exception("a frame could not be sent")


def _chat_line(game_id: int, message_id: int) -> ChatMessage | None:
    return (
        ChatMessage.objects.select_related("author")
        .filter(pk=message_id, game_id=game_id)
        .first()
    )


def _read_afresh(
    game_id: int, code: str, known: Table | None, chat_seen: int
) -> tuple[Table, list[ChatMessage], int] | None:
    """The table, the chat lines after ``chat_seen`` (none on a first read: a
    screen's page shows those) and the last line's id, read together. The table's
    row is read first, with its change number: what follows shows that change or a
    newer one."""
    table = tables.read(game_id, code, known, fresh=True)
    if table is None:
        return None
    lines: list[ChatMessage] = []
    if known is not None:
        lines = list(
            ChatMessage.objects.select_related("author")
            .filter(game_id=game_id, pk__gt=chat_seen)
            .order_by("pk")
        )
    last = (
        ChatMessage.objects.filter(game_id=game_id)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return table, lines, int(last or 0)


# --- this process's rooms -----------------------------------------------------

_rooms: dict[int, Room] = {}
_opening: dict[int, asyncio.Future[Room | None]] = {}
_watch: asyncio.Task[None] | None = None


async def enter(screen: Screen, game_id: int, code: str) -> Room | None:
    """The table's room, made for its first screen here; the screen joins it and
    gets its first frame. None when the table is gone."""
    room = _rooms.get(game_id)
    if room is None or room.loop is not asyncio.get_running_loop():
        waiting = _opening.get(game_id)
        if waiting is not None:
            room = await asyncio.shield(waiting)
        else:
            future: asyncio.Future[Room | None] = (
                asyncio.get_running_loop().create_future()
            )
            _opening[game_id] = future
            try:
                made = Room(game_id, code)
                room = made if await made.open() else None
                if room is None:
                    await made.shut()
                else:
                    _rooms[game_id] = room
                future.set_result(room)
            except BaseException as exc:
                future.set_exception(exc)
                future.exception()
                raise
            finally:
                _opening.pop(game_id, None)
        if room is None:
            return None
    else:
        # Someone may have changed the table without this room hearing of it yet
        # (or removed it: the room then closes every screen it has).
        numbers = await database_sync_to_async(_change_numbers)([game_id])
        if not await room.catch_up(numbers.get(game_id)):
            return None
    room.screens.add(screen)
    _start_watching()
    await room.greet(screen)
    return room


async def leave(screen: Screen, room: Room) -> None:
    room.screens.discard(screen)
    if not room.screens and _rooms.get(room.game_id) is room:
        del _rooms[room.game_id]
        await room.shut()


def room_of(game_id: int) -> Room | None:
    return _rooms.get(game_id)


def committed(game: Game, state: Any) -> None:
    """A move committed in this process (``games.hooks.commit_hooks``, called in
    the thread that made it): its table's room here takes the new row and state."""
    room = _rooms.get(game.pk)
    if room is not None:
        room.committed = (game.version, game, state)


def _start_watching() -> None:
    global _watch
    loop = asyncio.get_running_loop()
    if _watch is None or _watch.done() or _watch.get_loop() is not loop:
        _watch = loop.create_task(_watching(), name="live rooms' watch")


async def _watching() -> None:
    while _rooms:
        await asyncio.sleep(settings.LIVE_WATCH_SECONDS)
        await watch_once()


def _change_numbers(game_ids: list[int]) -> dict[int, int]:
    """The change number of each of these tables that still exists."""
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "change_id"))


async def watch_once() -> None:
    """One look at the change number of every table this process has a room for."""
    loop = asyncio.get_running_loop()
    rooms = [room for room in _rooms.values() if room.loop is loop]
    if not rooms:
        return
    try:
        numbers = await database_sync_to_async(_change_numbers)(
            [room.game_id for room in rooms]
        )
    except Exception:  # the next look tries again; a screen keeps what it shows
        log.exception("the tables' change numbers could not be read")
        return
    behind = []
    for room in rooms:
        current = numbers.get(room.game_id)
        if current is None or current > room.change_id:
            behind.append(room.catch_up(current))
    for failed in await asyncio.gather(*behind, return_exceptions=True):
        if isinstance(failed, Exception):
            log.error("a room could not catch up", exc_info=failed)


def forget_all() -> None:
    """Tests call this between runs: each test's event loop is its own."""
    global _watch
    for room in _rooms.values():
        if room._listener is not None:
            room._listener.cancel()
    _rooms.clear()
    _opening.clear()
    if _watch is not None and not _watch.done():
        _watch.cancel()
    _watch = None


def install() -> None:
    """Hand this process's committed moves to its rooms."""
    if committed not in hooks.commit_hooks:
        hooks.commit_hooks.append(committed)
