"""What a move costs the server, by kind, without daphne: ``python -m bench.moves``.

Plays games of every family through ``games.services`` on a throwaway SQLite database
(random legal moves; ten seats, the moderated game with a moderator and ten players),
each move tried on the table a live room knows (``live.room.Room.known``), and after
each move makes every seat's frame as its page's socket does (``live.parts.frame``
from the table the move left, one room's drawings for all of them). Nothing is sent
(there are no sockets), so what is timed is the move and the frames. Per game family
and kind of move (the form's action; ``end`` is the move that ended the game):

    moves        how many moves of that kind were played
    act_ms       the move itself (``services.game_act``), mean
    frames_ms    every seat's frame together, mean
    p50_ms       move and frames together, median; p90_ms the 90th percentile
    drawn        regions drawn per move (the rest were found by their inputs), mean
    bytes        a seat's frame, mean
    unchanged    of the seats that did not move, the share whose frame held no
                 part of its own (only the table's state and public regions)

The last line says what the process holds once every game is played: the objects
Python's collector tracks, and how long one full collection of them takes. The
figures are wall time in one process; compare runs taken in the same minutes.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
import types
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("partisans", {"scout": True, "check": True}, 10),
    ("trust_no_one", {}, 10),
    ("werewolves", {}, 10),
    ("cells", {}, 4),
    ("mafia_partisan", {}, 11),
]


@dataclass
class Kind:
    acts: list[float] = field(default_factory=list)
    frames: list[float] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    unchanged: int = 0
    changed: int = 0

    def add(self, other: Kind) -> None:
        self.acts += other.acts
        self.frames += other.frames
        self.totals += other.totals
        self.drawn += other.drawn
        self.sizes += other.sizes
        self.unchanged += other.unchanged
        self.changed += other.changed


def setup(path: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    # As the site runs: without DEBUG, whose cursor logs every statement.
    os.environ["DJANGO_DEBUG"] = "false"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def started_table(
    ruleset: str,
    options: dict[str, Any],
    people: int,
    rng: random.Random,
    *,
    username: str,
) -> tuple[list[Any], Any]:
    """``people`` new users at a table of ``ruleset`` the first of them opened (the
    moderated game's moderator), every other one seated, started and dealt from
    ``rng``: the same deal on every run. Returns the users and the table's row."""
    from accounts.models import User
    from games import services

    services.secrets = types.SimpleNamespace(randbits=rng.getrandbits)  # type: ignore[attr-defined]
    users = [
        User.objects.create_user(
            username=f"{username}-{i}",
            password=None,
            display_name=f"Игрок {username} {i}",
        )
        for i in range(people)
    ]
    game = services.game_create(
        host=users[0],
        ruleset=ruleset,
        seat_count=people - (ruleset == "mafia_partisan"),
        options=options,
    )
    for user in users[1:]:
        services.seat_join(game=game, user=user)
    return users, services.game_start(game=game, user=users[0])


class _Counting:
    """A room's drawings that count what they draw."""

    def __init__(self) -> None:
        from live.parts import Drawings

        self.inner = Drawings()
        self.made = 0

    def get(self, part: str, inputs: Any, make: Any) -> Any:
        def counted() -> Any:
            self.made += 1
            return make()

        return self.inner.get(part, inputs, counted)


def play(
    ruleset: str, options: dict[str, Any], people: int, seed: int
) -> dict[str, Kind]:
    from django.utils import translation

    from games import engine, services
    from games.models import Game
    from live import parts
    from live import table as tables

    rng = random.Random(seed)
    users, game = started_table(
        ruleset, options, people, rng, username=f"m{seed}-{ruleset}"
    )
    table = tables.read(game.pk, game.code)
    assert table is not None
    drawings = _Counting()
    shown = {}
    token = f"{rng.getrandbits(256):064x}"
    with translation.override("ru"):
        for user in users:
            _html, shown[user.pk] = parts.area(
                table,
                table.viewer(user),
                drawings,
                token=token,
                user=user,  # type: ignore[arg-type]
            )
        kinds: dict[str, Kind] = defaultdict(Kind)
        while table.game.status == Game.Status.PLAYING:
            position, action = engine.random_action(table.state, rng)
            found = next(
                (p.user_id for p in table.players if p.position == position),
                table.game.moderator_id,
            )
            user = next(user for user in users if user.pk == found)
            known = services.Known(
                game=table.game,
                state=table.state,
                seats=tuple(
                    (p.seat_id, p.position, p.user_id)
                    for p in table.players
                    if p.position is not None
                ),
            )
            started = time.perf_counter()
            row = services.game_act(
                game=table.game,
                user=user,
                action=action,
                turn=table.game.turn,
                known=known,
            )
            acted = time.perf_counter() - started
            state = engine.apply(table.state, position, action)[0]
            kind = kinds["end" if row.status != Game.Status.PLAYING else action["type"]]
            started = time.perf_counter()
            drawings.made = 0
            table = tables.after_move(table, row, state) or tables.read(
                row.pk, row.code, table
            )
            for viewer in users:
                made = parts.frame(
                    table,
                    table.viewer(viewer),
                    drawings,
                    shown[viewer.pk],
                    token=token,  # type: ignore[arg-type]
                )
                assert made is not None
                frame, shown[viewer.pk] = made
                kind.sizes.append(len(frame.encode()))
                if viewer is not user:
                    own = _own_part(frame, table)
                    kind.changed += own
                    kind.unchanged += not own
            framed = time.perf_counter() - started
            kind.acts.append(acted)
            kind.frames.append(framed)
            kind.totals.append(acted + framed)
            kind.drawn.append(drawings.made)
    return kinds


def _own_part(frame: str, table: Any) -> bool:
    """Whether the frame holds one of the seat's own parts."""
    from games.kit.family import family_of

    own = [r.id for r in family_of(table.game.ruleset).live.regions if not r.public]
    return any(f'id="region-{ident}"' in frame for ident in own) or (
        'id="table-extras"' in frame
    )


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
            f"frames_ms={1000 * statistics.fmean(kind.frames):5.2f}  "
            f"p50_ms={1000 * _percentile(kind.totals, 0.5):5.2f}  "
            f"p90_ms={1000 * _percentile(kind.totals, 0.9):5.2f}  "
            f"drawn={statistics.fmean(kind.drawn):4.1f}  "
            f"bytes={statistics.fmean(kind.sizes):6.0f}  "
            f"unchanged={kind.unchanged / seats if seats else 0:4.2f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games of each family")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--game",
        action="append",
        choices=[g for g, _, _ in GAMES],
        help="only these games (default: all)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        setup(Path(folder) / "moves.sqlite3")
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
                    ruleset, options, people, args.seed * 1000 + number
                ).items():
                    merged[name].add(kind)
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
