"""Suite-wide fixtures and the CI guard: with CI=true, PostgreSQL, Redis and Chromium
named by the environment must be reachable; a failure to reach them fails the run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """pytest-django removes the SQLite test database but not its WAL side files."""
    name = settings.DATABASES["default"].get("TEST", {}).get("NAME") or ""
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") and name:
        for suffix in ("-wal", "-shm", "-journal"):
            Path(name + suffix).unlink(missing_ok=True)


def pytest_report_header(config: pytest.Config) -> list[str]:
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    return [f"podpolye: database={database} channel_layer={layer} ci={IN_CI}"]


@pytest.fixture(scope="session", autouse=True)
def _services_reachable() -> None:
    """Redis named by REDIS_URL must answer; the database is checked by Django itself
    when it creates the test database."""
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if not redis_url:
        return
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as error:  # pragma: no cover - only when Redis is down
        pytest.exit(f"REDIS_URL={redis_url} is unreachable: {error}", returncode=3)
    client.flushdb()
    client.close()


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Rate limits and throttles live in the cache; row ids repeat between tests on
    SQLite, so a counter left by one test must not bite the next."""
    from django.core.cache import cache

    cache.clear()


def uses_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def uses_redis() -> bool:
    return "redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower()
