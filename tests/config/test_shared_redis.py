"""Test runs that share a Redis database leave each other's keys alone.

Django's ``RedisCache.clear()`` is a FLUSHDB: another run's ``cache.clear()`` used to
empty this run's channel layer groups in the middle of a browser test, and a socket
then heard nothing sent to its groups (the ICE-restart test's failures, #39). The
test settings tag every key of a run (config/settings/test.py) and its
``cache.clear()`` deletes the tagged keys only (config/test_cache.py)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache

from tests.conftest import uses_redis

pytestmark = pytest.mark.skipif(not uses_redis(), reason="needs REDIS_URL")


@pytest.fixture
def client() -> Iterator[Any]:
    import redis

    found = redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=3)
    yield found
    found.close()


def test_every_key_of_the_run_carries_its_tag() -> None:
    tag = settings.REDIS_KEY_TAG
    assert settings.CACHES["default"]["KEY_PREFIX"].startswith(tag)
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"].startswith(tag)
    assert cache.make_key("x").startswith(tag)


def test_clearing_the_cache_keeps_another_runs_keys(client: Any) -> None:
    other = f"t0other{secrets.token_hex(4)}.asgi:group:voice.1.0"
    client.sadd(other, "a channel of another run")
    cache.set("mine", 1)
    group = f"{settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']}:group:x"
    client.sadd(group, "a channel of this run")
    try:
        cache.clear()
        assert cache.get("mine") is None
        assert not client.exists(group)
        assert client.exists(other)
    finally:
        client.delete(other, group)
