"""Games under fire: ``python -m bench.chaos [--minutes M]``.

Plays games through two daphne processes on PostgreSQL and a private Redis while it
breaks things, then checks that nothing was lost. Needs ``DATABASE_URL``
(PostgreSQL); it creates and drops its own database (``bench_chaos``) on that server
and starts its own ``redis-server`` on a free port (the machine's own Redis is never
touched).

What it does, in rotation, every ``--every`` seconds or so:

* ``kill``: SIGKILL one daphne process, restart it on the same port;
* ``cut``: end every PostgreSQL connection of the site (``pg_terminate_backend``);
* ``redis``: stop the private Redis for a few seconds (SIGKILL), then start it again.

Meanwhile ``--tables`` tables of five programs each play game after game through the
JSON API (moves as HTTP POSTs, each program's table socket open with its token, as
``bench.live`` plays), each program keeping its socket open and reopening it after
every drop. Each move is named with an ``Idempotency-Key``: when its answer is
lost (a killed server, a 5xx) the program sends the same move with the same key
again, to either server, until it hears a definite answer. A move answered 200
(the first time or as a repeat) is *accepted*, at the version its answer names
(``Move-Version``); one answered 4xx is *refused*; one that never got a definite
answer is of *unknown fate*, and there must be none. ``--without-keys`` sends each
move once, unnamed, as a program without idempotency would (its lost answers are
then counted as unknown fate).

What it checks at the end, once everything is up again, and prints:

* no move is of unknown fate (with keys);
* every accepted move is in the table's action log, exactly at the version its
  answer named, with the seat and payload sent (none lost);
* every entry of every log is one move a program sent, at most once (none doubled or
  invented; an uncertain move may be there once or not at all);
* every seat's view from the API equals ``engine.view`` of the state rebuilt from
  the database's action log with ``games.engine.replay``;
* every program's socket is open again and has delivered the table's final version.

Exit status 1 when any check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench.live import (
    BASE_DIR,
    FAMILIES,
    Database,
    _postgres_admin,
    free_port,
    players_create,
    random_move,
)

# Of this run only: two runs at once (CI's and a developer's) never share one.
POSTGRES_NAME = f"bench_chaos_{os.getpid()}"
# How long a program keeps sending a move whose answer was lost, and how often.
RETRY_SECONDS = 60
RETRY_PAUSE = 0.5
SEATS = 5
EVENTS = ("kill", "cut", "redis")


def log(message: str) -> None:
    stamp = time.strftime("%H:%M:%S")
    print(f"[{stamp}] {message}", flush=True)


# --- The database, Redis and the servers ------------------------------------------


def database_create(url: str) -> Database:
    with _postgres_admin(url) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{POSTGRES_NAME}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{POSTGRES_NAME}"')

    def drop() -> None:
        with _postgres_admin(url) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{POSTGRES_NAME}" WITH (FORCE)')

    return Database(urlunsplit(urlsplit(url)._replace(path=f"/{POSTGRES_NAME}")), drop)


def connections_cut(url: str) -> int:
    """End every connection to the bench's database but this one."""
    with _postgres_admin(url) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [POSTGRES_NAME],
        ).fetchall()
    return len(rows)


