"""How fast the rules engine plays and replays: ``python -m bench.engine``.

Plays random complete ten-player ``partisans`` games with both presets («С
разведчиком» and «С проверкой») on one core for a few seconds, then rebuilds a sample
of the finished games from their setup and action log with ``replay()``.  The last two
lines printed are the figures the issue tracks::

    games_per_s: N    complete games per second, random moves included
    replay_ms: N      median milliseconds to replay one finished game
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from typing import Any

from games.engine import GameSetup, apply, outcome, random_action, replay, setup

Log = list[tuple[int, dict[str, Any]]]
OPTIONS = {"scout": True, "check": True}


def play(game: GameSetup, rng: random.Random) -> tuple[Any, Log]:
    """One complete random game: the final state and its action log."""
    state = setup(game)
    log: Log = []
    while outcome(state) is None:
        seat, action = random_action(state, rng)
        state, _ = apply(state, seat, action)
        log.append((seat, action))
    return state, log


def one_core() -> str:
    """Pin the process to one CPU where the OS allows it, so the figure is per core."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to cpu {cpu}"
    return "not pinned"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time to play")
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed")
    parser.add_argument("--replays", type=int, default=300, help="games to replay")
    args = parser.parse_args(argv)

    pinned = one_core()
    rng = random.Random(args.seed)
    for warm in range(20):  # warm-up deals, seeds apart from the measured ones
        play(GameSetup("partisans", args.players, OPTIONS, seed=2**40 + warm), rng)

    games = actions = 0
    reasons: Counter[str] = Counter()
    kept: list[tuple[GameSetup, Log, Any]] = []
    started = time.perf_counter()
    deadline = started + args.seconds
    while time.perf_counter() < deadline:
        game = GameSetup("partisans", args.players, OPTIONS, seed=args.seed + games)
        state, log = play(game, rng)
        games += 1
        actions += len(log)
        reasons[state.outcome.reason] += 1
        if len(kept) < args.replays:
            kept.append((game, log, state))
    elapsed = time.perf_counter() - started

    timings = []
    for game, log, final in kept:
        began = time.perf_counter()
        rebuilt = replay(game, log)
        timings.append(time.perf_counter() - began)
        assert rebuilt == final, "replay must rebuild the same state"

    print(f"engine bench: partisans, {args.players} players, scout + check, {pinned}")
    print(f"games: {games} in {elapsed:.2f} s, {actions / games:.1f} actions per game")
    print("endings: " + ", ".join(f"{r} {n}" for r, n in reasons.most_common()))
    print(f"replayed: {len(timings)} games")
    print(f"games_per_s: {games / elapsed:.0f}")
    print(f"replay_ms: {statistics.median(timings) * 1000:.3f}")


if __name__ == "__main__":
    main()
