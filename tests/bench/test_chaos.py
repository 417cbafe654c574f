"""``make bench-chaos`` cannot rot: a short run (half a minute of chaos: a daphne
killed, the database's connections cut, Redis stopped, while two tables play through
two daphne processes) in CI's PostgreSQL + Redis pass. Every check the bench makes
must hold, and every move's fate must be known to its program (moves are named with
an idempotency key and sent again after a lost answer)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.benchruns import bench_env, run_bench
from tests.conftest import uses_postgres, uses_redis

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not (uses_postgres() and uses_redis()),
        reason="bench.chaos runs in the PostgreSQL + Redis pass (DATABASE_URL, "
        "REDIS_URL); it makes its own database and its own redis-server",
    ),
]


def test_a_short_chaos_run_holds(tmp_path: Path) -> None:
    assert shutil.which("redis-server"), "bench.chaos needs redis-server"
    printed = run_bench(
        "bench.chaos",
        ["--minutes", "0.5", "--every", "5", "--tables", "2"],
        bench_env(tmp_path),
    )
    assert "unknown_fate: 0" in printed, printed
    assert "FAILED" not in printed, printed
    assert "server_errors_500: 0" in printed, printed
    assert "HELD: no accepted move lost, none doubled" in printed
