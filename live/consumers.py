"""WebSockets for tables and the lobby.

A table's socket is a screen of its room (``live.room``): it joins the room on
connect (which sends it the table as it stands: a reconnect is a snapshot) and
leaves it on disconnect; the room hands it every change, and the socket makes its
own frame from its own viewer's view, so nothing a seat may not know ever reaches
it. Moves and chat lines go into ``games.services``; a refusal is answered.

:class:`SeatSocket` is what the page's HTML socket (:class:`HtmlSeatConsumer`, here)
and a program's JSON socket (``api.sockets``) share; a subclass says how a table,
a chat line, who is away and an error are written, how a frame is read, and in
which language.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, ClassVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games import errors, hooks, push, services
from games.forms import move_from_fields
from games.models import ChatMessage, Game
from games.presence import Away, render_notice, socket_closed, socket_opened
from games.selectors import lobby_tables, my_tables
from live import parts, requests
from live import room as rooms
from live.sockets import AuthenticatedConsumer
from live.table import Table

CLOSE_NO_SUCH_TABLE = rooms.CLOSE_NO_SUCH_TABLE
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
    # The client's name for the move (``move_id``): a repeat is applied once.
    move_id: str | None = None


@dataclass(frozen=True)
class Chat:
    text: str
    channel: str


@dataclass(frozen=True)
class Refused:
    """A frame that could not be decoded, to be answered rather than raised."""

    error: requests.RequestError


class SeatSocket(AuthenticatedConsumer):
    """One open screen of a table, a seated player's, the moderator's or a
    spectator's."""

    json_mode: ClassVar[bool] = False
    game_id: int
    code: str
    ruleset: str
    seat_count: int
    language: str
    room: rooms.Room | None = None
    # While this socket's own move is being applied, the room's frames for it wait
    # here, so that a program hears "acted" before the view its move made.
    held: list[str] | None = None

    # What a subclass says --------------------------------------------------------

    def choose_language(self) -> str:
        """The language this socket speaks, decided once on connect."""
        raise NotImplementedError

    def table_frame(self, table: Table, room: rooms.Room) -> str | None:
        """The frame that shows ``table`` (None: nothing to send)."""
        raise NotImplementedError

    def chat_frame(self, table: Table, message: ChatMessage) -> str | None:
        """A new chat line's frame, if this viewer reads its channel."""
        raise NotImplementedError

    def presence_frame(self, table: Table, away: tuple[Away, ...]) -> str | None:
        """Who is away now, as this socket says it (None: nothing to send)."""
        raise NotImplementedError

    def read(self, content: Any) -> Move | Chat:
        """A move or a chat line from a decoded frame; raises a
        ``games.errors.GameError`` or a ``live.requests.RequestError``."""
        raise NotImplementedError

    async def send_error(self, exc: Exception) -> None:
        """One error frame, in the socket's format and language."""
        raise NotImplementedError

    async def acted(self, acted: services.Acted) -> None:
        """After this socket's move was applied (the push follows anyway), or a
        repeat of a named one was answered (``acted.replayed``: no push follows)."""

    def seat_groups(self) -> list[str]:
        """Groups of this socket's own, besides its room's."""
        return []

    # Connecting ------------------------------------------------------------------

    @property
    def user(self) -> Any:
        return self.scope["user"]

    async def admit(self) -> bool:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        found = await self._reachable()
        if found is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return False
        self.game_id, self.ruleset, self.seat_count = found
        return True

    async def on_connect(self) -> None:
        self.language = self.choose_language()
        for group in self.seat_groups():
            await self.channel_layer.group_add(group, self.channel_name)
        await socket_opened(self)
        self.room = await rooms.enter(self, self.game_id, self.code)
        if self.room is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "game_id"):
            return  # refused before it joined anything
        if self.room is not None:
            await rooms.leave(self, self.room)
        for group in self.seat_groups():
            await self.channel_layer.group_discard(group, self.channel_name)
        await socket_closed(self)

    @database_sync_to_async
    def _reachable(self) -> tuple[int, str, int] | None:
        """The table's id, game and seat count (fixed when it is opened), or None
        if it is gone or this viewer may not reach it."""
        game = Game.objects.filter(code=self.code).first()
        if game is None or not self.may_still_reach(game):
            return None
        return int(game.pk), game.ruleset, game.seat_count

    def may_still_reach(self, game: Game) -> bool:
        return hooks.access(game, self.user) is not hooks.Access.NONE

    # From the viewer -------------------------------------------------------------

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        """A frame's JSON, strictly (``live.requests``); a frame that is not one
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
        if isinstance(message, Move):
            await self._move(message)
            return
        try:
            await self._chat(message)
        except errors.GameError as exc:
            await self.send_error(exc)

    async def _move(self, move: Move) -> None:
        self.held = []
        try:
            game = await self._act(move)
        except errors.GameError as exc:
            # The refusal redraws the table as it stands: what waited is older.
            self.held = None
            await self.refused_move(exc)
            return
        except BaseException:
            await self._release()
            raise
        try:
            await self.acted(game)
        finally:
            await self._release()

    async def _release(self) -> None:
        held, self.held = self.held or [], None
        for frame in held:
            await self.send(text_data=frame)

    async def deliver(self, frame: str) -> None:
        """A frame from the room: sent now, or after this socket's own move."""
        if self.held is not None:
            self.held.append(frame)
        else:
            await self.send(text_data=frame)

    async def refused_move(self, exc: errors.GameError) -> None:
        """Say why a move was refused, and show the table as it stands."""
        raise NotImplementedError

    @database_sync_to_async
    def _act(self, move: Move) -> services.Acted:
        known = self.room.known() if self.room is not None else None
        game = known.game if known is not None else Game(pk=self.game_id)
        if move.move_id is not None:
            return services.game_act_named(
                game=game,
                user=self.user,
                action=move.action,
                turn=move.turn,
                move_id=move.move_id,
                known=known,
            )
        done = services.game_act(
            game=game,
            user=self.user,
            action=move.action,
            turn=move.turn,
            known=known,
        )
        return services.Acted(done, done.version, done.turn)

    @database_sync_to_async
    def _chat(self, chat: Chat) -> None:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            raise errors.TableNotFound
        services.chat_post(
            game=game, user=self.user, text=chat.text, channel=chat.channel
        )


