"""Suite-wide fixtures and the CI guard: with CI=true, PostgreSQL, Redis and Chromium
named by the environment must be reachable; a failure to reach them fails the run."""

from __future__ import annotations

import asyncio
import asyncio.runners
import os
import sys
from collections.abc import Iterator
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

    from config.test_cache import forget_run_keys

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as error:  # pragma: no cover - only when Redis is down
        pytest.exit(f"REDIS_URL={redis_url} is unreachable: {error}", returncode=3)
    # This run's keys only: the database may be another run's too.
    forget_run_keys(client, settings.REDIS_KEY_TAG)
    client.close()


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Rate limits and throttles live in the cache; row ids repeat between tests on
    SQLite, so a counter left by one test must not bite the next."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Each test gets a channel layer of its own. Every async test runs on an event
    loop of its own, and channels-redis's layer keeps its receive lock and count on
    the instance: a consumer still receiving when a test's loop closed (its
    cancellation cut short) left the count up and the lock bound to that dead loop,
    and the next test's consumers then failed with "bound to a different event
    loop". A deployment runs one loop per process, so this is the tests' own
    isolation, not the site's."""
    from channels.layers import channel_layers

    from live import room as rooms

    channel_layers.backends = {}
    rooms.forget_all()
    yield
    channel_layers.backends = {}
    rooms.forget_all()


def uses_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith(".postgresql")


def uses_redis() -> bool:
    return "redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower()


def _cancel_all_tasks_within_bounds(loop: asyncio.AbstractEventLoop) -> None:
    """asyncio's own end-of-loop clean-up (called by pytest-asyncio when a test's
    event loop closes) waits without limit for every cancelled task to finish. On
    PostgreSQL + Redis, one task left by an async test has been seen to ignore its
    cancellation, and the worker then waited forever (the cause is not yet found).
    Here the wait is bounded: after 10 seconds the tasks still running are reported
    on stderr, with their stacks, and the suite goes on."""
    tasks = asyncio.all_tasks(loop)
    if not tasks:
        return
    for task in tasks:
        task.cancel()
    loop.run_until_complete(asyncio.wait(tasks, timeout=10))
    stuck = [task for task in tasks if not task.done()]
    for task in stuck:
        print(
            f"\nA task ignored its cancellation at a test's end: {task!r}",
            file=sys.stderr,
        )
        task.print_stack(file=sys.stderr)
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            loop.call_exception_handler(
                {
                    "message": "unhandled exception during a test loop's shutdown",
                    "exception": task.exception(),
                    "task": task,
                }
            )


asyncio.runners._cancel_all_tasks = _cancel_all_tasks_within_bounds  # type: ignore[attr-defined]
