"""``python -m bench.clubs`` runs end to end, in its own process and database, and
ends with the figures the issue tracks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ["rating_update_ms", "standings_ms", "leaderboard_ms", "club_ms"]


def test_the_benchmark_prints_its_figures_last(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    for name in ("DATABASE_URL", "REDIS_URL"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    database = (
        "bench_clubs_test" if env.get("DATABASE_URL") else str(tmp_path / "b.sqlite3")
    )
    tiny = ["--games", "30", "--members", "12", "--runs", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "bench.clubs", "--db", database, *tiny],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = dict(
        line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line
    )
    for name in [*FIGURES, "standings_queries", "leaderboard_queries", "club_queries"]:
        assert float(lines[name]) >= 0, name
    last = [line.split(":")[0] for line in done.stdout.strip().splitlines()[-3:]]
    assert last == FIGURES[1:]
