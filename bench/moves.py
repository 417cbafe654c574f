"""What a move costs the server, by kind, without daphne: ``python -m bench.moves``.

Plays games of every family through ``games.services`` on a throwaway SQLite database
(random legal moves; ten seats, the moderated game with a moderator and ten players),
and after each move draws every seat's push the way a table's HTML socket does: the
consumer's own ``HtmlSeatConsumer._seat_frame`` from the snapshot the move left, each
seat against what it was last sent, the first seat drawing the version's shared
regions. The channel layer's send is left out (there are no sockets), so what is timed
is the move and the ten frames. Per game family and kind of move (the form's action;
``end`` is the move that ended the game) it prints:

    moves        how many moves of that kind were played
    act_ms       the move itself (``services.game_act``), mean
    first_ms     the first seat's frame, mean (it draws the shared regions)
    others_ms    every other seat's frame together, mean
    p50_ms       move and frames together, median; p90_ms the 90th percentile
    unchanged    of the seats that did not move, the share whose own parts (the
                 family's own regions and the extras) came out as they were: the
                 seats a push could have sent only the shared frame to

After each game its sockets close, and the last one lets go of what the process
kept to push to the table (``games.consumers.table_left``, as the consumer's does;
``--keep-tables`` skips that, as before). The last line says what the process still
holds once every game is played: the objects Python's collector tracks, and how
long one full collection of them takes (a move that arrives during one waits for
it).

The figures are wall time in one process (``gc.freeze`` after the setup, as the
site's ``config.settle`` does); compare runs taken in the same minutes.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.render import GAMES, _setup, mover, started_table


@dataclass
class Kind:
    acts: list[float] = field(default_factory=list)
    firsts: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)
    unchanged: int = 0
    changed: int = 0


def _own_keys(shown: dict[str, str], shared: set[str]) -> list[str]:
    """A page's own parts (``LiveParts.shown``: its regions and its extras) but the
    family's shared regions."""
    return [key for key in shown if key not in shared]


def seat_socket(
    user: Any, game: Any, token: str, *, kind: Any = None, language: str = "ru"
) -> Any:
    """A table page's socket (an ``HtmlSeatConsumer``, or the subclass ``kind``), as
    the consumer keeps its state, without a connection: what
    ``HtmlSeatConsumer.on_connect`` sets, nothing more (tests use it too)."""
    from games.consumers import HtmlSeatConsumer

    kind = kind or HtmlSeatConsumer
    socket = kind.__new__(kind)
    socket.scope = {"user": user}
    socket.origin = "http://bench"
    socket.csrf_token = token
    socket.language = language
    socket.game_id = game.pk
    socket.code = game.code
    socket.parts_sent = None
    socket.drawn = None
    socket.sent = None
    return socket


def _frame(socket: Any, game: Any) -> None:
    """The socket's push for ``game``'s new version: on the event loop when it
    can be drawn there, else off it (a finished game's private channels)."""
    from games import snapshots

    snapshot = snapshots.cached(game.pk, game.code)
    frame = None
    if snapshot is not None and snapshot.game.version >= game.version:
        frame = socket._seat_frame(snapshot, on_loop=True, full=False)
    if frame is None:
        snapshot = snapshots.for_push(game.pk, game.code, (game.version, game.status))
        socket._seat_frame(snapshot, on_loop=False, full=False)


