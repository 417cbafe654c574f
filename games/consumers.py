"""WebSockets for tables and the lobby.

A table has two seat sockets on one base, :class:`SeatConsumer`: the pages' HTML
socket (``/ws/table/<code>/``, :class:`HtmlSeatConsumer`) and the programs' JSON
socket (``?format=json``, :class:`JsonSeatConsumer`); ``config.routing`` picks one
by the query. The base admits a viewer who may reach the table, joins its group,
and sends the viewer's own seat first (a reconnect is a snapshot), then again after
every change; it takes moves and chat lines into ``games.services`` and answers
refusals. A subclass only says how a seat, a chat line and an error are written,
how a message is read, and in which language.

A table's group carries only "table N changed to version V" (with a name for the
change that says nothing about it) and "chat message M was posted in channel C";
each consumer builds its own viewer's frame from ``games.selectors.seat_view`` (the
engine's view for that viewer's seat), so nothing one seat may not know ever reaches
it, and a chat line goes only to viewers whose own view lets them read its channel.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any, ClassVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import Max
from django.template.loader import render_to_string
from django.utils import translation

from config.consumers import CLOSE_UNAUTHENTICATED, AuthenticatedConsumer
from games import errors, hooks, payloads, push, requests, rooms, services, snapshots
from games.forms import move_from_fields
from games.models import ChatMessage, Game
from games.presence import (
    Away,
    away_json,
    listening,
    presence_heard,
    render_notice,
    socket_closed,
    socket_opened,
)
from games.presence import (
    read as read_away,
)
from games.rendering import (
    forget_table,
    render_chat_line,
    render_error,
    render_quiet,
    render_update,
    render_whole,
)
from games.schemas import SocketChat, shapes
from games.selectors import (
    SeatView,
    finished_chats_kept,
    lobby_tables,
    my_tables,
    private_channels,
    snapshot_seat_view,
    table_context,
    visible_chat_channels,
)

logger = logging.getLogger(__name__)

CLOSE_NO_SUCH_TABLE = 4404
LOBBY_COALESCE_SECONDS = 0.3
MAX_FRAME_BYTES = 16 * 1024


def scope_language(scope: dict[str, Any]) -> str:
    """The profile's language, else the language cookie, else the browser's, else
    the site's default: the same order the pages follow."""
    user = scope.get("user")
    supported = {code for code, _ in settings.LANGUAGES}
    language = getattr(user, "language", "") or ""
    if language in supported:
        return language
    cookies = scope.get("cookies") or {}
    cookie = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie in supported:
        return cookie
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for part in accept.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in supported:
            return code
    return settings.LANGUAGE_CODE


def scope_origin(scope: dict[str, Any]) -> str:
    """scheme://host of the page that opened this socket, for absolute links."""
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return f"{scheme}://{host}" if host else ""


@dataclass(frozen=True)
class Move:
    action: dict[str, Any]
    turn: int


@dataclass(frozen=True)
class Chat:
    text: str
    channel: str


@dataclass(frozen=True)
class Refused:
    """A frame that could not be decoded, to be answered rather than raised."""

    error: requests.RequestError


def table_left(game_id: int, code: str) -> None:
    """The last socket of this process at a table closed: what the process kept to
    push to the table's screens goes (the drawings, the shared regions' boards, the
    snapshot). Kept, they stayed until the caches' bounds pushed them out, a
    thousand tables later, and every full collection of Python's collector walked
    them again (``python -m bench.moves`` prints what a process holds)."""
    forget_table(game_id)
    snapshots.forget(game_id, code)


