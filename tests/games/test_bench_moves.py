"""``python -m bench.moves`` makes every seat's frame after every move as the page's
socket does and prints one line per game family and kind of move, the move that
ends the game among them once per game."""

from __future__ import annotations

import re
from pathlib import Path

from tests.benchruns import bench_env, run_bench

LINE = re.compile(
    r"^(?P<family>\S+)\s+(?P<kind>\S+)\s+moves=\s*(?P<moves>\d+)\s+"
    r"act_ms=\s*(?P<act>[\d.]+)\s+frames_ms=\s*(?P<frames>[\d.]+)\s+"
    r"p50_ms=\s*(?P<p50>[\d.]+)\s+p90_ms=\s*(?P<p90>[\d.]+)\s+"
    r"drawn=\s*(?P<drawn>[\d.]+)\s+bytes=\s*(?P<bytes>\d+)\s+"
    r"unchanged=(?P<unchanged>[\d.]+)$"
)

KEPT = re.compile(
    r"^kept: tables=(?P<tables>\d+) tracked_objects=(?P<tracked>\d+) "
    r"full_collection_ms=(?P<ms>[\d.]+)$"
)


def test_the_benchmark_prints_each_kind_of_move_with_its_costs(tmp_path: Path) -> None:
    stdout = run_bench(
        "bench.moves",
        ["--games", "1", "--game", "partisans"],
        bench_env(tmp_path, services=False),
    )
    *lines, last = stdout.strip().splitlines()
    kept = KEPT.match(last)
    assert kept, stdout
    assert int(kept["tables"]) == 1
    assert int(kept["tracked"]) > 0 and float(kept["ms"]) > 0
    rows = [LINE.match(line) for line in lines]
    assert rows and all(rows), stdout
    kinds = {row["kind"]: row for row in rows if row is not None}
    assert {row["family"] for row in kinds.values()} == {"partisans"}
    assert {"propose", "vote", "play", "end"} <= set(kinds)
    assert int(kinds["end"]["moves"]) == 1  # one a game
    for row in kinds.values():
        assert float(row["act"]) > 0 and float(row["frames"]) > 0
        assert float(row["p50"]) <= float(row["p90"])
        assert int(row["bytes"]) > 0
        assert 0 <= float(row["unchanged"]) <= 1
    # Every seat's own parts change when a team is proposed (a vote form appears
    # on every screen); after most votes nobody else's do, and a vote draws the
    # voter's parts and the public ones, a handful, not every seat's.
    assert float(kinds["propose"]["unchanged"]) == 0
    assert float(kinds["vote"]["unchanged"]) > 0.5
    assert float(kinds["vote"]["drawn"]) < float(kinds["propose"]["drawn"])
