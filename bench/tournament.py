"""The sensible bot against the random one: ``python -m bench.tournament``.

For every game family (``resistance``, ``cells``, ``mafia``), every table (a ruleset,
with each preset combination for the Resistance family) and every player count the
ruleset allows, plays ``--games`` games of each match-up and prints who won:

    S good / R evil   the sensible bot (``bot_action``) plays every good seat, the
                      random bot (the family's ``random_move``) every evil seat:
                      good's win rate
    R good / S evil   the other way round: evil's win rate
    S / S             sensible bots everywhere (for reference): good's win rate
    R / R             random bots everywhere (the baseline): good's win rate

"Good" is a ruleset's first side, "evil" its second (the Mafia's citizens and mafia).
A seat's bot is chosen by the side it was dealt (a Cells seat's majority and a Mafia
recruit change sides later; the seat keeps its bot).  Each seat decides from its own
view only (``view(state, seat)``); the harness reads the hidden sides only to know
which bot sits where.  A Mafia table's moderator is neutral: the family's random
moderator (``random_moderator``, who may read the state, as the moderator does) plays
his moves in every match-up alike.  The Cells and Mafia sections also print each
side's gain over the random baseline, in points.

Then the sensible bot's decision time (the call to ``bot_action``, the view not
included): mean, p99 and max, over all decisions and over the largest table's alone,
on the wall clock and in CPU time (on a machine shared with other work the wall clock
also counts the waits).

Options: ``--games``, ``--seed``, ``--family mafia`` (repeatable), ``--players 5 10``
(within each ruleset's range), ``--only partisans+scout`` and ``--match "S / S"``
(repeat to pick several; ``--list`` shows the tables), ``--jobs`` (processes; default
one).  The Resistance section comes first and is printed as it always was.
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

from games.engine import (
    MODERATOR,
    GameSetup,
    apply,
    bot_action,
    final_roles,
    get_ruleset,
    outcome,
    setup,
    view,
    waiting_for,
)
from games.families.cells.engine.bots import random_move as cells_random_move
from games.families.mafia.engine.bots import MODERATOR_ASIDE, random_moderator
from games.families.mafia.engine.bots import random_move as mafia_random_spec
from games.families.resistance.engine.bots import random_move

Policy = Callable[[Mapping[str, Any], Random], dict[str, Any]]
Moderator = Callable[[Any, Random], dict[str, Any]]

TABLES: dict[str, tuple[str, dict[str, bool]]] = {
    "partisans": ("partisans", {}),
    "partisans+scout": ("partisans", {"scout": True}),
    "partisans+check": ("partisans", {"check": True}),
    "partisans+scout+check": ("partisans", {"scout": True, "check": True}),
    "trust_no_one": ("trust_no_one", {}),
    "werewolves": ("werewolves", {}),
    "werewolves+growing": ("werewolves", {"growing_patrol": True}),
}
"""The Resistance family's tables (the first family; its section is printed as it
always was)."""
MATCHES: dict[str, tuple[bool, bool, str]] = {
    # name: (good is sensible, evil is sensible, the side whose win rate is shown)
    "S good / R evil": (True, False, "good"),
    "R good / S evil": (False, True, "evil"),
    "S / S": (True, True, "good"),
    "R / R": (False, False, "good"),
}
CLEARLY = 10.0
"""Points above the random baseline a sensible side must win by to beat it clearly."""


def mafia_random_move(seen: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """The Mafia's random player from a view: a random move of one of the view's
    legal specs (the family's ``random_move`` takes one spec)."""
    legal = seen["legal"]
    return mafia_random_spec(legal[int(rng.random() * len(legal))], rng)


@dataclass(frozen=True)
class Family:
    """What the tournament needs to know of a game family: its tables, its random
    player (from a view, like ``bot_action``) and, with a moderator, who plays him."""

    name: str
    tables: dict[str, tuple[str, dict[str, Any]]]
    random_move: Policy
    per_seat: bool = False
    """Win rates count seats, not games: a seat wins when it ends on the winning
    side (for a family whose seats change sides in play)."""
    moderator: Moderator | None = None
    moderator_aside: float = 0.0
    """How often the moderator moves while players are also awaited (as the family's
    ``random_action`` does); with no player awaited he always moves."""
    note: str = ""


FAMILIES: dict[str, Family] = {
    "resistance": Family("resistance", TABLES, random_move),
    "cells": Family(
        "cells",
        {"cells": ("cells", {})},
        cells_random_move,
        per_seat=True,
        note=(
            "a seat's side is the majority of its cards, which swaps change: a "
            "side's win rate is the share of the seats dealt to it that end on the "
            "winning side (team wins, the game's winner, below)"
        ),
    ),
    "mafia": Family(
        "mafia",
        {"mafia_partisan": ("mafia_partisan", {})},
        mafia_random_move,
        moderator=random_moderator,
        moderator_aside=MODERATOR_ASIDE,
        note=(
            "the moderator is neutral: the random moderator (random_moderator) "
            "plays his moves in every match-up, sensible and random alike"
        ),
    ),
}
FAMILY_OF: dict[str, Family] = {
    table: family for family in FAMILIES.values() for table in family.tables
}


def player_counts(table: str, players: Sequence[int] | None) -> range:
    """The player counts a table is played at: its ruleset's range, cut to
    ``--players`` (the Resistance family's 5..10 when not given)."""
    ruleset = get_ruleset(FAMILY_OF[table].tables[table][0])
    low, high = ruleset.min_players, ruleset.max_players
    if players is not None:
        low, high = max(low, players[0]), min(high, players[1])
    return range(low, high + 1)


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
    seats: Counter[str] = field(default_factory=Counter)
    """Per side as dealt ("good", "evil"): its seats over all games ..."""
    seat_wins: Counter[str] = field(default_factory=Counter)
    """... and those that ended on the winning side (a Cells seat may cross over)."""
    reasons: Counter[str] = field(default_factory=Counter)
    decisions: int = 0
    wall: Clock = field(default_factory=Clock)
    cpu: Clock = field(default_factory=Clock)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.seats.update(other.seats)
        self.seat_wins.update(other.seat_wins)
        self.reasons.update(other.reasons)
        self.decisions += other.decisions
        self.wall.merge(other.wall)
        self.cpu.merge(other.cpu)


def play(
    game: GameSetup,
    family: Family,
    good: Policy,
    evil: Policy,
    rng: Random,
    tally: Tally,
    timed: bool,
) -> str:
    """One game; returns the winning side's name.  ``timed``: the sensible decisions
    are timed into ``tally``."""
    state = setup(game)
    evil_side = get_ruleset(game.ruleset).sides[1]
    dealt = final_roles(state)  # the sides as dealt: which bot sits where
    evil_seats = {seat for seat, (_role, side) in enumerate(dealt) if side == evil_side}
    moderator = family.moderator
    while outcome(state) is None:
        waiting = waiting_for(state)
        if moderator is not None and MODERATOR in waiting:
            players = sorted(waiting - {MODERATOR})
            if not players or rng.random() < family.moderator_aside:
                state, _ = apply(state, MODERATOR, moderator(state, rng))
                continue
            seat = rng.choice(players)
        else:
            seat = rng.choice(sorted(waiting))
        seen = view(state, seat)
        policy = evil if seat in evil_seats else good
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
    ending = final_roles(state)
    for seat in range(len(dealt)):
        label = "evil" if seat in evil_seats else "good"
        tally.seats[label] += 1
        tally.seat_wins[label] += ending[seat][1] == result.winner
    return str(result.winner)


def batch(task: tuple[str, int, str, int, int]) -> tuple[str, int, str, Tally]:
    """``games`` games of one table, player count and match-up (a process's job)."""
    table, players, match, games, seed = task
    family = FAMILY_OF[table]
    code, options = family.tables[table]
    good_sensible, evil_sensible, shown = MATCHES[match]
    sides = get_ruleset(code).sides
    winner_shown = sides[0] if shown == "good" else sides[1]
    good: Policy = bot_action if good_sensible else family.random_move
    evil: Policy = bot_action if evil_sensible else family.random_move
    rng = Random(f"{seed}/{table}/{players}/{match}")
    tally = Tally()
    for number in range(games):
        game = GameSetup(code, players, options, seed=seed * 1_000_003 + number)
        winner = play(game, family, good, evil, rng, tally, timed=True)
        tally.games += 1
        tally.wins += winner == winner_shown
    return table, players, match, tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="per cell")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--family", action="append", choices=list(FAMILIES))
    parser.add_argument(
        "--players", type=int, nargs=2, help="lowest and highest (default: all)"
    )
    parser.add_argument("--only", action="append", choices=list(FAMILY_OF))
    parser.add_argument("--match", action="append", choices=sorted(MATCHES))
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--list", action="store_true", help="list the tables")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.list:
        for family in FAMILIES.values():
            print("\n".join(f"{family.name}: {table}" for table in family.tables))
        return
    families = [FAMILIES[name] for name in args.family or FAMILIES]
    tables = [
        table
        for family in families
        for table in family.tables
        if not args.only or table in args.only
    ]
    if not tables:
        parser.error("no table of those families was picked by --only")
    matches = args.match or list(MATCHES)
    tasks = [
        (table, players, match, args.games, args.seed)
        for table in tables
        for players in player_counts(table, args.players)
        for match in matches
    ]
    began = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(batch, tasks))
    else:
        results = [batch(task) for task in tasks]
    elapsed = time.perf_counter() - began
    cells = {(table, players, match): tally for table, players, match, tally in results}
    print(
        f"tournament: {args.games} games per cell, seed {args.seed}, "
        f"{sum(t.games for t in cells.values())} games in {elapsed:.0f} s"
    )
    for family in families:
        mine = [table for table in tables if FAMILY_OF[table] is family]
        if not mine:
            continue
        if family.name == "resistance":
            report(cells, mine, matches, args)
        else:
            report_family(family, cells, mine, matches, args)


