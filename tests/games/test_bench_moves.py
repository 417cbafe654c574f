"""``python -m bench.moves`` runs the consumer's own push path after every move and
prints one line per game family and kind of move, the move that ends the game among
them once per game."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(
    r"^(?P<family>\S+)\s+(?P<kind>\S+)\s+moves=\s*(?P<moves>\d+)\s+"
    r"act_ms=\s*(?P<act>[\d.]+)\s+first_ms=\s*(?P<first>[\d.]+)\s+"
    r"others_ms=\s*(?P<others>[\d.]+)\s+p50_ms=\s*(?P<p50>[\d.]+)\s+"
    r"p90_ms=\s*(?P<p90>[\d.]+)\s+unchanged=(?P<unchanged>[\d.]+)$"
)


def test_the_benchmark_prints_each_kind_of_move_with_its_costs(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "bench.moves", "--games", "1", "--game", "partisans"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [LINE.match(line) for line in done.stdout.strip().splitlines()]
    assert rows and all(rows), done.stdout
    kinds = {row["kind"]: row for row in rows if row is not None}
    assert {row["family"] for row in kinds.values()} == {"partisans"}
    assert {"propose", "vote", "play", "end"} <= set(kinds)
    assert int(kinds["end"]["moves"]) == 1  # one a game
    for row in kinds.values():
        assert float(row["act"]) > 0 and float(row["first"]) > 0
        assert float(row["p50"]) <= float(row["p90"])
        assert 0 <= float(row["unchanged"]) <= 1
    # Every seat's own parts change when a team is proposed (a vote form appears
    # on every screen); after most votes nobody else's do.
    assert float(kinds["propose"]["unchanged"]) == 0
    assert float(kinds["vote"]["unchanged"]) > 0.5
