"""Telling connected screens that a table changed, after the change is committed.

Every change a screen must show (a move, a seat taken, a chat line, someone away) is
counted in the table's row (``Game.change_id``, in the change's own transaction), and
a group message names the table's new version and that number and nothing else: no
view, no role, no vote. A socket that knows the number before it takes the message's
hint; one that sees a gap (a message lost) or learns a newer number by looking
(``live.room``: a change made by a process its layer cannot reach) reads the table
afresh. Each connected seat's consumer then renders its own view (Zulip's
send_event_on_commit; boardgame.io's playerView). A secret never travels through a
group that two seats share.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import os

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import F

from games.models import ChatMessage, Game

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(game_id: int) -> str:
    return f"table-{game_id}"


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


def count_change(game: Game) -> int:
    """Count one more change of the table in the caller's transaction (its row lock
    on PostgreSQL orders the changes): the new ``Game.change_id``, also set on
    ``game``. A move counts its change itself, in the row it saves (``written``)."""
    Game.objects.filter(pk=game.pk).update(change_id=F("change_id") + 1)
    game.change_id = (
        Game.objects.filter(pk=game.pk).values_list("change_id", flat=True).first() or 0
    )
    return int(game.change_id)


def table_changed_on_commit(
    game: Game, *, lobby: bool = True, written: bool = False
) -> None:
    """Push after commit. ``lobby``: the change shows in the lobby's list too (seats
    taken, a start, an end), so the lobby's screens refresh their list. ``written``:
    the caller's save of the row already carries the change's number."""
    if not written:
        count_change(game)
    message = {"type": "table.changed", "version": game.version}
    _on_commit(game.pk, message, int(game.change_id), lobby=lobby)


def access_changed_on_commit(game: Game) -> None:
    """Tell the table's sockets to check again who may still reach it (an app that
    restricts tables, such as a club removing a member, calls this)."""
    _on_commit(game.pk, {"type": "access.changed"}, count_change(game))


def chat_posted_on_commit(game: Game, message: ChatMessage) -> None:
    """A chat line to push; its change was counted (:func:`count_change`) before the
    line was written, so that a table's lines commit in the order of their ids."""
    line = {"type": "chat.posted", "message_id": message.pk}
    _on_commit(game.pk, line, int(game.change_id))


def presence_changed_on_commit(game_id: int) -> None:
    """Someone at the table left or came back (``games.presence``): each socket
    reads who is away now. The message itself names no one."""
    change = count_change(Game(pk=game_id))
    _on_commit(game_id, {"type": "presence.changed"}, change)


def _on_commit(
    game_id: int, message: dict[str, object], change: int, *, lobby: bool = False
) -> None:
    """After the commit, ``message`` with the change's number to the table's group
    (and, with ``lobby``, a refresh to the lobby's)."""
    numbered = {**message, "change": change}

    def send() -> None:
        _send(table_group(game_id), numbered)
        if lobby:
            _send(LOBBY_GROUP, {"type": "lobby.changed"})

    transaction.on_commit(send)
