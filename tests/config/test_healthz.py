"""/healthz reports the channel layer as reachable while sockets are open.

On channels-redis it said "unreachable" (503) on every server with an open socket:
its round-trip channel had a prefix of its own, and channels-redis serves a
process's channels through one blocking read per prefix, held by the sockets'
receiver, so the check's message was never read in time. bench.chaos found it."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from django.db import connections
from django.test import AsyncClient
from pytest_django.fixtures import Settings

from config.settings.base import redis_channel_layer
from tests.config.sockets import browser_socket
from tests.factories import UserFactory

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture(autouse=True)
async def _close_database_thread() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


async def test_healthy_with_sockets_open() -> None:
    """On every pass; on Redis it is the case that used to fail."""
    user = await sync_to_async(UserFactory)()
    sockets = []
    for _ in range(3):
        communicator, connected, _ = await browser_socket(user, "/ws/ping/")
        assert connected
        await communicator.receive_json_from(timeout=30)
        sockets.append(communicator)
    client = AsyncClient()
    for _ in range(3):
        response = await client.get("/healthz")
        assert response.status_code == 200, response.content
        assert response.json()["channel_layer"] == "ok"
    for communicator in sockets:
        await communicator.disconnect()


async def test_ready_and_the_old_address_report_both() -> None:
    client = AsyncClient()
    for path in ("/healthz/ready", "/healthz"):
        answer = await client.get(path)
        assert answer.status_code == 200, answer.content
        assert answer.json()["database"] == "ok"
        assert answer.json()["channel_layer"] == "ok"
        assert "max-age=0" in answer["Cache-Control"]


@pytest.fixture
def layer_down(settings: Settings) -> Iterator[None]:
    """The channel layer's Redis at a closed port: down."""
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


@pytest.mark.usefixtures("layer_down")
async def test_liveness_holds_while_redis_is_down_and_readiness_says_so() -> None:
    client = AsyncClient()
    live = await client.get("/healthz/live")
    assert live.status_code == 200
    assert live.json() == {"status": "ok"}
    ready = await client.get("/healthz/ready")
    assert ready.status_code == 503
    assert ready.json()["channel_layer"] == "unreachable"
    assert ready.json()["database"] == "ok"
