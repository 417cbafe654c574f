"""The table page's socket with the voice rooms' signalling on it.

A page sends ``{"voice": {...}}`` frames on its table's socket: ``join`` and
``leave`` a room, and ``offer``, ``answer`` and ``candidate`` ``to`` a seat. The
server relays a signal only to a seat of this very table that is in the same room,
found among the table's seats (a page names a seat number, never a channel), and
writes ``from`` itself. Every relay goes through the channel layer to the seat's own
group (``voice.<table>.<seat>``), so it reaches the seat's socket in whatever
process holds it; the receiving socket checks again, from its own view, that it is
in that room before its page sees anything.

Voice is keyed by seat: a join carries a fresh ``session``, and a second tab or a
reload of the same seat that joins replaces the first (told ``replaced``). Each
relayed frame names the sender's session and the receiver's, so a frame meant for
a replaced tab reaches nobody.

Joining: the newcomer's join goes to every member of the room; each member's
socket answers it with ``present``, and the newcomer's page offers to each member
that answered (``peer`` with ``offer``). Two seats joining at once hear each
other's join and answer both: then the lower seat offers, the other waits.

The team room is a private chat channel's (``voice.rights``): its joins, answers
and signals are sent only to the seats whose own view opens that channel now, so a
seat outside it never receives a frame, a peer list or a signal about it.

A spectator's socket has no voice: its voice frames are refused, and no voice
frame is ever sent to it.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from games import engine
from games.models import Game
from live import room as rooms
from live.consumers import HtmlSeatConsumer
from live.sockets import TokenBucket
from live.table import Table
from voice import rights as voice_rights
from voice.ice import ice_config
from voice.rights import ROOMS, TABLE, TEAM

MAX_SDP_BYTES = 8 * 1024
MAX_CANDIDATE_CHARS = 512
CANDIDATE_KEYS = {"candidate", "sdpMid", "sdpMLineIndex", "usernameFragment"}
SIGNALS = ("offer", "answer", "candidate")
OPEN_STATUSES = (Game.Status.PLAYING, Game.Status.FINISHED)


class VoiceRefused(Exception):
    """A voice frame refused: the page is told why, nothing is relayed."""


def seat_group(game_id: int, key: int) -> str:
    """The channel layer group of one seat's sockets (the moderator's: ``m``)."""
    return f"voice.{game_id}.{'m' if key == engine.MODERATOR else key}"


def voice_open(table: Table | None) -> bool:
    return table is not None and table.started and table.game.status in OPEN_STATUSES


def rights_of(table: Table | None, key: int | None) -> dict[str, Any]:
    """The voice rights of the seat ``key`` (None: a spectator) at ``table``."""
    if key is None or table is None or not voice_open(table):
        return voice_rights.closed()
    return voice_rights.voice_rights(table.view(key))


def seat_keys(table: Table) -> list[int]:
    """Every seat of the table, and the moderator's chair if it has one."""
    keys = [p.position for p in table.players if p.position is not None]
    if table.game.moderator_id is not None:
        keys.append(engine.MODERATOR)
    return keys


def members(table: Table, room: str, channel: str | None) -> list[int]:
    """The seats in ``room`` now (the team room: those whose own view opens
    ``channel``)."""
    if not voice_open(table):
        return []
    if room == TABLE:
        return seat_keys(table)
    if channel is None:
        return []
    return [
        key
        for key in seat_keys(table)
        if voice_rights.team_channel(table.view(key)) == channel
    ]


def _text(value: Any, limit: int) -> str:
    if not isinstance(value, str) or len(value.encode()) > limit:
        raise VoiceRefused(_("That voice message is not one the server relays."))
    return value


def check_sdp(kind: str, body: Any) -> str:
    """An offer's or answer's SDP, if it is small and offers audio only."""
    sdp = _text(body, MAX_SDP_BYTES)
    for line in sdp.splitlines():
        if line.startswith("m=") and not line.startswith("m=audio "):
            raise VoiceRefused(_("Only audio is carried in the voice room."))
    if not sdp.startswith("v=0"):
        raise VoiceRefused(_("That voice message is not one the server relays."))
    return sdp


def check_candidate(body: Any) -> dict[str, Any]:
    """An ICE candidate as the browser gives it: a small object of known keys."""
    wrong = _("That voice message is not one the server relays.")
    if not isinstance(body, dict) or not set(body) <= CANDIDATE_KEYS:
        raise VoiceRefused(wrong)
    candidate = body.get("candidate", "")
    mid = body.get("sdpMid")
    index = body.get("sdpMLineIndex")
    fragment = body.get("usernameFragment")
    if not isinstance(candidate, str) or len(candidate) > MAX_CANDIDATE_CHARS:
        raise VoiceRefused(wrong)
    if mid is not None and (not isinstance(mid, str) or len(mid) > 32):
        raise VoiceRefused(wrong)
    if index is not None and (
        type(index) is not int or not 0 <= index < 16  # a bool is no seat
    ):
        raise VoiceRefused(wrong)
    if fragment is not None and (not isinstance(fragment, str) or len(fragment) > 64):
        raise VoiceRefused(wrong)
    return {
        "candidate": candidate,
        "sdpMid": mid,
        "sdpMLineIndex": index,
        "usernameFragment": fragment,
    }


