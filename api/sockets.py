"""A program's table socket (``/ws/table/<code>/?format=json``): the seat's
envelope as JSON (``api.shapes`` ``SocketView``) after every change, chat lines
as objects, who is away as a list, moves as ``{"type": "act", "action", "turn"}``
checked against the table's family's move schema. A socket opened with an API
token joins that token's group, so revoking the token closes it."""

from __future__ import annotations

import json
from typing import Any

from django.utils import translation

from api import checks, payloads
from api.shapes import SocketChat, shapes
from games.models import ChatMessage, Game
from games.presence import Away, away_json
from games.selectors import SeatView
from games.services import Acted
from live import requests
from live.consumers import Chat, Move, SeatSocket
from live.room import Room
from live.sockets import CLOSE_UNAUTHENTICATED
from live.table import Table


def seat_view(table: Table, user: Any) -> SeatView:
    """``user``'s view of ``table`` as the API's envelopes show it."""
    viewer = table.viewer(user)
    me = next((p for p in table.players if p.user_id == viewer.user_id), None)
    return SeatView(
        game=table.game,
        players=table.players,
        me=me,
        view=table.view_of(viewer),
        public_view=table.public_view,
        moderating=viewer.moderating,
    )


class JsonSeatConsumer(SeatSocket):
    json_mode = True
    # (version, status) of the last envelope sent: a table read again at the same
    # version (a catch-up) is not sent twice.
    sent: tuple[int, str] | None = None

    def choose_language(self) -> str:
        headers = dict(self.scope.get("headers") or [])
        accept = headers.get(b"accept-language", b"").decode("latin-1")
        return payloads.program_language(accept, self.scope.get("user"))

    def seat_groups(self) -> list[str]:
        token_id = self.scope.get("api_token_id")
        if token_id is None:
            return []
        return [payloads.token_group(token_id)]

    async def on_connect(self) -> None:
        await super().on_connect()
        # Who is away, after the view when someone is (no frame: nobody), then
        # after every change of it.
        room = self.room
        if room is not None and room.table is not None and room.table.away:
            await self.send_json(
                {"type": "presence", "away": away_json(room.table.away)}
            )

    def table_frame(self, table: Table, room: Room) -> str | None:
        game = table.game
        now = (game.version, game.status)
        if self.sent == now and game.status != Game.Status.OPEN:
            return None
        self.sent = now
        envelope = payloads.seat_envelope(seat_view(table, self.user))
        return json.dumps({"type": "view", **envelope})

    def chat_frame(self, table: Table, message: ChatMessage) -> str | None:
        if message.channel not in table.readable_channels(table.viewer(self.user)):
            return None
        return json.dumps(
            {"type": "chat", "message": payloads.chat_message_json(message)}
        )

    def presence_frame(self, table: Table, away: tuple[Away, ...]) -> str | None:
        if table.game.status != Game.Status.PLAYING:
            return None
        return json.dumps({"type": "presence", "away": away_json(away)})

    def read(self, content: Any) -> Move | Chat:
        if not isinstance(content, dict):
            raise requests.InvalidJson(
                reason=translation.gettext("the top level must be an object")
            )
        message = checks.checked(shapes().SocketMessage, content).root
        if isinstance(message, SocketChat):
            return Chat(message.text, message.channel)
        return Move(
            checks.move_of(self.ruleset, message.action, seats=self.seat_count),
            message.turn,
            message.move_id,
        )

    async def send_error(self, exc: Exception) -> None:
        with translation.override(self.language):
            await self.send_json({"type": "error", **requests.error_json(exc)})

    async def refused_move(self, exc: Exception) -> None:
        # The refusal, then the seat as the table stands.
        await self.send_error(exc)
        room = self.room
        if room is not None and room.table is not None:
            async with room.lock:
                self.sent = None
                frame = self.table_frame(room.table, room)
            if frame is not None:
                await self.send(text_data=frame)

    async def acted(self, acted: Acted) -> None:
        frame: dict[str, Any] = {
            "type": "acted",
            "version": acted.version,
            "turn": acted.turn,
        }
        if acted.replayed:
            frame["replayed"] = True
        await self.send_json(frame)

    async def token_revoked(self, event: dict[str, Any]) -> None:
        await self.close(code=CLOSE_UNAUTHENTICATED)
