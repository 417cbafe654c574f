"""Opening the site's sockets in tests, as a browser (session cookie and Origin)."""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from config.asgi import application

BROWSER = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]


def _session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def browser_socket(
    user: User, path: str, *, language: str = "en", app: Any = application
) -> tuple[WebsocketCommunicator, bool, int | None]:
    """A socket opened by ``user``'s logged-in browser (asking for ``language``), to
    the site's ASGI application or ``app`` (one wrapping it)."""
    cookie = await sync_to_async(_session_cookie)(user)
    headers = [
        *BROWSER,
        (b"cookie", f"sessionid={cookie}".encode()),
        (b"accept-language", language.encode()),
    ]
    communicator = WebsocketCommunicator(app, path, headers=headers)
    connected, close_code = await communicator.connect(timeout=30)
    return communicator, connected, close_code


class ClosedUnderneath:
    """The site's application behind a server whose client has gone: once ``gone`` is
    set, every frame the socket writes is refused as daphne refuses a write to a
    socket already closing (autobahn's ``Disconnected``), and counted in
    ``refused``."""

    def __init__(self) -> None:
        self.gone = asyncio.Event()
        self.refused = 0
        self._counted = asyncio.Condition()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        from autobahn.exception import Disconnected

        async def write(message: dict[str, Any]) -> None:
            if self.gone.is_set() and message["type"] == "websocket.send":
                async with self._counted:
                    self.refused += 1
                    self._counted.notify_all()
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await application(scope, receive, write)

    async def until_refused(self, count: int = 1, timeout: float = 30) -> None:
        """Wait until ``count`` frames in all have been refused."""
        async with self._counted:
            await asyncio.wait_for(
                self._counted.wait_for(lambda: self.refused >= count), timeout
            )