def report(
    cells: Mapping[tuple[str, int, str], Tally],
    tables: list[str],
    matches: list[str],
    args: argparse.Namespace,
) -> None:
    """The Resistance family's section, as it has always been printed."""
    shown = {name: MATCHES[name][2] for name in matches}
    header = f"{'table':<22}{'players':>8}" + "".join(
        f"{name + ' (' + shown[name] + ')':>24}" for name in matches
    )
    print(header)
    totals = {name: Tally() for name in matches}
    for table in tables:
        for players in player_counts(table, args.players):
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
    for (table, players, _match), tally in cells.items():
        if table not in tables:
            continue
        timed.add(tally)
        if players == 10:
            ten.add(tally)
    print_times((("all tables", timed), ("ten players", ten)))


def report_family(
    family: Family,
    cells: Mapping[tuple[str, int, str], Tally],
    tables: list[str],
    matches: list[str],
    args: argparse.Namespace,
) -> None:
    """A family's section: per table and player count, each side's sensible win rate
    next to the random baseline (R / R, that side's share) and the gain in points,
    judged "clear" from :data:`CLEARLY` points up.  A per-seat family gets a second
    table by the game's winner (the team as dealt)."""
    sides = get_ruleset(family.tables[tables[0]][0]).sides
    print()
    print(f"{family.name}: good = {sides[0]}, evil = {sides[1]}")
    if family.note:
        print(f"  {family.note}")
    metrics = [True, False] if family.per_seat else [False]
    largest = max(max(player_counts(table, args.players)) for table in tables)
    for per_seat in metrics:
        if family.per_seat:
            print("seat wins:" if per_seat else "team wins:")
        win_table(cells, tables, matches, args, per_seat)
    timed = Tally()
    top = Tally()
    for (table, players, _match), tally in cells.items():
        if table not in tables:
            continue
        timed.add(tally)
        if players == largest:
            top.add(tally)
    print_times((("all tables", timed), (f"{largest} players", top)))


