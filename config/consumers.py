"""Site-wide WebSocket plumbing: the base every consumer builds on."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

# Close code for "not logged in": 4000-4999 are free for applications; 4401 echoes 401.
CLOSE_UNAUTHENTICATED = 4401


class AuthenticatedConsumer(AsyncJsonWebsocketConsumer):
    """Accepts logged-in users only; anonymous sockets are closed before acceptance,
    and so is a socket the subclass's ``admit`` refuses."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not await self.admit():
            return
        await self.accept()
        await self.on_connect()

    async def admit(self) -> bool:
        """Hook for subclasses, before acceptance: return False after closing the
        socket with a code of your own to refuse it."""
        return True

    async def on_connect(self) -> None:
        """Hook for subclasses, called after the socket is accepted."""


class PingConsumer(AuthenticatedConsumer):
    """The skeleton endpoint: answers a ping with a pong naming the user."""

    async def on_connect(self) -> None:
        await self.send_json({"type": "hello", "user": self.scope["user"].display_name})

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.send_json({"type": "error", "error": "unknown message"})
