"""How fast the analysis board is: ``python -m bench.analysis``.

Plays random ten-player games (``partisans`` with both presets by default, moves from
``random_action``), takes the view of every step (``view(state_k, seat)``, as the
platform does for a finished game's board) and times ``analyse_steps`` over all of
them, with the counting cache emptied before each game (a cold start, as for a game
nobody has looked at yet).  Prints, per perspective (the public board and one seat's
board), the mean and max milliseconds for a whole game on the wall clock and in CPU
time (the wall clock also counts waits on a shared machine), and the time the views
took for comparison.  Options: ``--games``, ``--players``, ``--ruleset``, ``--seed``.

``--page`` times instead what a finished game's review page adds for its analysis
board on a cold cache (``history.analysis``): the family's odds from the deal and the
log (one replay, a view per step, the counting) for the public board and for one
seat, and both heat-maps with their moments, in CPU and wall-clock milliseconds per
game. The page's one read of the action log is not included.

``--replay`` weighs what the process keeps of a finished game's odds
(``history.analysis``): it plays a game through the site's services on a throwaway
SQLite database and fetches the replay's fragment of every step (what each step of
the step-through loads), in rounds that take turns: with the odds kept, and with
them worked out afresh for every request. It prints the CPU milliseconds a request
takes each way and the share the kept odds save.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from random import Random
from typing import Any

from games.engine import GameSetup, apply, outcome, random_action, setup, view
from games.families.resistance.engine.analysis import analyse_steps, clear_cache

OPTIONS = {
    "partisans": {"scout": True, "check": True},
    "trust_no_one": {},
    "werewolves": {},
}


def play(game: GameSetup, rng: Random) -> list[Any]:
    """Every state of one random game, from the deal to the end."""
    state = setup(game)
    states = [state]
    while outcome(state) is None:
        seat, action = random_action(state, rng)
        state, _ = apply(state, seat, action)
        states.append(state)
    return states


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--ruleset", choices=sorted(OPTIONS), default="partisans")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--page", action="store_true")
    parser.add_argument("--replay", action="store_true")
    parser.add_argument("--rounds", type=int, default=4, help="--replay: rounds")
    args = parser.parse_args(argv)
    if args.page:
        page(args)
        return
    if args.replay:
        replay_steps(args)
        return

    rng = Random(args.seed)
    timings: dict[str, list[float]] = {
        label: [] for label in ("public", "public cpu", "one seat", "one seat cpu")
    }
    timings["views"] = []
    steps = []
    for number in range(args.games):
        game = GameSetup(
            args.ruleset, args.players, OPTIONS[args.ruleset], seed=args.seed + number
        )
        states = play(game, rng)
        steps.append(len(states))
        seat = rng.randrange(args.players)
        for label, viewer in (("public", None), ("one seat", seat)):
            began = time.perf_counter()
            views = [view(state, viewer) for state in states]
            timings["views"].append(time.perf_counter() - began)
            clear_cache()
            began, began_cpu = time.perf_counter(), time.process_time()
            boards = analyse_steps(views)
            timings[f"{label} cpu"].append(time.process_time() - began_cpu)
            timings[label].append(time.perf_counter() - began)
            assert len(boards) == len(states)

    print(
        f"analysis bench: {args.ruleset}, {args.players} players, {args.games} random "
        f"games, {statistics.mean(steps):.0f} steps per game on average (max "
        f"{max(steps)}), cold cache per game"
    )
    for label, values in timings.items():
        what = "building the views" if label == "views" else f"{label} board"
        what = what.replace(" cpu board", " board (cpu time)")
        mean, most = statistics.mean(values) * 1000, max(values) * 1000
        print(f"{what}, all steps of a game: mean {mean:.2f} ms, max {most:.2f} ms")


def page(args: argparse.Namespace) -> None:
    """The review page's analysis board, cold (see the module doc)."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    django.setup()
    from django.utils import translation

    from games.families.resistance.odds import odds_of_log
    from history.analysis import board_of

    translation.activate("ru")
    rng = Random(args.seed)
    wall: list[float] = []
    cpu: list[float] = []
    steps = []
    for number in range(args.games):
        game = GameSetup(
            args.ruleset, args.players, OPTIONS[args.ruleset], seed=args.seed + number
        )
        state = setup(game)
        log = []
        while outcome(state) is None:
            seat, action = random_action(state, rng)
            state, _ = apply(state, seat, action)
            log.append((seat, action))
        steps.append(len(log) + 1)
        names = {seat: f"Игрок {seat + 1}" for seat in range(args.players)}
        viewer = rng.randrange(args.players)
        clear_cache()
        began, began_cpu = time.perf_counter(), time.process_time()
        public = odds_of_log(game, log, None)
        mine = odds_of_log(game, log, viewer)
        boards = [board_of(public, names), board_of(mine, names, public)]
        cpu.append(time.process_time() - began_cpu)
        wall.append(time.perf_counter() - began)
        assert all(len(b.rows) == args.players for b in boards)
    print(
        f"analysis board of a review page: {args.ruleset}, {args.players} players, "
        f"{args.games} random games, {statistics.mean(steps):.0f} steps on average "
        f"(max {max(steps)}), cold cache, public and one seat's board"
    )
    for label, values in (("cpu time", cpu), ("wall clock", wall)):
        mean, most = statistics.mean(values) * 1000, max(values) * 1000
        print(f"{label}: mean {mean:.2f} ms, max {most:.2f} ms per game")


