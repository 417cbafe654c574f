"""One ASGI application serves HTTP and WebSocket (daphne runs it).

WebSockets live under /ws/; the session cookie authenticates them and the origin
validator refuses pages from other sites, or a program authenticates with its API
token in the handshake's Authorization header (see api.middleware)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

# Django must be set up before the routing imports models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from api.middleware import websocket_auth  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.settle import settle  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": websocket_auth(URLRouter(websocket_urlpatterns)),
    }
)
# The process's long-lived objects are made now and left out of every later full
# collection (config.settle: those collections were the slowest moves).
settle()
