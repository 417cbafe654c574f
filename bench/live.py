"""The live site under load: ``python -m bench.live [--tables N] [--seconds S]``.

Starts the real server (daphne) on a free port of 127.0.0.1 with a fresh database,
then drives N tables of ten programs each through random complete games, table after
table, for S seconds, and prints, as its last lines::

    tables: N             tables playing at once
    actions_per_s: N      moves applied per second (all tables together)
    push_p50_ms: N        from sending a move to the moment the LAST seat of that
    push_p99_ms: N        table received the push of the move's version
    queries_per_action: N SQL statements the server ran per move: applying it and
                          pushing it to every seat (see "Counting queries")

The database is a SQLite file in the temporary folder when ``DATABASE_URL`` is unset;
with PostgreSQL it is a database called ``bench_live`` on that server, created and
dropped by this script. With ``REDIS_URL`` the channel layer is Redis (``--layer core``
or ``--layer pubsub``) and ``--workers`` daphne processes may share the load; without
it, the in-memory layer and one daphne process; the bench uses its own Redis
database (``--redis-db``, 15 by default, emptied before and after), so that nothing
else using that Redis server disturbs it or is disturbed. The server runs
``config.settings.local`` with ``DJANGO_DEBUG=false`` and, on PostgreSQL, the site's
psycopg connection pool (``--no-db-pool`` measures one connection per request
instead, ``--conn-max-age``). Under daphne every HTTP request runs in a thread of its
own, so without the pool persistent connections are never reused: with
``--conn-max-age 60`` each request leaves an idle PostgreSQL connection behind until
the server refuses new ones.

How a program plays: users and API tokens are created directly in the database (the
bench process sets Django up against the same database); then, per table, the host
opens it through the API, nine others join, all ten open the table's JSON socket
with their token, the host starts, and each program, on every push of its own view,
picks a random move from that view's ``legal`` list and sends it as an HTTP POST
(``--act http``, the default) or over its socket (``--act socket``). ``--think-ms T``
makes each program wait a random 0..2T ms before a move, like a person; 0 plays as
fast as the server allows, which measures the throughput ceiling, where latency is
mostly queueing.

Counting queries: the daphne processes serve this module's ``server_application``,
which wraps ``config.asgi.application`` and adds an ``execute_wrapper`` to every
database connection. Each query is counted against the HTTP request or the socket it
ran for (a context variable carries the counter into the threads Django and Channels
use); a socket's count is cut at each frame it sends, so the queries behind each push
are known. Every worker writes its totals to a file four times a second. A move's
queries are those of its POST (or its socket ``act``) plus those of every push its
version caused; the queries of opening, joining and starting tables, and the
snapshot a socket gets on connect, are reported apart (``setup_queries``). This
counts every statement the server sends, exactly, with no sampling and no reliance
on the database's own statistics.

``--profile FILE`` records the first worker with py-spy during the measurement and
prints where its time goes (``FILE`` keeps the raw stacks).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
POSTGRES_NAME = "bench_live"
SEATS = 10
GAMES: list[tuple[str, dict[str, bool]]] = [
    ("partisans", {"scout": True, "check": True}),
    ("trust_no_one", {}),
    ("werewolves", {}),
]
PASSWORD = "bench-live-password"  # noqa: S105 - throwaway users of a throwaway database

# --- The server side: counting queries per request and per push -------------------

_counter: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "bench_query_counter", default=None
)
_VERSION = re.compile(rb'"version": (\d+)')
_BUCKET = 10


class _ServerStats:
    """Per worker: kind -> [frames or requests, queries], and the same per bucket of
    ten versions, to show whether a move's cost grows as a game goes on."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.buckets: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.unattributed = 0

    def add(self, kind: str, queries: int, version: int | None = None) -> None:
        with self.lock:
            entry = self.kinds[kind]
            entry[0] += 1
            entry[1] += queries
            if version is not None and kind in ("http_act", "ws_push", "ws_acted"):
                bucket = self.buckets[f"{kind}:{version // _BUCKET}"]
                bucket[0] += 1
                bucket[1] += queries

    def dump(self, path: Path) -> None:
        with self.lock:
            data = {
                "kinds": dict(self.kinds),
                "buckets": dict(self.buckets),
                "unattributed": self.unattributed,
            }
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data))
        temporary.replace(path)


