"""The voice rooms' figures: ``python -m bench.voice [--seats 3 6 10] [--mafia]``.

Starts the real server (daphne, ``config.settings.local``, in-memory layer) on a
throwaway SQLite database, seats N users at a started ``partisans`` table
(``cells`` below five; every seat of both may talk in every phase), and with
``--mafia`` a ``mafia_partisan`` table of ten players and its moderator played to
its end (after the game all eleven talk), and opens one headless Chromium context
per seat with a fake microphone (a beep). For each table it prints:

    full_mesh_s      every seat taps "join" at once: until every page holds N-1
                     connected peers
    newcomer_s       one seat leaves and joins again: until it holds N-1 peers
    reload_s         one seat reloads its page and joins: until it holds N-1 peers
    frames_per_join  voice frames the newcomer's page sent and received for its join
    largest_frame_b  the largest voice frame of that join, in bytes
    kbit_s_up        audio a seat sends, all its peers together (RTP payload and
                     headers as getStats counts them), mean over the seats
    kbit_s_down      audio a seat receives, the same
    browser_cpu      the browsers' CPU per seat, share of one core, while talking
    server_cpu       daphne's CPU over the whole run, share of one core
    mute_ms          from tapping "mute" to every sender of that page holding no
                     track (no packet leaves after that)
    relayed_pairs    share of connections going through TURN (0 on loopback)
    connected_after_talk  share of the connections still connected after
                     everyone talked for a few seconds (below 1: the browsers
                     could not keep up, and ICE's consent checks timed out)

With ``--muted`` every seat joins and mutes at once, then each unmutes in turn
(the way tests/e2e/test_voice_mesh_browser.py checks the largest tables, whose
pages all talking at once outrun two shared cores); it prints instead:

    muted_mesh_s     until every page holds N-1 connected peers (no audio yet)
    turn_mean_s      from a seat's "unmute" until 50 more packets with sound from
    turn_max_s       it arrived on every other page: mean and worst over the seats
    connected_after_turns  share of the connections connected at the end

A figure that does not come within two minutes is printed as nan, and the run goes
on with the next.

Wall-clock figures on a shared machine: compare runs taken in the same minutes.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.moves import setup, started_table

CHROMIUM = "/usr/bin/chromium"
MARK = f"--bench-voice={os.getpid()}"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--autoplay-policy=no-user-gesture-required",
    MARK,
]
TIMEOUT_MS = 120_000
TALK_SECONDS = 5.0
COUNT_FRAMES = """
(() => {
  window.voiceFrames = { sent: 0, received: 0, largest: 0 };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === "string" && data.startsWith('{"voice"')) {
      window.voiceFrames.sent += 1;
      window.voiceFrames.largest = Math.max(window.voiceFrames.largest, data.length);
    }
    if (!this._counted) {
      this._counted = true;
      this.addEventListener("message", (event) => {
        if (typeof event.data === "string" && event.data.startsWith('{"voice"')) {
          window.voiceFrames.received += 1;
          window.voiceFrames.largest = Math.max(window.voiceFrames.largest,
            event.data.length);
        }
      });
    }
    return send.call(this, data);
  };
})();
"""
TAP = "(selector) => document.querySelector(selector).click()"
CONNECTED = """(count) => window.podpolyeVoice && window.podpolyeVoice.connections()
    .filter(c => c.state === 'connected').length === count"""
BYTES = """() => window.podpolyeVoice.stats().then(all => ({
    sent: all.reduce((n, p) => n + p.bytesSent, 0),
    received: all.reduce((n, p) => n + p.bytesReceived, 0),
    relayed: all.filter(p => p.relayed).length, peers: all.length,
    at: performance.now()}))"""
CONNECTIONS = "() => window.podpolyeVoice.connections()"
HEARD = """(seat) => window.podpolyeVoice.stats().then(all =>
    all.find(p => p.room === 'table' && p.seat === seat))"""
HEARD_MORE = """async ([seat, was, timeout]) => {
    const deadline = performance.now() + timeout;
    for (;;) {
        const all = await window.podpolyeVoice.stats();
        if (all.some(p => p.room === 'table' && p.seat === seat &&
                p.state === 'connected' &&
                p.packetsReceived > was.packetsReceived + 50 &&
                p.totalAudioEnergy > was.totalAudioEnergy)) return;
        if (performance.now() > deadline) throw new Error('not heard: ' + seat);
        await new Promise((done) => setTimeout(done, 20));
    }
}"""
STATES = """() => ({all: window.podpolyeVoice.connections().length,
    connected: window.podpolyeVoice.connections()
        .filter(c => c.state === 'connected').length})"""
MUTE = """() => new Promise((done) => {
    const started = performance.now();
    document.querySelector('[data-voice-mute]').click();
    (function look() {
      if (window.podpolyeVoice.connections().every(c => !c.sending)) {
        done(performance.now() - started);
      } else { setTimeout(look, 1); }
    })();
})"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def browser_processes() -> list[int]:
    """This run's Chromium: the process started with MARK and its descendants."""
    parents: dict[int, int] = {}
    roots = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        if MARK.encode() in cmdline:
            roots.append(int(entry.name))
    found = set(roots)
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in found and pid not in found:
                found.add(pid)
                grew = True
    return sorted(found)


