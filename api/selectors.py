"""Reads the API needs beyond ``games.selectors``."""

from __future__ import annotations

from collections.abc import Iterable

from games.models import ChatMessage, Game
from games.selectors import CHAT_HISTORY, chat_for


def chat_messages(
    game: Game, channels: Iterable[str], *, after: int | None = None
) -> list[ChatMessage]:
    """The last messages of ``channels``, or, for a program polling, the first ones
    after the message ``after``; oldest first, at most ``CHAT_HISTORY``."""
    channels = list(channels)
    if after is None:
        return chat_for(game, channels)
    if not channels:
        return []
    return list(
        ChatMessage.objects.filter(game=game, channel__in=channels, pk__gt=after)
        .select_related("author")
        .order_by("pk")[:CHAT_HISTORY]
    )
