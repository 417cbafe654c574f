"""/healthz reports the channel layer as reachable while sockets are open.

On channels-redis it said "unreachable" (503) on every server with an open socket:
its round-trip channel had a prefix of its own, and channels-redis serves a
process's channels through one blocking read per prefix, held by the sockets'
receiver, so the check's message was never read in time. bench.chaos found it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient

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
        await communicator.receive_json_from()
        sockets.append(communicator)
    client = AsyncClient()
    for _ in range(3):
        response = await client.get("/healthz")
        assert response.status_code == 200, response.content
        assert response.json()["channel_layer"] == "ok"
    for communicator in sockets:
        await communicator.disconnect()
