"""History tests: each starts with an empty replay cache (a finished game's public
events are kept by table code, and codes repeat across tests)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache

from history import replay


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    replay.forget_all()
    cache.clear()
    yield
    replay.forget_all()