def play(
    ruleset: str, options: dict[str, Any], people: int, seed: int, *, keep: bool = False
) -> dict[str, Kind]:
    from games import engine, services, snapshots
    from games.families.registry import family_of
    from games.models import Game

    rng = random.Random(seed)
    users, game = started_table(
        ruleset,
        options,
        people,
        rng,
        username=f"m{seed}-{ruleset}",
        name=f"{ruleset[:4]} {seed}",
    )
    shared = {
        f"region-{region.id}"
        for region in family_of(game.ruleset).regions
        if region.shared
    }
    sockets = []
    for user in users:
        socket = seat_socket(user, game, f"{rng.getrandbits(256):064x}")
        snapshot = snapshots.for_push(game.pk, game.code, None)
        socket._seat_frame(snapshot, on_loop=False, full=True)
        sockets.append(socket)
    kinds: dict[str, Kind] = defaultdict(Kind)
    while game.status == Game.Status.PLAYING:
        snapshot = snapshots.cached(game.pk, game.code)
        if snapshot is None:
            snapshot = snapshots.for_push(game.pk, game.code, None)
        assert snapshot is not None and snapshot.state is not None
        position, action = engine.random_action(snapshot.state, rng)
        user = mover(snapshot, position, users)
        started = time.perf_counter()
        game = services.game_act(
            game=snapshot.game,
            user=user,
            action=action,
            turn=snapshot.game.turn,
            known=snapshot.game,
        )
        acted = time.perf_counter() - started
        kind = kinds["end" if game.status != Game.Status.PLAYING else action["type"]]
        frames = []
        for socket in sockets:
            before = dict(socket.parts_sent or {})
            started = time.perf_counter()
            _frame(socket, game)
            frames.append(time.perf_counter() - started)
            if socket.scope["user"] is not user:
                after = socket.parts_sent or {}
                own = _own_keys(after, shared)
                if all(before.get(key) == after.get(key) for key in own):
                    kind.unchanged += 1
                else:
                    kind.changed += 1
        kind.acts.append(acted)
        kind.firsts.append(frames[0])
        kind.others.append(sum(frames[1:]))
        kind.totals.append(acted + sum(frames))
    if not keep:  # the sockets close, the last one as the consumer's does
        from games.consumers import table_left

        table_left(game.pk, game.code)
    return kinds


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(family: str, kinds: dict[str, Kind]) -> list[str]:
    lines = []
    for name, kind in sorted(kinds.items()):
        seats = kind.unchanged + kind.changed
        lines.append(
            f"{family:15} {name:13} moves={len(kind.acts):4}  "
            f"act_ms={1000 * statistics.fmean(kind.acts):5.2f}  "
            f"first_ms={1000 * statistics.fmean(kind.firsts):5.2f}  "
            f"others_ms={1000 * statistics.fmean(kind.others):5.2f}  "
            f"p50_ms={1000 * _percentile(kind.totals, 0.5):5.2f}  "
            f"p90_ms={1000 * _percentile(kind.totals, 0.9):5.2f}  "
            f"unchanged={kind.unchanged / seats if seats else 0:4.2f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games of each family")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--keep-tables",
        action="store_true",
        help="keep each finished table's drawings (as before its sockets let go)",
    )
    parser.add_argument(
        "--game",
        action="append",
        choices=[g for g, _, _ in GAMES],
        help="only these games (default: all)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        _setup(Path(folder) / "moves.sqlite3")
        from config.settle import settle

        settle()  # templates compiled and set aside, as in a server
        from games import push

        push._send = lambda group, message: None  # type: ignore[assignment]
        played = 0
        for ruleset, options, people in GAMES:
            if args.game and ruleset not in args.game:
                continue
            merged: dict[str, Kind] = defaultdict(Kind)
            for number in range(args.games):
                for name, kind in play(
                    ruleset,
                    options,
                    people,
                    args.seed * 1000 + number,
                    keep=args.keep_tables,
                ).items():
                    into = merged[name]
                    into.acts += kind.acts
                    into.firsts += kind.firsts
                    into.others += kind.others
                    into.totals += kind.totals
                    into.unchanged += kind.unchanged
                    into.changed += kind.changed
                played += 1
                gc.collect()
            for line in report(ruleset, merged):
                print(line, flush=True)
        print(_kept(played), flush=True)
    return 0


def _kept(played: int) -> str:
    """What the process holds after ``played`` games: tracked objects, and the
    time of one full collection (the best of three)."""
    gc.collect()
    took = []
    for _ in range(3):
        started = time.perf_counter()
        gc.collect()
        took.append(time.perf_counter() - started)
    return (
        f"kept: tables={played} tracked_objects={len(gc.get_objects())} "
        f"full_collection_ms={min(took) * 1000:.1f}"
    )


if __name__ == "__main__":
    sys.exit(main())
