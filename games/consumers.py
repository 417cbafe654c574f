"""WebSockets for tables and the lobby: authenticate, attach to one seat (or watch),
push that seat's own rendering after every change.

A table's group carries only "table N changed to version V" and "chat message M was
posted in channel C"; each consumer renders its own viewer's HTML from the engine's
``view()`` for that viewer, so nothing one seat may not know ever reaches it. On
connect (and every reconnect) the consumer sends the full current state first: a
reconnect is a snapshot.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from config.consumers import AuthenticatedConsumer
from games import errors, push, services
from games.forms import move_from_fields
from games.models import ChatMessage, Game
from games.rendering import render_chat_line, render_error, render_live
from games.selectors import (
    lobby_tables,
    my_tables,
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

    async def admit(self) -> bool:
        code = self.scope["url_route"]["kwargs"]["code"]
        game_id = await self._game_id(code)
        if game_id is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return False
        self.game_id = game_id
        return True

    async def on_connect(self) -> None:
        self.language = scope_language(self.scope)
        await self.channel_layer.group_add(push.table_group(self.game_id), self.channel_name)
        await self.send_live()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "game_id"):
            await self.channel_layer.group_discard(
                push.table_group(self.game_id), self.channel_name
            )

    @database_sync_to_async
    def _game_id(self, code: str) -> int | None:
        return Game.objects.filter(code=code).values_list("pk", flat=True).first()

    @database_sync_to_async
    def _render_live(self) -> str | None:
        game = Game.objects.select_related("host").filter(pk=self.game_id).first()
        if game is None:
            return None
        with translation.override(self.language):
            return render_live(
                table_context(game, self.scope["user"], with_chat=False),
                origin=scope_origin(self.scope),
                csrf_token=(self.scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME),
            )

    async def send_live(self) -> None:
        html = await self._render_live()
        if html is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        await self.send(text_data=html)

    # Group messages -------------------------------------------------------------

    async def table_changed(self, event: dict[str, Any]) -> None:
        await self.send_live()

    async def chat_posted(self, event: dict[str, Any]) -> None:
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
        if channel not in visible_chat_channels(game, ctx.view, ctx.my_seat):
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

    @database_sync_to_async
    def _act(self, content: dict[str, Any]) -> None:
        game = Game.objects.get(pk=self.game_id)
        action, turn = move_from_fields(content)
        services.game_act(game=game, user=self.scope["user"], action=action, turn=turn)

    @database_sync_to_async
    def _chat(self, content: dict[str, Any]) -> None:
        game = Game.objects.get(pk=self.game_id)
        text = content.get("text")
        channel = content.get("channel", ChatMessage.Channel.TABLE)
        if not isinstance(text, str) or not isinstance(channel, str):
            raise errors.BadAction
        services.chat_post(game=game, user=self.scope["user"], text=text, channel=channel)

    async def _send_error(self, message: str) -> None:
        with translation.override(self.language):
            await self.send(text_data=render_error(message))


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