_stats = _ServerStats()
_app: Any = None


def _count_query(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
) -> Any:
    counter = _counter.get()
    if counter is None:
        with _stats.lock:
            _stats.unattributed += 1
    else:
        counter[0] += 1
    return execute(sql, params, many, context)


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if _count_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count_query)


def _server() -> Any:
    """The site's ASGI application, with the counters installed (once)."""
    global _app
    if _app is not None:
        return _app
    import django
    from django.conf import settings

    django.setup()
    layer = os.environ.get("PODPOLYE_BENCH_LAYER", "core")
    redis_url = os.environ.get("REDIS_URL", "")
    if redis_url and layer == "pubsub":
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [redis_url]},
            }
        }
    from django.db.backends.signals import connection_created

    connection_created.connect(_on_connection, dispatch_uid="bench.live.count")
    from config.asgi import application

    folder = Path(os.environ["PODPOLYE_BENCH_STATS"])
    path = folder / f"stats-{os.getpid()}.json"

    def write_forever() -> None:
        while True:
            _stats.dump(path)
            time.sleep(0.25)

    threading.Thread(target=write_forever, daemon=True).start()
    _app = application
    return _app


def _version_of(data: bytes) -> int | None:
    found = _VERSION.search(data[:400])
    return int(found.group(1)) if found else None


async def server_application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``config.asgi.application``, counting the queries behind every answer."""
    app = _server()
    counter = [0]
    token = _counter.set(counter)
    try:
        if scope["type"] == "http":
            await _serve_http(app, scope, receive, send, counter)
        elif scope["type"] == "websocket":
            await _serve_socket(app, scope, receive, send, counter)
        else:
            await app(scope, receive, send)
    finally:
        _counter.reset(token)


async def _serve_http(
    app: Any, scope: dict[str, Any], receive: Any, send: Any, counter: list[int]
) -> None:
    acting = scope["method"] == "POST" and scope["path"].endswith("/actions")
    kind = "http_act" if acting else "http_other"
    version: list[int | None] = [None]

    async def sending(message: dict[str, Any]) -> None:
        if acting and message["type"] == "http.response.body" and version[0] is None:
            version[0] = _version_of(message.get("body", b""))
        await send(message)

    try:
        await app(scope, receive, sending)
    finally:
        _stats.add(kind, counter[0], version[0])


async def _serve_socket(
    app: Any, scope: dict[str, Any], receive: Any, send: Any, counter: list[int]
) -> None:
    first = [True]

    async def sending(message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            text = (message.get("text") or "").encode()
            if first[0]:
                kind = "ws_snapshot"
            elif text.startswith(b'{"type": "acted"'):
                kind = "ws_acted"
            elif text.startswith(b'{"type": "view"'):
                kind = "ws_push"
            else:
                kind = "ws_other"
            _stats.add(kind, counter[0], _version_of(text))
            counter[0] = 0
            first[0] = False
        await send(message)

    try:
        await app(scope, receive, sending)
    finally:
        _stats.add("ws_close", counter[0])


# --- The database and the server processes ----------------------------------------


@dataclass
class Database:
    url: str
    cleanup: Callable[[], None]


def _postgres_admin(url: str) -> Any:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    return psycopg.connect(admin, autocommit=True)


def database_create() -> Database:
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        path = (
            Path(tempfile.gettempdir()) / f"podpolye-bench-live-{os.getpid()}.sqlite3"
        )

        def remove() -> None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)

        remove()
        return Database(f"sqlite:///{path}", remove)
    with _postgres_admin(url) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{POSTGRES_NAME}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{POSTGRES_NAME}"')

    def drop() -> None:
        with _postgres_admin(url) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{POSTGRES_NAME}" WITH (FORCE)')

    bench_url = urlunsplit(urlsplit(url)._replace(path=f"/{POSTGRES_NAME}"))
    return Database(bench_url, drop)


def server_environment(
    args: argparse.Namespace, db: Database, stats: Path
) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "DJANGO_DEBUG": "false",
            "DATABASE_URL": db.url,
            "DATABASE_CONN_MAX_AGE": str(args.conn_max_age),
            "PODPOLYE_BENCH_STATS": str(stats),
            "PODPOLYE_BENCH_LAYER": args.layer,
            "DATABASE_POOL": "true" if args.db_pool else "false",
            "DATABASE_POOL_MAX": "40",
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(BASE_DIR),
        }
    )
    return env


def redis_flush(url: str) -> None:
    """Empty the bench's own Redis database."""
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def servers_start(
    env: dict[str, str], workers: int
) -> list[tuple[subprocess.Popen[bytes], int]]:
    started = []
    for _ in range(workers):
        port = free_port()
        command = [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "--access-log",
            os.devnull,
            "bench.live:server_application",
        ]
        log = open(Path(env["PODPOLYE_BENCH_STATS"]) / f"daphne-{port}.log", "wb")  # noqa: SIM115
        process = subprocess.Popen(
            command, cwd=BASE_DIR, env=env, stdout=log, stderr=log
        )
        started.append((process, port))
    return started


