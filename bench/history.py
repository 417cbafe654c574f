"""How fast the history pages are on a big site: ``python -m bench.history``.

Fills a dedicated database with finished games played by the rules engine (random
legal moves among a few hundred players, some much busier than others, a few private
tables and abandoned games), then serves pages through Django's test client and
prints the median server time of each. The last four lines are the figures the
issue tracks::

    history_ms: N       the history list, first page, as a visitor
    profile_ms: N       the busiest player's profile with all its stats and charts
    replay_ms: N        a game's review page at a replay step seen as one player,
                        with cold caches (state and step labels rebuilt each time)
    profile_queries: N  the number of queries that profile page runs

The database is ``bench-history.sqlite3`` in the project folder, or, when
``DATABASE_URL`` names PostgreSQL, a database called ``bench_history`` on that
server (created and dropped by this script; ``--db`` names another). ``--reuse``
keeps a database filled by an earlier run with the same numbers.

The rows are written in bulk, not through ``games.services`` (one transaction per
move would take hours), but they are the rows the services write: :func:`project`
derives them from the engine's views the same way, and
``tests/history/test_bench.py`` checks that on games played through the services.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
SQLITE_FILE = BASE_DIR / "bench-history.sqlite3"
POSTGRES_NAME = "bench_history"

RULESETS: list[tuple[str, dict[str, bool], int]] = [
    ("partisans", {}, 3),
    ("partisans", {"scout": True}, 3),
    ("partisans", {"check": True}, 2),
    ("partisans", {"scout": True, "check": True}, 2),
    ("trust_no_one", {}, 2),
    ("werewolves", {}, 2),
    ("werewolves", {"growing_patrol": True}, 1),
]
"""(game, options, weight): the mix of games the generator plays."""

PRIVATE_SHARE = 0.1
ABANDONED_SHARE = 0.03
BUSY_SKEW = 0.6
"""Player ``i`` joins tables with weight ``1 / (i + 1) ** BUSY_SKEW``: a few players
play a lot, as on a real site, and the busiest one makes the profile's worst case."""
DAYS = 730
CHUNK = 250


# --- playing and projecting games (no database) -------------------------------------


Log = list[tuple[int, dict[str, Any]]]


@dataclass
class Played:
    """One game as the engine played it: the setup, the log, the first and last
    state. ``abandoned`` games stop somewhere before the end."""

    setup: Any
    log: Log
    start: Any
    final: Any
    abandoned: bool


def play(setup: Any, rng: random.Random, *, stop_after: int | None = None) -> Played:
    from games import engine

    start = engine.setup(setup)
    state = start
    log: Log = []
    while engine.outcome(state) is None:
        if stop_after is not None and len(log) >= stop_after:
            return Played(setup, log, start, state, abandoned=True)
        seat, action = engine.random_action(state, rng)
        state, _events = engine.apply(state, seat, action)
        log.append((seat, action))
    return Played(setup, log, start, state, abandoned=False)


@dataclass
class ProposalRow:
    mission: int
    attempt: int
    leader: int
    team: list[int]
    approved: bool | None
    votes: dict[int, bool]


@dataclass
class MissionRow:
    number: int
    size: int
    two_fails: bool
    team: list[int]
    result: str
    fails: int | None


@dataclass
class CheckRow:
    after_mission: int
    holder: int
    target: int
    result: str
    claim: str


@dataclass
class Projection:
    """The rows ``games.services`` writes for a game, by seat position."""

    phase: str
    outcome: dict[str, str] | None
    roles: list[dict[str, Any]] | None
    proposals: list[ProposalRow] = field(default_factory=list)
    missions: list[MissionRow] = field(default_factory=list)
    checks: list[CheckRow] = field(default_factory=list)
    shot: tuple[int, int, bool] | None = None


def _proposals(state: Any, public: dict[str, Any]) -> list[ProposalRow]:
    """Every finished vote, then the one in progress (its votes as each voter's own
    view has them: services store a vote as it is cast)."""
    from games import engine

    rows = [
        ProposalRow(
            mission=entry["mission"],
            attempt=entry["attempt"],
            leader=entry["leader"],
            team=list(entry["team"]),
            approved=entry["approved"],
            votes={int(seat): vote for seat, vote in entry["votes"].items()},
        )
        for entry in public["history"]
    ]
    if public["phase"] == "vote":
        proposal = public["proposal"]
        rows.append(
            ProposalRow(
                mission=public["mission"],
                attempt=public["rejections"] + 1,
                leader=proposal["leader"],
                team=list(proposal["team"]),
                approved=None,
                votes={
                    seat: engine.view(state, seat)["me"]["vote"]
                    for seat in proposal["voted"]
                },
            )
        )
    return rows


