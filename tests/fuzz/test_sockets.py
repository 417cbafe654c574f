"""Fuzz of both table sockets: the page's (/ws/table/<code>/, session) and the
programs' (?format=json, API token), each held by a seat the table is not waiting
for. Any frame, text or binary, JSON or not, move- or chat-shaped, is answered and
never crashes the socket; a program's refusals carry codes the API documents; no
move is ever applied.

Each example opens fresh sockets and sends a short burst of frames (under the
socket's rate limit); bounded and derandomised."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.views import api
from games.models import Game
from tests.api.sockets import open_socket
from tests.api.support import by_seat, open_table
from tests.config.sockets import browser_socket
from tests.fuzz.strategies import socket_frame
from tests.fuzz.tables import bystander, fingerprint

pytestmark = pytest.mark.django_db(transaction=True)

ERROR_CODES = set(api.document()["components"]["schemas"]["ErrorCode"]["enum"])
TIMEOUT = 30  # a bound on waiting for an event, not a timing: a loaded machine is slow
FUZZ = settings(
    max_examples=20,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def table() -> tuple[Game, Any]:
    code, players = open_table("partisans", 5, {"chat": True})
    game = Game.objects.get(code=code)
    yield game, by_seat(code, players)[bystander(game)]
    connections.close_all()


async def answers_to(
    communicator: WebsocketCommunicator, frames: list[tuple[str, Any]]
) -> list[str]:
    """Send each frame and collect everything the socket says back."""
    said: list[str] = []
    for kind, payload in frames:
        # send_input, not send_to: a real client may send an empty frame.
        key = "bytes" if kind == "bytes" else "text"
        await communicator.send_input({"type": "websocket.receive", key: payload})
        said.append(await communicator.receive_from(timeout=TIMEOUT))
        while not await communicator.receive_nothing(timeout=0.02):
            said.append(await communicator.receive_from(timeout=TIMEOUT))
    assert not communicator.future.done(), "the socket's application ended"
    await communicator.disconnect()
    return said


@FUZZ
@given(frames=st.lists(socket_frame(json_mode=True), min_size=1, max_size=8))
def test_the_program_socket(
    table: tuple[Game, Any], frames: list[tuple[str, Any]]
) -> None:
    game, player = table
    before = fingerprint(game, chat=False)

    async def scenario() -> list[str]:
        communicator, connected, _ = await open_socket(
            player, game.code, headers=[(b"accept-language", b"en")]
        )
        assert connected
        await communicator.receive_from(timeout=TIMEOUT)  # the snapshot
        try:
            return await answers_to(communicator, frames)
        finally:
            await sync_to_async(connections.close_all)()

    for raw in async_to_sync(scenario)():
        message = json.loads(raw)
        assert message["type"] in {"error", "view", "chat"}, message
        if message["type"] == "error":
            assert message["code"] in ERROR_CODES, message
            assert message["code"] != "server_error", message
    assert fingerprint(game, chat=False) == before


@FUZZ
@given(frames=st.lists(socket_frame(json_mode=False), min_size=1, max_size=8))
def test_the_page_socket(
    table: tuple[Game, Any], frames: list[tuple[str, Any]]
) -> None:
    game, player = table
    before = fingerprint(game, chat=False)

    async def scenario() -> list[str]:
        communicator, connected, _ = await browser_socket(
            player.user, f"/ws/table/{game.code}/"
        )
        assert connected
        await communicator.receive_from(timeout=TIMEOUT)  # the snapshot
        try:
            return await answers_to(communicator, frames)
        finally:
            await sync_to_async(connections.close_all)()

    for html in async_to_sync(scenario)():
        assert "Something broke on our side" not in html
    assert fingerprint(game, chat=False) == before
