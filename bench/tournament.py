"""The sensible bot against the random one: ``python -m bench.tournament``.

For every game of the Resistance family with each preset combination and every player
count (5..10), plays ``--games`` games of each match-up and prints who won:

    S good / R evil   the sensible bot (``bot_action``) plays every good seat, the
                      random bot (``random_move``) every evil seat: good's win rate
    R good / S evil   the other way round: evil's win rate
    S / S             sensible bots everywhere (for reference): good's win rate
    R / R             random bots everywhere (for reference): good's win rate

Each seat decides from its own view only (``view(state, seat)``); the harness reads
the hidden sides only to know which bot sits where.  Then the sensible bot's decision
time (the call to ``bot_action``, the view not included): mean, p99 and max, over all
decisions and over the ten-player games' alone, on the wall clock and in CPU time
(on a machine shared with other work the wall clock also counts the waits).

Options: ``--games``, ``--seed``, ``--players 5 10``, ``--only partisans+scout`` and
``--match "S / S"`` (repeat to pick several; ``--list`` shows the tables), ``--jobs``
(processes; default one).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from random import Random
from typing import Any

from games.engine import GameSetup, apply, bot_action, outcome, setup, view, waiting_for
from games.families.resistance.engine.bots import random_move

Policy = Callable[[Mapping[str, Any], Random], dict[str, Any]]

TABLES: dict[str, tuple[str, dict[str, bool]]] = {
    "partisans": ("partisans", {}),
    "partisans+scout": ("partisans", {"scout": True}),
    "partisans+check": ("partisans", {"check": True}),
    "partisans+scout+check": ("partisans", {"scout": True, "check": True}),
    "trust_no_one": ("trust_no_one", {}),
    "werewolves": ("werewolves", {}),
    "werewolves+growing": ("werewolves", {"growing_patrol": True}),
}
MATCHES: dict[str, tuple[bool, bool, str]] = {
    # name: (good is sensible, evil is sensible, the side whose win rate is shown)
    "S good / R evil": (True, False, "good"),
    "R good / S evil": (False, True, "evil"),
    "S / S": (True, True, "good"),
    "R / R": (False, False, "good"),
}


@dataclass
class Clock:
    """Decision times on one clock, in microseconds: total, max and 10 µs buckets."""

    total: float = 0.0
    most: float = 0.0
    buckets: Counter[int] = field(default_factory=Counter)

    def add(self, spent: float) -> None:
        self.total += spent
        self.most = max(self.most, spent)
        self.buckets[int(spent // 10)] += 1

    def merge(self, other: Clock) -> None:
        self.total += other.total
        self.most = max(self.most, other.most)
        self.buckets.update(other.buckets)

    def p99(self, count: int) -> float:
        """The 99th percentile (to the bucket's upper edge)."""
        seen = 0
        for bucket in sorted(self.buckets):
            seen += self.buckets[bucket]
            if seen >= 0.99 * count:
                return (bucket + 1) * 10.0
        return self.most


@dataclass
class Tally:
    """Wins, endings and the sensible bot's decision times of one batch of games:
    wall-clock time, and the process's CPU time (what the decision cost, whatever
    else the machine was running)."""

    games: int = 0
    wins: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    decisions: int = 0
    wall: Clock = field(default_factory=Clock)
    cpu: Clock = field(default_factory=Clock)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.reasons.update(other.reasons)
        self.decisions += other.decisions
        self.wall.merge(other.wall)
        self.cpu.merge(other.cpu)


def play(
    game: GameSetup, good: Policy, evil: Policy, rng: Random, tally: Tally, timed: bool
) -> str:
    """One game; returns the winning side.  ``timed``: the sensible decisions are
    timed into ``tally``."""
    state = setup(game)
    sides = state.table.sides
    while outcome(state) is None:
        seat = rng.choice(sorted(waiting_for(state)))
        seen = view(state, seat)
        policy = evil if sides[seat].value == "evil" else good
        if timed and policy is bot_action:
            began, began_cpu = time.perf_counter(), time.process_time()
            action = policy(seen, rng)
            tally.cpu.add((time.process_time() - began_cpu) * 1e6)
            tally.wall.add((time.perf_counter() - began) * 1e6)
            tally.decisions += 1
        else:
            action = policy(seen, rng)
        state, _ = apply(state, seat, action)
    result = outcome(state)
    assert result is not None
    tally.reasons[result.reason] += 1
    return str(result.winner)


def batch(task: tuple[str, int, str, int, int]) -> tuple[str, int, str, Tally]:
    """``games`` games of one table, player count and match-up (a process's job)."""
    table, players, match, games, seed = task
    code, options = TABLES[table]
    good_sensible, evil_sensible, shown = MATCHES[match]
    good: Policy = bot_action if good_sensible else random_move
    evil: Policy = bot_action if evil_sensible else random_move
    rng = Random(f"{seed}/{table}/{players}/{match}")
    tally = Tally()
    for number in range(games):
        game = GameSetup(code, players, options, seed=seed * 1_000_003 + number)
        winner = play(game, good, evil, rng, tally, timed=True)
        tally.games += 1
        tally.wins += winner == shown
    return table, players, match, tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="per cell")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, nargs=2, default=(5, 10))
    parser.add_argument("--only", action="append", choices=sorted(TABLES))
    parser.add_argument("--match", action="append", choices=sorted(MATCHES))
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--list", action="store_true", help="list the tables")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(TABLES))
        return
    tables = args.only or list(TABLES)
    matches = args.match or list(MATCHES)
    low, high = args.players
    tasks = [
        (table, players, match, args.games, args.seed)
        for table in tables
        for players in range(low, high + 1)
        for match in matches
    ]
    began = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(batch, tasks))
    else:
        results = [batch(task) for task in tasks]
    elapsed = time.perf_counter() - began
    report(results, tables, matches, args, elapsed)


def report(
    results: list[tuple[str, int, str, Tally]],
    tables: list[str],
    matches: list[str],
    args: argparse.Namespace,
    elapsed: float,
) -> None:
    cells = {(table, players, match): tally for table, players, match, tally in results}
    print(
        f"tournament: {args.games} games per cell, seed {args.seed}, "
        f"{sum(t.games for t in cells.values())} games in {elapsed:.0f} s"
    )
    shown = {name: MATCHES[name][2] for name in matches}
    header = f"{'table':<22}{'players':>8}" + "".join(
        f"{name + ' (' + shown[name] + ')':>24}" for name in matches
    )
    print(header)
    totals = {name: Tally() for name in matches}
    low, high = args.players
    for table in tables:
        for players in range(low, high + 1):
            row = f"{table:<22}{players:>8}"
            for name in matches:
                tally = cells[(table, players, name)]
                totals[name].add(tally)
                row += f"{100 * tally.wins / tally.games:>23.1f}%"
            print(row)
    print(
        f"{'all':<30}"
        + "".join(f"{100 * t.wins / t.games:>23.1f}%" for t in totals.values())
    )
    timed = Tally()
    ten = Tally()
    for (_table, players, _match), tally in cells.items():
        timed.add(tally)
        if players == 10:
            ten.add(tally)
    for label, tally in (("all tables", timed), ("ten players", ten)):
        count = tally.decisions
        if not count:
            continue
        print(f"decision time, {label}: {count} decisions")
        for name, clock in (("wall", tally.wall), ("cpu", tally.cpu)):
            print(
                f"  {name:<5}mean {clock.total / count / 1000:.3f} ms, "
                f"p99 {clock.p99(count) / 1000:.3f} ms, max {clock.most / 1000:.3f} ms"
            )


if __name__ == "__main__":
    main()