def _missions(start: dict[str, Any], public: dict[str, Any]) -> list[MissionRow]:
    """Sizes as dealt, then the approved team's size and members; result and fail
    count once the mission is played."""
    teams = {e["mission"]: list(e["team"]) for e in public["history"] if e["approved"]}
    rows = []
    for dealt, now in zip(start["missions"], public["missions"], strict=True):
        team = teams.get(dealt["number"], [])
        rows.append(
            MissionRow(
                number=dealt["number"],
                size=len(team) if team else dealt["size"],
                two_fails=dealt["two_fails"],
                team=team,
                result=now["result"] or "",
                fails=now["fails"],
            )
        )
    return rows


def _checks(state: Any, public: dict[str, Any]) -> list[CheckRow]:
    from games import engine

    rows = []
    for index, check in enumerate(public["checks"]):
        result = engine.view(state, check["holder"])["checks"][index]["result"]
        rows.append(
            CheckRow(
                after_mission=check["after_mission"],
                holder=check["holder"],
                target=check["target"],
                result=result,
                claim=check["claim"] or "",
            )
        )
    return rows


def project(played: Played) -> Projection:
    """The rows of a played game, derived from the engine's views as
    ``games.services._project`` and ``_finish`` derive them move by move."""
    from games import engine

    public = engine.view(played.final, None)
    start = engine.view(played.start, None)
    over = public["outcome"] is not None
    projection = Projection(
        phase=public["phase"],
        outcome=public["outcome"],
        roles=public["roles"] if over else None,
        proposals=_proposals(played.final, public),
        missions=_missions(start, public),
        checks=_checks(played.final, public),
    )
    sniper = public["sniper"]
    if sniper and sniper["target"] is not None:
        projection.shot = (sniper["sniper"], sniper["target"], bool(sniper["hit"]))
    return projection


# --- the database -------------------------------------------------------------------


