"""The live site under load: ``python -m bench.live [--tables N] [--seconds S]``.

Starts the real server (daphne) on a free port of 127.0.0.1 with a fresh database,
then drives N tables of programs through random complete games, table after table,
for S seconds, and prints::

    tables: N             tables playing at once
    actions_per_s: N      moves applied per second (all tables together)
    push_p50_ms: N        from sending a move to the moment the LAST seat of that
    push_p99_ms: N        table received the push of the move's version
    queries_per_action: N SQL statements the server ran per move: applying it and
                          pushing it to every seat (see "Counting queries")

``--family`` says whose tables: ``resistance`` (the default: ten seats, the
rulesets partisans, trust_no_one and werewolves, one for each table in turn),
``cells`` (four seats, then three), ``mafia`` (mafia_partisan: the host moderates,
ten others play; the moderator is a seat like the others, with his own socket and
page, moving by his console's forms or his view's ``legal`` list), or ``all``: each
family in turn on the same servers, with a measurement (warmup, window, floor) of
its own. The report's last lines are each family's figures, one line each::

    family: NAME moves_per_s=… push_p50_ms=… push_p99_ms=… [floor_p50_ms=…
    floor_p99_ms=… ratio_p50=… ratio_p99=…] cpu_ms_per_move=… bytes_per_push=…
    queries_per_move=… moves=… games=…

``--stop-after M`` ends a family's window once M moves are measured: a short run
that shows every family plays (the tests' smoke run), not a figure.

``refused:`` counts the server's refusals by code. A move whose POST got no answer
at all (a transport error) is no move and no refusal: it is counted on a line of its
own, ``failed_posts:`` (printed only when there are some), and the seat, which
cannot know whether it was applied, decides again only on a newer view. When the
window ends no seat starts another move, and the run waits for the moves in flight
before it closes its connections.

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
opens it through the API, the others join, all of them (the moderator too) open the
table's JSON socket with their token, the host starts, and each program, on every
push of its own view, picks a random move from that view's ``legal`` list (as the
family's engine draws one: :data:`FAMILIES`) and sends it as an HTTP POST
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

``--statements [N]`` times every statement the server sends: its thread's own CPU
time (``time.thread_time``) and its wall time. The difference is waiting: for the
GIL (a database thread gives it up while SQLite or PostgreSQL works, and must win it
back from the event loop), for SQLite's write lock, for the database server. It
prints both per move and the N costliest statements by wall time.

Browser seats (``--seats browser``): each user also gets a signed-in session, made
in the database with the site's session engine as the log-in form would. A seat
opens the table page (which sets its CSRF cookie), then the page's HTML socket
``/ws/table/<code>/`` with its cookies and the site's Origin, and keeps the live area
as a browser does: the whole area on connect, then each frame's parts swapped in by
id. Its moves are the move forms its page shows (``ws-send`` forms posting to
``/act/``; the moderator's console is such forms too), filled in at random (hidden
fields, one choice per radio group and per list, as many boxes as
``data-team-size`` says, else any number; never a disabled field) and sent as
htmx's ws extension sends them: one
JSON object of the form's fields plus ``"HEADERS"`` (``--act socket``, the default),
or posted as a browser without JavaScript does (``--act post``: the form POST with
the CSRF cookie and field, then the page the redirect leads to). A refusal is the
frame's error line, or the seat card's when it would tell a secret (a Mafia
chooser's). A move is complete when the last seat of the table (the moderator
included) has a frame whose ``#table-state`` carries a newer
``data-version`` (with ``--act post`` also when the mover has its page). The page's
socket does not say which version a move made, so when seats move at once each new
version counts once, from the earliest move decided on the version before it; and a
seat decides again only once its page shows its move in flight (its forms changed,
or the table went past every move decided on that version), as a person would.

``--serial`` plays one table, one move in flight: once every seat shows the same
version, one seat that may move makes a random move, and the next waits until the
move is complete. It prints ``serial_moves_per_s`` and the latencies of single moves
(the measure of a person's wait, not of a busy evening). With ``--serial`` the bench
also measures the floor (``--no-floor`` skips it): ``floor_application``, a bare
Channels consumer (a frame in, one ``group_send`` to the sockets of its group, as
many as the site's table has people,
nothing else, on the same channel layer) served by the same daphne on other ports,
driven by the same loop; it prints ``floor_p50_ms``, ``floor_p99_ms`` and
``ratio_p50`` / ``ratio_p99`` (Podpolye over the floor). With ``--act post`` the
floor's move is a bare Django POST-and-page instead (Django's handler, the common
middleware, a signed-cookie session and CSRF, a view that sends the version to the
group and redirects, a page from a Django template about the size of a table
page), and ``ratio_post_p50`` / ``ratio_post_p99`` compare the site's form POST and
page with it. Both servers are up at once
and the two tables take turns of ``--turns`` seconds (1 by default) over the same
measured window, one move in flight between them: on a shared machine whose speed
drifts from minute to minute, the floor measured after the site made a different
ratio each run. ``--turns 0`` measures the floor after the site, as before. Moves a
second count the seconds of a table's own turns. A serial run ends with where its
tail comes from: ``tail_over_ms``, how many moves took longer than three times the
floor's p99, and a ``tail_kind`` line for each kind of move (the form's action;
``end`` for a move that ended a game) with its count, p50, p99 and such moves.

Every mode also prints ``cpu_ms_per_move`` (the server processes' user and system
CPU time over the measured seconds, from /proc, per move) and ``bytes_per_push``
(the bytes of all frames the seats received in the window, per move and person at
its table; a
socket that falls behind skips to the newest version, so under load this is less
than one frame per move).
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
PEOPLE = 11
"""Users per table: the most a family seats, a moderator included."""


def _resistance_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    from games.families.resistance.engine.bots import random_move

    return random_move(view, rng)


def _cells_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    from games.families.cells.engine.bots import random_move

    return random_move(view, rng)


def _mafia_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    # The family's engine draws a move from one legal spec (a player's, or one of
    # the moderator's): any of the seat's specs, then one of its moves.
    from games.families.mafia.engine.bots import random_move

    return random_move(rng.choice(view["legal"]), rng)


@dataclass(frozen=True)
class Deal:
    """One kind of table a family plays: its ruleset and options, how many players,
    and whether the host moderates it (then he is not dealt a seat)."""

    ruleset: str
    options: dict[str, Any]
    players: int
    moderator: bool = False

    @property
    def people(self) -> int:
        return self.players + self.moderator


@dataclass(frozen=True)
class Family:
    """The tables of one family the bench plays, table after table, and how a JSON
    seat draws a random move from its own view's ``legal`` list (as the family's
    engine draws one; the moderator's view too)."""

    name: str
    deals: tuple[Deal, ...]
    move: Callable[[dict[str, Any], random.Random], dict[str, Any]]

    def deal(self, index: int) -> Deal:
        return self.deals[index % len(self.deals)]


FAMILIES: dict[str, Family] = {
    "resistance": Family(
        "resistance",
        (
            Deal("partisans", {"scout": True, "check": True}, 10),
            Deal("trust_no_one", {}, 10),
            Deal("werewolves", {}, 10),
        ),
        _resistance_move,
    ),
    "cells": Family("cells", (Deal("cells", {}, 4), Deal("cells", {}, 3)), _cells_move),
    "mafia": Family(
        "mafia", (Deal("mafia_partisan", {}, 10, moderator=True),), _mafia_move
    ),
}
PASSWORD = "bench-live-password"  # noqa: S105 - throwaway users of a throwaway database

# --- The server side: counting queries per request and per push -------------------

_counter: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "bench_query_counter", default=None
)
_VERSION = re.compile(rb'"version": (\d+)')
_HTML_VERSION = re.compile(rb'data-version="(\d+)"')
_PAGE = re.compile(r"/t/[^/]+/$")
_BUCKET = 10
STATEMENT_CHARS = 120
"""A statement is filed by its text's start (its parameters are never in it)."""
_TIME_STATEMENTS = os.environ.get("PODPOLYE_BENCH_STATEMENTS") == "1"


