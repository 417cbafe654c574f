"""The channel layer on Redis keeps idle sockets open, whatever redis-py's defaults.

redis-py 8 lowered its default socket timeout to 5 s, the same as channels-redis's
blocking read, so each idle read timed out and took its WebSocket down with 1011
within seconds. The settings now name every timeout; this holds idle sockets open
on the real Redis for longer than all of them and then checks they still answer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.db import connections

from tests.config.sockets import browser_socket
from tests.conftest import uses_redis
from tests.factories import UserFactory


def test_the_layer_names_its_timeouts_above_the_blocking_read() -> None:
    """Checked on every pass, Redis or not: the configuration itself."""
    from config.settings.base import redis_channel_layer

    layer = redis_channel_layer("redis://127.0.0.1:6379/0")
    (host,) = layer["CONFIG"]["hosts"]
    assert RedisChannelLayer.brpop_timeout == settings.CHANNEL_LAYER_BLOCKING_READ
    assert host["socket_timeout"] >= 2 * RedisChannelLayer.brpop_timeout
    assert 0 < host["socket_connect_timeout"] <= 5


@pytest_asyncio.fixture
async def _close_database_thread() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


@pytest.mark.skipif(
    not uses_redis(), reason="needs REDIS_URL: the in-memory layer has no socket"
)
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_close_database_thread")
async def test_idle_sockets_stay_open_past_every_timeout() -> None:
    user = await sync_to_async(UserFactory)(display_name="Оля")
    sockets = []
    for _ in range(5):
        communicator, connected, _ = await browser_socket(user, "/ws/ping/")
        assert connected
        assert (await communicator.receive_json_from(timeout=30))["type"] == "hello"
        sockets.append(communicator)
    hold = settings.CHANNEL_LAYER_SOCKET_TIMEOUT + 2
    # Wait on the applications themselves: one that ends within the hold has
    # crashed (before the fix, the first did so after about five seconds).
    ended, _ = await asyncio.wait(
        [communicator.future for communicator in sockets], timeout=hold
    )
    assert not ended, [task.exception() for task in ended]
    for communicator in sockets:
        await communicator.send_json_to({"type": "ping"})
        assert await communicator.receive_json_from(timeout=30) == {"type": "pong"}
        await communicator.disconnect()