def bench_database_url(name: str | None = None) -> str:
    """The dedicated database: never the one DATABASE_URL itself names. ``name`` is
    a SQLite file or a PostgreSQL database name instead of the default."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return f"sqlite:///{Path(name) if name else SQLITE_FILE}"
    parts = urlsplit(url)
    database = name or POSTGRES_NAME
    if not database.replace("_", "").isalnum():
        raise SystemExit(f"not a plain database name: {database!r}")
    return urlunsplit(parts._replace(path=f"/{database}"))


def _maintenance_url(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/postgres", scheme="postgresql"))


def reset_database(url: str) -> None:
    """Start from an empty database: delete the SQLite file, or drop and create
    the PostgreSQL database."""
    if url.startswith("sqlite"):
        path = urlsplit(url).path
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_maintenance_url(url), autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}")


def configure(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]


def make_players(count: int) -> list[Any]:
    from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX

    from accounts.models import User

    users = [
        User(
            username=f"bench{number:04d}",
            display_name=f"Игрок {number:04d}",
            email=f"bench{number:04d}@example.org",
            password=f"{UNUSABLE_PASSWORD_PREFIX}bench",  # nobody logs in as these
        )
        for number in range(count)
    ]
    return User.objects.bulk_create(users)


def _pick_players(rng: random.Random, weights: list[float], count: int) -> list[int]:
    chosen: list[int] = []
    while len(chosen) < count:
        (pick,) = rng.choices(range(len(weights)), weights=weights)
        if pick not in chosen:
            chosen.append(pick)
    return chosen


@dataclass
class Generated:
    index: int
    played: Played
    rows: Projection
    players: list[int]
    private: bool
    finished_at: dt.datetime


def generate(
    games: int, players: int, rng: random.Random, now: dt.datetime
) -> Iterator[Generated]:
    from games import engine

    weights = [1 / (number + 1) ** BUSY_SKEW for number in range(players)]
    mix = [(code, options) for code, options, weight in RULESETS for _ in range(weight)]
    for index in range(games):
        code, options = rng.choice(mix)
        count = rng.randint(5, 10)
        setup = engine.GameSetup(code, count, options, rng.getrandbits(62))
        abandon = rng.random() < ABANDONED_SHARE
        played = play(setup, rng, stop_after=rng.randint(1, 40) if abandon else None)
        yield Generated(
            index=index,
            played=played,
            rows=project(played),
            players=_pick_players(rng, weights, count),
            private=rng.random() < PRIVATE_SHARE,
            finished_at=now - dt.timedelta(seconds=rng.uniform(0, DAYS * 86_400)),
        )


def _chunks(items: Iterable[Generated], size: int) -> Iterator[list[Generated]]:
    chunk: list[Generated] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _game_row(item: Generated, users: list[Any]) -> Any:
    from games.models import Game

    played, rows = item.played, item.rows
    setup = played.setup
    over = not played.abandoned
    return Game(
        code=f"bench{item.index:07d}",
        ruleset=setup.ruleset,
        host=users[item.players[0]],
        seat_count=setup.players,
        options=dict(setup.options),
        is_private=item.private,
        chat_enabled=bool(setup.options.get("chat", True)),
        status=Game.Status.FINISHED if over else Game.Status.ABANDONED,
        seed=setup.seed,
        version=len(played.log),
        turn=len(played.log),
        phase=rows.phase,
        winner=rows.outcome["winner"] if rows.outcome else "",
        end_reason=rows.outcome["reason"] if rows.outcome else "",
        started_at=item.finished_at - dt.timedelta(minutes=25),
        finished_at=item.finished_at,
        last_action_at=item.finished_at,
    )


def write(chunk: list[Generated], users: list[Any], rng: random.Random) -> int:
    """One chunk of games in one transaction, every table in bulk; returns rows."""
    from django.db import transaction

    from games.families.resistance.models import (
        Check,
        Mission,
        MissionCard,
        Proposal,
        Shot,
        Vote,
    )
    from games.models import Game, GameAction, Seat

    with transaction.atomic():
        games = Game.objects.bulk_create(_game_row(item, users) for item in chunk)
        seats: dict[tuple[int, int], Any] = {}
        seat_rows = []
        for game, item in zip(games, chunk, strict=True):
            roles = {r["seat"]: r for r in item.rows.roles or []}
            for position, player in enumerate(item.players):
                role = roles.get(position)
                seat = Seat(
                    game=game,
                    user=users[player],
                    position=position,
                    role=role["role"] if role else "",
                    side=role["side"] if role else "",
                    won=(role["side"] == item.rows.outcome["winner"]) if role else None,
                )
                seats[(game.pk, position)] = seat
                seat_rows.append(seat)
        Seat.objects.bulk_create(seat_rows)
        actions = [
            GameAction(game=game, number=number, position=seat, payload=action)
            for game, item in zip(games, chunk, strict=True)
            for number, (seat, action) in enumerate(item.played.log, start=1)
        ]
        GameAction.objects.bulk_create(actions, batch_size=2000)
        count = len(games) + len(seat_rows) + len(actions)
        count += _write_missions(games, chunk, seats, rng, Mission, MissionCard)
        count += _write_proposals(games, chunk, seats, Proposal, Vote)
        checks = [
            Check(
                game=game,
                after_mission=c.after_mission,
                holder=seats[(game.pk, c.holder)],
                target=seats[(game.pk, c.target)],
                result=c.result,
                claim=c.claim,
            )
            for game, item in zip(games, chunk, strict=True)
            for c in item.rows.checks
        ]
        Check.objects.bulk_create(checks)
        shots = [
            Shot(
                game=game,
                sniper=seats[(game.pk, item.rows.shot[0])],
                target=seats[(game.pk, item.rows.shot[1])],
                hit=item.rows.shot[2],
            )
            for game, item in zip(games, chunk, strict=True)
            if item.rows.shot is not None
        ]
        Shot.objects.bulk_create(shots)
        return count + len(checks) + len(shots)


def _write_missions(
    games: list[Any],
    chunk: list[Generated],
    seats: dict[tuple[int, int], Any],
    rng: random.Random,
    mission_model: Any,
    card_model: Any,
) -> int:
    pairs = [
        (game, row)
        for game, item in zip(games, chunk, strict=True)
        for row in item.rows.missions
    ]
    missions = mission_model.objects.bulk_create(
        mission_model(
            game=game,
            number=row.number,
            size=row.size,
            two_fails=row.two_fails,
            result=row.result,
            fails=row.fails,
        )
        for game, row in pairs
    )
    through = mission_model.team.through
    links = [
        through(mission_id=mission.pk, seat_id=seats[(game.pk, position)].pk)
        for mission, (game, row) in zip(missions, pairs, strict=True)
        for position in row.team
    ]
    through.objects.bulk_create(links, batch_size=2000)
    cards = []
    for mission, (_game, row) in zip(missions, pairs, strict=True):
        if row.fails is None:
            continue
        deck = [False] * row.fails + [True] * (row.size - row.fails)
        rng.shuffle(deck)  # stored without authors, in no meaningful order
        cards += [card_model(mission=mission, success=card) for card in deck]
    card_model.objects.bulk_create(cards, batch_size=2000)
    return len(missions) + len(links) + len(cards)


def _write_proposals(
    games: list[Any],
    chunk: list[Generated],
    seats: dict[tuple[int, int], Any],
    proposal_model: Any,
    vote_model: Any,
) -> int:
    pairs = [
        (game, row)
        for game, item in zip(games, chunk, strict=True)
        for row in item.rows.proposals
    ]
    proposals = proposal_model.objects.bulk_create(
        proposal_model(
            game=game,
            mission_number=row.mission,
            attempt=row.attempt,
            leader=seats[(game.pk, row.leader)],
            approved=row.approved,
        )
        for game, row in pairs
    )
    through = proposal_model.team.through
    links = [
        through(proposal_id=proposal.pk, seat_id=seats[(game.pk, position)].pk)
        for proposal, (game, row) in zip(proposals, pairs, strict=True)
        for position in row.team
    ]
    through.objects.bulk_create(links, batch_size=2000)
    votes = [
        vote_model(proposal=proposal, seat=seats[(game.pk, seat)], approve=approve)
        for proposal, (game, row) in zip(proposals, pairs, strict=True)
        for seat, approve in row.votes.items()
    ]
    vote_model.objects.bulk_create(votes, batch_size=2000)
    return len(proposals) + len(links) + len(votes)


def fill(games: int, players: int, seed: int) -> None:
    from django.core.management import call_command
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    rng = random.Random(seed)
    users = make_players(players)
    started = time.perf_counter()
    rows = 0
    done = 0
    for chunk in _chunks(generate(games, players, rng, timezone.now()), CHUNK):
        rows += write(chunk, users, rng)
        done += len(chunk)
        print(f"  {done}/{games} games, {rows} rows", file=sys.stderr, end="\r")
    analyse()
    elapsed = time.perf_counter() - started
    print(file=sys.stderr)
    print(f"filled: {games} games, {players} players, {rows} rows in {elapsed:.0f} s")


def analyse() -> None:
    """Gather the planner's statistics, as autovacuum would on a live site: right
    after a bulk load PostgreSQL believes every table nearly empty and picks plans
    that take minutes."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def filled(games: int, players: int) -> bool:
    from django.db import DatabaseError

    from accounts.models import User
    from games.models import Game

    try:
        return (
            Game.objects.filter(code__startswith="bench").count() == games
            and User.objects.filter(username__startswith="bench").count() == players
        )
    except DatabaseError:
        return False


