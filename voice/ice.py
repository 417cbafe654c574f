"""The STUN and TURN servers a seat's browser is given when it joins a voice room.

``VOICE_ICE_SERVERS`` are handed as they are (STUN, or a TURN server with a fixed
account). With ``VOICE_TURN_SECRET`` and ``VOICE_TURN_URLS``, each seat also gets a
TURN account of its own made from the secret the way coturn's ``use-auth-secret``
checks it (the REST API of draft-uberti-behave-turn-rest): the user name is
``<expiry>:<key>``, the password the base64 HMAC-SHA1 of that name under the
secret, valid for ``VOICE_TURN_TTL`` seconds. No password that outlives the hour is
ever in a page. ``VOICE_ICE_TRANSPORT_POLICY`` ``relay`` makes every pair talk
through TURN: no player learns another's address.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

DEFAULT_TTL = 3600

clock: Callable[[], float] = time.time


def turn_credentials(secret: str, key: str, ttl: int) -> tuple[str, str]:
    """A coturn ``use-auth-secret`` account for ``key``, valid ``ttl`` seconds."""
    username = f"{int(clock()) + ttl}:{key}"
    digest = hmac.new(secret.encode(), username.encode(), hashlib.sha1).digest()
    return username, base64.b64encode(digest).decode("ascii")


def ice_config(key: str) -> dict[str, Any]:
    """The ``RTCPeerConnection`` configuration for the seat named ``key``."""
    servers: list[dict[str, Any]] = [
        dict(server) for server in getattr(settings, "VOICE_ICE_SERVERS", ())
    ]
    secret = getattr(settings, "VOICE_TURN_SECRET", "")
    urls = list(getattr(settings, "VOICE_TURN_URLS", ()))
    if secret and urls:
        ttl = int(getattr(settings, "VOICE_TURN_TTL", DEFAULT_TTL))
        username, credential = turn_credentials(secret, key, ttl)
        servers.append({"urls": urls, "username": username, "credential": credential})
    policy = getattr(settings, "VOICE_ICE_TRANSPORT_POLICY", "all")
    return {
        "iceServers": servers,
        "iceTransportPolicy": "relay" if policy == "relay" else "all",
    }