class HtmlSeatConsumer(SeatSocket):
    """A table page's socket: the live area as HTML for htmx's ws extension to swap
    in, moves and chat lines as the page's form fields."""

    shown: parts.Shown | None = None

    async def on_connect(self) -> None:
        self.origin = scope_origin(self.scope)
        cookies = self.scope.get("cookies") or {}
        self.csrf_token = cookies.get(settings.CSRF_COOKIE_NAME)
        await super().on_connect()

    def choose_language(self) -> str:
        return scope_language(self.scope)

    def table_frame(self, table: Table, room: rooms.Room) -> str | None:
        viewer = table.viewer(self.user)
        with translation.override(self.language):
            if self.shown is not None:
                found = parts.frame(
                    table, viewer, room.drawings, self.shown, token=self.csrf_token
                )
                if found is not None:
                    frame, self.shown = found
                    return frame
            frame, self.shown = parts.area(
                table,
                viewer,
                room.drawings,
                token=self.csrf_token,
                origin=self.origin,
                user=self.user,
            )
            return frame

    async def refused_move(self, exc: errors.GameError) -> None:
        # The whole area again (the page's form is marked pending, and only a
        # frame that draws it anew clears that), then the refusal over it.
        await self.redraw()
        await self.send_error(exc)

    async def acted(self, acted: services.Acted) -> None:
        # A repeat of a move already applied brings no push: the area is drawn
        # anew, which clears the page's pending form.
        if acted.replayed:
            await self.redraw()

    async def redraw(self) -> None:
        room = self.room
        if room is not None and room.table is not None:
            async with room.lock:
                self.shown = None
                frame = self.table_frame(room.table, room)
            if frame is not None:
                await self.send(text_data=frame)

    def chat_frame(self, table: Table, message: ChatMessage) -> str | None:
        if message.channel not in table.readable_channels(table.viewer(self.user)):
            return None
        with translation.override(self.language):
            return parts.render_chat_line(message)

    def presence_frame(self, table: Table, away: tuple[Away, ...]) -> str | None:
        if table.game.status != Game.Status.PLAYING:
            return None
        with translation.override(self.language):
            return render_notice(away, oob=True)

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
        move_id = content.get("move_id") or None
        return Move(action, turn, move_id)

    async def send_error(self, exc: Exception) -> None:
        private = bool(getattr(exc, "private", False))
        with translation.override(self.language):
            await self.send(text_data=parts.render_error(str(exc), private=private))


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