class _ServerStats:
    """Per worker: kind -> [frames or requests, queries], and the same per bucket of
    ten versions, to show whether a move's cost grows as a game goes on."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.buckets: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.unattributed = 0
        # The collector's pauses, per generation: [count, seconds, longest].
        self.gc: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
        self._gc_started = 0.0
        # With --statements, per statement text: [count, thread CPU s, wall s].
        self.statements: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
        # When the last move came in, and per table and version, [when the move
        # that made it came in, when the version's last push went out] (the
        # server's own share of a serial move; perf_counter is the system's
        # monotonic clock, the same in the bench's process).
        self.moved = 0.0
        self.spans: dict[str, list[float]] = {}

    def move_in(self) -> None:
        self.moved = time.perf_counter()

    def push_out(self, table: str, version: int | None) -> None:
        if version is None or not self.moved:
            return
        now = time.perf_counter()
        with self.lock:
            span = self.spans.setdefault(f"{table}:{version}", [self.moved, now])
            span[1] = now
            if len(self.spans) > SPANS_KEPT:
                del self.spans[next(iter(self.spans))]

    def timed(self, sql: str, cpu: float, wall: float) -> None:
        with self.lock:
            entry = self.statements[sql[:STATEMENT_CHARS]]
            entry[0] += 1
            entry[1] += cpu
            entry[2] += wall

    def collecting(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        took = time.perf_counter() - self._gc_started
        entry = self.gc[info["generation"]]
        entry[0] += 1
        entry[1] += took
        entry[2] = max(entry[2], took)

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
                "gc": {str(k): v for k, v in self.gc.items()},
                "statements": dict(self.statements),
                "spans": list(self.spans.values()),
            }
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data))
        temporary.replace(path)


SPANS_KEPT = 20_000
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
    if not _TIME_STATEMENTS:
        return execute(sql, params, many, context)
    # The thread's own CPU time, and the time it waited besides: for the GIL (the
    # database threads give it up while the database works), for SQLite's write
    # lock, for PostgreSQL's answer.
    cpu, wall = time.thread_time(), time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        _stats.timed(sql, time.thread_time() - cpu, time.perf_counter() - wall)


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
    import gc

    gc.callbacks.append(_stats.collecting)
    _app = application
    return _app


def _version_of(data: bytes) -> int | None:
    found = _VERSION.search(data[:400]) or _HTML_VERSION.search(data[:2000])
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
    path = scope["path"]
    acting = scope["method"] == "POST" and (
        path.endswith("/actions") or path.endswith("/act/")
    )
    kind = "http_act" if acting else "http_other"
    if scope["method"] == "GET" and _PAGE.search(path):
        kind = "http_page"  # a table page: a no-JS browser's answer to its move
    version: list[int | None] = [None]
    if acting:
        _stats.move_in()
    elif scope["method"] == "POST":
        _stats.moved = 0.0  # a change that is no move (a table opened, a seat taken)

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

    async def receiving() -> dict[str, Any]:
        message = await receive()
        if message["type"] == "websocket.receive":
            _stats.move_in()  # a move (a serial run's seats send nothing else)
        return message

    async def sending(message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            # Only the head says what a frame is (and costs the server nothing to
            # encode: the floor's sends pay no such toll).
            text = (message.get("text") or "")[:2000].encode()
            if first[0]:
                kind = "ws_snapshot"
            elif text.startswith(b'{"type": "acted"'):
                kind = "ws_acted"
            elif text.startswith(b'{"type": "view"'):
                kind = "ws_push"
            elif text.startswith(b'<div id="table-error"'):
                kind = "ws_error"
            elif text.startswith(b"<div id=") and b"data-version=" in text[:2000]:
                kind = "ws_push"  # the HTML socket: the live area, or its changes
            else:
                kind = "ws_other"
            version = _version_of(text)
            _stats.add(kind, counter[0], version)
            if kind == "ws_push":
                _stats.push_out(scope["path"], version)
            counter[0] = 0
            first[0] = False
        await send(message)

    try:
        await app(scope, receiving, sending)
    finally:
        _stats.add("ws_close", counter[0])


# --- The floor: the least a server can do for the same traffic -------------------

_floor: Any = None


def _floor_app() -> Any:
    """A bare Channels application: a socket joins its group; a frame it sends is
    one ``group_send`` to the group, which each socket writes out as it came.
    Nothing else: no database, no sessions, no rendering; the same channel layer
    as the site (Redis when ``REDIS_URL`` is set)."""
    global _floor
    if _floor is not None:
        return _floor
    from django.conf import settings

    redis_url = os.environ.get("REDIS_URL", "")
    layer: dict[str, Any] = {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    if redis_url and os.environ.get("PODPOLYE_BENCH_LAYER") == "pubsub":
        layer = {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    elif redis_url:
        layer = {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url], "capacity": 1500, "expiry": 30},
        }
    if not settings.configured:
        settings.configure(
            DEBUG=False,
            ALLOWED_HOSTS=["*"],
            CHANNEL_LAYERS={"default": layer},
            SECRET_KEY="floor-" + "x" * 50,
            ROOT_URLCONF=__name__,
            SESSION_ENGINE="django.contrib.sessions.backends.signed_cookies",
            MIDDLEWARE=[
                "django.middleware.security.SecurityMiddleware",
                "django.contrib.sessions.middleware.SessionMiddleware",
                "django.middleware.common.CommonMiddleware",
                "django.middleware.csrf.CsrfViewMiddleware",
                "django.middleware.clickjacking.XFrameOptionsMiddleware",
            ],
        )
    import django

    django.setup()
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import URLRouter
    from django.urls import path

    class FloorConsumer(AsyncWebsocketConsumer):
        group = ""

        async def connect(self) -> None:
            self.group = "floor-" + self.scope["url_route"]["kwargs"]["group"]
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()

        async def disconnect(self, code: int) -> None:
            if self.group:
                await self.channel_layer.group_discard(self.group, self.channel_name)

        async def receive(
            self, text_data: str | None = None, bytes_data: bytes | None = None
        ) -> None:
            await self.channel_layer.group_send(
                self.group, {"type": "floor.push", "text": text_data or ""}
            )

        async def floor_push(self, event: dict[str, Any]) -> None:
            await self.send(text_data=event["text"])

    _floor = URLRouter([path("ws/floor/<str:group>/", FloorConsumer.as_asgi())])
    return _floor


_FLOOR_TEMPLATE = (
    "<!doctype html><title>floor</title>"
    '<form method="post">{% csrf_token %}<input name="version" value="{{ version }}">'
    "</form>" + "<p>x</p>" * 1400
)
"""The floor's page after a POST: a Django template of about a table page's size
(11 KB), its text fixed: the least a page drawn by a template costs."""

urlpatterns: list[Any] = []
"""The floor's Django URLs (``ROOT_URLCONF`` of the floor process), made with its
application."""

_floor_django: Any = None


def _floor_views() -> Any:
    """A bare Django POST-and-page (``--act post``), what the issue's form-POST figure
    is measured against: Django's request handling with the common middleware, a
    session and CSRF, a view that reads the form and sends its version to the
    table's group, a redirect, and a page drawn from a Django template. No database,
    no users, no game."""
    global _floor_django
    if _floor_django is not None:
        return _floor_django
    _floor_app()  # Django and the channel layer
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.core.handlers.asgi import ASGIHandler
    from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
    from django.template import Context, Engine, RequestContext
    from django.urls import path
    from django.views.decorators.csrf import csrf_exempt

    template = Engine().from_string(_FLOOR_TEMPLATE)

    @csrf_exempt  # the floor's seats carry no token; the middleware still runs
    def post(request: HttpRequest, group: str) -> HttpResponse:
        version = int(request.POST.get("version", "0"))
        request.session["version"] = version
        async_to_sync(get_channel_layer().group_send)(
            f"floor-{group}",
            {"type": "floor.push", "text": json.dumps({"version": version})},
        )
        return HttpResponseRedirect("/floor/page/")

    def page(request: HttpRequest) -> HttpResponse:
        version = request.session.get("version", 0)
        context: Context = RequestContext(request, {"version": version})
        return HttpResponse(template.render(context))

    urlpatterns[:] = [
        path("floor/post/<str:group>/", post),
        path("floor/page/", page),
    ]
    _floor_django = ASGIHandler()
    return _floor_django


async def floor_application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Served by ``daphne bench.live:floor_application``: the floor's sockets, its
    bare form POST (``/floor/post/<group>/``) and page, and a 200 to any other HTTP
    request (the bench's readiness probe)."""
    if scope["type"] == "http":
        if scope["path"].startswith("/floor/"):
            await _floor_views()(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    if scope["type"] == "lifespan":
        return
    await _floor_app()(scope, receive, send)


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
            "DATABASE_CONN_MAX_AGE": ""
            if args.conn_max_age is None
            else str(args.conn_max_age),
            "PODPOLYE_BENCH_STATS": str(stats),
            "PODPOLYE_BENCH_LAYER": args.layer,
            "PODPOLYE_BENCH_STATEMENTS": "1" if args.statements else "0",
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
    env: dict[str, str], workers: int, application: str = "server_application"
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
            f"bench.live:{application}",
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
    collector: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    statements: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    spans: list[list[float]] = []
    for path in folder.glob("stats-*.json"):
        with contextlib.suppress(ValueError, OSError):
            data = json.loads(path.read_text())
            for name, (count, queries) in data["kinds"].items():
                kinds[name][0] += count
                kinds[name][1] += queries
            for name, (count, queries) in data["buckets"].items():
                buckets[name][0] += count
                buckets[name][1] += queries
            for generation, (count, seconds, longest) in data.get("gc", {}).items():
                entry = collector[generation]
                entry[0] += count
                entry[1] += seconds
                entry[2] = max(entry[2], longest)
            for sql, numbers in data.get("statements", {}).items():
                for index, number in enumerate(numbers):
                    statements[sql][index] += number
            spans += data.get("spans", [])
    return {
        "kinds": kinds,
        "buckets": buckets,
        "gc": collector,
        "statements": statements,
        "spans": spans,
    }


# --- Users and tokens, straight into the database ---------------------------------


def players_create(db: Database, count: int) -> tuple[list[str], list[str]]:
    """``count`` users with a token and a signed-in session each (as if each had
    logged in through the form, in the site's session engine); returns the keys
    and the session keys."""
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
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    engine = import_module(settings.SESSION_ENGINE)
    sessions = []
    for user in User.objects.filter(username__startswith="bench").order_by("pk"):
        store = engine.SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions.append(store.session_key)
    connections.close_all()
    return keys, sessions


# --- The programs -----------------------------------------------------------------


class Turns:
    """Two serial tables, the site's (0) and the floor's (1), taking turns of
    ``seconds`` each: a table moves only in its own turn, and hands the turn over at
    its first move after the turn ran out. Both are then measured over the same
    minutes, in slices a second apart, so that what the machine does meanwhile (a
    shared host's steal, a frequency change) weighs on both alike: run one after
    the other, the floor once moved from 2.4 to 3.5 ms between runs minutes apart,
    and the ratio with it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.holder = 0
        self.since = time.perf_counter()
        self.handed = 0
        self.changes: list[tuple[float, int]] = [(self.since, 0)]
        self._turn = (asyncio.Event(), asyncio.Event())
        self._turn[0].set()

    def held(self, who: int, window: tuple[float, float]) -> float:
        """The seconds of ``window`` that were ``who``'s turns."""
        held = 0.0
        ends = [moment for moment, _holder in self.changes[1:]] + [window[1]]
        for (start, holder), end in zip(self.changes, ends, strict=True):
            if holder == who:
                held += max(0.0, min(end, window[1]) - max(start, window[0]))
        return held

    async def take(self, who: int, stop: asyncio.Event) -> None:
        """Return when it is ``who``'s turn (or the run stops)."""
        if self.holder == who and time.perf_counter() - self.since >= self.seconds:
            self.holder, self.since = 1 - who, time.perf_counter()
            self.handed += 1
            self.changes.append((self.since, self.holder))
            self._turn[who].clear()
            self._turn[1 - who].set()
        while self.holder != who and not stop.is_set():
            waits = {
                asyncio.ensure_future(self._turn[who].wait()),
                asyncio.ensure_future(stop.wait()),
            }
            _done, pending = await asyncio.wait(
                waits, return_when=asyncio.FIRST_COMPLETED
            )
            for waiting in pending:
                waiting.cancel()


@dataclass
class Measure:
    """What the clients saw: per move, when it was sent and when each seat had it."""

    # Nothing is counted until the run sets the window (after the warmup): the
    # warmup's moves and frames once inflated the moves, the frames per move and
    # the moves per second (the server's push count, read over the window, was
    # the right one).
    window: tuple[float, float] = (float("inf"), float("inf"))
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    incomplete: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    # Moves whose POST failed in transport (no answer came): not moves, since their
    # fate is unknown, and no refusal either.
    failed: Counter[str] = field(default_factory=Counter)
    # Set when the measured window ends: no seat starts another move, and the run
    # waits for the moves in flight before it closes its connections (closing them
    # under moves in flight cut those POSTs: the ReadErrors the runs once reported).
    stopping: bool = False
    games: int = 0
    tables_playing: int = 0
    all_playing: asyncio.Event = field(default_factory=asyncio.Event)
    tables: int = 0
    seats: list[Seat] = field(default_factory=list)
    # What the seats received in the window, in bytes and frames, and how many
    # pushes the measured moves owed (each move, one to every person at its table).
    bytes_in: int = 0
    frames_in: int = 0
    owed: int = 0
    # --stop-after N: set once N moves are measured (the run then ends early).
    enough: asyncio.Event = field(default_factory=asyncio.Event)
    stop_after: int = 0
    seen_moves: int = 0
    flat_out: bool = False
    # --act post: from a move's POST to the page its redirect leads to.
    posts: list[float] = field(default_factory=list)
    # --serial: (game, version the move was made on, latency) of each measured move.
    moves: list[tuple[str, int, float, str, bool]] = field(default_factory=list)
    # --serial with the floor: the turns this table takes with the other, and which
    # of the two it is.
    turns: Turns | None = None
    turn: int = 0
    # Taking turns: how many times the turn passed, and the window's seconds that
    # were this table's own (the site's moves a second count only those).
    handovers: int | None = None
    played_seconds: float | None = None

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

    def measured(self, people: int) -> None:
        """One more move measured, at a table of ``people``."""
        self.actions += 1
        self.owed += people
        if self.stop_after and self.actions >= self.stop_after:
            self.enough.set()

    def arrived(self, game: TableGame, version: int, moment: float) -> None:
        """A seat of ``game`` has ``version``: with ``--stop-after``, flat out, a
        browser's move decided in the window is seen (see :meth:`seen`)."""
        times = game.arrived[version]
        times.append(moment)
        if self.flat_out and len(times) == 1 and version > 0:
            decided = (t for v, t in game.sends if v == version - 1 and t <= moment)
            if any(self.in_window(t) for t in decided):
                self.seen()

    def seen(self) -> None:
        """Flat out, a table's moves are settled at the game's end: with
        ``--stop-after`` the run counts the moves decided in the window as they
        are seen (a program's answered, a browser's version arrived)."""
        if not self.flat_out:
            return
        self.seen_moves += 1
        if self.stop_after and self.seen_moves >= self.stop_after:
            self.enough.set()

    def received(self, moment: float, raw: str | bytes) -> None:
        if self.in_window(moment):
            self.bytes_in += len(raw.encode() if isinstance(raw, str) else raw)
            self.frames_in += 1


@dataclass
class TableGame:
    """One game at one table, as its ten programs see it."""

    code: str
    ruleset: str = ""
    people: int = 0
    """Who must receive each push: the players, and the moderator if any."""
    sent: dict[int, float] = field(default_factory=dict)
    arrived: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    # Browser seats: (version the move was decided on, when it was sent).
    sends: list[tuple[int, float]] = field(default_factory=list)
    # Set on every frame any seat receives and on every refusal (--serial waits on it).
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    refusals: int = 0

    def settle(self, measure: Measure) -> None:
        if self.sends:
            self.settle_pages(measure)
            return
        for version, started in self.sent.items():
            if not measure.in_window(started):
                continue
            measure.measured(self.people)
            times = self.arrived.get(version, [])
            if len(times) == self.people:
                measure.latencies.append(max(times) - started)
            else:
                measure.incomplete += 1

    def settle_pages(self, measure: Measure) -> None:
        """A page's move does not say which version it made: each new version is
        counted once, its latency from the earliest move decided on the version
        before it (and sent before anyone saw it) to the last seat's frame."""
        for version, times in self.arrived.items():
            if version < 1 or not times or not measure.in_window(min(times)):
                continue
            measure.measured(self.people)
            first = min(times)
            started = [t for v, t in self.sends if v == version - 1 and t <= first]
            if len(times) < self.people:
                measure.incomplete += 1
            elif started:
                measure.latencies.append(max(times) - min(started))


def random_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random move from the seat's own ``legal`` list, drawn by the family whose
    ruleset the view is of."""
    ruleset = view["ruleset"]
    for family in FAMILIES.values():
        if any(deal.ruleset == ruleset for deal in family.deals):
            return family.move(view, rng)
    raise ValueError(f"no family plays {ruleset}")


_OPENING = asyncio.Semaphore(25)
"""Sockets and pages opening at once. A semaphore keeps the event loop it first
waited on: :func:`run` makes a new one for each run (the floor's comes after the
site's, in another loop)."""


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
                self.measure.received(now, raw)
                game.changed.set()
                message = json.loads(raw)
                kind = message["type"]
                if kind == "view":
                    version = message["version"]
                    if version > self.seen:
                        for missed in range(self.seen + 1, version + 1):
                            self.measure.arrived(game, missed, now)
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
                    if self.measure.in_window(self.pending_since):
                        self.measure.seen()
                    self.made = message["version"]
                    self.busy = False
                    self.maybe_move()
                elif kind == "error":
                    self.measure.refused[message["code"]] += 1
                    game.refusals += 1
                    self.busy = False
                    self.maybe_move()
        finally:
            self.finished.set()

    def maybe_move(self) -> None:
        latest = self.latest
        if (
            self.args.serial
            or self.measure.stopping
            or not self.measure.all_playing.is_set()
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
            # No answer (a transport error): the move may or may not have been
            # applied, and an unnamed move can be neither asked about nor sent
            # again safely (a second decision on the same view could be a second
            # move). It is not counted, and the seat decides again only on a newer
            # view (``decided_on`` stays).
            self.measure.failed[f"{type(exc).__name__}: {exc}"[:90]] += 1
            self.busy = False
            return
        if answer.status_code == 200:
            version = _version_of(answer.content)
            assert version is not None
            game.sent[version] = started
            self.made = version
            if self.measure.in_window(started):
                self.measure.seen()
        else:
            try:
                code = answer.json()["error"]["code"]
            except ValueError:
                code = f"HTTP {answer.status_code}"
            self.measure.refused[code] += 1
        self.busy = False
        self.maybe_move()

    # --serial: the table's driver asks who may move and makes one move -------

    def status_now(self) -> str:
        return str(self.latest["status"]) if self.latest is not None else ""

    def can_move(self) -> bool:
        latest = self.latest
        return (
            latest is not None
            and latest["version"] == self.seen
            and latest["view"] is not None
            and bool(latest["view"]["legal"])
        )

    async def serial_move(self) -> str:
        """Makes one move; returns its kind (for ``--moves``)."""
        game, seen = self.game, self.latest
        assert game is not None and seen is not None
        body = {"action": random_move(seen["view"], self.rng), "turn": seen["turn"]}
        kind = str(body["action"].get("type", ""))
        if self.args.act == "socket":
            await self.ws.send(json.dumps({"type": "act", **body}))
            return kind
        answer = await self.post(f"tables/{game.code}/actions", body)
        if answer.status_code != 200:
            try:
                code = answer.json()["error"]["code"]
            except ValueError:
                code = f"HTTP {answer.status_code}"
            self.measure.refused[code] += 1
            game.refusals += 1
            game.changed.set()
        return kind


# --- Browser seats: a session cookie, the table page and its HTML socket ----------

_PART = re.compile(
    r'<div id="(table-live|table-state|table-extras|table-error|region-[\w-]+)"'
)
_DIV = re.compile(r"<div\b|</div>")
_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
_INPUT = re.compile(r"<input\b([^>]*)>")
_SELECT = re.compile(r"<select\b([^>]*)>(.*?)</select>", re.S)
_OPTION = re.compile(r"<option\b([^>]*)>")
_CARD_ERROR = re.compile(r'<p id="card-error"[^>]*>(.*?)</p>', re.S)
_ATTRIBUTE = re.compile(r'([\w:-]+)(?:="([^"]*)")?')
_STATE = re.compile(r'data-(version|status|turn)="([^"]*)"')
_TAGS = re.compile(r"<[^>]+>")


def html_parts(frame: str) -> dict[str, str]:
    """The parts of a frame (or page) that a push may replace, by id: the live
    area, the table's state, each region, the extras, the error line."""
    parts = {}
    for found in _PART.finditer(frame):
        depth = 0
        for tag in _DIV.finditer(frame, found.start()):
            depth += 1 if tag.group() == "<div" else -1
            if depth == 0:
                parts[found.group(1)] = frame[found.start() : tag.end()]
                break
    return parts


def html_attributes(text: str) -> dict[str, str]:
    import html

    return {
        name: html.unescape(value or "") for name, value in _ATTRIBUTE.findall(text)
    }


def page_state(page: dict[str, str]) -> dict[str, str]:
    """status, version and turn from ``#table-state`` (or, before the push rework,
    from ``#table-live`` itself)."""
    element = page.get("table-state") or page.get("table-live") or ""
    return dict(_STATE.findall(element.split(">", 1)[0]))


def move_forms(page: dict[str, str]) -> list[tuple[dict[str, str], str]]:
    """The move forms a seat's page shows: (form attributes, inner HTML)."""
    found = []
    for part in page.values():
        for attributes, inner in _FORM.findall(part):
            attrs = html_attributes(attributes)
            if "ws-send" in attrs and attrs.get("action", "").endswith("/act/"):
                found.append((attrs, inner))
    return found


def form_fields(
    form: tuple[dict[str, str], str], rng: random.Random
) -> dict[str, str | list[str]]:
    """What a person filling the form in would submit: the hidden fields, one
    choice of each radio group and of each list (not its empty prompt), as many
    boxes as the form asks for; never a disabled field."""
    attrs, inner = form
    fields: dict[str, str | list[str]] = {}
    radios: dict[str, list[str]] = defaultdict(list)
    boxes: dict[str, list[str]] = defaultdict(list)
    for text in _INPUT.findall(inner):
        element = html_attributes(text)
        name, kind = element.get("name"), element.get("type", "text")
        if not name or "disabled" in element:
            continue
        if kind == "radio":
            radios[name].append(element.get("value", "on"))
        elif kind == "checkbox":
            boxes[name].append(element.get("value", "on"))
        else:
            fields[name] = element.get("value", "")
    for attributes, options in _SELECT.findall(inner):
        element = html_attributes(attributes)
        values = [
            option.get("value", "")
            for option in map(html_attributes, _OPTION.findall(options))
            if option.get("value") and "disabled" not in option
        ]
        if element.get("name") and values and "disabled" not in element:
            fields[element["name"]] = rng.choice(values)
    for name, values in radios.items():
        fields[name] = rng.choice(values)
    for name, values in boxes.items():
        wanted = int(attrs.get("data-team-size") or rng.randint(1, len(values)))
        chosen = sorted(rng.sample(values, min(wanted, len(values))), key=int)
        fields[name] = chosen if len(chosen) > 1 else chosen[0]
    return fields


@dataclass
class BrowserSeat(Seat):
    """One person at one table in a browser: signed in by a session cookie, with
    the table page's HTML socket; moves are the page's forms, sent as htmx's ws
    extension sends them (``--act socket``) or posted as a browser without
    JavaScript does (``--act post``: the POST, then the page it redirects to)."""

    session: str = ""
    base: str = ""
    browser: Any = None
    page: dict[str, str] = field(default_factory=dict)
    status: str = ""
    # The move forms the page showed when the seat last decided.
    decided_forms: list[str] = field(default_factory=list)

    async def connect(self, game: TableGame) -> None:
        import httpx
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake

        self.game = game
        self.seen, self.decided_on, self.busy = -1, -1, False
        self.page, self.status = {}, ""
        self.finished = asyncio.Event()
        if self.browser is None:
            self.browser = httpx.AsyncClient(
                base_url=self.base, cookies={"sessionid": self.session}, timeout=120
            )
        # The page first, as a browser opens it: it sets the CSRF cookie.
        answer = await self.browser.get(f"/games/t/{game.code}/")
        if answer.status_code != 200:
            raise RuntimeError(f"page: HTTP {answer.status_code}")
        cookies = "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items())
        for attempt in range(5):
            try:
                async with _OPENING:
                    self.ws = await connect(
                        f"{self.ws_url}/ws/table/{game.code}/",
                        additional_headers={"Cookie": cookies, "Origin": self.base},
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
        game = self.game
        assert game is not None
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                self.measure.received(now, raw)
                text = raw if isinstance(raw, str) else raw.decode()
                parts = html_parts(text)
                if "table-error" in parts and "table-state" not in parts:
                    # A refusal: on the error line, or on the seat's own card
                    # when it would tell a secret (an empty error line then).
                    private = _CARD_ERROR.search(text)
                    reason = _TAGS.sub(
                        "", private.group(1) if private else parts["table-error"]
                    ).strip()
                    self.measure.refused[f"page: {reason}"[:60]] += 1
                    game.refusals += 1
                    self.busy, self.decided_on = False, -1
                    game.changed.set()
                    continue
                if "table-live" in parts:  # the whole live area
                    inner = {k: v for k, v in parts.items() if k != "table-live"}
                    self.page = inner if "table-state" in inner else parts
                else:
                    self.page.update(parts)
                state = page_state(self.page)
                version = int(state.get("version", -1))
                if version > self.seen:
                    for missed in range(self.seen + 1, version + 1):
                        self.measure.arrived(game, missed, now)
                    self.seen = version
                self.status = state.get("status", "")
                if self.busy and version > self.decided_on and self.answered(version):
                    self.busy = False
                game.changed.set()
                if self.status not in ("open", "playing"):
                    self.finished.set()
                    return
                self.maybe_move()
        finally:
            self.finished.set()

    def status_now(self) -> str:
        return self.status

    def can_move(self) -> bool:
        return self.status == "playing" and bool(move_forms(self.page))

    def maybe_move(self) -> None:
        if (
            self.args.serial
            or self.measure.stopping
            or not self.measure.all_playing.is_set()
            or self.busy
            or self.seen <= self.decided_on
            or self.status != "playing"
        ):
            return
        forms = move_forms(self.page)
        if not forms:
            return
        self.busy = True
        task = asyncio.get_running_loop().create_task(self.move_form(forms))
        self.moves.add(task)
        task.add_done_callback(self.moves.discard)

    async def move_form(self, forms: list[tuple[dict[str, str], str]]) -> None:
        game = self.game
        assert game is not None
        if self.args.think_ms:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.args.think_ms) / 1000)
        self.decided_on = self.seen
        self.decided_forms = [inner for _attributes, inner in move_forms(self.page)]
        game.sends.append((self.seen, time.perf_counter()))
        try:
            await self.submit(self.rng.choice(forms))
        except Exception as exc:  # counted and reported; the run goes on
            # No answer (a transport error, a socket gone): as a program's lost
            # POST, not a move, and the seat decides again only on a newer page.
            self.measure.failed[f"{type(exc).__name__}: {exc}"[:90]] += 1
            self.busy = False

    def answered(self, version: int) -> bool:
        """Whether the page at ``version`` shows the seat's move in flight, so that
        a person would decide again: its forms changed (a vote cast, a tap made),
        or the table has gone as many versions past the one decided on as there
        were moves decided on it (one of them was this seat's). Deciding again at
        any newer version sent a second tap or ballot whenever another seat's move
        came first."""
        forms = [inner for _attributes, inner in move_forms(self.page)]
        if forms != self.decided_forms:
            return True
        game = self.game
        assert game is not None
        moves = sum(1 for decided, _sent in game.sends if decided == self.decided_on)
        return version >= self.decided_on + moves

    async def serial_move(self) -> str:
        return await self.submit(self.rng.choice(move_forms(self.page)))

    async def submit(self, form: tuple[dict[str, str], str]) -> str:
        """Sends the form as a person would; returns the move's kind."""
        game = self.game
        assert game is not None
        fields = form_fields(form, self.rng)
        kind = str(fields.get("action", ""))
        if self.args.act == "socket":
            headers = {
                "HX-Request": "true",
                "HX-Trigger": form[0].get("id"),
                "HX-Trigger-Name": None,
                "HX-Target": None,
                "HX-Current-URL": f"{self.base}/games/t/{game.code}/",
            }
            await self.ws.send(json.dumps({**fields, "HEADERS": headers}))
            return kind
        started = time.perf_counter()
        answer = await self.browser.post(
            form[0]["action"],
            data=fields,
            headers={
                "Origin": self.base,
                "Referer": f"{self.base}/games/t/{game.code}/",
            },
        )
        refused = answer.status_code != 302
        if not refused:
            page = await self.browser.get(answer.headers["location"])
            refused = page.status_code != 200 or 'class="message error' in page.text
        if self.measure.in_window(started):
            self.measure.posts.append(time.perf_counter() - started)
        if refused:
            self.measure.refused[f"post: HTTP {answer.status_code}"] += 1
            game.refusals += 1
            self.busy, self.decided_on = False, -1
            game.changed.set()
        elif not self.args.serial:
            self.busy = False
            self.maybe_move()
        return kind


# --- The floor's seats: one group's sockets, each move one frame -----------------


@dataclass
class FloorSeat(Seat):
    """A seat of the floor (``floor_application``): its move is a frame carrying
    the next version, which the server hands to the group; nothing else."""

    def status_now(self) -> str:
        return "playing"

    def can_move(self) -> bool:
        return True

    async def connect(self, game: TableGame) -> None:
        from websockets.asyncio.client import connect

        self.game, self.seen = game, -1
        self.finished = asyncio.Event()
        async with _OPENING:
            self.ws = await connect(
                f"{self.ws_url}/ws/floor/{game.code}/",
                compression=None,
                ping_interval=None,
                open_timeout=60,
            )

    async def listen(self) -> None:
        game = self.game
        assert game is not None
        async for raw in self.ws:
            now = time.perf_counter()
            self.measure.received(now, raw)
            version = json.loads(raw)["version"]
            if version > self.seen:
                for missed in range(self.seen + 1, version + 1):
                    self.measure.arrived(game, missed, now)
                self.seen = version
            game.changed.set()

    async def serial_move(self) -> str:
        # About the size of a page's move over its socket (or its form).
        frame = {"version": self.seen + 1, "action": "vote", "pad": "x" * 200}
        if self.args.act != "post":
            await self.ws.send(json.dumps(frame))
            return "floor"
        game = self.game
        assert game is not None
        started = time.perf_counter()
        answer = await self.http.post(f"/floor/post/{game.code}/", data=frame)
        page = await self.http.get(answer.headers["location"])
        if self.measure.in_window(started) and page.status_code == 200:
            self.measure.posts.append(time.perf_counter() - started)
        return "floor"


_SETTING_UP = asyncio.Semaphore(10)
_LIMITS_LOOP: asyncio.AbstractEventLoop | None = None


async def table_open(people: list[Seat], deal: Deal) -> TableGame:
    """Open a table of ``deal`` (its host is ``people[0]``: a player, or the
    moderator), seat the others, and connect everyone's socket. A few tables at a
    time: the measurement is about play, not a thousand sign-ins."""
    created = await people[0].post(
        "tables",
        {"ruleset": deal.ruleset, "seats": deal.players, "options": deal.options},
    )
    if created.status_code != 201:
        raise RuntimeError(f"open: HTTP {created.status_code}")
    code = created.json()["code"]
    joined = await asyncio.gather(
        *(seat.post(f"tables/{code}/join") for seat in people[1:])
    )
    if any(answer.status_code != 200 for answer in joined):
        raise RuntimeError("join: " + ",".join(str(a.status_code) for a in joined))
    game = TableGame(code, deal.ruleset, len(people))
    await asyncio.gather(*(seat.connect(game) for seat in people))
    return game


async def table_play(
    seats: list[Seat],
    index: int,
    stop: asyncio.Event,
    measure: Measure,
    family: Family,
) -> None:
    """Game after game at one table until told to stop (the family's deals, one
    for each table in turn)."""
    deal = family.deal(index)
    seats = seats[: deal.people]
    host = seats[0]
    first = True
    while not stop.is_set():
        try:
            async with _SETTING_UP:
                game = await table_open(seats, deal)
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


# --- One move at a time (--serial) -------------------------------------------------


async def until(game: TableGame, predicate: Callable[[], bool], timeout: float) -> bool:
    """Wait for ``predicate`` to hold, looking again after every frame a seat of
    the table receives; False after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        game.changed.clear()
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(game.changed.wait(), remaining)
    return True


async def serial_moves(
    seats: list[Seat],
    game: TableGame,
    stop: asyncio.Event,
    measure: Measure,
    rng: random.Random,
) -> None:
    """Until the game ends: once every seat shows the same version, one seat that
    may move makes a random move; it is complete when every seat has a newer
    version (and, for a POST, the mover has the page it redirects to)."""

    def over() -> bool:
        return any(seat.finished.is_set() for seat in seats)

    while not stop.is_set():
        playing = await until(
            game,
            lambda: over() or all(s.status_now() == "playing" for s in seats),
            30,
        )
        version = max(seat.seen for seat in seats)
        level = await until(
            game, lambda v=version: over() or all(s.seen == v for s in seats), 30
        )
        if over():
            return
        if not (playing and level):
            measure.refused["serial: seats never agreed on a version"] += 1
            return
        movers = [seat for seat in seats if seat.can_move()]
        if not movers:
            # A page may show its forms a frame later than its version.
            game.changed.clear()
            try:
                await asyncio.wait_for(game.changed.wait(), 5)
            except TimeoutError:
                measure.refused["serial: nobody may move"] += 1
                return
            continue
        if measure.turns is not None:
            await measure.turns.take(measure.turn, stop)
            if stop.is_set():
                return
        refusals = game.refusals
        started = time.perf_counter()
        kind = await rng.choice(movers).serial_move()
        answered = time.perf_counter()
        if not await until(
            game,
            lambda v=version, r=refusals: (
                game.refusals > r or all(s.seen > v for s in seats)
            ),
            30,
        ):
            measure.incomplete += 1
            return
        if game.refusals > refusals or not measure.in_window(started):
            continue
        measure.measured(game.people)
        last = max(game.arrived[version + 1])
        measure.latencies.append(max(last, answered) - started)
        measure.moves.append(
            (
                game.ruleset or "floor",
                version,
                max(last, answered) - started,
                kind,
                over(),
            )
        )


async def table_serial(
    everyone: list[Seat],
    stop: asyncio.Event,
    measure: Measure,
    floor: bool,
    table: int,
    family: Family,
) -> None:
    """Game after game at one table, one move at a time, until told to stop: the
    family's deals in turn (the floor's tables, one group each, as many sockets as
    the site's table of the same turn: ``table`` tells them apart)."""
    rng = random.Random(7)
    index = 0
    first = True
    while not stop.is_set():
        deal = family.deal(index)
        seats = everyone[: deal.people]
        if floor:
            game = TableGame(f"f{os.getpid()}t{table}x{index}", people=len(seats))
            await asyncio.gather(*(seat.connect(game) for seat in seats))
        else:
            game = await table_open(seats, deal)
        index += 1
        listeners = [asyncio.create_task(seat.listen()) for seat in seats]
        if not floor:
            started = await seats[0].post(f"tables/{game.code}/start")
            if started.status_code != 200:
                raise RuntimeError(f"start: HTTP {started.status_code}")
        if first:
            measure.table_playing()
            first = False
        await serial_moves(seats, game, stop, measure, rng)
        for listener in listeners:
            listener.cancel()
        await asyncio.gather(
            *(seat.ws.close() for seat in seats), return_exceptions=True
        )
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
        "-f", "raw", "-o", str(path), "--nonblocking", "--gil",
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


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes have used so far (/proc)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


async def run(
    args: argparse.Namespace,
    players: tuple[list[str], list[str]],
    ports: list[int],
    pids: list[int],
    stats_dir: Path | None,
    kind: str,
    family: Family,
    turns: tuple[Turns, int] | None = None,
    together: tuple[asyncio.Barrier, asyncio.Event] | None = None,
) -> Measure:
    """Drive the servers on ``ports`` with seats of ``kind`` (json, browser or
    floor) at tables of ``family`` for the warmup and the measured seconds (or
    until ``--stop-after`` moves). Given ``turns``, its one table takes turns with
    another run's (:class:`Turns`), and both start measuring at once and stop at
    once (``together``: the site's table says when)."""
    import httpx

    global _OPENING, _SETTING_UP, _LIMITS_LOOP
    if _LIMITS_LOOP is not asyncio.get_running_loop():
        # Made in this event loop (asyncio.run makes a new one for each run, and
        # two runs taking turns share one).
        _OPENING, _SETTING_UP = asyncio.Semaphore(25), asyncio.Semaphore(10)
        _LIMITS_LOOP = asyncio.get_running_loop()
    keys, sessions = players
    tables_count = 1 if args.serial else args.tables
    measure = Measure(tables=tables_count)
    if turns is not None:
        measure.turns, measure.turn = turns
    if kind != "floor" or turns is None:
        measure.stop_after = args.stop_after
    measure.flat_out = not args.serial and kind != "floor"
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
    for index in range(tables_count):
        seats: list[Seat] = []
        for seat in range(PEOPLE):
            worker = rng.randrange(len(ports))
            common: dict[str, Any] = {
                "key": keys[index * PEOPLE + seat] if keys else "",
                "http": clients[rng.randrange(len(clients))],
                "ws_url": f"ws://127.0.0.1:{ports[worker]}",
                "rng": random.Random(rng.random()),
                "args": args,
                "measure": measure,
            }
            if kind == "browser":
                seats.append(
                    BrowserSeat(
                        **common,
                        session=sessions[index * PEOPLE + seat],
                        base=f"http://127.0.0.1:{ports[worker]}",
                    )
                )
            elif kind == "floor":
                seats.append(FloorSeat(**common))
            else:
                seats.append(Seat(**common))
        tables.append(seats)
        measure.seats.extend(seats)
    stop = asyncio.Event()
    if args.serial or kind == "floor":
        tasks = [
            asyncio.create_task(
                table_serial(seats, stop, measure, kind == "floor", index, family)
            )
            for index, seats in enumerate(tables)
        ]
    else:
        tasks = [
            asyncio.create_task(table_play(seats, index, stop, measure, family))
            for index, seats in enumerate(tables)
        ]
    # Measure play, not the opening of a hundred tables: every table first deals
    # its first game, then the warmup lets the first moves settle.
    playing = asyncio.create_task(measure.all_playing.wait())
    await asyncio.wait([playing, *tasks], return_when=asyncio.FIRST_COMPLETED)
    for task in tasks:
        if task.done() and task.exception() is not None:
            raise RuntimeError(f"a table failed: {task.exception()!r}")
    await asyncio.sleep(args.warmup)
    if together is not None:
        await together[0].wait()
    before = server_totals(stats_dir) if stats_dir else None
    spy = None
    if args.profile and kind != "floor":
        spy = profile_start(pids[0], Path(args.profile), args.seconds)
    start = time.perf_counter()
    cpu_before = cpu_seconds(pids)
    measure.window = (start, start + args.seconds)
    ending = [asyncio.ensure_future(measure.enough.wait())]
    if together is not None:
        ending.append(asyncio.ensure_future(together[1].wait()))
    await asyncio.wait(ending, timeout=args.seconds, return_when="FIRST_COMPLETED")
    for waiting in ending:
        waiting.cancel()
    if together is not None:
        together[1].set()
    measure.window = (start, min(measure.window[1], time.perf_counter()))
    measure.cpu = cpu_seconds(pids) - cpu_before  # type: ignore[attr-defined]
    measure.stopping = True
    stop.set()
    await asyncio.sleep(0.6)
    after_window = server_totals(stats_dir) if stats_dir else None
    done, pending = await asyncio.wait(tasks, timeout=30)
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            print(f"a table failed: {task.exception()!r}", file=sys.stderr)
    # The moves still in flight get their answers before the connections close.
    in_flight = [task for seat in measure.seats for task in seat.moves]
    if in_flight:
        _done, late = await asyncio.wait(in_flight, timeout=30)
        for task in late:
            task.cancel()
        if late:
            print(f"moves still unanswered at the end: {len(late)}", file=sys.stderr)
    for client in clients:
        await client.aclose()
    for player in measure.seats:
        browser = getattr(player, "browser", None)
        if browser is not None:
            await browser.aclose()
    if spy is not None:
        spy.wait(timeout=60)
        profile_report(Path(args.profile))
    if before is not None and after_window is not None:
        measure_queries(measure, before, after_window)
        measure.server_ms = [  # type: ignore[attr-defined]
            1000 * (last - came)
            for came, last in after_window["spans"]
            if measure.window[0] <= came < measure.window[1]
        ]
    return measure


async def taking_turns(
    args: argparse.Namespace,
    players: tuple[list[str], list[str]],
    site: tuple[list[int], list[int]],
    bare: tuple[list[int], list[int]],
    stats_dir: Path,
    kind: str,
    family: Family,
) -> tuple[Measure, Measure]:
    """The site's serial table and the floor's, both servers up, taking turns of
    ``--turns`` seconds over the same measured window (:class:`Turns`)."""
    turns = Turns(args.turns)
    together = (asyncio.Barrier(2), asyncio.Event())
    measure, floor = await asyncio.gather(
        run(args, players, *site, stats_dir, kind, family, (turns, 0), together),
        run(args, ([], []), *bare, None, "floor", family, (turns, 1), together),
    )
    measure.handovers = turns.handed
    measure.played_seconds = turns.held(0, measure.window)
    floor.played_seconds = turns.held(1, floor.window)
    return measure, floor


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
    # The longest pause is the run's, warmup included (a maximum has no delta).
    measure.gc = {  # type: ignore[attr-defined]
        generation: (
            new[0] - before["gc"].get(generation, [0, 0.0])[0],
            new[1] - before["gc"].get(generation, [0, 0.0])[1],
            new[2],
        )
        for generation, new in after["gc"].items()
    }
    measure.statements = {  # type: ignore[attr-defined]
        sql: tuple(
            value - old
            for value, old in zip(
                new, before["statements"].get(sql, [0, 0.0, 0.0]), strict=True
            )
        )
        for sql, new in after["statements"].items()
    }


def statements_report(
    statements: dict[str, tuple[float, float, float]], moves: int, top: int
) -> None:
    """What the database statements cost the server in the window: their threads'
    own CPU time, and the wall time they took (CPU, plus waiting for the GIL, for a
    lock or for the database server), in all and per move, then the ``top`` most
    expensive statements by wall time."""
    count = sum(entry[0] for entry in statements.values())
    cpu = sum(entry[1] for entry in statements.values())
    wall = sum(entry[2] for entry in statements.values())
    if not count:
        return
    per_move = max(moves, 1)
    print(
        f"statements: {count:.0f} ({count / per_move:.1f} a move), "
        f"cpu_ms_per_move {1000 * cpu / per_move:.2f}, "
        f"wall_ms_per_move {1000 * wall / per_move:.2f}"
    )
    ranked = sorted(statements.items(), key=lambda item: -item[1][2])
    for sql, (times, spent, waited) in ranked[:top]:
        if not times:
            continue
        print(
            f"  {times:6.0f}x cpu_us {1e6 * spent / times:6.0f} "
            f"wall_us {1e6 * waited / times:7.0f}  {' '.join(sql.split())[:90]}"
        )


def report(
    args: argparse.Namespace,
    measure: Measure,
    floor: Measure | None = None,
    family: str = "resistance",
) -> str:
    """Prints the run's figures; returns the family's line of them for the end of
    the report (``family: <name> moves_per_s=…``)."""
    kinds: dict[str, tuple[int, int]] = measure.server  # type: ignore[attr-defined]
    buckets: dict[str, tuple[int, int]] = measure.buckets  # type: ignore[attr-defined]
    acts_http = kinds.get("http_act", (0, 0))
    acts_socket = kinds.get("ws_acted", (0, 0))
    pushes = kinds.get("ws_push", (0, 0))
    pages = kinds.get("http_page", (0, 0))
    refusals = kinds.get("ws_error", (0, 0))
    browser = args.seats == "browser"
    if browser:
        # A page's socket does not answer "acted": the moves are the versions the
        # seats saw; a move's queries run before the mover's next frame. A page is
        # a move's cost only as a POST's redirect (--act post); otherwise it is a
        # table's opening, counted with the setup below.
        applied = measure.actions
        move_queries = acts_http[1] + pushes[1] + refusals[1]
        if args.act == "post":
            move_queries += pages[1]
    else:
        applied = acts_http[0] + acts_socket[0]
        move_queries = acts_http[1] + acts_socket[1] + pushes[1]
    setup = sum(
        kinds.get(k, (0, 0))[1]
        for k in ("http_other", "ws_snapshot", "ws_close", "ws_other")
    )
    if not browser or args.act != "post":
        setup += pages[1]
    latencies_ms = [1000 * value for value in measure.latencies]
    database = "postgresql" if args.database.startswith("postgres") else "sqlite"
    layer = f"redis-{args.layer}" if os.environ.get("REDIS_URL") else "in-memory"
    print(
        f"config: family={family} database={database} layer={layer} "
        f"workers={args.workers} "
        f"seats={args.seats} act={args.act} serial={args.serial} "
        f"think_ms={args.think_ms} seconds={args.seconds} "
        f"conn_max_age={args.conn_max_age} db_pool={args.db_pool}"
    )
    print(f"games_finished: {measure.games}")
    # What the server answered in the window, by kind: answers/queries.
    served = (f"{name}={count}/{queries}q" for name, (count, queries) in kinds.items())
    print("server_answers: " + ", ".join(sorted(served)))
    print(
        f"moves_measured: {measure.actions} (incomplete pushes: {measure.incomplete})"
    )
    print(f"refused: {dict(measure.refused) or 'none'}")
    if measure.failed:
        # Sent, and no answer came: not counted as moves.
        print(f"failed_posts: {dict(measure.failed)}")
    if latencies_ms:
        print(
            f"push_mean_ms: {statistics.fmean(latencies_ms):.1f} "
            f"push_max_ms: {max(latencies_ms):.1f}"
        )
    if measure.posts:
        posts_ms = [1000 * value for value in measure.posts]
        print(
            f"post_and_page_p50_ms: {percentile(posts_ms, 0.5):.1f} "
            f"post_and_page_p99_ms: {percentile(posts_ms, 0.99):.1f}"
        )

    def per(pair: tuple[int, int]) -> float:
        return pair[1] / pair[0] if pair[0] else 0.0

    move_requests = acts_socket if args.act == "socket" else acts_http
    print(
        f"queries: per move request {per(move_requests):.2f}, "
        f"per push {per(pushes):.2f} ({pushes[0]} pushes), setup {setup}"
    )
    if applied and not browser:
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
    collector = getattr(measure, "gc", {})
    if collector:
        print(
            "gc_pauses: "
            + ", ".join(
                f"gen{generation} {count}x {seconds * 1000:.0f} ms"
                f" (longest {longest * 1000:.1f})"
                for generation, (count, seconds, longest) in sorted(collector.items())
            )
        )
    statements = getattr(measure, "statements", {})
    if statements and args.statements:
        statements_report(statements, measure.actions, args.statements)
    print(f"tables: {measure.tables}")
    seconds = measure.played_seconds or measure.window[1] - measure.window[0]
    per_second = measure.actions / seconds if seconds > 0 else float("nan")
    print(f"actions_per_s: {per_second:.1f}")
    if args.serial:
        print(f"serial_moves_per_s: {per_second:.1f}")
    p50 = percentile(latencies_ms, 0.50)
    p99 = percentile(latencies_ms, 0.99)
    print(f"push_p50_ms: {p50:.1f}")
    print(f"push_p99_ms: {p99:.1f}")
    server_ms = getattr(measure, "server_ms", [])
    if args.serial and server_ms:
        # Inside the server: from the move coming in to its last push going out.
        print(
            f"server_p50_ms: {percentile(server_ms, 0.5):.1f} "
            f"server_p99_ms: {percentile(server_ms, 0.99):.1f}"
        )
    queries = move_queries / applied if applied else float("nan")
    print(f"queries_per_action: {queries:.1f}")
    cpu_ms, per_push = _per_move(measure, "")
    figures = (
        f"family: {family} moves_per_s={per_second:.1f} push_p50_ms={p50:.1f} "
        f"push_p99_ms={p99:.1f}"
    )
    if floor is not None:
        floor_ms = [1000 * value for value in floor.latencies]
        floor_p50 = percentile(floor_ms, 0.50)
        floor_p99 = percentile(floor_ms, 0.99)
        how = "(after the site)"
        if measure.handovers is not None:
            how = (
                f"(taking turns of {args.turns:g} s with the site: "
                f"{measure.handovers} handovers, {measure.played_seconds:.1f} s the "
                f"site's, {floor.played_seconds:.1f} s the floor's)"
            )
        print(f"floor_moves_measured: {floor.actions} {how}")
        print(f"floor_p50_ms: {floor_p50:.1f}")
        print(f"floor_p99_ms: {floor_p99:.1f}")
        _per_move(floor, "floor_")
        print(f"ratio_p50: {p50 / floor_p50:.1f}")
        print(f"ratio_p99: {p99 / floor_p99:.1f}")
        figures += (
            f" floor_p50_ms={floor_p50:.1f} floor_p99_ms={floor_p99:.1f}"
            f" ratio_p50={p50 / floor_p50:.1f} ratio_p99={p99 / floor_p99:.1f}"
        )
        if measure.posts and floor.posts:
            # The form POST and its page, against a bare POST that redirects to a
            # page of about the same size.
            posts = [1000 * value for value in measure.posts]
            bare = [1000 * value for value in floor.posts]
            print(
                f"floor_post_and_page_p50_ms: {percentile(bare, 0.5):.1f} "
                f"floor_post_and_page_p99_ms: {percentile(bare, 0.99):.1f}"
            )
            print(
                f"ratio_post_p50: {percentile(posts, 0.5) / percentile(bare, 0.5):.1f}"
                f" ratio_post_p99: "
                f"{percentile(posts, 0.99) / percentile(bare, 0.99):.1f}"
            )
    if args.serial:
        threshold = None
        if floor is not None and floor.latencies:
            threshold = 3 * percentile([1000 * v for v in floor.latencies], 0.99)
        for line in tail_lines(measure.moves, threshold):
            print(line)
    return (
        f"{figures} cpu_ms_per_move={cpu_ms:.2f} bytes_per_push={per_push:.0f} "
        f"queries_per_move={queries:.1f} moves={measure.actions} "
        f"games={measure.games}"
    )


def tail_lines(
    moves: list[tuple[str, int, float, str, bool]], over_ms: float | None
) -> list[str]:
    """Where a serial run's tail comes from, by kind of move (the form's ``action``;
    ``end`` for the move that ended a game): how many, their p50 and p99, and how
    many took longer than ``over_ms`` (three times the floor's p99, the target),
    the kinds with most such moves first. Without ``over_ms`` (no floor), by count."""
    by_kind: dict[str, list[float]] = defaultdict(list)
    for _game, _version, seconds, kind, ended in moves:
        by_kind["end" if ended else kind or "?"].append(1000 * seconds)
    if not by_kind:
        return []

    def over(values: list[float]) -> int:
        return sum(value > over_ms for value in values) if over_ms is not None else 0

    ordered = sorted(by_kind.items(), key=lambda item: (-over(item[1]), -len(item[1])))
    lines = []
    if over_ms is not None:
        total = sum(len(values) for values in by_kind.values())
        slow = sum(over(values) for values in by_kind.values())
        lines.append(
            f"tail_over_ms: {over_ms:.1f} (3x the floor's p99): {slow} of {total} "
            f"moves ({100 * slow / total:.1f}%)"
        )
    for kind, values in ordered:
        lines.append(
            f"tail_kind: {kind} moves={len(values)} "
            f"p50_ms={percentile(values, 0.5):.1f} "
            f"p99_ms={percentile(values, 0.99):.1f}"
            + (f" over={over(values)}" if over_ms is not None else "")
        )
    return lines


def _per_move(measure: Measure, prefix: str) -> tuple[float, float]:
    """Server CPU and bytes received per move (every seat's frames, averaged over
    the pushes the moves owed: one to every person at the move's table); returns
    the two."""
    cpu: float = measure.cpu  # type: ignore[attr-defined]
    moves = measure.actions
    nan = float("nan")
    cpu_ms = 1000 * cpu / moves if moves else nan
    per_push = measure.bytes_in / measure.owed if measure.owed else nan
    print(f"{prefix}cpu_ms_per_move: {cpu_ms:.2f}")
    print(f"{prefix}bytes_per_push: {per_push:.0f}")
    print(f"{prefix}frames_per_move: {measure.frames_in / moves if moves else nan:.1f}")
    return cpu_ms, per_push


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.live", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--tables", type=int, default=10, help="tables playing at once")
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds")
    parser.add_argument(
        "--warmup", type=float, default=5, help="seconds before measuring"
    )
    parser.add_argument(
        "--seats",
        choices=["json", "browser"],
        default="json",
        help="programs (API token, JSON socket) or browsers (session, HTML socket)",
    )
    parser.add_argument(
        "--act",
        choices=["http", "socket", "post"],
        help="how a move is sent: json seats http (default) or socket; "
        "browser seats socket (default, htmx's ws-send) or post (no JavaScript)",
    )
    parser.add_argument(
        "--serial",
        action="store_true",
        help="one table, one move in flight at a time (latency, not throughput)",
    )
    parser.add_argument(
        "--floor",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also measure the bare floor (default: with --serial)",
    )
    parser.add_argument(
        "--turns",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="--serial with the floor: the site and the floor take turns of this "
        "many seconds over the same window (0: the floor after the site, as before)",
    )
    parser.add_argument(
        "--think-ms", type=float, default=0, help="mean pause before a move"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="daphne processes (Redis only)"
    )
    parser.add_argument("--layer", choices=["core", "pubsub"], default="core")
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=None,
        help="DATABASE_CONN_MAX_AGE (default: the site's, 600 s on SQLite)",
    )
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
    parser.add_argument(
        "--moves",
        metavar="FILE",
        help="--serial: write each measured move (game, version, ms) to FILE as CSV, "
        "to see where the tail comes from",
    )
    parser.add_argument(
        "--statements",
        type=int,
        nargs="?",
        const=12,
        default=0,
        metavar="N",
        help="time every database statement in the server (its thread's CPU and "
        "its wall time) and print the N (12) costliest by wall time",
    )
    parser.add_argument(
        "--family",
        choices=[*FAMILIES, "all"],
        default="resistance",
        help="whose tables to play: resistance (ten seats, three rulesets), cells "
        "(four seats, then three), mafia (ten players and the host moderating), or "
        "all of them, one after the other, each with its own figures",
    )
    parser.add_argument(
        "--stop-after",
        type=int,
        default=0,
        metavar="MOVES",
        help="end a family's measurement once this many moves are measured (or "
        "its seconds are up): a short run that plays a few moves, not a figure",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.act is None:
        args.act = "socket" if args.seats == "browser" else "http"
    allowed = {"json": ("http", "socket"), "browser": ("socket", "post")}
    if args.act not in allowed[args.seats]:
        parser.error(f"--act {args.act} is not for {args.seats} seats")
    if args.floor is None:
        args.floor = args.serial
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
    families = list(FAMILIES.values())
    if args.family != "all":
        families = [FAMILIES[args.family]]
    results: list[tuple[Family, Measure, Measure | None]] = []
    try:
        players = players_create(db, args.tables * PEOPLE)
        kind = args.seats
        environment = server_environment(args, db, stats_dir)
        servers = servers_start(environment, args.workers)
        ports = [port for _, port in servers]
        site = (ports, [p.pid for p, _ in servers])
        asyncio.run(servers_ready(ports))
        bare: tuple[list[int], list[int]] = ([], [])
        if args.floor:
            # Up beside the site's (idle while the other measures, unless they
            # take turns): a bare Channels fan-out on the same layer.
            floor_environment = dict(environment)
            floor_environment.pop("DJANGO_SETTINGS_MODULE", None)
            floor_servers = servers_start(
                floor_environment, args.workers, "floor_application"
            )
            servers += floor_servers
            bare = (
                [port for _, port in floor_servers],
                [p.pid for p, _ in floor_servers],
            )
            asyncio.run(servers_ready(bare[0]))
        for family in families:
            floor = None
            if args.floor and args.serial and args.turns > 0:
                measure, floor = asyncio.run(
                    taking_turns(args, players, site, bare, stats_dir, kind, family)
                )
            else:
                measure = asyncio.run(
                    run(args, players, *site, stats_dir, kind, family)
                )
                if args.floor:
                    floor = asyncio.run(
                        run(args, ([], []), *bare, None, "floor", family)
                    )
            results.append((family, measure, floor))
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
    lines = []
    for family, measure, floor in results:
        if len(results) > 1:
            print(f"=== {family.name}")
        lines.append(report(args, measure, floor, family.name))
    # Each family's figures on a line of its own, the last lines of the report.
    for line in lines:
        print(line)
    if args.moves:
        moves_write(Path(args.moves), results)


def moves_write(
    path: Path, results: list[tuple[Family, Measure, Measure | None]]
) -> None:
    """Each measured move, family by family, Podpolye's then the floor's:
    game,version,ms, the move's kind (the form's ``action``) and whether it ended
    the game."""
    with path.open("w") as out:
        out.write("game,version,ms,move,ended\n")
        for taken in (m for _family, *both in results for m in both):
            for game, version, seconds, kind, ended in taken.moves if taken else ():
                out.write(f"{game},{version},{seconds * 1000:.2f},{kind},{ended:d}\n")


if __name__ == "__main__":
    main()
