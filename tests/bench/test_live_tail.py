"""``bench.live``'s tail report: a serial run's moves by kind, and how many of each
took longer than three times the floor's p99."""

from __future__ import annotations

from bench.live import tail_lines


def _moves(kind: str, ms: list[float], *, ended: bool = False) -> list[tuple]:
    return [("partisans", n, value / 1000, kind, ended) for n, value in enumerate(ms)]


def test_kinds_with_most_slow_moves_come_first_and_a_games_end_is_its_own() -> None:
    moves = [
        *_moves("vote", [4.0] * 90 + [12.0]),
        *_moves("propose", [11.0, 13.0, 14.0, 9.0]),
        *_moves("play", [30.0, 31.0], ended=True),
    ]
    lines = tail_lines(moves, over_ms=10.5)
    assert lines[0] == "tail_over_ms: 10.5 (3x the floor's p99): 6 of 97 moves (6.2%)"
    assert lines[1].startswith("tail_kind: propose moves=4 ")
    assert lines[1].endswith(" over=3")
    assert lines[2] == "tail_kind: end moves=2 p50_ms=30.0 p99_ms=31.0 over=2"
    assert lines[3] == "tail_kind: vote moves=91 p50_ms=4.0 p99_ms=4.0 over=1"
    # The move that ended a game is counted as "end", not as a mission card.
    assert not any(line.startswith("tail_kind: play") for line in lines)


def test_without_a_floor_the_kinds_come_by_count_with_no_threshold() -> None:
    lines = tail_lines(_moves("vote", [4.0, 5.0]) + _moves("claim", [9.0]), None)
    assert lines == [
        "tail_kind: vote moves=2 p50_ms=4.0 p99_ms=5.0",
        "tail_kind: claim moves=1 p50_ms=9.0 p99_ms=9.0",
    ]
    assert tail_lines([], 10.0) == []