class SeatConsumer(AuthenticatedConsumer):
    """One open screen of a table, a seated player's or a spectator's: what the
    HTML and the JSON socket share."""

    json_mode: ClassVar[bool] = False
    game_id: int
    code: str
    ruleset: str
    language: str
    # (version, status) of the last seat sent: a push for a state already sent
    # (one that was read late, after a newer move) is skipped without a query.
    sent: tuple[int, str] | None = None
    # The table's change number this socket's screen shows (``Game.change_id``,
    # games.push), None until its first frame: a group message for the next number
    # is taken as it comes; a later one, or a newer number the process's watch
    # reads (games.rooms), makes the socket read the table afresh (catch_up).
    change_id: int | None = None
    # The id of the table's last chat line this socket knows of (sent or not
    # readable by its viewer).
    chat_seen: int = 0
    _syncing: asyncio.Lock | None = None

    @property
    def syncing(self) -> asyncio.Lock:
        """What a group message and the watch's catch-up take turns on."""
        if self._syncing is None:
            self._syncing = asyncio.Lock()
        return self._syncing

    # What a subclass says --------------------------------------------------------

    def choose_language(self) -> str:
        """The language this socket speaks, decided once on connect."""
        raise NotImplementedError

    def seat_frame(self, seat: SeatView, *, on_loop: bool, full: bool) -> str | None:
        """The frame that shows ``seat``: all of it (``full``: on connect, after a
        refused move), or what changed since this socket's last frame (a push). On
        the event loop nothing may touch the database: None there means "build it
        in the database thread"."""
        raise NotImplementedError

    def quiet_frame(self, snapshot: snapshots.Snapshot) -> str | None:
        """The push of ``snapshot`` made without this seat's view, where the move
        left the seat's own parts as they were (``Snapshot.quiet``); None to draw
        it from the view."""
        return None

    def chat_frame(self, message: ChatMessage) -> str:
        """The frame of a new chat line (called in the database thread)."""
        raise NotImplementedError

    def read(self, content: Any) -> Move | Chat:
        """A move or a chat line from a decoded frame; raises a
        ``games.errors.GameError`` or a ``games.requests.RequestError``."""
        raise NotImplementedError

    async def send_error(self, exc: Exception) -> None:
        """One error frame, in the socket's format and language."""
        raise NotImplementedError

    async def acted(self, game: Game) -> None:
        """After this socket's move was applied (the push follows anyway)."""

    def seat_groups(self) -> list[str]:
        return [push.table_group(self.game_id)]

    # Connecting ------------------------------------------------------------------

    async def admit(self) -> bool:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        found = await self._reachable()
        if found is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return False
        self.game_id, self.ruleset = found
        return True

    async def on_connect(self) -> None:
        self.language = self.choose_language()
        self.loop = asyncio.get_running_loop()
        for group in self.seat_groups():
            await self.channel_layer.group_add(group, self.channel_name)
        await socket_opened(self)
        # Read before the first frame: that frame shows this change or a newer one,
        # and every change after it comes as a message or is found by the watch.
        marks = await self._marks()
        if marks is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        change, self.chat_seen = marks
        await self.send_seat()
        await self.connected()
        self.change_id = change
        rooms.joined(self)

    async def connected(self) -> None:
        """After the first frame (a subclass may send more)."""

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "game_id"):
            return  # refused before it joined anything
        rooms.left(self)
        for group in self.seat_groups():
            await self.channel_layer.group_discard(group, self.channel_name)
        await socket_closed(self)
        if not listening(self.game_id):
            table_left(self.game_id, self.code)

    @database_sync_to_async
    def _marks(self) -> tuple[int, int] | None:
        """The table's change number and its last chat line's id; None when it is
        gone."""
        found = (
            Game.objects.filter(pk=self.game_id)
            .annotate(last_chat=Max("chat__id"))
            .values_list("change_id", "last_chat")
            .first()
        )
        if found is None:
            return None
        return int(found[0]), int(found[1] or 0)

    # Catching up -------------------------------------------------------------------

    async def _follows(self, event: dict[str, Any]) -> bool:
        """Whether to act on a group message's hint: yes for the change after the
        one this screen shows; no for one it already shows (the watch caught up
        first, or a message came late); for a later one, a change was missed, and
        the screen catches up instead (called with ``syncing`` held)."""
        change = event.get("change")
        if not isinstance(change, int) or self.change_id is None:
            return True
        if change <= self.change_id:
            return False
        if change == self.change_id + 1:
            self.change_id = change
            return True
        await self._catch_up()
        return False

    async def catch_up(self, change: int | None) -> None:
        """The watch (games.rooms) read the table's change number ``change`` (None:
        the table is gone): show the table as it is now, unless this screen
        already does."""
        async with self.syncing:
            if change is not None and (
                self.change_id is None or change <= self.change_id
            ):
                return
            await self._catch_up()

    async def _catch_up(self) -> None:
        """Everything a screen may have missed, read afresh: the table (closed if it
        is gone or no longer reachable), the chat lines since the last it knows,
        who is away."""
        found = await self._now()
        if found is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        change, version, status = found
        push = (version, status)
        if not self._already_sent(push):
            await self.send_seat(push, change)
        for frame in await self._chat_frames_since():
            await self.send(text_data=frame)
        await presence_heard(self)
        self.change_id = max(change, self.change_id or 0)

    @database_sync_to_async
    def _now(self) -> tuple[int, int, str] | None:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None or hooks.access(game, self.scope["user"]) is hooks.Access.NONE:
            return None
        return int(game.change_id), int(game.version), str(game.status)

    @database_sync_to_async
    def _chat_frames_since(self) -> list[str]:
        """The frames of the chat lines after ``chat_seen`` this viewer may read."""
        lines = list(
            ChatMessage.objects.select_related("author")
            .filter(game_id=self.game_id, pk__gt=self.chat_seen)
            .order_by("pk")
        )
        if not lines:
            return []
        self.chat_seen = max(line.pk for line in lines)
        snapshot = snapshots.for_push(self.game_id, self.code, None)
        if snapshot is None:
            return []
        seat = snapshot_seat_view(snapshot, self.scope["user"])
        readable = visible_chat_channels(
            seat.game, seat.view, seat.me is not None or seat.moderating
        )
        return [self.chat_frame(line) for line in lines if line.channel in readable]

    @database_sync_to_async
    def _reachable(self) -> tuple[int, str] | None:
        """The table's id and game, or None if it is gone or this viewer may not
        reach it."""
        game = Game.objects.filter(code=self.code).first()
        if game is None or hooks.access(game, self.scope["user"]) is hooks.Access.NONE:
            return None
        return int(game.pk), game.ruleset

    # The seat's view -------------------------------------------------------------

    async def send_seat(
        self, push: tuple[int, str] | None = None, change: int | None = None
    ) -> None:
        """This viewer's seat: on connect (a reconnect is a snapshot) and after every
        change. A push is answered from the table's snapshot (left by the service
        that took the move, or read once for every socket of this process, for the
        push's version or, before the start, its ``change``), right here on the
        event loop, unless this viewer's page needs a query."""
        frame = None
        if push is not None:
            snapshot = await snapshots.fetch(self.game_id, self.code, push, change)
            if snapshot is None:
                await self.close(code=CLOSE_NO_SUCH_TABLE)
                return
            frame = self._seat_frame(snapshot, on_loop=True, full=False)
        if frame is None:
            frame = await self._fresh_seat_frame(push)
        if frame is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        await self.send(text_data=frame)

    def _seat_frame(
        self, snapshot: snapshots.Snapshot, *, on_loop: bool, full: bool
    ) -> str | None:
        frame = None if full else self.quiet_frame(snapshot)
        if frame is None:
            seat = snapshot_seat_view(snapshot, self.scope["user"])
            frame = self.seat_frame(seat, on_loop=on_loop, full=full)
        if frame is not None:
            game = snapshot.game
            if self.sent is None or game.version >= self.sent[0]:
                self.sent = (game.version, game.status)
        return frame

    @database_sync_to_async
    def _fresh_seat_frame(self, push: tuple[int, str] | None) -> str | None:
        """None when the table is gone."""
        snapshot = snapshots.for_push(self.game_id, self.code, push)
        if snapshot is None:
            return None
        return self._seat_frame(snapshot, on_loop=False, full=push is None)

    def _already_sent(self, push: tuple[int, str]) -> bool:
        """Whether a seat at least as new as this push's was sent already (a push
        read late, after a newer move). Before the start the version stays 0 while
        seats fill, so nothing is skipped."""
        version, status = push
        if self.sent is None or status == Game.Status.OPEN:
            return False
        return status == self.sent[1] and version <= self.sent[0]

    # Group messages --------------------------------------------------------------

    async def table_changed(self, event: dict[str, Any]) -> None:
        async with self.syncing:
            if not await self._follows(event):
                return
            push = (event.get("version", 0), event.get("status", ""))
            if not self._already_sent(push):
                change = event.get("change")
                await self.send_seat(push, change if isinstance(change, int) else None)

    async def access_changed(self, event: dict[str, Any]) -> None:
        """Someone's access to this table changed (a club removed a member): a
        viewer who may no longer reach the table is disconnected at once."""
        async with self.syncing:
            if await self._follows(event) and await self._reachable() is None:
                await self.close(code=CLOSE_NO_SUCH_TABLE)

    async def presence_changed(self, event: dict[str, Any]) -> None:
        async with self.syncing:
            if await self._follows(event):
                await presence_heard(self)

    async def chat_posted(self, event: dict[str, Any]) -> None:
        async with self.syncing:
            if not await self._follows(event):
                return
            message_id = event["message_id"]
            frame = await self._readable_chat(message_id, event["channel"])
            self.chat_seen = max(self.chat_seen, message_id)
            if frame is not None:
                await self.send(text_data=frame)

    async def send_presence(self, away: tuple[Away, ...]) -> None:
        """Who is away now, in the socket's own format."""
        raise NotImplementedError

    @database_sync_to_async
    def _readable_chat(self, message_id: int, channel: str) -> str | None:
        """The message's frame, only if this viewer's own view lets them read its
        channel."""
        snapshot = snapshots.for_push(self.game_id, self.code, None)
        if snapshot is None:
            return None
        seat = snapshot_seat_view(snapshot, self.scope["user"])
        if channel not in visible_chat_channels(
            seat.game, seat.view, seat.me is not None or seat.moderating
        ):
            return None
        message = (
            ChatMessage.objects.select_related("author")
            .filter(pk=message_id, game_id=self.game_id)
            .first()
        )
        return None if message is None else self.chat_frame(message)

    # From the viewer -------------------------------------------------------------

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        """A frame's JSON, strictly (``games.requests``); a frame that is not one
        JSON object is answered, not a crash of the socket."""
        try:
            if len(text_data.encode()) > MAX_FRAME_BYTES:
                raise requests.BodyTooLarge(limit=MAX_FRAME_BYTES)
            return requests.parse_json_object(text_data)
        except requests.RequestError as exc:
            return Refused(exc)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        try:
            if isinstance(content, Refused):
                raise content.error
            with translation.override(self.language):
                message = self.read(content)
        except (requests.RequestError, errors.GameError) as exc:
            await self.send_error(exc)
            return
        try:
            if isinstance(message, Move):
                await self.acted(await self._act(message))
            else:
                await self._chat(message)
        except errors.GameError as exc:
            await self.send_error(exc)
            if isinstance(message, Move):
                async with self.syncing:
                    await self.send_seat()  # a refused move: where the table stands

    def _game(self) -> Game:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            raise errors.TableNotFound
        return game

    @database_sync_to_async
    def _act(self, move: Move) -> Game:
        # No read of the row here: the service tries the move on the row this
        # process last knew (the table's snapshot), else reads it under its lock.
        known = snapshots.cached(self.game_id, self.code)
        # The service reads the row by its id alone (under its lock) when the move
        # cannot be tried on the snapshot's: a new row object would draw a fresh
        # table code (a system call) for nothing, so the snapshot's row stands in.
        return services.game_act(
            game=known.game if known is not None else Game(pk=self.game_id),
            user=self.scope["user"],
            action=move.action,
            turn=move.turn,
            known=known.game if known is not None else None,
        )

    @database_sync_to_async
    def _chat(self, chat: Chat) -> None:
        services.chat_post(
            game=self._game(),
            user=self.scope["user"],
            text=chat.text,
            channel=chat.channel,
        )


