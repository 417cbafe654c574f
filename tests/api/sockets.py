"""Opening a table's socket as a program in tests, and reading it to the end."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.api.support import Api

TIMEOUT = 30  # a bound on waiting for an event, not a timing: a loaded machine is slow


async def open_socket(
    player: Api | None,
    code: str,
    *,
    json_mode: bool = True,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> tuple[WebsocketCommunicator, bool, int | None]:
    """A token-authenticated socket (the program's own key) to a table."""
    path = f"/ws/table/{code}/" + ("?format=json" if json_mode else "")
    sent = list(headers or [])
    if player is not None and player.key is not None:
        sent.append((b"authorization", f"Token {player.key}".encode()))
    communicator = WebsocketCommunicator(application, path, headers=sent)
    connected, close_code = await communicator.connect(timeout=TIMEOUT)
    return communicator, connected, close_code


async def next_message(communicator: WebsocketCommunicator) -> dict[str, Any]:
    return json.loads(await communicator.receive_from(timeout=TIMEOUT))


async def view_at(
    communicator: WebsocketCommunicator, version: int, log: list[dict[str, Any]]
) -> dict[str, Any]:
    """Read until a view of ``version`` (or later) arrives; every message read is
    appended to ``log`` for the leak checks."""
    while True:
        message = await next_message(communicator)
        log.append(message)
        if message["type"] == "view" and message["version"] >= version:
            return message


async def drain(communicator: WebsocketCommunicator) -> list[dict[str, Any]]:
    """Whatever is waiting on the socket now, after a short quiet period."""
    found = []
    while not await communicator.receive_nothing(timeout=0.05):
        found.append(await next_message(communicator))
    return found


async def close_all(communicators: list[WebsocketCommunicator]) -> None:
    await asyncio.gather(*(c.disconnect() for c in communicators))
