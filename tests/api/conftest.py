"""API tests start from an empty cache (log-in throttle, chat rate) and an empty
per-process state cache.

The cache is a local-memory one per test, even when ``REDIS_URL`` is set: clearing
the Redis cache would flush the whole Redis database, channel layer included, under
any other test run sharing it, and its counters (per address, per table id) would
carry over between runs that reuse ids.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _fresh_caches(settings: Settings, request: pytest.FixtureRequest) -> Iterator[None]:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"api-tests-{request.node.nodeid}",
        }
    }
    yield