async def servers_ready(ports: list[int], timeout: float = 60) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as client:
        for port in ports:
            while True:
                try:
                    answer = await client.get(f"http://127.0.0.1:{port}/healthz")
                    if answer.status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit(f"the server on port {port} did not start")
                await asyncio.sleep(0.2)


def servers_stop(servers: list[tuple[subprocess.Popen[bytes], int]]) -> None:
    for process, _ in servers:
        process.send_signal(signal.SIGTERM)
    for process, _ in servers:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def server_totals(folder: Path) -> dict[str, Any]:
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    buckets: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for path in folder.glob("stats-*.json"):
        with contextlib.suppress(ValueError, OSError):
            data = json.loads(path.read_text())
            for name, (count, queries) in data["kinds"].items():
                kinds[name][0] += count
                kinds[name][1] += queries
            for name, (count, queries) in data["buckets"].items():
                buckets[name][0] += count
                buckets[name][1] += queries
    return {"kinds": kinds, "buckets": buckets}


# --- Users and tokens, straight into the database ---------------------------------


def players_create(db: Database, count: int) -> list[str]:
    """``count`` users with a token each; returns the keys."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ["DATABASE_URL"] = db.url
    import django

    django.setup()
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connections

    from accounts.models import User
    from api.models import ApiToken
    from api.tokens import key_digest, key_new, key_prefix

    call_command("migrate", verbosity=0, interactive=False)
    password = make_password(PASSWORD)
    users = User.objects.bulk_create(
        User(
            username=f"bench{i}",
            display_name=f"Bench {i}",
            email=f"bench{i}@example.org",
            password=password,
        )
        for i in range(count)
    )
    keys = [key_new() for _ in users]
    ApiToken.objects.bulk_create(
        ApiToken(
            user=user, name="bench", prefix=key_prefix(key), key_hash=key_digest(key)
        )
        for user, key in zip(users, keys, strict=True)
    )
    connections.close_all()
    return keys


# --- The programs -----------------------------------------------------------------


@dataclass
class Measure:
    """What the clients saw: per move, when it was sent and when each seat had it."""

    window: tuple[float, float] = (0.0, float("inf"))
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    incomplete: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    games: int = 0
    tables_playing: int = 0
    all_playing: asyncio.Event = field(default_factory=asyncio.Event)
    tables: int = 0
    seats: list[Seat] = field(default_factory=list)

    def table_playing(self) -> None:
        """One more table has dealt its first game. Nobody moves before every table
        has: opening a hundred tables behind a saturated server would take
        minutes, and the measurement is about play."""
        self.tables_playing += 1
        if self.tables_playing >= self.tables:
            self.all_playing.set()
            for seat in self.seats:
                seat.maybe_move()

    def in_window(self, moment: float) -> bool:
        return self.window[0] <= moment < self.window[1]


@dataclass
class TableGame:
    """One game at one table, as its ten programs see it."""

    code: str
    sent: dict[int, float] = field(default_factory=dict)
    arrived: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))

    def settle(self, measure: Measure) -> None:
        for version, started in self.sent.items():
            if not measure.in_window(started):
                continue
            measure.actions += 1
            times = self.arrived.get(version, [])
            if len(times) == SEATS:
                measure.latencies.append(max(times) - started)
            else:
                measure.incomplete += 1


def random_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random move from the seat's own ``legal`` list."""
    legal = rng.choice(view["legal"])
    kind = legal["type"]
    if kind == "propose":
        return {"type": kind, "team": sorted(rng.sample(legal["among"], legal["size"]))}
    if kind == "vote":
        return {"type": kind, "approve": rng.random() < 0.6}
    if kind == "play":
        return {"type": kind, "card": rng.choice(legal["cards"])}
    if kind == "claim":
        return {"type": kind, "side": rng.choice(legal["sides"])}
    return {"type": kind, "target": rng.choice(legal["among"])}