def win_rate(tally: Tally, side: str, per_seat: bool) -> float:
    """A side's win rate in percent: of its seats (``per_seat``) or of the games (the
    tally counts the shown side's wins; R / R shows good's)."""
    if per_seat:
        return 100 * tally.seat_wins[side] / max(tally.seats[side], 1)
    return 100 * tally.wins / tally.games


def win_table(
    cells: Mapping[tuple[str, int, str], Tally],
    tables: list[str],
    matches: list[str],
    args: argparse.Namespace,
    per_seat: bool,
) -> None:
    columns = [("S good / R evil", "good"), ("R good / S evil", "evil")]
    header = f"{'table':<22}{'players':>8}"
    for name, side in columns:
        if name in matches:
            header += f"{name + ' (' + side + ')':>24}{'R / R':>8}{'gain':>8}"
    if "S / S" in matches:
        header += f"{'S / S (good)':>14}"
    print(header)
    for table in tables:
        for players in player_counts(table, args.players):
            row = f"{table:<22}{players:>8}"
            baseline = cells.get((table, players, "R / R"))
            verdicts = []
            for name, side in columns:
                if name not in matches:
                    continue
                rate = win_rate(cells[(table, players, name)], side, per_seat)
                row += f"{rate:>23.1f}%"
                if baseline is None:
                    row += f"{'-':>8}{'-':>8}"
                    continue
                base = win_rate(baseline, side, per_seat)
                if side == "evil" and not per_seat:
                    base = 100 - base
                row += f"{base:>7.1f}%{rate - base:>+8.1f}"
                verdicts.append(rate - base >= CLEARLY)
            if "S / S" in matches:
                both = cells[(table, players, "S / S")]
                row += f"{win_rate(both, 'good', per_seat):>13.1f}%"
            if verdicts:
                row += "  clear" if all(verdicts) else "  NOT CLEAR"
            print(row)


def print_times(tallies: Sequence[tuple[str, Tally]]) -> None:
    """The sensible bot's decision times (mean, p99, max; wall and CPU clocks)."""
    for label, tally in tallies:
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
