"""History tests: each starts with empty per-process caches (engine states and the
replay's public events are kept by table code, and codes repeat across tests)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache

from games import state
from history import replay


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    state.forget_all()
    replay.forget_all()
    cache.clear()
    yield
    state.forget_all()
    replay.forget_all()