_OPENING = asyncio.Semaphore(25)


@dataclass
class Seat:
    """One program at one table."""

    key: str
    http: Any
    ws_url: str
    rng: random.Random
    args: argparse.Namespace
    measure: Measure
    game: TableGame | None = None
    ws: Any = None
    seen: int = -1
    # The version of the view the last move was decided on, and the version that
    # move made: a view older than either must not prompt another move (it does not
    # show that move yet); the move's own version may (a leader who must also vote,
    # a holder who checks then claims).
    decided_on: int = -1
    made: int = -1
    busy: bool = False
    pending_since: float = 0.0
    latest: dict[str, Any] | None = None
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    moves: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Token {self.key}"}

    async def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        answer = await self.http.post(
            f"/api/v1/{path}",
            json=body if body is not None else None,
            headers=self.headers,
        )
        return answer

    async def connect(self, game: TableGame) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake

        self.game = game
        self.seen, self.decided_on, self.made = -1, -1, -1
        self.busy, self.latest = False, None
        self.finished = asyncio.Event()
        # Daphne drops a handshake the application has not accepted within five
        # seconds; a thousand sockets opening at once would be a reconnect storm,
        # not play, so they open a few at a time (and retry).
        for attempt in range(5):
            try:
                async with _OPENING:
                    self.ws = await connect(
                        f"{self.ws_url}/ws/table/{game.code}/?format=json",
                        additional_headers=self.headers,
                        compression=None,
                        ping_interval=None,
                        max_size=2**22,
                        open_timeout=60,
                    )
                return
            except (OSError, InvalidHandshake):
                if attempt == 4:
                    raise
                await asyncio.sleep(0.5 * (attempt + 1))

    async def listen(self) -> None:
        """Read pushes until the game is over, moving whenever the view asks."""
        game = self.game
        assert game is not None
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                message = json.loads(raw)
                kind = message["type"]
                if kind == "view":
                    version = message["version"]
                    if version > self.seen:
                        for missed in range(self.seen + 1, version + 1):
                            game.arrived[missed].append(now)
                        self.seen = version
                    if version >= self.seen:
                        # The start keeps version 0: the deal comes as a new view.
                        self.latest = message
                    if message["status"] != "playing" and message["view"] is not None:
                        self.finished.set()
                        return
                    self.maybe_move()
                elif kind == "acted":
                    game.sent[message["version"]] = self.pending_since
                    self.made = message["version"]
                    self.busy = False
                    self.maybe_move()
                elif kind == "error":
                    self.measure.refused[message["code"]] += 1
                    self.busy = False
                    self.maybe_move()
        finally:
            self.finished.set()

    def maybe_move(self) -> None:
        latest = self.latest
        if (
            not self.measure.all_playing.is_set()
            or self.busy
            or latest is None
            or latest["version"] <= self.decided_on
            or latest["version"] < self.made
            or latest["view"] is None
            or not latest["view"]["legal"]
        ):
            return
        self.busy = True
        task = asyncio.get_running_loop().create_task(self.move(latest))
        self.moves.add(task)
        task.add_done_callback(self.moves.discard)

    async def move(self, seen: dict[str, Any]) -> None:
        game = self.game
        assert game is not None
        if self.args.think_ms:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.args.think_ms) / 1000)
        body = {"action": random_move(seen["view"], self.rng), "turn": seen["turn"]}
        self.decided_on = seen["version"]
        if self.args.act == "socket":
            self.pending_since = time.perf_counter()
            await self.ws.send(json.dumps({"type": "act", **body}))
            return
        started = time.perf_counter()
        try:
            answer = await self.post(f"tables/{game.code}/actions", body)
        except Exception as exc:  # counted and reported; the run goes on
            # The move may or may not have been applied: decide again on the next
            # view (a repeat is refused by the server, which is harmless).
            self.measure.refused[f"{type(exc).__name__}: {exc}"[:90]] += 1
            self.decided_on = -1
            self.busy = False
            await asyncio.sleep(0.05)
            self.maybe_move()
            return
        if answer.status_code == 200:
            version = _version_of(answer.content)
            assert version is not None
            game.sent[version] = started
            self.made = version
        else:
            try:
                code = answer.json()["error"]["code"]
            except ValueError:
                code = f"HTTP {answer.status_code}"
            self.measure.refused[code] += 1
        self.busy = False
        self.maybe_move()


