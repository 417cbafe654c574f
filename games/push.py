"""Telling connected screens that a table changed, after the change is committed.

A group message names the table and its new version and nothing else: no view, no
role, no vote. Each connected seat's consumer then renders its own view (Zulip's
send_event_on_commit; boardgame.io's playerView). A secret never travels through a
group that two seats share.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games.models import ChatMessage, Game

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(game_id: int) -> str:
    return f"table-{game_id}"


Held = list[tuple[str, dict[str, object]]]

_held: ContextVar[Held | None] = ContextVar("games_push_held", default=None)


@contextmanager
def held() -> Iterator[Held]:
    """Pushes kept back instead of sent, while the block runs: a socket's consumer
    takes a move in the database thread and sends its pushes itself once back on
    the event loop (:func:`send_held`), instead of each push hopping from that
    thread to the loop and back."""
    kept: Held = []
    token = _held.set(kept)
    try:
        yield kept
    finally:
        _held.reset(token)


async def send_held(kept: Held) -> None:
    """Send pushes kept back by :func:`held`, from the event loop."""
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in kept:
        try:
            await layer.group_send(group, message)
        except Exception:
            logger.exception("push to %s failed", group)


def _send(group: str, message: dict[str, object]) -> None:
    kept = _held.get()
    if kept is not None:
        kept.append((group, message))
        return
    layer = get_channel_layer()
    if layer is None:
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
            {"type": "table.changed", "version": version, "status": status},
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