class HtmlSeatConsumer(SeatConsumer):
    """A table page's socket: the live area as HTML for htmx's ws extension to swap
    in, moves and chat lines as the page's form fields."""

    async def on_connect(self) -> None:
        self.origin = scope_origin(self.scope)
        cookies = self.scope.get("cookies") or {}
        self.csrf_token = cookies.get(settings.CSRF_COOKIE_NAME)
        await super().on_connect()

    def choose_language(self) -> str:
        return scope_language(self.scope)

    # The parts this socket's page shows (games.rendering.LiveParts.shown), and the
    # status they were drawn at: a push sends only the parts that changed.
    parts_sent: dict[str, str] | None = None
    parts_status: str = ""
    # What each of this screen's own parts was last drawn from (games.drawn): a part
    # whose inputs did not change is not drawn again.
    drawn: dict[str, Any] | None = None
    # The seat this screen's player holds (None: a spectator or the moderator), as
    # its last frame drawn from its view found it: seats never change after the
    # start.
    position: int | None = None
    # A line of a side's private channel came since this screen's last frame drawn
    # from its view: that channel shows in the seat's card, so its next push is
    # drawn.
    side_chat_heard: bool = False

    def quiet_frame(self, snapshot: snapshots.Snapshot) -> str | None:
        # Only a push to a seat whose own parts stand as they were when this socket
        # last sent them (the moves since left it quiet), in the same status: then
        # its push is the state and the shared regions' changes, the same as
        # drawing the seat would find.
        game = snapshot.game
        since = snapshot.quiet.get(self.position) if self.position is not None else None
        if (
            since is None
            or self.side_chat_heard
            or self.parts_sent is None
            or self.sent is None
            or self.parts_status != game.status
            or not since <= self.sent[0] < game.version
        ):
            return None
        with translation.override(self.language):
            made = render_quiet(game, snapshot.public_view(), self.parts_sent)
        if made is None:
            return None
        frame, self.parts_sent = made
        return frame

    def seat_frame(self, seat: SeatView, *, on_loop: bool, full: bool) -> str | None:
        # A readable private channel needs a query. A finished game's are read
        # once, by the move that ended it (snapshots.committed): kept, they are
        # drawn here; otherwise (another process took that move) off the loop.
        finished = None
        if seat.game.status == Game.Status.FINISHED:
            finished = finished_chats_kept(seat.game)
            if on_loop and finished is None:
                return None
        ctx = table_context(
            seat.game,
            self.scope["user"],
            with_chat=False,
            with_side_chat=not on_loop or finished is not None,
            seat=seat,
            finished=finished,
        )
        if on_loop and finished is None and private_channels(ctx.chat_channels):
            return None
        status = seat.game.status
        # The start turns the waiting room into the live area: the whole of it. A
        # game that ends keeps the area's shape, so its push, like any other, sends
        # the parts that changed (and the notice of who is away, now nobody).
        whole = (
            full
            or self.parts_sent is None
            or Game.Status.OPEN in (status, self.parts_status)
        )
        if self.drawn is None:
            self.drawn = {}
        with translation.override(self.language):
            if whole or status == Game.Status.OPEN:
                frame, shown = render_whole(
                    ctx,
                    origin=self.origin,
                    csrf_token=self.csrf_token,
                    memo=self.drawn,
                )
            else:
                assert self.parts_sent is not None
                frame, shown = render_update(
                    ctx,
                    self.parts_sent,
                    origin=self.origin,
                    csrf_token=self.csrf_token,
                    memo=self.drawn,
                    presence=status != self.parts_status,
                )
        self.parts_sent, self.parts_status = shown, status
        self.position, self.side_chat_heard = seat.position, False
        return frame

    async def chat_posted(self, event: dict[str, Any]) -> None:
        if event.get("channel") != ChatMessage.Channel.TABLE:
            self.side_chat_heard = True
        await super().chat_posted(event)

    def chat_frame(self, message: ChatMessage) -> str:
        with translation.override(self.language):
            return render_chat_line(message)

    def read(self, content: Any) -> Move | Chat:
        if not isinstance(content, dict):
            raise errors.BadAction
        if "text" in content:
            text = content.get("text")
            channel = content.get("channel", ChatMessage.Channel.TABLE)
            if not isinstance(text, str) or not isinstance(channel, str):
                raise errors.BadAction
            return Chat(text, channel)
        action, turn = move_from_fields(self.ruleset, content)
        return Move(action, turn)

    async def send_presence(self, away: tuple[Away, ...]) -> None:
        with translation.override(self.language):
            html = render_notice(away, oob=True)
        await self.send(text_data=html)

    async def send_error(self, exc: Exception) -> None:
        private = bool(getattr(exc, "private", False))
        with translation.override(self.language):
            await self.send(text_data=render_error(str(exc), private=private))