# --- timing the pages ---------------------------------------------------------------


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def time_pages(runs: int, seed: int) -> dict[str, float]:
    from django.db import connection
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.models import Game, Seat
    from history import replay

    client = Client()
    busiest = (
        Seat.objects.values("user__username")
        .annotate(games=Count("pk"))
        .order_by("-games")
        .first()
    )
    assert busiest is not None, "the database is empty"
    profile_url = f"/u/{busiest['user__username']}/"
    rng = random.Random(seed)
    finished = list(
        Game.objects.filter(status=Game.Status.FINISHED, is_private=False)
        .order_by("?")
        .values_list("code", "version", "seat_count")[: runs + 3]
    )
    replay_urls = [
        f"/history/g/{code}/?step={version // 2}&as={rng.randrange(seats)}"
        for code, version, seats in finished
    ]

    def timed(url: str, *, cold: bool = False) -> float:
        if cold:
            replay.forget_all()
        began = time.perf_counter()
        response = client.get(url)
        took = time.perf_counter() - began
        assert response.status_code == 200, (url, response.status_code)
        return took

    for url in ("/history/", profile_url, *replay_urls[:3]):  # warm-up
        timed(url)
    results = {
        "history": [timed("/history/") for _ in range(runs)],
        "history_filtered": [
            timed(f"/history/?player={busiest['user__username']}&side=good&won=1")
            for _ in range(runs)
        ],
        "profile": [timed(profile_url) for _ in range(runs)],
        "replay": [timed(url, cold=True) for url in replay_urls[3 : 3 + runs]],
    }
    with CaptureQueriesContext(connection) as queries:
        timed(profile_url)
    print(f"busiest player: {busiest['user__username']} with {busiest['games']} games")
    figures = {name: _median_ms(samples) for name, samples in results.items()}
    figures["profile_queries"] = len(queries)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--runs", type=int, default=15, help="timed runs per page")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--reuse", action="store_true", help="keep a database filled before"
    )
    parser.add_argument(
        "--db",
        help="SQLite file, or PostgreSQL database name, instead of the default",
    )
    args = parser.parse_args(argv)
    if args.players < 10:
        parser.error("at least ten players: a table seats up to ten")

    url = bench_database_url(args.db)
    if not args.reuse:
        reset_database(url)
    configure(url)
    from django.db import connection

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}")
    if not (args.reuse and filled(args.games, args.players)):
        if args.reuse:
            connection.close()
            reset_database(url)
        fill(args.games, args.players, args.seed)
    figures = time_pages(args.runs, args.seed)
    print(f"history_filtered_ms: {figures['history_filtered']:.1f}")
    print(f"history_ms: {round(figures['history'])}")
    print(f"profile_ms: {round(figures['profile'])}")
    print(f"replay_ms: {round(figures['replay'])}")
    print(f"profile_queries: {figures['profile_queries']}")


if __name__ == "__main__":
    main()
