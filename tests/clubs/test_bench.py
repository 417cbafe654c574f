"""``python -m bench.clubs`` runs end to end, in its own process and database, and
ends with the figures the issue tracks."""

from __future__ import annotations

from pathlib import Path

from tests.benchruns import bench_env, run_bench

FIGURES = ["rating_update_ms", "standings_ms", "leaderboard_ms", "club_ms"]


def test_the_benchmark_prints_its_figures_last(tmp_path: Path) -> None:
    env = bench_env(tmp_path)
    database = (
        "bench_clubs_test" if env.get("DATABASE_URL") else str(tmp_path / "b.sqlite3")
    )
    tiny = ["--games", "30", "--members", "12", "--runs", "2"]
    stdout = run_bench("bench.clubs", ["--db", database, *tiny], env)
    lines = dict(line.split(": ", 1) for line in stdout.splitlines() if ": " in line)
    for name in [*FIGURES, "standings_queries", "leaderboard_queries", "club_queries"]:
        assert float(lines[name]) >= 0, name
    last = [line.split(":")[0] for line in stdout.strip().splitlines()[-3:]]
    assert last == FIGURES[1:]
