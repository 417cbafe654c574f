"""The JSON mode of a table's socket, for programs (``?format=json``).

The consumer (``games.consumers.TableConsumer``) keeps the socket; this module builds
what it sends and checks what it receives, with the same JSON shapes and request
schemas as the HTTP API. A push is built per connected viewer: ``engine.view`` for
the seat that viewer holds, so a seat's socket only ever carries that seat's view; a
chat line goes only to viewers whose own view lets them read its channel.

The views come from ``api.seatview``, which reads a table's row and players once per
version in each process for all its sockets.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from api import errors, payloads, seatview
from api.errors import ApiError
from api.http import choose_language, error_json
from api.schemas import components
from api.validation import parse_json_object, validate
from games.errors import GameError
from games.models import ChatMessage, Game
from games.selectors import table_context, visible_chat_channels

JSON_FORMAT = "json"


def wants_json(scope: dict[str, Any]) -> bool:
    """Whether the socket was opened with ``?format=json``."""
    query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    return query.get("format", [""])[-1] == JSON_FORMAT


def program_language(scope: dict[str, Any]) -> str:
    """As over HTTP: Accept-Language first, then the user's profile language."""
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    return choose_language(accept, scope.get("user"))


MAX_FRAME_BYTES = 16 * 1024


def parse_frame(text_data: str | None, bytes_data: bytes | None) -> Any:
    """A frame's JSON, with the HTTP API's strictness and size limit."""
    raw = text_data.encode() if text_data is not None else (bytes_data or b"")
    if len(raw) > MAX_FRAME_BYTES:
        raise errors.BodyTooLarge(limit=MAX_FRAME_BYTES)
    return parse_json_object(raw)


def parse_message(content: Any) -> dict[str, Any]:
    """A program's message, checked against ``SocketMessage``; raises ``ApiError``."""
    validate(content, {"$ref": "SocketMessage"}, components())
    return dict(content)


def error_message(exc: ApiError | GameError) -> dict[str, Any]:
    return {"type": "error", **error_json(exc)}


def view_message(
    game_id: int, code: str, user: Any, push: tuple[int, str] | None = None
) -> dict[str, Any] | None:
    """The viewer's own view of the table, for a push; None when it is gone.
    ``push`` is the (version, status) the group message announced."""
    envelope = seatview.pushed_envelope(game_id, code, user, push)
    return None if envelope is None else {"type": "view", **envelope}


def cached_view_message(
    game_id: int, code: str, user: Any, push: tuple[int, str]
) -> dict[str, Any] | None:
    """The same without any database access (safe on the event loop), or None
    when this process has not read a row that new yet."""
    envelope = seatview.cached_envelope(game_id, code, user, push)
    return None if envelope is None else {"type": "view", **envelope}


def chat_message(
    game_id: int, user: Any, message_id: int, channel: str
) -> dict[str, Any] | None:
    """The message, only if this viewer's own view lets them read its channel."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    ctx = table_context(game, user, with_chat=False)
    if channel not in visible_chat_channels(game, ctx.view, ctx.is_seated):
        return None
    message = (
        ChatMessage.objects.select_related("author")
        .filter(pk=message_id, game_id=game_id)
        .first()
    )
    if message is None:
        return None
    return {"type": "chat", "message": payloads.chat_message_json(message)}
