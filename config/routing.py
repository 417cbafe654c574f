"""Every WebSocket route of the site, mounted under /ws/ by config.asgi."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from django.urls import path

from api.sockets import JsonSeatConsumer
from live.consumers import LobbyConsumer
from live.sockets import PingConsumer
from voice.consumers import VoiceSeatConsumer


class ByFormat:
    """One address, two protocols: ``?format=json`` opens the ``json`` application
    (programs), anything else the ``html`` one (pages)."""

    def __init__(self, html: Any, json: Any) -> None:
        self.html = html
        self.json = json

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
        wanted = self.json if query.get("format", [""])[-1] == "json" else self.html
        return await wanted(scope, receive, send)


websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path(
        "ws/table/<str:code>/",
        ByFormat(html=VoiceSeatConsumer.as_asgi(), json=JsonSeatConsumer.as_asgi()),
    ),
]
