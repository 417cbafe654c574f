"""Every WebSocket route of the site, mounted under /ws/ by config.asgi."""

from django.urls import path

from config.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
]
