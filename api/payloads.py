"""The JSON the API and the JSON socket send, built from the games selectors.

Nothing about a game's hidden state is read here: the game part of every answer is
the engine's ``view()`` for the viewer's own seat (or the spectator's view), which
``api.seatview`` hands in. The HTTP endpoints
and the socket both build their answers here, so a program sees the same shapes on
both.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.utils.translation import gettext

from accounts.models import User
from games import engine
from games.families.registry import words_of
from games.models import ChatMessage, Game
from games.selectors import Player


def _when(moment: datetime | None) -> str | None:
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
        "created_at": _when(game.created_at),
        "url": game.get_absolute_url(),
    }


def table_list_json(games: Any) -> list[dict[str, Any]]:
    """Tables annotated with ``taken`` (the lobby selectors do that)."""
    return [table_summary_json(game, taken=game.taken) for game in games]


def table_json(game: Game, players: list[Player]) -> dict[str, Any]:
    """One table in full: the lobby's facts, the players (``players_of``), the
    counters. ``game.host`` should be selected with it."""
    return {
        **table_summary_json(game, taken=len(players)),
        "players": [player_json(player) for player in players],
        "version": game.version,
        "turn": game.turn,
        "phase": game.phase,
        "winner": game.winner or None,
        "started_at": _when(game.started_at),
        "finished_at": _when(game.finished_at),
    }


def envelope_parts(
    game: Game,
    players: Sequence[Player],
    position: int | None,
    view: dict[str, Any] | None,
) -> dict[str, Any]:
    return {
        "code": game.code,
        "status": game.status,
        "version": game.version,
        "turn": game.turn,
        "seat": position,
        "players": [player_json(player) for player in players],
        "view": view,
    }


def chat_message_json(message: ChatMessage) -> dict[str, Any]:
    """``message.author`` should be selected with it."""
    return {
        "id": message.pk,
        "channel": message.channel,
        "author": user_json(message.author),
        "text": message.text,
        "created_at": _when(message.created_at),
    }


def _option_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return "string"


def ruleset_json(code: str) -> dict[str, Any]:
    """A game as the create-table page offers it, in the active language."""
    ruleset = engine.get_ruleset(code)
    words = words_of(code)
    return {
        "code": code,
        "name": str(words.game),
        "min_players": ruleset.min_players,
        "max_players": ruleset.max_players,
        "options": [
            {
                "name": option.name,
                "type": _option_type(option.default),
                "default": option.default,
                "label": gettext(option.label),
                "help": gettext(option.help),
            }
            for option in ruleset.options
        ],
        "house_decisions": [gettext(text) for text in ruleset.house_decisions],
        "roles": {role: str(words.role(role)) for role in words.roles},
    }