def rights_element(rights: Mapping[str, Any]) -> str:
    """The page's hidden voice rights, swapped in by id with a push."""
    data = escape(json.dumps(rights, separators=(",", ":"), sort_keys=True))
    return (
        f'<div id="voice-rights" hidden hx-swap-oob="true" data-rights="{data}"></div>'
    )


class VoiceSeatConsumer(HtmlSeatConsumer):
    """A table page's socket that also carries its seat's voice."""

    voice_key: int | None = None
    voice_session: str = ""
    voice_team: str | None = None
    voice_grouped: bool = False

    async def on_connect(self) -> None:
        self.voice_rooms: set[str] = set()
        # The session of each seat whose join this socket answered, per room.
        self.heard: dict[tuple[str, int], str] = {}
        self.voice_bucket = TokenBucket.full(
            float(getattr(settings, "VOICE_FRAME_RATE", 10)),
            float(getattr(settings, "VOICE_FRAME_BURST", 100)),
        )
        await super().on_connect()

    async def disconnect(self, code: int) -> None:
        if getattr(self, "voice_rooms", None):
            for room in list(self.voice_rooms):
                await self._leave(room)
        if self.voice_grouped and self.voice_key is not None:
            await self.channel_layer.group_discard(
                seat_group(self.game_id, self.voice_key), self.channel_name
            )
        await super().disconnect(code)

    # The rights, with every push -----------------------------------------------------

    def table_frame(self, table: Table, room: rooms.Room) -> str | None:
        frame = super().table_frame(table, room)
        key = table.viewer(self.user).engine_seat
        if key is None:
            return frame  # a spectator: no voice at all
        rights = rights_of(table, key)
        self._rights_changed(table, key, rights)
        # With every frame, changed or not: which frames carry it says nothing.
        return (frame or "") + rights_element(rights)

    def _rights_changed(self, table: Table, key: int, rights: dict[str, Any]) -> None:
        """A room this socket holds closes to it: the room's members are told it
        left (the page closes its connections there by its own rights)."""
        rooms_held = getattr(self, "voice_rooms", set())
        channel = voice_rights.team_channel(table.view(key))
        for room in list(rooms_held):
            gone = not voice_rights.may_use(rights, room) or (
                room == TEAM and channel != self.voice_team
            )
            if gone:
                rooms_held.discard(room)
                self._forget_heard(room)
                self._spawn(self._tell_left(room, table))

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks = getattr(self, "_tasks", set())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # Frames from the page --------------------------------------------------------

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and "voice" in content:
            try:
                with translation.override(self.language):
                    await self.voice_frame(content)
            except VoiceRefused as exc:
                await self.send_voice({"type": "error", "message": str(exc)})
            return
        await super().receive_json(content, **kwargs)

    async def send_voice(self, body: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"voice": body}, separators=(",", ":")))

    async def voice_frame(self, content: dict[str, Any]) -> None:
        wrong = _("That voice message is not one the server relays.")
        if not self.voice_bucket.take():
            raise VoiceRefused(_("Too many voice messages at once: slow down."))
        body = content["voice"]
        if len(content) != 1 or not isinstance(body, dict):
            raise VoiceRefused(wrong)
        kind = body.get("type")
        room = body.get("room")
        if kind not in ("join", "leave", *SIGNALS) or room not in ROOMS:
            raise VoiceRefused(wrong)
        table = self.room.table if self.room is not None else None
        key = table.viewer(self.user).engine_seat if table is not None else None
        if table is None or key is None:
            raise VoiceRefused(_("Only the players at this table have its voice."))
        if not voice_open(table):
            raise VoiceRefused(_("The voice room opens when the game starts."))
        if self.voice_key is not None and key != self.voice_key:
            raise VoiceRefused(wrong)
        rights = rights_of(table, key)
        if not voice_rights.may_use(rights, room):
            raise VoiceRefused(_("This voice room is not open to you now."))
        if kind == "join":
            await self._join(table, key, room)
        elif kind == "leave":
            if room in self.voice_rooms:
                self.voice_rooms.discard(room)
                await self._leave(room)
        else:
            await self._signal(table, key, room, kind, body)

    async def _join(self, table: Table, key: int, room: str) -> None:
        if self.voice_key is None:
            self.voice_key = key
        if not self.voice_grouped:
            await self.channel_layer.group_add(
                seat_group(self.game_id, key), self.channel_name
            )
            self.voice_grouped = True
        if not self.voice_rooms:
            self.voice_session = secrets.token_hex(8)
        self._forget_heard(room)
        if room == TEAM:
            self.voice_team = voice_rights.team_channel(table.view(key))
        self.voice_rooms.add(room)
        message = {
            "type": "voice.join",
            "room": room,
            "from": key,
            "session": self.voice_session,
            "channel": self.channel_name,
        }
        for member in members(table, room, self.voice_team):
            await self.channel_layer.group_send(
                seat_group(self.game_id, member), message
            )
        # Last: once the page hears it, every seat in the room was told.
        await self.send_voice(
            {
                "type": "joined",
                "room": room,
                "seat": key,
                "session": self.voice_session,
                "ice": ice_config(f"{self.game_id}-{key}"),
            }
        )

    async def _signal(
        self, table: Table, key: int, room: str, kind: str, body: dict[str, Any]
    ) -> None:
        if room not in self.voice_rooms:
            raise VoiceRefused(_("Join the voice room first."))
        target = body.get("to")
        session = body.get("session")
        if (
            type(target) is not int  # a bool is no seat
            or target == key
            or target not in members(table, room, self.voice_team)
        ):
            raise VoiceRefused(_("There is no such seat in this voice room."))
        if not isinstance(session, str) or len(session) > 32:
            raise VoiceRefused(_("That voice message is not one the server relays."))
        message: dict[str, Any] = {
            "type": "voice.signal",
            "room": room,
            "kind": kind,
            "from": key,
            "session": self.voice_session,
            "to_session": session,
        }
        if kind == "candidate":
            message["candidate"] = check_candidate(body.get("candidate"))
        else:
            message["sdp"] = check_sdp(kind, body.get("sdp"))
        await self.channel_layer.group_send(seat_group(self.game_id, target), message)

    def _forget_heard(self, room: str) -> None:
        """A new stay in ``room``: the joins answered in an earlier one are no race
        of this one's."""
        for heard in [heard for heard in self.heard if heard[0] == room]:
            del self.heard[heard]

    async def _leave(self, room: str) -> None:
        table = self.room.table if self.room is not None else None
        self.voice_rooms.discard(room)
        self._forget_heard(room)
        if table is not None:
            await self._tell_left(room, table)

    async def _tell_left(self, room: str, table: Table) -> None:
        if self.voice_key is None:
            return
        message = {
            "type": "voice.leave",
            "room": room,
            "from": self.voice_key,
            "session": self.voice_session,
        }
        for member in members(table, room, self.voice_team):
            if member != self.voice_key:
                await self.channel_layer.group_send(
                    seat_group(self.game_id, member), message
                )

    # Messages from other sockets (the channel layer) ----------------------------------

    def _in(self, room: str, sender: Any) -> bool:
        """Whether this socket is in ``room`` now, by its own view, and ``sender``
        is a member of it too."""
        if room not in ROOMS or room not in self.voice_rooms or self.room is None:
            return False
        table = self.room.table
        key = self.voice_key
        if table is None or key is None or sender == key:
            return False
        if not voice_rights.may_use(rights_of(table, key), room):
            return False
        channel = self.voice_team if room == TEAM else None
        if room == TEAM and voice_rights.team_channel(table.view(key)) != channel:
            return False
        return sender in members(table, room, channel)

    async def voice_join(self, message: dict[str, Any]) -> None:
        room, sender, session = message["room"], message["from"], message["session"]
        if message["channel"] == self.channel_name:
            return
        if sender == self.voice_key:
            # The same seat joined from another tab: that one holds its voice now.
            if self.voice_rooms:
                self.voice_rooms.clear()
                self.heard.clear()
                await self.send_voice({"type": "replaced"})
            return
        if not self._in(room, sender):
            return
        self.heard[(room, sender)] = session
        await self.send_voice(
            {"type": "join", "room": room, "from": sender, "session": session}
        )
        assert self.voice_key is not None
        await self.channel_layer.group_send(
            seat_group(self.game_id, sender),
            {
                "type": "voice.present",
                "room": room,
                "from": self.voice_key,
                "session": self.voice_session,
                "to_session": session,
            },
        )

    async def voice_present(self, message: dict[str, Any]) -> None:
        room, sender, session = message["room"], message["from"], message["session"]
        if message["to_session"] != self.voice_session or not self._in(room, sender):
            return
        assert self.voice_key is not None
        both = self.heard.get((room, sender)) == session
        await self.send_voice(
            {
                "type": "peer",
                "room": room,
                "from": sender,
                "session": session,
                "offer": not both or self.voice_key < sender,
            }
        )

    async def voice_signal(self, message: dict[str, Any]) -> None:
        room, sender = message["room"], message["from"]
        if message["to_session"] != self.voice_session or not self._in(room, sender):
            return
        body = {
            "type": message["kind"],
            "room": room,
            "from": sender,
            "session": message["session"],
        }
        if "sdp" in message:
            body["sdp"] = message["sdp"]
        else:
            body["candidate"] = message["candidate"]
        await self.send_voice(body)

    async def voice_leave(self, message: dict[str, Any]) -> None:
        room, sender = message["room"], message["from"]
        table = self.room.table if self.room is not None else None
        key = self.voice_key
        if (
            room not in self.voice_rooms
            or table is None
            or key is None
            or sender == key
            or not voice_rights.may_use(rights_of(table, key), room)
        ):
            return
        self.heard.pop((room, sender), None)
        await self.send_voice(
            {
                "type": "leave",
                "room": room,
                "from": sender,
                "session": message["session"],
            }
        )
