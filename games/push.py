"""Telling connected screens that a table changed, after the change is committed.

A group message names the table, its new version and a token for the change (so the
sockets of one process can share one read of it) and nothing else: no view, no
role, no vote. Each connected seat's consumer then renders its own view (Zulip's
send_event_on_commit; boardgame.io's playerView). A secret never travels through a
group that two seats share.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import itertools
import logging
import os
import secrets

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games.models import ChatMessage, Game

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(game_id: int) -> str:
    return f"table-{game_id}"


_SENDER = secrets.token_hex(6)
"""This process among every process that pushes (it never repeats: made at start)."""
_changes = itertools.count(1)


def change_token() -> str:
    """A name for one committed change, unique across processes and restarts: the
    sockets that get its push may share one read of the table for it (before the
    start, when the version stays 0 while seats are taken: games.snapshots.fetch).
    It says nothing about the change."""
    return f"{_SENDER}-{next(_changes)}"


def _main_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop, when this code runs in a thread it handed work to
    (a view, a socket's move): asgiref notes it for the thread."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop: asyncio.AbstractEventLoop | None = getattr(
        SyncToAsync.threadlocal, "main_event_loop", None
    )
    return loop if loop is not None and loop.is_running() else None


def _failed(group: str, done: concurrent.futures.Future[None]) -> None:
    if not done.cancelled() and done.exception() is not None:
        logger.error("push to %s failed", group, exc_info=done.exception())


def _send(group: str, message: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _main_loop()
    if loop is not None:
        # Handed to the server's loop without waiting for it: the move's thread
        # goes on at once, and the push goes out even if the socket that made the
        # move is closing.
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        sent.add_done_callback(functools.partial(_failed, group))
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        # A push that cannot be delivered loses nothing: the state is committed and
        # every screen gets it on its next refresh or reconnect.
        logger.exception("push to %s failed", group)


def table_changed_on_commit(game: Game, *, lobby: bool = True) -> None:
    """Push after commit. ``lobby``: the change shows in the lobby's list too (seats
    taken, a start, an end), so the lobby's screens refresh their list."""
    game_id, version, status = game.pk, game.version, game.status

    def send() -> None:
        _send(
            table_group(game_id),
            {
                "type": "table.changed",
                "version": version,
                "status": status,
                "change": change_token(),
            },
        )
        if lobby:
            _send(LOBBY_GROUP, {"type": "lobby.changed"})

    transaction.on_commit(send)


def access_changed_on_commit(game: Game) -> None:
    """Tell the table's sockets to check again who may still reach it (an app that
    restricts tables, such as a club removing a member, calls this)."""
    game_id = game.pk

    def send() -> None:
        _send(table_group(game_id), {"type": "access.changed"})

    transaction.on_commit(send)


def chat_posted_on_commit(game: Game, message: ChatMessage) -> None:
    game_id, message_id, channel = game.pk, message.pk, message.channel

    def send() -> None:
        _send(
            table_group(game_id),
            {"type": "chat.posted", "message_id": message_id, "channel": channel},
        )

    transaction.on_commit(send)


def presence_changed_on_commit(game_id: int) -> None:
    """Someone at the table left or came back (``games.presence``): each socket
    reads who is away now. The message itself names no one."""

    def send() -> None:
        _send(table_group(game_id), {"type": "presence.changed"})

    transaction.on_commit(send)
