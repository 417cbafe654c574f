"""``bench.live``'s turns: the site's serial table and the floor's move in turns over
the same window, never both at once, and each side's seconds are counted."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from bench.live import Turns


async def _play(
    turns: Turns, who: int, stop: asyncio.Event, moves: list[tuple[float, int]]
) -> None:
    while not stop.is_set():
        await turns.take(who, stop)
        if stop.is_set():
            return
        moves.append((time.perf_counter(), who))
        # A move in flight: the other side must not move meanwhile.
        assert turns.holder == who
        await asyncio.sleep(0.002)
        assert turns.holder == who


def test_two_tables_take_turns_and_never_move_at_once() -> None:
    async def main() -> tuple[Turns, list[tuple[float, int]], tuple[float, float]]:
        turns = Turns(0.05)
        stop = asyncio.Event()
        moves: list[tuple[float, int]] = []
        tasks = [asyncio.create_task(_play(turns, who, stop, moves)) for who in (0, 1)]
        start = time.perf_counter()

        async def handed(times: int) -> None:
            while turns.handed < times:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(handed(6), 20)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 2)
        return turns, moves, (start, time.perf_counter())

    turns, moves, window = asyncio.run(main())
    assert turns.handed >= 6
    sides = [who for _moment, who in moves]
    assert sides.count(0) > 3 and sides.count(1) > 3
    # Runs of one side's moves, as many as the turns that were handed over (or one
    # more: the last turn, cut by the stop).
    runs = 1 + sum(1 for a, b in itertools.pairwise(sides) if a != b)
    assert turns.handed <= runs <= turns.handed + 1
    mine, theirs = turns.held(0, window), turns.held(1, window)
    assert mine + theirs == pytest.approx(window[1] - window[0], abs=0.01)
    assert mine > 0.1 and theirs > 0.1


def test_a_waiting_side_is_let_go_when_the_run_stops() -> None:
    async def main() -> None:
        turns = Turns(60)
        stop = asyncio.Event()
        waiting = asyncio.create_task(turns.take(1, stop))  # side 0 holds the turn
        await asyncio.sleep(0.05)
        assert not waiting.done()
        stop.set()
        await asyncio.wait_for(waiting, 1)

    asyncio.run(main())