def browser_cpu() -> float:
    total = 0.0
    for pid in browser_processes():
        try:
            total += cpu_seconds(pid)
        except OSError:
            continue
    return total


def server_start(database: Path) -> tuple[subprocess.Popen[bytes], str]:
    with __import__("socket").socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "DJANGO_DEBUG": "false",
    }
    env.pop("REDIS_URL", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as answer:  # noqa: S310
                if answer.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("daphne did not start")


def session_of(user: Any) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def table_for(seats: int, run: int) -> tuple[list[Any], str, list[str]]:
    """A started table of ``seats`` users: the users, its address, their sessions
    (made before the browser starts: Django's database calls want no event loop)."""
    import random

    users, game = started_table(
        "cells" if seats < 5 else "partisans",
        {},
        seats,
        random.Random(run),
        username=f"voice{run}",
    )
    return users, game.get_absolute_url(), [session_of(user) for user in users]


def mafia_table(run: int) -> tuple[list[Any], str, list[str]]:
    """A ``mafia_partisan`` table of ten players and its moderator, played to its
    end by random legal moves: after the game all eleven talk to the table."""
    import random

    from games import engine, services
    from games.models import Game
    from games.state import load_state

    rng = random.Random(run)
    users, game = started_table("mafia_partisan", {}, 11, rng, username=f"voice{run}")
    seated = {seat.position: seat.user for seat in game.seats.select_related("user")}
    while game.status == Game.Status.PLAYING:
        seat, action = engine.random_action(load_state(game), rng)
        user = game.moderator if seat == engine.MODERATOR else seated[seat]
        services.game_act(game=game, user=user, action=action, turn=game.turn)
        game.refresh_from_db()
    return users, game.get_absolute_url(), [session_of(user) for user in users]


class Figures(dict[str, float]):
    """The figures of one table, each printed as soon as it is measured."""

    def __setitem__(self, name: str, value: float) -> None:
        print(f"  {name}: {value:.3g}", flush=True)
        super().__setitem__(name, value)


def reached(pages: list[Any], count: int) -> bool:
    """Whether every page of ``pages`` holds ``count`` connected peers at once
    within TIMEOUT_MS (a figure that never comes is printed as nan, and the
    run goes on)."""
    from playwright.sync_api import TimeoutError as Timeout

    try:
        for page in pages:
            page.wait_for_function(CONNECTED, arg=count, timeout=TIMEOUT_MS)
    except Timeout:
        return False
    return True


def in_turn(pages: list[Any], figures: Figures) -> Figures:
    """``--muted``: every seat joins and mutes at once (ICE's checks, no audio),
    then each seat in turn unmutes until its sound arrives on every other page, and
    mutes again (tests/e2e/test_voice_mesh_browser.py does the same)."""
    seats = len(pages)
    started = time.monotonic()
    for page in pages:
        page.evaluate(TAP, "[data-voice-join]")
    for page in pages:
        page.wait_for_selector("[data-voice-mute]:enabled", timeout=TIMEOUT_MS)
        page.evaluate(TAP, "[data-voice-mute]")
    if not reached(pages, seats - 1):
        figures["muted_mesh_s"] = math.nan
        return figures
    figures["muted_mesh_s"] = time.monotonic() - started
    turns = []
    peers = [{c["seat"] for c in page.evaluate(CONNECTIONS)} for page in pages]
    everyone = set().union(*peers)
    for speaker, others in zip(pages, peers, strict=True):
        # A page's own seat is the one it holds no connection to.
        (seat,) = everyone - others
        listeners = [page for page in pages if page is not speaker]
        before = [page.evaluate(HEARD, seat) for page in listeners]
        started = time.monotonic()
        speaker.evaluate(TAP, "[data-voice-mute]")
        for page, was in zip(listeners, before, strict=True):
            # Polled inside the page: wait_for_function would take the promise
            # stats() returns for a true value at once.
            page.evaluate(HEARD_MORE, [seat, was, TIMEOUT_MS])
        turns.append(time.monotonic() - started)
        speaker.evaluate(TAP, "[data-voice-mute]")
        speaker.wait_for_function(
            "() => window.podpolyeVoice.connections().every(c => !c.sending)",
            timeout=TIMEOUT_MS,
        )
    figures["turn_mean_s"] = sum(turns) / len(turns)
    figures["turn_max_s"] = max(turns)
    held = [page.evaluate(STATES) for page in pages]
    figures["connected_after_turns"] = sum(h["connected"] for h in held) / max(
        1, sum(h["all"] for h in held)
    )
    for page in pages:
        page.context.close()
    return figures


def measure(
    browser: Any,
    url: str,
    table: tuple[list[Any], str, list[str]],
    *,
    muted: bool = False,
) -> dict[str, float]:
    from django.conf import settings
    from playwright.sync_api import TimeoutError as Timeout

    users, address, sessions = table
    seats = len(users)
    print(f"seats: {seats}", flush=True)
    pages = []
    for session in sessions:
        context = browser.new_context(
            base_url=url, viewport={"width": 390, "height": 844}
        )
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": session,
                    "url": url,
                }
            ]
        )
        context.add_init_script(COUNT_FRAMES)
        page = context.new_page()
        page.goto(address)
        pages.append(page)
    for page in pages:
        page.wait_for_selector("body[data-socket=on]", timeout=TIMEOUT_MS)
        page.wait_for_selector("[data-voice-join]:enabled", timeout=TIMEOUT_MS)
    figures = Figures()
    if muted:
        return in_turn(pages, figures)

    started = time.monotonic()
    for page in pages:
        page.evaluate(TAP, "[data-voice-join]")
    if not reached(pages, seats - 1):
        figures["full_mesh_s"] = math.nan
        for page in pages:
            page.context.close()
        return figures
    figures["full_mesh_s"] = time.monotonic() - started

    # Talking: bytes and CPU over a few seconds.
    before = [page.evaluate(BYTES) for page in pages]
    cpu = browser_cpu()
    time.sleep(TALK_SECONDS)
    after = [page.evaluate(BYTES) for page in pages]
    spent = browser_cpu() - cpu
    up = down = 0.0
    for first, last in zip(before, after, strict=True):
        seconds = (last["at"] - first["at"]) / 1000
        up += (last["sent"] - first["sent"]) * 8 / 1000 / seconds
        down += (last["received"] - first["received"]) * 8 / 1000 / seconds
    figures["kbit_s_up"] = up / seats
    figures["kbit_s_down"] = down / seats
    figures["browser_cpu"] = spent / TALK_SECONDS / seats
    figures["relayed_pairs"] = sum(a["relayed"] for a in after) / max(
        1, sum(a["peers"] for a in after)
    )
    # Share of the connections still connected after everyone talked a while: below
    # 1 when the browsers cannot keep up and ICE's consent checks time out.
    held = [page.evaluate(STATES) for page in pages]
    figures["connected_after_talk"] = sum(h["connected"] for h in held) / max(
        1, sum(h["all"] for h in held)
    )
    figures["mute_ms"] = float(pages[0].evaluate(MUTE))
    pages[0].evaluate(TAP, "[data-voice-mute]")

    # A newcomer: the last seat leaves and joins again.
    newcomer = pages[-1]
    newcomer.evaluate(TAP, "[data-voice-join]")
    reached(pages[:-1], seats - 2)
    newcomer.evaluate(
        "() => { window.voiceFrames.sent = 0; "
        "window.voiceFrames.received = 0; window.voiceFrames.largest = 0; }"
    )
    started = time.monotonic()
    newcomer.evaluate(TAP, "[data-voice-join]")
    figures["newcomer_s"] = (
        time.monotonic() - started if reached([newcomer], seats - 1) else math.nan
    )
    reached(pages[:-1], seats - 1)
    frames = newcomer.evaluate("() => window.voiceFrames")
    figures["frames_per_join"] = frames["sent"] + frames["received"]
    figures["largest_frame_b"] = frames["largest"]

    # A reload: the page comes back and joins.
    started = time.monotonic()
    try:
        newcomer.reload(timeout=TIMEOUT_MS)
        newcomer.wait_for_selector("body[data-socket=on]", timeout=TIMEOUT_MS)
        newcomer.wait_for_selector("[data-voice-join]:enabled", timeout=TIMEOUT_MS)
    except Timeout:
        figures["reload_s"] = math.nan
    else:
        newcomer.evaluate(TAP, "[data-voice-join]")
        figures["reload_s"] = (
            time.monotonic() - started if reached([newcomer], seats - 1) else math.nan
        )
    for page in pages:
        page.context.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, nargs="*", default=[3, 6])
    parser.add_argument(
        "--mafia",
        action="store_true",
        help="also a Mafia table: ten players and the moderator, after the game",
    )
    parser.add_argument(
        "--muted",
        action="store_true",
        help="join muted, then each seat talks in turn (muted_mesh_s, turn_*_s)",
    )
    options = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-voice-"))
    database = folder / "db.sqlite3"
    setup(database)
    tables = [table_for(seats, run) for run, seats in enumerate(options.seats)]
    if options.mafia:
        tables.append(mafia_table(len(tables)))
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    server, url = server_start(database)
    server_cpu = cpu_seconds(server.pid)
    wall = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for table in tables:
                measure(browser, url, table, muted=options.muted)
            browser.close()
        used = cpu_seconds(server.pid) - server_cpu
        print(f"server_cpu: {used / (time.monotonic() - wall):.3g}")
    finally:
        server.terminate()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
