"""The STUN/TURN configuration a seat is handed when it joins a voice room."""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from voice import ice


def test_each_seat_gets_a_turn_account_of_its_own_for_an_hour(settings: Any) -> None:
    settings.VOICE_TURN_SECRET = "north"
    settings.VOICE_TURN_URLS = ["turns:turn.example.org:443?transport=tcp"]
    settings.VOICE_ICE_SERVERS = [{"urls": ["stun:stun.example.org:3478"]}]
    settings.VOICE_ICE_TRANSPORT_POLICY = "relay"
    config = ice.ice_config("7-3")
    assert config["iceTransportPolicy"] == "relay"
    stun, turn = config["iceServers"]
    assert stun == {"urls": ["stun:stun.example.org:3478"]}
    expiry, key = turn["username"].split(":")
    assert key == "7-3"
    assert 3590 <= int(expiry) - int(ice.clock()) <= 3600
    digest = hmac.new(b"north", turn["username"].encode(), hashlib.sha1).digest()
    assert turn["credential"] == base64.b64encode(digest).decode()
    settings.VOICE_TURN_SECRET = ""
    assert ice.ice_config("7-3")["iceServers"] == [stun]
