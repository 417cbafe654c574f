"""What one push costs to draw, part by part: ``python -m bench.render``.

Plays games of every family through ``games.services`` on a throwaway SQLite
database (random legal moves, ten seats; the moderated game has a moderator and ten
players), and after each move draws every seat's push the way a table's sockets do
(``games.rendering.render_update`` from the table's snapshot, against what each seat
was last sent). It prints, per game and for the early, middle and late third of the
moves:

    shared_ms   the version's shared regions, drawn once for every seat
    seats_ms    every seat's own part of the push, all seats together
    push_ms     the two together: the rendering CPU one move costs a table
    bytes       a seat's push, mean

A seat's push is drawn twice per move, once with the shared regions not cached yet
(``shared_ms`` is the difference of the first seat's two draws) and once warm, so the
figures need no profiler. Rendering only: the move's own queries and the sockets'
sends are ``bench.live``'s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("partisans", {"scout": True, "check": True}, 10),
    ("trust_no_one", {}, 10),
    ("werewolves", {}, 10),
    ("cells", {}, 4),
    ("mafia_partisan", {}, 11),
]


def _setup(path: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    # As the site runs and bench.live's server: without DEBUG, whose cursor logs
    # every statement and whose templates note where each node came from.
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
    name: str,
) -> tuple[list[Any], Any]:
    """``people`` new users (``username-i``, shown as "Игрок ``name`` i") at a table
    of ``ruleset`` the first of them opened (the moderated game's moderator), every
    other one seated, started and dealt from ``rng`` (the services draw a table's
    seed from ``secrets``: the same deal on every run). Returns the users and the
    started table's row."""
    from accounts.models import User
    from games import services

    services.secrets = types.SimpleNamespace(randbits=rng.getrandbits)  # type: ignore[attr-defined]
    users = [
        User.objects.create_user(
            username=f"{username}-{i}", password=None, display_name=f"Игрок {name} {i}"
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


def mover(snapshot: Any, position: int, users: list[Any]) -> Any:
    """The user who moves for the engine's ``position``: its seat's player, or the
    moderator."""
    found = next(
        (p.user_id for p in snapshot.players if p.position == position),
        snapshot.game.moderator_id,
    )
    return next(user for user in users if user.pk == found)


def _play(
    ruleset: str, options: dict[str, Any], people: int, seed: int, remember: bool
) -> list[str]:
    from django.utils import translation

    from games import engine, rendering, services, snapshots
    from games.selectors import snapshot_seat_view, table_context

    rng = random.Random(seed)
    users, game = started_table(
        ruleset,
        options,
        people,
        rng,
        username=f"r{seed}-{ruleset}-{remember}",
        name=f"{ruleset[:4]} {seed} {remember:d}",
    )
    sent: dict[int, dict[str, str]] = {}
    memos: dict[int, dict[str, Any]] = {}
    tokens = {u.pk: f"{rng.getrandbits(256):064x}" for u in users}
    samples: list[tuple[float, float, int, float]] = []
    lines = []
    while game.status == game.Status.PLAYING:
        snapshot = snapshots.for_push(game.pk, game.code, None)
        assert snapshot is not None and snapshot.state is not None
        position, action = engine.random_action(snapshot.state, rng)
        user = mover(snapshot, position, users)
        started = time.perf_counter()
        game = services.game_act(
            game=game, user=user, action=action, turn=game.turn, known=snapshot.game
        )
        acted = time.perf_counter() - started
        snapshot = snapshots.for_push(game.pk, game.code, (game.version, game.status))
        assert snapshot is not None
        if game.status != game.Status.PLAYING:
            finish = _finish(snapshot, users, tokens, memos if remember else None, sent)
            break

        def draw(
            viewer: Any, parts: dict[str, str] | None, snapshot: Any = snapshot
        ) -> tuple[str, Any]:
            seat = snapshot_seat_view(snapshot, viewer)
            ctx = table_context(
                seat.game, viewer, with_chat=False, with_side_chat=False, seat=seat
            )
            memo = memos.setdefault(viewer.pk, {}) if remember else None
            token = tokens[viewer.pk]
            with translation.override("ru"):
                if parts is None:
                    return rendering.render_whole(
                        ctx, origin="http://x", csrf_token=token, memo=memo
                    )
                return rendering.render_update(
                    ctx, parts, origin="http://x", csrf_token=token, memo=memo
                )

        if not remember:
            rendering.forget_all()
        total = 0.0
        first = 0.0
        size = 0
        for viewer in users:
            started = time.perf_counter()
            frame, shown = draw(viewer, sent.get(viewer.pk))
            took = time.perf_counter() - started
            total += took
            first = first or took
            sent[viewer.pk] = shown
            size += len(frame.encode())
        samples.append((first, total, size // len(users), acted))
    else:
        finish = (0.0, 0.0, 0)
    third = len(samples) // 3
    thirds = [samples[:third], samples[third : 2 * third], samples[2 * third :]]
    for name, part in zip(("early", "middle", "late"), thirds, strict=True):
        if not part:
            continue
        shared = statistics.mean(s[0] for s in part) * 1000
        seats = statistics.mean(s[1] for s in part) * 1000
        size = statistics.mean(s[2] for s in part)
        act = statistics.mean(s[3] for s in part) * 1000
        lines.append(
            f"{ruleset:15} {name:6} moves={len(part):3}  first_seat_ms={shared:6.2f}  "
            f"push_ms={seats:6.2f}  bytes={size:6.0f}  act_ms={act:5.2f}"
        )
    first, total, size = finish
    lines.append(
        f"{ruleset:15} finish moves=  1  first_seat_ms={first * 1000:6.2f}  "
        f"push_ms={total * 1000:6.2f}  bytes={size:6.0f}"
    )
    return lines


def _finish(
    snapshot: Any,
    users: list[Any],
    tokens: dict[int, str],
    memos: dict[int, Any] | None,
    sent: dict[int, dict[str, str]],
) -> tuple[float, float, int]:
    """The push of the move that ends the game, drawn for every seat as a socket
    does (off the event loop, with the side chats a finished game may show, the
    parts that changed and the notice of who is away: the status changed)."""
    from django.utils import translation

    from games import rendering
    from games.selectors import snapshot_seat_view, table_context

    total, first, size = 0.0, 0.0, 0
    for viewer in users:
        started = time.perf_counter()
        seat = snapshot_seat_view(snapshot, viewer)
        ctx = table_context(
            seat.game, viewer, with_chat=False, with_side_chat=True, seat=seat
        )
        memo = memos.setdefault(viewer.pk, {}) if memos is not None else None
        with translation.override("ru"):
            if viewer.pk in sent:
                frame, _shown = rendering.render_update(
                    ctx,
                    sent[viewer.pk],
                    origin="http://x",
                    csrf_token=tokens[viewer.pk],
                    memo=memo,
                    presence=True,
                )
            else:
                frame, _shown = rendering.render_whole(
                    ctx, origin="http://x", csrf_token=tokens[viewer.pk], memo=memo
                )
        took = time.perf_counter() - started
        total += took
        first = first or took
        size += len(frame.encode())
    return first, total, size // len(users)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--game",
        action="append",
        choices=[g for g, _, _ in GAMES],
        help="only these games (default: all)",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="forget every drawing before each move (each part drawn afresh)",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="play each game twice, forgetting and then keeping the drawings",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        _setup(Path(folder) / "render.sqlite3")
        for ruleset, options, people in GAMES:
            if args.game and ruleset not in args.game:
                continue
            for remember in (False, True) if args.compare else (not args.cold,):
                for line in _play(ruleset, options, people, args.seed, remember):
                    print(("reused " if remember else "drawn  ") + line, flush=True)
        from games import rendering

        count, size = rendering.drawings_kept()
        print(f"drawings_kept: {count}  drawings_kb: {size / 1024:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
