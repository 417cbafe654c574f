"""``bench.live`` plays every family through the real server: a few moves of a
Resistance, a cells and a Mafia table (its moderator moving like any seat), with
browser seats and with programs, one move at a time against the floor and flat
out. Each run stops once it has its moves (``--stop-after``), not after a time;
nothing here asserts on a figure's value."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.live import FAMILIES, arguments, form_fields, random_move
from tests.benchruns import bench_env, run_bench

MOVES = 4
_LINE = re.compile(r"^family: (\w+) (.*)$")


def _figures(stdout: str) -> dict[str, dict[str, str]]:
    """Each family's line of figures, by family."""
    found = {}
    for line in stdout.splitlines():
        matched = _LINE.match(line)
        if matched:
            pairs = (item.split("=", 1) for item in matched.group(2).split())
            found[matched.group(1)] = dict(pairs)
    return found


@pytest.mark.parametrize(
    "mode",
    [
        ["--seats", "browser", "--serial"],
        ["--seats", "json", "--tables", "1"],
    ],
    ids=["browser-serial", "json-flat-out"],
)
def test_every_family_plays_through_the_server(tmp_path: Path, mode: list[str]) -> None:
    stdout = run_bench(
        "bench.live",
        [
            *mode,
            "--family",
            "all",
            "--stop-after",
            str(MOVES),
            "--warmup",
            "0",
            "--seconds",
            "300",
        ],
        bench_env(tmp_path),
    )
    figures = _figures(stdout)
    assert list(figures) == list(FAMILIES)
    for family, line in figures.items():
        assert int(line["moves"]) >= MOVES, (family, stdout[-3000:])
        for name in ("moves_per_s", "push_p50_ms", "cpu_ms_per_move"):
            assert float(line[name]) > 0, (family, name)
        assert ("ratio_p50" in line) == (
            "--no-floor" not in mode and "--serial" in mode
        )
    # The last lines of the report are the families' figures.
    assert [_LINE.match(line) is not None for line in stdout.splitlines()[-3:]] == [
        True
    ] * 3


def test_a_family_is_chosen_by_name_and_the_default_is_resistance() -> None:
    assert arguments([]).family == "resistance"
    assert arguments(["--family", "mafia"]).family == "mafia"
    with pytest.raises(SystemExit):
        arguments(["--family", "chess"])


def test_a_programs_move_is_drawn_from_its_own_legal_list_in_every_family() -> None:
    import random

    rng = random.Random(3)
    moderator = {
        "ruleset": "mafia_partisan",
        "legal": [
            {"type": "warn", "among": [2, 5]},
            {"type": "start_vote", "vote": "defence"},
        ],
    }
    seen = {random_move(moderator, rng)["type"] for _ in range(40)}
    assert seen == {"warn", "start_vote"}
    cells = {"ruleset": "cells", "legal": [{"type": "mission", "among": [1, 2]}]}
    assert random_move(cells, rng)["partner"] in (1, 2)
    resistance = {"ruleset": "werewolves", "legal": [{"type": "vote"}]}
    assert random_move(resistance, rng)["type"] == "vote"


def test_a_form_is_filled_in_as_a_person_would() -> None:
    import random

    inner = (
        '<input type="hidden" name="action" value="warn">'
        '<select name="target" required><option value="">Choose</option>'
        '<option value="3">Three</option><option value="7">Seven</option></select>'
        '<input type="radio" name="seat" value="1" disabled>'
        '<input type="radio" name="seat" value="2">'
    )
    for seed in range(10):
        fields = form_fields(({}, inner), random.Random(seed))
        assert fields["action"] == "warn"
        assert fields["target"] in ("3", "7")  # never the empty prompt
        assert fields["seat"] == "2"  # never a disabled choice


def test_a_form_post_is_measured_against_a_bare_django_post_and_page(
    tmp_path: Path,
) -> None:
    """``--act post``: the site's form POST and page against the floor's bare Django
    POST-and-page (its view, session, CSRF middleware and template all answer)."""
    stdout = run_bench(
        "bench.live",
        [
            "--seats",
            "browser",
            "--act",
            "post",
            "--serial",
            "--turns",
            "0",
            "--stop-after",
            str(MOVES),
            "--warmup",
            "0",
            "--seconds",
            "300",
        ],
        bench_env(tmp_path),
    )
    found = re.search(
        r"^floor_post_and_page_p50_ms: ([\d.]+) .*\nratio_post_p50: ([\d.]+)",
        stdout,
        re.MULTILINE,
    )
    assert found is not None, stdout[-3000:]
    assert float(found.group(1)) > 0 and float(found.group(2)) > 0
