"""The JSON that programs are sent, built from the selectors: a table, its players,
a seat's view with the table's counters, a chat message. The API's answers and the
JSON table socket's messages are built here, so a program sees the same shapes on
both; ``api.shapes`` describes each of them.

Nothing about a game's hidden state is read here: the game part of a seat's envelope
is the view ``games.selectors.seat_view`` hands in.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts.models import User
from games.engine import MODERATOR
from games.models import ChatMessage, Game
from games.selectors import Player, SeatView


def when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def user_json(user: User) -> dict[str, str]:
    return {"username": user.username, "name": user.display_name}


def player_json(player: Player) -> dict[str, Any]:
    return {
        "position": player.position,
        "username": player.username,
        "name": player.name,
        "host": player.is_host,
    }


def table_summary_json(game: Game, *, taken: int) -> dict[str, Any]:
    """A table as a list shows it: ``game.host`` should be selected with it."""
    return {
        "code": game.code,
        "name": game.name,
        "ruleset": game.ruleset,
        "status": game.status,
        "private": game.is_private,
        "seats": {"taken": taken, "total": game.seat_count},
        "host": user_json(game.host),
        "options": dict(game.options),
        "chat": game.chat_enabled,
        "created_at": when(game.created_at),
        "url": game.get_absolute_url(),
    }


def table_json(game: Game, players: list[Player]) -> dict[str, Any]:
    """One table in full: the lobby's facts, the players, the counters."""
    return {
        **table_summary_json(game, taken=len(players)),
        "players": [player_json(player) for player in players],
        "version": game.version,
        "turn": game.turn,
        "phase": game.phase,
        "winner": game.winner or None,
        "started_at": when(game.started_at),
        "finished_at": when(game.finished_at),
        "turn_seconds": game.turn_seconds,
        "deadline": when(game.deadline),
    }


def seat_envelope(seat: SeatView) -> dict[str, Any]:
    """A seat's view of the table with the table's counters (``ViewEnvelope``)."""
    game = seat.game
    return {
        "code": game.code,
        "status": game.status,
        "version": game.version,
        "turn": game.turn,
        "seat": MODERATOR if seat.moderating else seat.position,
        "players": [player_json(player) for player in seat.players],
        "view": seat.view,
    }


def chat_message_json(message: ChatMessage) -> dict[str, Any]:
    """``message.author`` should be selected with it."""
    return {
        "id": message.pk,
        "channel": message.channel,
        "author": user_json(message.author),
        "text": message.text,
        "created_at": when(message.created_at),
    }


def token_group(token_id: int) -> str:
    """The group of the sockets an API token opened: revoking it closes them."""
    return f"api-token-{token_id}"


def program_language(accept_language: str, user: Any) -> str:
    """The language of an answer to a program: what it asks for in Accept-Language,
    else its user's profile language, else the site's default. (A program sets the
    header on purpose, unlike a browser, so the header comes first here.)"""
    supported = {code for code, _ in settings.LANGUAGES}
    for code, _quality in parse_accept_lang_header(accept_language):
        code = code.lower().split("-")[0]
        if code in supported:
            return code
    language = getattr(user, "language", "") or ""
    return language if language in supported else settings.LANGUAGE_CODE