class JsonSeatConsumer(SeatConsumer):
    """A program's socket (``?format=json``): the seat's envelope as JSON
    (``games.schemas`` ``SocketView``), chat lines as objects, moves as
    ``{"type": "act", "action", "turn"}`` checked against the table's family's move
    schema. A socket opened with an API token joins that token's group, so revoking
    the token closes it."""

    json_mode = True

    def choose_language(self) -> str:
        headers = dict(self.scope.get("headers") or [])
        accept = headers.get(b"accept-language", b"").decode("latin-1")
        return payloads.program_language(accept, self.scope.get("user"))

    def seat_groups(self) -> list[str]:
        token_id = self.scope.get("api_token_id")
        if token_id is None:
            return super().seat_groups()
        return [*super().seat_groups(), payloads.token_group(token_id)]

    def seat_frame(self, seat: SeatView, *, on_loop: bool, full: bool) -> str:
        return json.dumps({"type": "view", **payloads.seat_envelope(seat)})

    def chat_frame(self, message: ChatMessage) -> str:
        return json.dumps(
            {"type": "chat", "message": payloads.chat_message_json(message)}
        )

    def read(self, content: Any) -> Move | Chat:
        if not isinstance(content, dict):
            raise requests.InvalidJson(
                reason=translation.gettext("the top level must be an object")
            )
        message = requests.checked(shapes().SocketMessage, content).root
        if isinstance(message, SocketChat):
            return Chat(message.text, message.channel)
        return Move(requests.move_of(self.ruleset, message.action), message.turn)

    async def connected(self) -> None:
        # Who is away, after the view when someone is (no frame: nobody), then
        # after every change of it.
        away = await database_sync_to_async(read_away)(self.game_id)
        if away:
            await self.send_presence(away)

    async def send_presence(self, away: tuple[Away, ...]) -> None:
        await self.send_json({"type": "presence", "away": away_json(away)})

    async def send_error(self, exc: Exception) -> None:
        with translation.override(self.language):
            await self.send_json({"type": "error", **requests.error_json(exc)})

    async def acted(self, game: Game) -> None:
        await self.send_json(
            {"type": "acted", "version": game.version, "turn": game.turn}
        )

    async def token_revoked(self, event: dict[str, Any]) -> None:
        await self.close(code=CLOSE_UNAUTHENTICATED)


class LobbyConsumer(AuthenticatedConsumer):
    """The lobby's list of open tables, refreshed when tables open, fill or start."""

    _pending: asyncio.Task[None] | None = None

    async def on_connect(self) -> None:
        self.language = scope_language(self.scope)
        await self.channel_layer.group_add(push.LOBBY_GROUP, self.channel_name)
        await self.send_tables()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(push.LOBBY_GROUP, self.channel_name)
        if self._pending is not None:
            self._pending.cancel()

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        # Many tables change at once on a busy evening: one refresh per short window.
        if self._pending is None or self._pending.done():
            self._pending = asyncio.create_task(self._refresh_soon())

    async def _refresh_soon(self) -> None:
        await asyncio.sleep(LOBBY_COALESCE_SECONDS)
        await self.send_tables()

    async def send_tables(self) -> None:
        await self.send(text_data=await self._render_tables())

    @database_sync_to_async
    def _render_tables(self) -> str:
        user = self.scope["user"]
        with translation.override(self.language):
            return render_to_string(
                "games/_lobby_tables.html",
                {"tables": lobby_tables(user), "mine": my_tables(user), "oob": True},
            )
