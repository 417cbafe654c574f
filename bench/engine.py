"""How fast the rules engines play and replay: ``python -m bench.engine``.

For every registered ruleset, family by family, plays random complete games on one core
for a few seconds, then rebuilds a sample of the finished games from their setup and
action log with ``replay()``.  Each table is the ruleset's heaviest: its most players
and every on/off option switched on (``partisans``: ten players, «С разведчиком» and
«С проверкой»).  One line per ruleset; the last two lines are the figures the issues
track, for that ``partisans`` table as before (for the first table measured when
``--ruleset`` leaves ``partisans`` out)::

    games_per_s: N    complete games per second, random moves included
    replay_ms: N      median milliseconds to replay one finished game

``--ruleset cells`` measures one ruleset (repeatable); ``--players N`` plays N players
wherever the game allows it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.engine import (
    GameSetup,
    apply,
    get_ruleset,
    outcome,
    random_action,
    replay,
    ruleset_codes,
    setup,
)

Log = list[tuple[int, dict[str, Any]]]
HEADLINE = "partisans"
"""The ruleset whose figures are the summary keys (the figures tracked so far)."""


@dataclass(frozen=True)
class Figures:
    """What one table's run measured."""

    family: str
    code: str
    players: int
    options: dict[str, Any]
    games: int
    seconds: float
    actions: int
    reasons: Counter[str]
    replay_ms: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    def line(self) -> str:
        switched = "+".join(name for name, on in self.options.items() if on is True)
        endings = ", ".join(f"{r} {n}" for r, n in self.reasons.most_common())
        return (
            f"{self.family}/{self.code}: {self.players} players"
            f" [{switched or 'no options'}]"
            f" games_per_s {self.games_per_s:.0f}, replay_ms {self.replay_ms:.3f},"
            f" {self.actions / self.games:.1f} actions per game; {endings}"
        )


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


def heaviest_options(code: str) -> dict[str, Any]:
    """Every on/off option of the ruleset switched on; the others at their default."""
    specs = get_ruleset(code).options
    return {
        spec.name: True if type(spec.default) is bool else spec.default
        for spec in specs
    }


def measure(code: str, players: int, args: argparse.Namespace) -> Figures:
    """Play ``code`` for ``args.seconds``, then replay up to ``args.replays`` games."""
    ruleset = get_ruleset(code)
    options = heaviest_options(code)
    rng = random.Random(args.seed)
    for warm in range(20):  # warm-up deals, seeds apart from the measured ones
        play(GameSetup(code, players, options, seed=2**40 + warm), rng)

    games = actions = 0
    reasons: Counter[str] = Counter()
    kept: list[tuple[GameSetup, Log, Any]] = []
    started = time.perf_counter()
    deadline = started + args.seconds
    while time.perf_counter() < deadline:
        game = GameSetup(code, players, options, seed=args.seed + games)
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
    return Figures(
        family=ruleset.family,
        code=code,
        players=players,
        options=options,
        games=games,
        seconds=elapsed,
        actions=actions,
        reasons=reasons,
        replay_ms=statistics.median(timings) * 1000,
    )


def tables(args: argparse.Namespace) -> list[tuple[str, int]]:
    """``(ruleset, players)`` to measure, grouped by family in registration order."""
    codes = [
        code for code in ruleset_codes() if not args.ruleset or code in args.ruleset
    ]
    unknown = set(args.ruleset or ()) - set(codes)
    if unknown:
        raise SystemExit(f"no such ruleset: {', '.join(sorted(unknown))}")
    families: dict[str, list[tuple[str, int]]] = {}
    for code in codes:
        ruleset = get_ruleset(code)
        players = ruleset.max_players
        if args.players is not None:
            players = min(max(args.players, ruleset.min_players), ruleset.max_players)
        families.setdefault(ruleset.family, []).append((code, players))
    return [table for family in families.values() for table in family]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per ruleset")
    parser.add_argument(
        "--players", type=int, default=None, help="players (default: each game's most)"
    )
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed")
    parser.add_argument("--replays", type=int, default=300, help="games to replay")
    parser.add_argument(
        "--ruleset", action="append", help="measure only this ruleset (repeatable)"
    )
    args = parser.parse_args(argv)

    pinned = one_core()
    print(f"engine bench: {args.seconds:g} s per ruleset, {pinned}")
    results = []
    for code, players in tables(args):
        figures = measure(code, players, args)
        results.append(figures)
        print(figures.line(), flush=True)
    headline = next((f for f in results if f.code == HEADLINE), results[0])
    print(f"games_per_s: {headline.games_per_s:.0f}")
    print(f"replay_ms: {headline.replay_ms:.3f}")


if __name__ == "__main__":
    main()