_SETTING_UP = asyncio.Semaphore(10)


async def table_open(
    seats: list[Seat], ruleset: str, options: dict[str, bool]
) -> TableGame:
    """Open a table, seat the other nine, and connect all ten sockets. A few
    tables at a time: the measurement is about play, not a thousand sign-ins."""
    created = await seats[0].post(
        "tables", {"ruleset": ruleset, "seats": SEATS, "options": options}
    )
    if created.status_code != 201:
        raise RuntimeError(f"open: HTTP {created.status_code}")
    code = created.json()["code"]
    joined = await asyncio.gather(*(s.post(f"tables/{code}/join") for s in seats[1:]))
    if any(answer.status_code != 200 for answer in joined):
        raise RuntimeError("join: " + ",".join(str(a.status_code) for a in joined))
    game = TableGame(code)
    await asyncio.gather(*(seat.connect(game) for seat in seats))
    return game


async def table_play(
    seats: list[Seat], index: int, stop: asyncio.Event, measure: Measure
) -> None:
    """Game after game at one table until told to stop."""
    ruleset, options = GAMES[index % len(GAMES)]
    host = seats[0]
    first = True
    while not stop.is_set():
        try:
            async with _SETTING_UP:
                game = await table_open(seats, ruleset, options)
        except Exception as exc:  # counted and reported; the table tries again
            measure.refused[f"setup: {type(exc).__name__}: {exc}"[:90]] += 1
            if first:
                measure.table_playing()
                first = False
            await asyncio.sleep(1)
            continue
        listeners = [asyncio.create_task(seat.listen()) for seat in seats]
        started = await host.post(f"tables/{game.code}/start")
        if started.status_code != 200:
            measure.refused[f"start: HTTP {started.status_code}"] += 1
        if first:
            measure.table_playing()
            first = False
        finished = asyncio.gather(*(seat.finished.wait() for seat in seats))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait([finished, stopping], return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        # The last move's answer may still be on its way after the last push.
        in_flight = [task for seat in seats for task in seat.moves]
        if in_flight:
            await asyncio.wait(in_flight, timeout=10)
        for listener in listeners:
            listener.cancel()
        await asyncio.gather(
            *(seat.ws.close() for seat in seats), return_exceptions=True
        )
        game.settle(measure)
        if not stop.is_set():
            measure.games += 1


# --- The run ----------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def profile_start(
    pid: int, path: Path, seconds: float
) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("profile: py-spy is not installed", file=sys.stderr)
        return None
    command = [
        spy, "record", "-p", str(pid), "-d", str(int(seconds)), "-r", "200",
        "-f", "raw", "-o", str(path), "--nonblocking",
    ]  # fmt: skip
    return subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def profile_report(path: Path, top: int = 25) -> None:
    """Where the worker's time went: share of samples per function (inclusive) and
    per innermost function (self), from py-spy's collapsed stacks."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not count_text.isdigit():
            continue
        count = int(count_text)
        total += count
        frames = [
            frame.split(" (")[0] + " " + _where(frame) for frame in stack.split(";")
        ]
        for frame in set(frames):
            inclusive[frame] += count
        own[frames[-1]] += count
    if not total:
        return
    print(f"profile: {total} samples")
    print("profile: self time")
    for frame, count in own.most_common(top):
        print(f"  {100 * count / total:5.1f}%  {frame}")
    print("profile: inclusive time")
    for frame, count in inclusive.most_common(top * 2):
        print(f"  {100 * count / total:5.1f}%  {frame}")


def _where(frame: str) -> str:
    inside = frame.partition(" (")[2].rstrip(")")
    return inside.replace(str(BASE_DIR) + "/", "").split("site-packages/")[-1]


async def run(
    args: argparse.Namespace,
    keys: list[str],
    ports: list[int],
    pids: list[int],
    stats_dir: Path,
) -> Measure:
    import httpx

    measure = Measure(tables=args.tables)
    rng = random.Random(args.seed)
    limits = httpx.Limits(
        max_connections=args.connections, max_keepalive_connections=args.connections
    )
    clients = [
        httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=120
        )
        for port in ports
    ]
    tables = []
    for index in range(args.tables):
        seats = []
        for seat in range(SEATS):
            worker = rng.randrange(len(ports))
            seats.append(
                Seat(
                    key=keys[index * SEATS + seat],
                    http=clients[rng.randrange(len(clients))],
                    ws_url=f"ws://127.0.0.1:{ports[worker]}",
                    rng=random.Random(rng.random()),
                    args=args,
                    measure=measure,
                )
            )
        tables.append(seats)
        measure.seats.extend(seats)
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(table_play(seats, index, stop, measure))
        for index, seats in enumerate(tables)
    ]
    # Measure play, not the opening of a hundred tables: every table first deals
    # its first game, then the warmup lets the first moves settle.
    await measure.all_playing.wait()
    await asyncio.sleep(args.warmup)
    before = server_totals(stats_dir)
    spy = None
    if args.profile:
        spy = profile_start(pids[0], Path(args.profile), args.seconds)
    start = time.perf_counter()
    measure.window = (start, start + args.seconds)
    await asyncio.sleep(args.seconds)
    stop.set()
    await asyncio.sleep(0.6)
    after_window = server_totals(stats_dir)
    done, pending = await asyncio.wait(tasks, timeout=30)
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            print(f"a table failed: {task.exception()!r}", file=sys.stderr)
    for client in clients:
        await client.aclose()
    if spy is not None:
        spy.wait(timeout=60)
        profile_report(Path(args.profile))
    measure_queries(measure, before, after_window)
    return measure


def measure_queries(
    measure: Measure, before: dict[str, Any], after: dict[str, Any]
) -> None:
    def delta(section: str, name: str) -> tuple[int, int]:
        old = before[section].get(name, [0, 0])
        new = after[section].get(name, [0, 0])
        return new[0] - old[0], new[1] - old[1]

    kinds = {name: delta("kinds", name) for name in after["kinds"]}
    measure.server = kinds  # type: ignore[attr-defined]
    buckets = {name: delta("buckets", name) for name in after["buckets"]}
    measure.buckets = buckets  # type: ignore[attr-defined]


def report(args: argparse.Namespace, measure: Measure) -> None:
    kinds: dict[str, tuple[int, int]] = measure.server  # type: ignore[attr-defined]
    buckets: dict[str, tuple[int, int]] = measure.buckets  # type: ignore[attr-defined]
    acts_http = kinds.get("http_act", (0, 0))
    acts_socket = kinds.get("ws_acted", (0, 0))
    pushes = kinds.get("ws_push", (0, 0))
    applied = acts_http[0] + acts_socket[0]
    move_queries = acts_http[1] + acts_socket[1] + pushes[1]
    setup = sum(
        kinds.get(k, (0, 0))[1]
        for k in ("http_other", "ws_snapshot", "ws_close", "ws_other")
    )
    latencies_ms = [1000 * value for value in measure.latencies]
    database = "postgresql" if args.database.startswith("postgres") else "sqlite"
    layer = f"redis-{args.layer}" if os.environ.get("REDIS_URL") else "in-memory"
    print(
        f"config: database={database} layer={layer} workers={args.workers} "
        f"act={args.act} think_ms={args.think_ms} seconds={args.seconds} "
        f"conn_max_age={args.conn_max_age} db_pool={args.db_pool}"
    )
    print(f"games_finished: {measure.games}")
    print(
        f"moves_measured: {measure.actions} (incomplete pushes: {measure.incomplete})"
    )
    print(f"refused: {dict(measure.refused) or 'none'}")
    if latencies_ms:
        print(
            f"push_mean_ms: {statistics.fmean(latencies_ms):.1f} "
            f"push_max_ms: {max(latencies_ms):.1f}"
        )
    per = lambda pair: pair[1] / pair[0] if pair[0] else 0.0  # noqa: E731
    move_requests = acts_socket if args.act == "socket" else acts_http
    print(
        f"queries: per move request {per(move_requests):.2f}, "
        f"per push {per(pushes):.2f} ({pushes[0]} pushes), setup {setup}"
    )
    if applied:
        rows = []
        numbers = sorted({int(name.split(":")[1]) for name in buckets})
        for number in numbers:
            request = [
                buckets.get(f"{k}:{number}", (0, 0)) for k in ("http_act", "ws_acted")
            ]
            count = sum(pair[0] for pair in request)
            push = buckets.get(f"ws_push:{number}", (0, 0))
            if count:
                total = sum(pair[1] for pair in request) + push[1]
                rows.append(
                    f"v{number * _BUCKET}-{(number + 1) * _BUCKET - 1}: "
                    f"{total / count:.1f}"
                )
        print("queries_per_action_by_game_length: " + ", ".join(rows))
    print(f"tables: {args.tables}")
    print(f"actions_per_s: {measure.actions / args.seconds:.1f}")
    print(f"push_p50_ms: {percentile(latencies_ms, 0.50):.1f}")
    print(f"push_p99_ms: {percentile(latencies_ms, 0.99):.1f}")
    print(
        f"queries_per_action: {move_queries / applied if applied else float('nan'):.1f}"
    )


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.live", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--tables", type=int, default=10, help="tables playing at once")
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds")
    parser.add_argument(
        "--warmup", type=float, default=5, help="seconds before measuring"
    )
    parser.add_argument("--act", choices=["http", "socket"], default="http")
    parser.add_argument(
        "--think-ms", type=float, default=0, help="mean pause before a move"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="daphne processes (Redis only)"
    )
    parser.add_argument("--layer", choices=["core", "pubsub"], default="core")
    parser.add_argument("--conn-max-age", type=int, default=0)
    parser.add_argument(
        "--db-pool",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the site's psycopg pool on PostgreSQL (default on, as the site)",
    )
    parser.add_argument("--redis-db", type=int, default=15, help="bench's Redis db")
    parser.add_argument(
        "--connections", type=int, default=200, help="HTTP connections per worker"
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="py-spy the first worker into FILE"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.workers > 1 and not os.environ.get("REDIS_URL"):
        parser.error(
            "several workers need REDIS_URL: the in-memory layer is per process"
        )
    return args


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if redis_url:
        parts = urlsplit(redis_url)
        os.environ["REDIS_URL"] = urlunsplit(parts._replace(path=f"/{args.redis_db}"))
        redis_flush(os.environ["REDIS_URL"])
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)
    db = database_create()
    args.database = db.url
    stats_dir = Path(tempfile.mkdtemp(prefix="podpolye-bench-live-"))
    servers: list[tuple[subprocess.Popen[bytes], int]] = []
    try:
        keys = players_create(db, args.tables * SEATS)
        servers = servers_start(server_environment(args, db, stats_dir), args.workers)
        ports = [port for _, port in servers]
        asyncio.run(servers_ready(ports))
        measure = asyncio.run(
            run(args, keys, ports, [p.pid for p, _ in servers], stats_dir)
        )
    finally:
        servers_stop(servers)
        for log in stats_dir.glob("daphne-*.log"):
            text = log.read_text(errors="replace").strip()
            if text:
                print(
                    f"--- {log.name} (last lines)\n"
                    + "\n".join(text.splitlines()[-30:]),
                    file=sys.stderr,
                )
        shutil.rmtree(stats_dir, ignore_errors=True)
        from django.db import connections

        with contextlib.suppress(Exception):
            connections.close_all()
        db.cleanup()
        if redis_url:
            redis_flush(os.environ["REDIS_URL"])
    report(args, measure)


if __name__ == "__main__":
    main()