@dataclass
class Redis:
    """A private redis-server on its own port, without persistence."""

    port: int
    folder: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("bench.chaos needs redis-server on the PATH")
        command = [
            binary, "--port", str(self.port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", str(self.folder),
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise SystemExit("the private redis-server did not start") from None
                time.sleep(0.05)
        client.close()

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@dataclass
class Server:
    port: int
    env: dict[str, str]
    logs: Path
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def start(self) -> None:
        command = [
            sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
            "--access-log", os.devnull, "config.asgi:application",
        ]  # fmt: skip
        self.starts += 1
        output = open(self.logs / f"daphne-{self.port}-{self.starts}.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            command, cwd=BASE_DIR, env=self.env, stdout=output, stderr=output
        )

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


async def ready(port: int, timeout: float = 60) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    last = "no answer"
    async with httpx.AsyncClient(timeout=5) as client:
        while True:
            try:
                answer = await client.get(f"http://127.0.0.1:{port}/healthz")
                if answer.status_code == 200:
                    return
                last = f"HTTP {answer.status_code} {answer.text[:200]}"
            except httpx.HTTPError as exc:
                last = repr(exc)
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server on port {port} is not healthy: {last}")
            await asyncio.sleep(0.2)


# --- The programs -------------------------------------------------------------------


@dataclass
class Sent:
    """A move a program sent, and what became of it."""

    code: str
    seat: int
    action: dict[str, Any]
    turn: int
    outcome: str  # accepted, refused:<code>, uncertain (of unknown fate)
    version: int | None = None
    status: int = 0
    tries: int = 0


@dataclass
class Tally:
    sent: list[Sent] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    drops: Counter[str] = field(default_factory=Counter)
    games: int = 0
    events: Counter[str] = field(default_factory=Counter)
    codes: set[str] = field(default_factory=set)
    retries: int = 0


class Program:
    """One player at one table: its own token, HTTP to either server, one socket."""

    def __init__(
        self,
        key: str,
        ports: list[int],
        rng: random.Random,
        tally: Tally,
        named: bool = True,
    ) -> None:
        import httpx

        self.key = key
        self.named = named
        self.ports = ports
        self.home = rng.randrange(len(ports))
        self.rng = rng
        self.tally = tally
        self.clients = [
            httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{port}",
                headers={"Authorization": f"Token {key}"},
                timeout=10,
            )
            for port in ports
        ]
        self.code = ""
        self.seat: int | None = None
        self.latest: dict[str, Any] | None = None
        self.pushed_version = -1
        self.socket_open = False
        self.changed = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None

    async def call(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        *,
        failover: bool = True,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        """Try the program's own server, then (``failover``) the other; (0, None) if
        none answered."""
        status, data, _ = await self.call_with_headers(
            method, path, body, failover=failover, headers=headers
        )
        return status, data

    async def call_with_headers(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        *,
        failover: bool = True,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, dict[str, str]]:
        import httpx

        for attempt in range(len(self.clients) if failover else 1):
            client = self.clients[(self.home + attempt) % len(self.clients)]
            try:
                answer = await client.request(
                    method,
                    f"/api/v1/{path}",
                    json=body if body is not None else None,
                    headers=headers,
                )
            except httpx.HTTPError:
                continue
            try:
                data = answer.json()
            except ValueError:
                data = None
            return answer.status_code, data, dict(answer.headers)
        return 0, None, {}

    async def view(self) -> dict[str, Any] | None:
        status, data = await self.call("GET", f"tables/{self.code}/view")
        if status == 200:
            self.take(data)
            return data
        return None

    def take(self, envelope: dict[str, Any]) -> None:
        if (
            self.latest is None
            or envelope["version"] >= self.latest["version"]
            or (envelope["status"] != self.latest["status"])
        ):
            self.latest = envelope
            self.seat = envelope.get("seat")
            self.changed.set()

    # The socket: open, read, reopen after every drop --------------------------

    def listen(self, code: str) -> None:
        self.code = code
        self.latest, self.pushed_version = None, -1
        self.reader = asyncio.get_running_loop().create_task(self._read_forever())

    async def _read_forever(self) -> None:
        from websockets.asyncio.client import connect

        server = self.home
        first = True
        while True:
            url = f"ws://127.0.0.1:{self.ports[server]}/ws/table/{self.code}/"
            try:
                async with connect(
                    url + "?format=json",
                    additional_headers={"Authorization": f"Token {self.key}"},
                    open_timeout=10,
                    ping_interval=None,
                    max_size=2**22,
                ) as socket:
                    if not first:
                        self.tally.reconnects += 1
                    first = False
                    self.socket_open = True
                    async for raw in socket:
                        message = json.loads(raw)
                        if message.get("type") == "view":
                            self.pushed_version = max(
                                self.pushed_version, message["version"]
                            )
                            self.take(message)
            except asyncio.CancelledError:
                self.socket_open = False
                raise
            except Exception as exc:
                self.tally.drops[type(exc).__name__] += 1
            else:
                self.tally.drops["closed"] += 1
            self.socket_open = False
            server = (server + 1) % len(self.ports)
            await asyncio.sleep(0.3 + self.rng.random() * 0.4)

    async def stop_listening(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader
            self.reader = None

    # Playing ---------------------------------------------------------------------

    async def play(self, stop: asyncio.Event, think: float) -> None:
        """Move whenever this seat's latest view offers a move, until the game ends
        or the run stops; poll over HTTP when no push comes (a socket may be down)."""
        decided_on = -1
        while not stop.is_set():
            self.changed.clear()
            latest = self.latest
            if latest is not None and latest["status"] != "playing":
                return
            if (
                latest is not None
                and latest["view"] is not None
                and latest["view"]["legal"]
                and latest["version"] > decided_on
            ):
                decided_on = latest["version"]
                await asyncio.sleep(self.rng.uniform(0, 2 * think))
                if not await self.move(latest):
                    # Not applied, or not known to be: decide again on what the
                    # next view shows (a repeat the server already has is refused).
                    decided_on = -1
                continue
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=1.5)
            except TimeoutError:
                await self.view()

    async def move(self, seen: dict[str, Any]) -> bool:
        """Send one move until its fate is known; whether it was accepted. Named
        (``Idempotency-Key``), a move whose answer was lost is sent again, the same
        key to either server, until a definite answer; unnamed, it is sent once."""
        action = random_move(seen["view"], self.rng)
        sent = Sent(self.code, seen["seat"], action, seen["turn"], "uncertain")
        headers = {"Idempotency-Key": str(uuid.uuid4())} if self.named else None
        deadline = time.monotonic() + RETRY_SECONDS
        while True:
            sent.tries += 1
            status, data, answered = await self.call_with_headers(
                "POST",
                f"tables/{self.code}/actions",
                {"action": action, "turn": seen["turn"]},
                failover=False,
                headers=headers,
            )
            sent.status = status
            if status == 0:
                self.home = (self.home + 1) % len(self.clients)
            if status == 200:
                version = answered.get("move-version") or data["version"]
                sent.outcome, sent.version = "accepted", int(version)
                self.take(data)
                break
            if 400 <= status < 500 and isinstance(data, dict) and "error" in data:
                sent.outcome = f"refused:{data['error']['code']}"
                if isinstance(data.get("view"), dict):
                    self.take(data["view"])
                break
            if not self.named or time.monotonic() > deadline:
                await self.view()
                break
            self.tally.retries += 1
            await asyncio.sleep(RETRY_PAUSE)
        self.tally.sent.append(sent)
        kind = sent.outcome if sent.outcome != "uncertain" else f"uncertain:{status}"
        self.tally.outcomes[kind] += 1
        if sent.outcome != "accepted":
            await asyncio.sleep(0.2)
        return sent.outcome == "accepted"


async def until_ok(
    step: str, call: Any, done_already: str = "", tries: int = 60
) -> tuple[int, Any]:
    """Retry a setup call through the chaos (a killed server, a cut connection).
    ``done_already`` is the error code that means a lost answer's call did happen."""
    for _ in range(tries):
        status, data = await call()
        if status in (200, 201):
            return status, data
        code = data.get("error", {}).get("code") if isinstance(data, dict) else None
        if done_already and code == done_already:
            return status, data
        if 400 <= status < 500 and status not in (429,):
            raise RuntimeError(f"{step}: HTTP {status} {data}")
        await asyncio.sleep(0.5)
    raise RuntimeError(f"{step}: no answer")


async def table_loop(
    index: int,
    programs: list[Program],
    stop: asyncio.Event,
    tally: Tally,
    think: float,
) -> None:
    # The Resistance family's rulesets in turn (five programs a table).
    deal = FAMILIES["resistance"].deal(index)
    ruleset, options = deal.ruleset, deal.options
    host = programs[0]
    while not stop.is_set():
        _, created = await until_ok(
            "open",
            lambda: host.call(
                "POST",
                "tables",
                {"ruleset": ruleset, "seats": SEATS, "options": options},
            ),
        )
        code = created["code"]
        tally.codes.add(code)
        for program in programs[1:]:
            await until_ok(
                "join",
                lambda p=program, c=code: p.call("POST", f"tables/{c}/join"),
                "already_seated",
            )
        for program in programs:
            program.listen(code)
        await until_ok(
            "start",
            lambda c=code: host.call("POST", f"tables/{c}/start"),
            "not_open",
        )
        for program in programs:
            await program.view()
        await asyncio.gather(*(program.play(stop, think) for program in programs))
        if all(
            p.latest is not None and p.latest["status"] != "playing" for p in programs
        ):
            tally.games += 1
        if not stop.is_set():
            for program in programs:
                await program.stop_listening()


# --- The chaos ----------------------------------------------------------------------


async def chaos_loop(
    servers: list[Server],
    redis_server: Redis,
    database_url: str,
    stop: asyncio.Event,
    every: float,
    rng: random.Random,
    tally: Tally,
) -> None:
    turn = 0
    while True:
        try:
            await asyncio.wait_for(stop.wait(), timeout=rng.uniform(0.6, 1.4) * every)
            return
        except TimeoutError:
            pass
        event = EVENTS[turn % len(EVENTS)]
        turn += 1
        tally.events[event] += 1
        if event == "kill":
            victim = servers[turn // len(EVENTS) % len(servers)]
            victim.kill()
            log(f"chaos: SIGKILL daphne :{victim.port}")
            await asyncio.sleep(rng.uniform(1, 4))
            victim.start()
            await ready(victim.port)
            log(f"chaos: daphne :{victim.port} restarted and healthy")
        elif event == "cut":
            cut = await asyncio.to_thread(connections_cut, database_url)
            log(f"chaos: pg_terminate_backend on {cut} database connections")
        else:
            redis_server.kill()
            outage = rng.uniform(2, 6)
            log(f"chaos: Redis stopped (SIGKILL) for {outage:.1f} s")
            await asyncio.sleep(outage)
            await asyncio.to_thread(redis_server.start)
            log("chaos: Redis started again (empty)")


# --- The checks ---------------------------------------------------------------------


def check_logs(tally: Tally) -> tuple[list[str], dict[str, int]]:
    """Accepted moves against the action logs, and every log against the moves."""
    from games.models import Game, GameAction

    problems: list[str] = []
    figures = Counter[str]()
    logs: dict[str, dict[int, tuple[int, dict[str, Any]]]] = {}
    for game in Game.objects.filter(code__in=tally.codes):
        logs[game.code] = {
            number: (position, payload)
            for number, position, payload in GameAction.objects.filter(
                game=game
            ).values_list("number", "position", "payload")
        }
    explained: dict[str, set[int]] = {code: set() for code in logs}
    for sent in tally.sent:
        if sent.outcome != "accepted":
            continue
        entry = logs.get(sent.code, {}).get(sent.version or -1)
        if entry is None or entry != (sent.seat, sent.action):
            problems.append(f"lost: {sent}")
        elif sent.version in explained[sent.code]:
            problems.append(f"two accepted answers name one entry: {sent}")
        else:
            explained[sent.code].add(sent.version or -1)
            figures["accepted_in_log"] += 1
    uncertain: dict[tuple[str, int, str], list[Sent]] = {}
    for s in tally.sent:
        if s.outcome == "uncertain":
            key = (s.code, s.seat, json.dumps(s.action, sort_keys=True))
            uncertain.setdefault(key, []).append(s)
    for code, entries in logs.items():
        for number, (position, payload) in sorted(entries.items()):
            if number in explained[code]:
                continue
            key = (code, position, json.dumps(payload, sort_keys=True))
            if uncertain.get(key):
                applied = uncertain[key].pop(0)
                figures["uncertain_applied"] += 1
                figures[f"uncertain_applied_http_{applied.status}"] += 1
            else:
                mine = [
                    (s.seat, s.action, s.outcome, s.turn)
                    for s in tally.sent
                    if s.code == code and s.outcome != "accepted"
                ]
                problems.append(
                    f"doubled or unexplained: {code} #{number} seat {position} "
                    f"{payload}; moves not accepted there: {mine}"
                )
        figures["log_entries"] += len(entries)
    return problems, dict(figures)


async def check_views(programs: list[list[Program]]) -> tuple[list[str], int]:
    from asgiref.sync import sync_to_async

    from games import engine
    from games.models import Game
    from games.state import action_log, game_setup

    @sync_to_async
    def replayed(code: str) -> tuple[int, Any]:
        game = Game.objects.get(code=code)
        state = engine.replay(game_setup(game), action_log(game))
        return game.version, state

    problems: list[str] = []
    compared = 0
    for table in programs:
        code = table[0].code
        version, state = await replayed(code)
        for program in table:
            envelope = await program.view()
            if envelope is None:
                problems.append(f"no view for a seat at {code}")
                continue
            expected = engine.view(state, envelope["seat"])
            if envelope["version"] != version or envelope["view"] != expected:
                seat = envelope["seat"]
                problems.append(f"view differs from the replay: {code} seat {seat}")
            compared += 1
    return problems, compared


async def check_sockets(programs: list[list[Program]], tally: Tally) -> list[str]:
    """Every socket open again, and each has delivered its table's final version
    (a reopened socket starts with a snapshot)."""
    from asgiref.sync import sync_to_async

    from games.models import Game

    problems = []
    deadline = time.monotonic() + 30
    for table in programs:
        code = table[0].code
        version = await sync_to_async(lambda c=code: Game.objects.get(code=c).version)()
        for program in table:
            while not (program.socket_open and program.pushed_version >= version):
                if time.monotonic() > deadline:
                    problems.append(
                        f"socket not back at {code}: open={program.socket_open} "
                        f"pushed={program.pushed_version} final={version}"
                    )
                    break
                await asyncio.sleep(0.2)
    return problems


# --- The run ------------------------------------------------------------------------


async def run(args: argparse.Namespace, keys: list[str], cluster: Any) -> int:
    servers, redis_server, database_url = cluster
    ports = [server.port for server in servers]
    rng = random.Random(args.seed)
    tally = Tally()
    programs = [
        [
            Program(
                keys[t * SEATS + s],
                ports,
                random.Random(rng.random()),
                tally,
                named=not args.without_keys,
            )
            for s in range(SEATS)
        ]
        for t in range(args.tables)
    ]
    stop = asyncio.Event()
    tables = [
        asyncio.create_task(table_loop(i, table, stop, tally, args.think_ms / 1000))
        for i, table in enumerate(programs)
    ]
    chaos = asyncio.create_task(
        chaos_loop(servers, redis_server, database_url, stop, args.every, rng, tally)
    )
    started = time.monotonic()
    await asyncio.sleep(args.minutes * 60)
    stop.set()
    log("stopping: no new moves; waiting for the chaos and the tables to settle")
    await chaos
    health_problems = []
    for port in ports:
        try:
            await ready(port, timeout=30)
        except RuntimeError as exc:
            health_problems.append(str(exc))
    done, pending = await asyncio.wait(tables, timeout=60)
    for task in pending:
        task.cancel()
    failed = [task.exception() for task in done if task.exception() is not None]
    played = time.monotonic() - started
    problems, figures = await asyncio.to_thread(check_logs, tally)
    view_problems, compared = await check_views(programs)
    socket_problems = await check_sockets(programs, tally)
    for table in programs:
        for program in table:
            await program.stop_listening()
            for client in program.clients:
                await client.aclose()

    print()
    print(f"ran_minutes: {played / 60:.1f}")
    print(
        "chaos: "
        + ", ".join(f"{name} x{tally.events[name]}" for name in EVENTS)
        + " (kill: SIGKILL a daphne + restart; cut: pg_terminate_backend; "
        "redis: private Redis down for 2-6 s)"
    )
    print(f"tables: {args.tables} x {SEATS} programs; games_finished: {tally.games}")
    unknown = [s for s in tally.sent if s.outcome == "uncertain"]
    print(
        f"moves_sent: {len(tally.sent)} "
        f"({'named, Idempotency-Key' if not args.without_keys else 'unnamed'}); "
        f"resends_after_a_lost_answer: {tally.retries}"
    )
    print(f"outcomes: {dict(tally.outcomes)}")
    print(f"unknown_fate: {len(unknown)}")
    print(
        f"accepted_in_log: {figures.get('accepted_in_log', 0)} of "
        f"{sum(s.outcome == 'accepted' for s in tally.sent)}; "
        f"uncertain_applied: {figures.get('uncertain_applied', 0)} ("
        + ", ".join(
            f"HTTP {name.rsplit('_', 1)[1]}: {count}"
            for name, count in sorted(figures.items())
            if name.startswith("uncertain_applied_http_")
        )
        + "); "
        f"log_entries: {figures.get('log_entries', 0)}"
    )
    print(f"socket_reconnects: {tally.reconnects}; drops: {dict(tally.drops)}")
    print(f"views_compared_with_replay: {compared}")
    checks = {
        "every move's fate known to its program": (
            [] if args.without_keys else [f"unknown fate: {s}" for s in unknown]
        ),
        "no accepted move lost, none doubled": problems,
        "every seat's view equals the replay": view_problems,
        "every socket came back": socket_problems,
        "every table task ended cleanly": [repr(exc) for exc in failed],
        "every server healthy at the end": health_problems,
    }
    ok = True
    for name, found in checks.items():
        print(f"{'HELD' if not found else 'FAILED'}: {name}")
        for problem in found[:10]:
            print(f"    {problem}")
        ok = ok and not found
    return 0 if ok else 1


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.chaos", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--minutes", type=float, default=10, help="minutes of chaos")
    parser.add_argument("--tables", type=int, default=4, help="tables of 5 programs")
    parser.add_argument(
        "--every", type=float, default=20, help="mean seconds between chaos events"
    )
    parser.add_argument(
        "--think-ms", type=float, default=150, help="mean pause before a move"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--without-keys",
        action="store_true",
        help="send moves unnamed and once, as a program without idempotency keys",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url.startswith("postgres"):
        raise SystemExit("bench.chaos needs DATABASE_URL naming a PostgreSQL server")
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)
    folder = Path(tempfile.mkdtemp(prefix="podpolye-bench-chaos-"))
    redis_server = Redis(port=free_port(), folder=folder)
    db = database_create(url)
    servers: list[Server] = []
    status = 1
    try:
        redis_server.start()
        log(f"private Redis on :{redis_server.port}; database {POSTGRES_NAME}")
        os.environ["REDIS_URL"] = redis_server.url
        keys, _ = players_create(db, args.tables * SEATS)
        env = dict(os.environ)
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "config.settings.local",
                "DJANGO_DEBUG": "false",
                "DATABASE_URL": db.url,
                "REDIS_URL": redis_server.url,
                "LOG_LEVEL": "WARNING",
                "PYTHONPATH": str(BASE_DIR),
            }
        )
        servers = [Server(free_port(), env, folder) for _ in range(2)]
        for server in servers:
            server.start()
        asyncio.run(_ready_all(servers))
        log(f"two daphne processes on :{servers[0].port} and :{servers[1].port}")
        status = asyncio.run(run(args, keys, (servers, redis_server, url)))
    finally:
        for server in servers:
            server.stop()
        redis_server.kill()
        from django.db import connections

        with contextlib.suppress(Exception):
            connections.close_all()
        db.cleanup()
        errors = Counter[str]()
        for path in folder.glob("daphne-*.log"):
            lines = path.read_text(errors="replace").splitlines()
            for number, line in enumerate(lines):
                if "Internal Server Error" in line:
                    cause = next(
                        (
                            later
                            for later in lines[number + 1 :]
                            if later
                            and not later.startswith((" ", "Traceback"))
                            and "Error" in later.split(":")[0]
                        ),
                        "?",
                    )
                    errors[cause[:160]] += 1
        print(f"server_errors_500: {sum(errors.values())}")
        for cause, count in errors.most_common(8):
            print(f"    {count} x {cause}")
        if status != 0:
            kept = Path(tempfile.gettempdir()) / f"podpolye-chaos-logs-{os.getpid()}"
            shutil.copytree(folder, kept, dirs_exist_ok=True)
            print(f"server logs kept in {kept}", file=sys.stderr)
            for path in sorted(folder.glob("daphne-*.log")):
                lines = path.read_text(errors="replace").strip().splitlines()
                if lines:
                    print(f"--- {path.name} (last lines)", file=sys.stderr)
                    print("\n".join(lines[-25:]), file=sys.stderr)
        shutil.rmtree(folder, ignore_errors=True)
    sys.exit(status)


async def _ready_all(servers: list[Server]) -> None:
    for server in servers:
        await ready(server.port)


if __name__ == "__main__":
    main()
