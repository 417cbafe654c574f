"""Accounts tests: every test starts with empty log-in throttle counters (they live
in the cache, which outlives a test's database transaction)."""

from __future__ import annotations

import html
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.http import HttpResponse


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def page_text(response: HttpResponse) -> str:
    """The page as a reader sees it: entities such as &#x27; turned back into text."""
    return html.unescape(response.content.decode())