def replay_steps(args: argparse.Namespace) -> None:
    """The replay's fragments with the odds kept and without (see the module doc)."""
    import tempfile
    from pathlib import Path

    from bench.moves import setup as setup_site
    from bench.moves import started_table

    with tempfile.TemporaryDirectory() as folder:
        setup_site(Path(folder) / "bench.sqlite3")
        from django.test import Client
        from django.test.utils import setup_test_environment

        from games import services
        from games.models import Game
        from history import analysis, presenters, replay
        from live import table as tables

        setup_test_environment()  # the test client's hosts
        rng = Random(args.seed)
        users, game = started_table(
            args.ruleset,
            OPTIONS[args.ruleset],
            args.players,
            rng,
            username="replay",
        )
        table = tables.read(game.pk, game.code)
        assert table is not None
        while table.game.status == Game.Status.PLAYING:
            seat, action = random_action(table.state, rng)
            user = next(
                user
                for user in users
                for player in table.players
                if player.position == seat and player.user_id == user.pk
            )
            row = services.game_act(
                game=table.game, user=user, action=action, turn=table.game.turn
            )
            table = tables.read(row.pk, row.code)
            assert table is not None
        finished = table.game
        client = Client()
        client.force_login(users[1])
        urls = [
            presenters.replay_url(
                finished, step=step, perspective=replay.EVERYONE, fragment=True
            )
            for step in range(finished.version + 1)
        ]

        def one_round(afresh: bool) -> float:
            took = []
            for url in urls:
                if afresh:
                    analysis.forget_all()
                began = time.process_time()
                answer = client.get(url)
                took.append(time.process_time() - began)
                assert answer.status_code == 200, answer.status_code
            return statistics.mean(took)

        one_round(False)  # templates loaded, the odds kept once
        kept: list[float] = []
        afresh: list[float] = []
        for number in range(args.rounds):
            order = (False, True) if number % 2 else (True, False)
            for fresh in order:
                (afresh if fresh else kept).append(one_round(fresh))
    with_odds, without = statistics.mean(kept) * 1000, statistics.mean(afresh) * 1000
    print(
        f"replay fragments: {args.ruleset}, {args.players} players, "
        f"{len(urls)} steps, {args.rounds} rounds each way"
    )
    print(f"cpu_ms_per_step with the odds kept: {with_odds:.2f}")
    print(f"cpu_ms_per_step worked out afresh: {without:.2f}")
    print(f"kept_saves: {100 * (without - with_odds) / without:.0f}%")


if __name__ == "__main__":
    main()
