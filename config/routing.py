"""Every WebSocket route of the site, mounted under /ws/ by config.asgi."""

from django.urls import path

from config.consumers import PingConsumer
from games.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),
]
