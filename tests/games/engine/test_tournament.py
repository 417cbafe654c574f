"""``python -m bench.tournament`` runs end to end with a tiny ``--games``, every
registered ruleset has a table in it, and it prints what the issue tracks: per
family, table, player count and side the sensible-against-random win rate, the
random baseline beside it, and the bot's decision time for the largest table.
How strong the bots are is what the script measures, not what this asserts."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from bench import tournament
from games.engine import get_ruleset, ruleset_codes

ROOT = Path(__file__).resolve().parents[3]


def test_every_ruleset_has_a_table_in_its_family() -> None:
    played = {family.tables[table][0] for table, family in tournament.FAMILY_OF.items()}
    assert played == set(ruleset_codes())
    for table, family in tournament.FAMILY_OF.items():
        assert get_ruleset(family.tables[table][0]).family == family.name


def test_the_tournament_prints_every_family_with_its_baseline_and_times(
    tmp_path: Path,
) -> None:
    tiny = ["--games", "2", "--players", "4", "10", "--only", "partisans"]
    tiny += ["--only", "cells", "--only", "mafia_partisan"]
    done = subprocess.run(
        [sys.executable, "-m", "bench.tournament", *tiny],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    # Resistance first, as it always was: one row per player count, four rates.
    lines = out.splitlines()
    assert lines[0].startswith("tournament: 2 games per cell, seed 0,")
    assert lines[1].split()[:2] == ["table", "players"]
    rows = [line for line in lines if line.startswith("partisans ")]
    assert [row.split()[1] for row in rows] == [str(n) for n in range(5, 11)]
    assert all(len(re.findall(r"\d+\.\d%", row)) == 4 for row in rows)
    # Cells and Mafia: both sides against the random baseline, with the gain.
    assert "cells: good = good, evil = evil" in out
    assert "mafia: good = citizens, evil = mafia" in out
    assert "the moderator is neutral" in out
    cells = [line for line in lines if line.startswith("cells ")]
    assert [row.split()[1] for row in cells] == ["4", "4"]  # by seats, by teams
    (mafia,) = [line for line in lines if line.startswith("mafia_partisan ")]
    assert mafia.split()[1] == "10"
    for row in [*cells, mafia]:
        assert len(re.findall(r"\d+\.\d%", row)) == 5
        assert len(re.findall(r"[+-]\d+\.\d\b", row)) == 2
        assert row.endswith(("  clear", "  NOT CLEAR"))
    for largest in ("ten players", "4 players", "10 players"):
        assert f"decision time, {largest}: " in out
    times = re.findall(r"cpu  mean (\d+\.\d+) ms, p99 (\d+\.\d+) ms", out)
    assert times and all(float(mean) >= 0 and float(p99) >= 0 for mean, p99 in times)
