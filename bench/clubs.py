"""How fast a big club's pages are: ``python -m bench.clubs``.

Fills a dedicated database with one club of 200 members and a season of 5,000 games
played by the rules engine (random legal moves; a few abandoned), rates them all
with the club's openskill ratings, then serves pages through Django's test client
as a member and prints the median server time of each. The figures the issue
tracks::

    standings_ms: N        the season's standings page
    leaderboard_ms: N      the site-wide rating leaderboard of the game family
    club_ms: N             the club's page (notices, tables, seasons, latest games)
    *_queries: N           the queries each of those pages runs (constant)
    rating_update_ms: N    rating one more finished season game (the finish hook's
                           work: the ledger lock, the players' ratings, the history)
    void_ms: N             voiding a game from the middle of the season: the
                           ratings are rewound to it and every later game re-rated

The games are written in bulk by ``bench.history``'s generator (the rows the
services write, checked by tests/history/test_bench.py). The database is
``bench-clubs.sqlite3`` in the project folder, or, when ``DATABASE_URL`` names
PostgreSQL, a database called ``bench_clubs`` on that server (created and dropped by
this script; ``--db`` names another).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench import history as filler

BASE_DIR = Path(__file__).resolve().parent.parent
SQLITE_FILE = BASE_DIR / "bench-clubs.sqlite3"
POSTGRES_NAME = "bench_clubs"
ADMINS = 5
EXTRA_GAMES = 40
"""Games added after the fill to time the rating of one finished game."""


def database_url(name: str | None) -> str:
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return f"sqlite:///{Path(name) if name else SQLITE_FILE}"
    database = name or POSTGRES_NAME
    if not database.replace("_", "").isalnum():
        raise SystemExit(f"not a plain database name: {database!r}")
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def write_games(
    count: int,
    users: list[Any],
    season: Any,
    rng: random.Random,
    start: int,
    *,
    counted: bool = True,
) -> list[Any]:
    """``count`` finished (and a few abandoned) games of ``season``'s club, with
    their ``ClubTable`` rows, written in bulk; none in the standings or ratings yet
    (``counted=False``: not even marked counted, as if they had just ended)."""
    from django.utils import timezone

    from clubs.models import ClubTable
    from games.models import Game

    games: list[Any] = []
    generated = filler.generate(count, len(users), rng, timezone.now())
    for chunk in filler._chunks(generated, filler.CHUNK):
        for item in chunk:
            item.index += start
            item.private = False
        filler.write(chunk, users, rng)
        codes = [f"bench{item.index:07d}" for item in chunk]
        written = list(Game.objects.filter(code__in=codes).only("pk", "status"))
        ClubTable.objects.bulk_create(
            ClubTable(
                game=game,
                club_id=season.club_id,
                season=season,
                counted=counted and game.status == Game.Status.FINISHED,
            )
            for game in written
        )
        games += written
        print(f"  {len(games)}/{count} games", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return games


def fill(games: int, members: int, seed: int) -> dict[str, Any]:
    from django.core.management import call_command
    from django.utils import timezone

    from clubs import services
    from clubs.models import Club, Membership, Notice, Season

    call_command("migrate", verbosity=0)
    rng = random.Random(seed)
    began = time.perf_counter()
    users = filler.make_players(members)
    club = Club.objects.create(
        name="Клуб на двести", slug="bench-club", description="", is_private=True
    )
    roles = ["owner"] + ["admin"] * ADMINS
    Membership.objects.bulk_create(
        Membership(
            club=club,
            user=user,
            role=roles[index] if index < len(roles) else "member",
        )
        for index, user in enumerate(users)
    )
    today = timezone.localdate()
    season = Season.objects.create(
        club=club,
        name="Два года",
        family="resistance",
        starts_on=today - dt.timedelta(days=filler.DAYS + 1),
        ends_on=today + dt.timedelta(days=30),
        points=services.default_points("resistance"),
    )
    Notice.objects.bulk_create(
        Notice(club=club, author=users[0], title=f"Объявление {n}", body="Текст " * 40)
        for n in range(30)
    )
    write_games(games, users, season, rng, start=0)
    rated_began = time.perf_counter()
    services.season_tallies_rebuild(season=season)
    rated = services.ratings_rebuild(family="resistance")
    rated_took = time.perf_counter() - rated_began
    filler.analyse()
    print(
        f"filled: {games} games, {members} members in "
        f"{time.perf_counter() - began:.0f} s; {rated} games counted and rated from "
        "scratch in "
        f"{rated_took:.1f} s"
    )
    return {"users": users, "club": club, "season": season, "rng": rng}


def time_pages(runs: int, filled: dict[str, Any]) -> dict[str, float]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    club, season, users = filled["club"], filled["season"], filled["users"]
    client = Client()
    client.force_login(users[len(users) // 2])  # a plain member
    pages = {
        "standings": f"/clubs/{club.slug}/seasons/{season.pk}/",
        "leaderboard": "/clubs/ratings/resistance/",
        "club": f"/clubs/{club.slug}/",
    }

    def timed(url: str) -> float:
        began = time.perf_counter()
        response = client.get(url)
        took = time.perf_counter() - began
        assert response.status_code == 200, (url, response.status_code)
        return took

    figures: dict[str, float] = {}
    for name, url in pages.items():
        timed(url)  # warm-up
        figures[f"{name}_ms"] = _median_ms([timed(url) for _ in range(runs)])
        with CaptureQueriesContext(connection) as queries:
            timed(url)
        figures[f"{name}_queries"] = len(queries)
    return figures


def time_rating(filled: dict[str, Any]) -> float:
    """Count and rate games that just ended, one at a time: the finish hook's work
    (in its own transaction here; in play, inside the move's)."""
    from clubs.services import game_finished
    from games.models import Game

    games = write_games(
        EXTRA_GAMES,
        filled["users"],
        filled["season"],
        filled["rng"],
        start=10**6,
        counted=False,
    )
    samples = []
    for game in games:
        if game.status != Game.Status.FINISHED:
            continue
        game = Game.objects.get(pk=game.pk)
        began = time.perf_counter()
        game_finished(game)
        samples.append(time.perf_counter() - began)
    return _median_ms(samples)


def time_void(filled: dict[str, Any]) -> tuple[float, int]:
    from clubs.models import Membership, RatedGame
    from clubs.services import game_void
    from games.models import Game

    middle = RatedGame.objects.filter(family="resistance").order_by("number")
    rated = middle.count()
    game = Game.objects.get(pk=middle[rated // 2].game_id)
    admin = Membership.objects.filter(role="admin").select_related("user").first()
    assert admin is not None
    began = time.perf_counter()
    game_void(club=filled["club"], admin=admin.user, game=game, reason="bench")
    return (time.perf_counter() - began) * 1000, rated - rated // 2 - 1


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5_000)
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--runs", type=int, default=15, help="timed runs per page")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db", help="SQLite file, or PostgreSQL database name, instead of the default"
    )
    args = parser.parse_args(argv)
    if args.members < 10:
        parser.error("at least ten members: a table seats up to ten")
    url = database_url(args.db)
    filler.reset_database(url)
    filler.configure(url)
    from django.db import connection

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}")
    print("load average at start: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    filled = fill(args.games, args.members, args.seed)
    figures = time_pages(args.runs, filled)
    figures["rating_update_ms"] = time_rating(filled)
    void_ms, replayed = time_void(filled)
    print("load average at the end: {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()))
    print(f"void re-rated {replayed} later games")
    for name in (
        "standings_queries",
        "leaderboard_queries",
        "club_queries",
    ):
        print(f"{name}: {figures[name]:.0f}")
    print(f"void_ms: {void_ms:.0f}")
    print(f"rating_update_ms: {figures['rating_update_ms']:.1f}")
    for name in ("standings_ms", "leaderboard_ms", "club_ms"):
        print(f"{name}: {figures[name]:.1f}")


if __name__ == "__main__":
    main()
