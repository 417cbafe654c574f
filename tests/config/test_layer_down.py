"""A socket opened while the channel layer's Redis is down is accepted and closed
with 4503 (documented in docs/live.md; the page tries again later), not with the
1011 of an error the page cannot tell from a bug. "Down" is a closed port: what a
stopped or restarting Redis looks like to the process."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers
from django.db import connections
from pytest_django.fixtures import Settings

from config.settings.base import redis_channel_layer
from live.sockets import CLOSE_UNAVAILABLE
from tests.api.sockets import open_socket
from tests.api.support import by_seat, open_table
from tests.config.sockets import browser_socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def layer_down(settings: Settings) -> Iterator[None]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    settings.CHANNEL_LAYERS = {
        "default": redis_channel_layer(f"redis://127.0.0.1:{port}/0")
    }
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}
    connections.close_all()


async def closing_code(communicator) -> int:
    """The close code the socket ends with (after any frames before it)."""
    while True:
        output = await communicator.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return output.get("code", 1000)


@pytest.mark.usefixtures("layer_down")
@pytest.mark.parametrize("json_mode", [False, True])
def test_a_socket_opened_while_redis_is_down_closes_with_4503(json_mode: bool) -> None:
    code, players = open_table("partisans", 5)
    player = by_seat(code, players)[0]

    async def scenario() -> int:
        if json_mode:
            communicator, connected, _ = await open_socket(player, code)
        else:
            communicator, connected, _ = await browser_socket(
                player.user, f"/ws/table/{code}/"
            )
        assert connected
        found = await closing_code(communicator)
        await communicator.wait(timeout=10)
        return found

    assert async_to_sync(scenario)() == CLOSE_UNAVAILABLE
