"""The test suite's Redis cache (config/settings/test.py).

A Redis database is shared by whatever test runs name it: two terminals, another
checkout, CI's pass. Django's ``RedisCache.clear()`` is a FLUSHDB, so one run's
``cache.clear()`` (every test makes one) wiped the other run's keys, its channel
layer's groups among them: a socket in the middle of a test then heard no more
messages sent to its groups (seen as voice pairs that never recovered from an ICE
restart, issue #39). Every key a test run writes starts with the run's tag (the
settings give the cache and the channel layer prefixes under it), and ``clear()``
here deletes that run's keys only: the cache's and the channel layer's, as a FLUSHDB
did, and nobody else's.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache.backends.redis import RedisCache

BATCH = 500


def forget_run_keys(client: Any, tag: str) -> None:
    """Delete every key of ``client``'s database that starts with ``tag``."""
    batch: list[bytes] = []
    for key in client.scan_iter(match=f"{tag}*", count=BATCH):
        batch.append(key)
        if len(batch) >= BATCH:
            client.delete(*batch)
            batch = []
    if batch:
        client.delete(*batch)


class RunRedisCache(RedisCache):
    """Django's Redis cache whose ``clear()`` deletes this test run's keys only."""

    def clear(self) -> None:
        forget_run_keys(self._cache.get_client(write=True), settings.REDIS_KEY_TAG)
