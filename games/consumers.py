"""WebSockets for tables and the lobby: authenticate, attach to one seat (or watch),
push that seat's own rendering after every change.

A table's group carries only "table N changed to version V" and "chat message M was
posted in channel C"; each consumer renders its own viewer's HTML from the engine's
``view()`` for that viewer, so nothing one seat may not know ever reaches it. On
connect (and every reconnect) the consumer sends the full current state first: a
reconnect is a snapshot.

A socket opened with ``?format=json`` (programs, see ``api.socket``) gets the same
pushes as JSON: the seat's engine view instead of its HTML, chat lines as objects, and
moves sent as ``{"type": "act", ...}``. A socket opened with an API token joins that
token's group, so revoking the token closes it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from api import socket as api_socket
from api.errors import ApiError
from api.push import token_group
from config.consumers import CLOSE_UNAUTHENTICATED, AuthenticatedConsumer
from games import errors, hooks, push, services, snapshots
from games.forms import move_from_fields
from games.models import ChatMessage, Game
from games.rendering import render_chat_line, render_error, render_live
from games.selectors import (
    lobby_tables,
    my_tables,
    private_channels,
    table_context,
    visible_chat_channels,
)

logger = logging.getLogger(__name__)

CLOSE_NO_SUCH_TABLE = 4404
LOBBY_COALESCE_SECONDS = 0.3


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


class TableConsumer(AuthenticatedConsumer):
    """One per open screen of a table: a seated player's or a spectator's."""

    game_id: int
    language: str
    json_mode = False
    # (version, status) of the last JSON view sent: a push for a state already sent
    # (one that was read late, after a newer move) is skipped without a query.
    sent: tuple[int, str] | None = None

    async def admit(self) -> bool:
        code = self.scope["url_route"]["kwargs"]["code"]
        game_id = await self._game_id(code)
        if game_id is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return False
        self.game_id = game_id
        return True

    async def access_changed(self, event: dict[str, Any]) -> None:
        """Someone's access to this table changed (a club removed a member): a
        viewer who may no longer reach the table is disconnected at once."""
        if await self._game_id(self.scope["url_route"]["kwargs"]["code"]) is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)

    async def on_connect(self) -> None:
        self.origin = scope_origin(self.scope)
        self.csrf_token = (self.scope.get("cookies") or {}).get(
            settings.CSRF_COOKIE_NAME
        )
        self.json_mode = api_socket.wants_json(self.scope)
        if self.json_mode:
            self.language = api_socket.program_language(self.scope)
        else:
            self.language = scope_language(self.scope)
        token_id = self.scope.get("api_token_id")
        if token_id is not None:
            await self.channel_layer.group_add(token_group(token_id), self.channel_name)
        await self.channel_layer.group_add(
            push.table_group(self.game_id), self.channel_name
        )
        await self.send_live()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "game_id"):
            await self.channel_layer.group_discard(
                push.table_group(self.game_id), self.channel_name
            )
        token_id = self.scope.get("api_token_id")
        if token_id is not None:
            await self.channel_layer.group_discard(
                token_group(token_id), self.channel_name
            )

    @database_sync_to_async
    def _game_id(self, code: str) -> int | None:
        """The table's id, or None if it is gone or this viewer may not reach it."""
        game = Game.objects.filter(code=code).first()
        if game is None or hooks.access(game, self.scope["user"]) is hooks.Access.NONE:
            return None
        return int(game.pk)

    def _render(self, snapshot: snapshots.Snapshot, *, on_loop: bool) -> str | None:
        """This viewer's live area from a table snapshot. On the event loop nothing
        may touch the database: None there means "render in the database thread"
        (a side's private channel, when this viewer may read it, needs a query, and
        so does a finished game's list of channels)."""
        if on_loop and snapshot.game.status == Game.Status.FINISHED:
            return None
        ctx = table_context(
            snapshot.game,
            self.scope["user"],
            with_chat=False,
            with_side_chat=not on_loop,
            players=snapshot.players,
            state=snapshot.state,
        )
        if on_loop and private_channels(ctx.chat_channels):
            return None
        self.sent = (snapshot.game.version, snapshot.game.status)
        with translation.override(self.language):
            return render_live(ctx, origin=self.origin, csrf_token=self.csrf_token)

    @database_sync_to_async
    def _render_fresh(self, push: tuple[int, str] | None) -> str | None:
        code = self.scope["url_route"]["kwargs"]["code"]
        snapshot = snapshots.for_push(self.game_id, code, push)
        return None if snapshot is None else self._render(snapshot, on_loop=False)

    async def send_live(self, push: tuple[int, str] | None = None) -> None:
        """This viewer's whole live area: on connect (a reconnect is a snapshot) and
        after every change. A push that a snapshot another seat's socket read already
        covers is rendered right here, with no database and no thread hop."""
        if self.json_mode:
            await self.send_view(push)
            return
        html = None
        if push is not None:
            code = self.scope["url_route"]["kwargs"]["code"]
            snapshot = snapshots.covering(self.game_id, code, push)
            if snapshot is not None:
                html = self._render(snapshot, on_loop=True)
        if html is None:
            html = await self._render_fresh(push)
        if html is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        await self.send(text_data=html)

    # Group messages -------------------------------------------------------------

    async def table_changed(self, event: dict[str, Any]) -> None:
        if self._already_sent(event):
            return
        await self.send_live((event.get("version", 0), event.get("status", "")))

    async def chat_posted(self, event: dict[str, Any]) -> None:
        if self.json_mode:
            await self._send_chat_json(event["message_id"], event["channel"])
            return
        html = await self._render_chat(event["message_id"], event["channel"])
        if html:
            await self.send(text_data=html)

    @database_sync_to_async
    def _render_chat(self, message_id: int, channel: str) -> str | None:
        """The message only if this viewer may read its channel, decided from this
        viewer's own view."""
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            return None
        ctx = table_context(game, self.scope["user"], with_chat=False)
        if channel not in visible_chat_channels(game, ctx.view, ctx.is_seated):
            return None
        message = (
            ChatMessage.objects.select_related("author")
            .filter(pk=message_id, game_id=self.game_id)
            .first()
        )
        if message is None:
            return None
        with translation.override(self.language):
            return render_chat_line(message)

    # From the browser -----------------------------------------------------------

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._send_error(str(errors.BadAction()))
            return
        try:
            if "text" in content:
                await self._chat(content)
            else:
                await self._act(content)
        except errors.GameError as exc:
            with translation.override(self.language):
                message = str(exc)
            await self._send_error(message)
            if isinstance(exc, errors.TableMovedOn | errors.IllegalMove):
                await self.send_live()

    def _game(self) -> Game:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            raise errors.TableNotFound
        return game

    @database_sync_to_async
    def _act(self, content: dict[str, Any]) -> None:
        game = self._game()
        action, turn = move_from_fields(game.ruleset, content)
        services.game_act(game=game, user=self.scope["user"], action=action, turn=turn)

    @database_sync_to_async
    def _chat(self, content: dict[str, Any]) -> None:
        game = self._game()
        text = content.get("text")
        channel = content.get("channel", ChatMessage.Channel.TABLE)
        if not isinstance(text, str) or not isinstance(channel, str):
            raise errors.BadAction
        services.chat_post(
            game=game, user=self.scope["user"], text=text, channel=channel
        )

    async def _send_error(self, message: str) -> None:
        with translation.override(self.language):
            await self.send(text_data=render_error(message))

    def _already_sent(self, event: dict[str, Any]) -> bool:
        """Whether a view at least as new as this push's was sent already (a push
        read late, after a newer move). Before the start the version stays 0 while
        seats fill, so nothing is skipped."""
        if self.sent is None or event.get("status") == Game.Status.OPEN:
            return False
        version, status = self.sent
        return event.get("status") == status and event.get("version", 0) <= version

    async def send_view(self, push: tuple[int, str] | None = None) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        user = self.scope["user"]
        message = None
        if push is not None:
            # Most pushes are answered from a row another seat's socket read.
            message = api_socket.cached_view_message(self.game_id, code, user, push)
        if message is None:
            message = await database_sync_to_async(api_socket.view_message)(
                self.game_id, code, user, push
            )
        if message is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        if self.sent is None or message["version"] >= self.sent[0]:
            self.sent = (message["version"], message["status"])
        await self.send_json(message)

    async def _send_chat_json(self, message_id: int, channel: str) -> None:
        message = await database_sync_to_async(api_socket.chat_message)(
            self.game_id, self.scope["user"], message_id, channel
        )
        if message is not None:
            await self.send_json(message)

    async def receive(
        self,
        text_data: str | None = None,
        bytes_data: bytes | None = None,
        **kwargs: Any,
    ) -> None:
        if self.json_mode:
            # A program's malformed frame is answered, not a crash of the socket.
            try:
                content = api_socket.parse_frame(text_data, bytes_data)
            except ApiError as exc:
                with translation.override(self.language):
                    await self.send_json(api_socket.error_message(exc))
                return
            await self._receive_program(content)
            return
        await super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)

    async def _receive_program(self, content: Any) -> None:
        message: dict[str, Any] = {"type": None}
        try:
            with translation.override(self.language):
                message = api_socket.parse_message(content)
            if message["type"] == "act":
                game = await self._act_json(message)
                await self.send_json(
                    {"type": "acted", "version": game.version, "turn": game.turn}
                )
            else:
                await self._chat(message)
        except (ApiError, errors.GameError) as exc:
            with translation.override(self.language):
                await self.send_json(api_socket.error_message(exc))
            if isinstance(exc, errors.GameError) and message["type"] == "act":
                await self.send_view()

    @database_sync_to_async
    def _act_json(self, message: dict[str, Any]) -> Game:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            raise errors.TableNotFound
        return services.game_act(
            game=game,
            user=self.scope["user"],
            action=message["action"],
            turn=message["turn"],
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
