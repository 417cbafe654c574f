"""Every change reaches every open screen, whoever made it and whatever the channel
layer lost: a move by another process (the clocks' runner, here a real one), a group
message a room never got, a gap in the table's change numbers (live.room)."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from django.utils import timezone

from games import push, services
from games.models import Game, GameAction, Seat
from live import room as rooms
from tests.config.sockets import browser_socket
from tests.games.conftest import play_one, seated_users, start_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

BASE_DIR = Path(__file__).resolve().parents[2]
WAIT = 30
"""Seconds a test waits for a frame before it fails: a safety net for a loaded
machine, never what a test decides on."""


async def open_seat(user, game: Game, *, json_format: bool = False):
    query = "?format=json" if json_format else ""
    socket, connected, _ = await browser_socket(user, f"/ws/table/{game.code}/{query}")
    assert connected
    return socket


async def frames_until(socket: WebsocketCommunicator, found) -> list[str]:
    """Every frame the socket gets, up to and with the first one ``found`` accepts."""
    frames = []
    while True:
        frame = await socket.receive_from(timeout=WAIT)
        frames.append(frame)
        if found(frame):
            return frames


def version_of(frame: str) -> int | None:
    match = re.search(r'data-version="(\d+)"', frame)
    return int(match.group(1)) if match else None


def cut_off(game: Game) -> None:
    """This process's room of the table stops getting its group messages, as if
    the layer lost them (its sockets stay open and keep their seats)."""
    room = rooms.room_of(game.pk)
    assert room is not None
    group = push.table_group(game.pk)
    async_to_sync(get_channel_layer().group_discard)(group, room._channel)


def run_clocks_elsewhere() -> str:
    """One pass of the clocks' runner in a process of its own, on the test
    database: its pushes go to its own channel layer (the in-memory one reaches
    nobody here; Redis reaches these sockets too)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DJANGO_TEST_DATABASE_NAME": str(connection.settings_dict["NAME"]),
    }
    # The worker's Redis database is already in REDIS_URL: not numbered again.
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "run_clocks", "--once"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


async def test_a_move_the_runner_makes_in_another_process_reaches_every_screen() -> (
    None
):
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    sockets = [await open_seat(user, game) for user in users.values()]
    program = await open_seat(users[0], game, json_format=True)
    for socket in [*sockets, program]:
        await socket.receive_from(timeout=WAIT)
    # The leader's time is up: the runner's bot proposes for them.
    await sync_to_async(
        Game.objects.filter(pk=game.pk).update,
    )(turn_seconds=30, deadline=timezone.now() - dt.timedelta(seconds=1))
    await sync_to_async(run_clocks_elsewhere)()
    for socket in sockets:
        # Waits for the frame that shows the bot's proposal (version 1).
        await frames_until(socket, lambda f: version_of(f) == 1)
    view = json.loads(
        (await frames_until(program, lambda f: json.loads(f).get("type") == "view"))[-1]
    )
    assert view["version"] == 1
    for socket in [*sockets, program]:
        await socket.disconnect()


async def test_a_lost_group_message_is_caught_up_by_the_watch() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    watcher = await open_seat(users[1], game)
    await watcher.receive_from(timeout=WAIT)
    await sync_to_async(cut_off)(game)
    # A move and a chat line whose messages this socket never gets.
    await sync_to_async(play_one)(game, random.Random(1))
    await sync_to_async(services.chat_post)(game=game, user=users[2], text="слышно?")
    frames = await frames_until(watcher, lambda f: "слышно?" in f)
    assert any(version_of(f) == 1 for f in frames)
    await watcher.disconnect()


async def test_a_gap_in_the_change_numbers_makes_a_socket_read_the_table(
    settings,
) -> None:
    settings.LIVE_WATCH_SECONDS = 3600  # the watch stays out of this test
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    socket = await open_seat(users[1], game)
    await socket.receive_from(timeout=WAIT)
    await sync_to_async(cut_off)(game)
    await sync_to_async(services.chat_post)(game=game, user=users[2], text="первая")
    # Back in the group: the next change's message shows the gap.
    room = rooms.room_of(game.pk)
    assert room is not None
    await get_channel_layer().group_add(push.table_group(game.pk), room._channel)
    await sync_to_async(services.chat_post)(game=game, user=users[3], text="вторая")
    frames = await frames_until(socket, lambda f: "вторая" in f)
    text = "".join(frames)
    assert "первая" in text and text.index("первая") < text.index("вторая")
    await socket.disconnect()


async def test_a_program_hears_who_is_away_and_a_page_hears_the_moderator() -> None:
    game = await sync_to_async(start_table)("mafia_partisan", 10)
    users = await sync_to_async(seated_users)(game)
    program = await open_seat(users[0], game, json_format=True)
    await program.receive_from(timeout=WAIT)
    leaving = await open_seat(users[3], game)
    await leaving.receive_from(timeout=WAIT)
    await leaving.disconnect()
    frames = await frames_until(
        program, lambda f: json.loads(f).get("type") == "presence"
    )
    away = json.loads(frames[-1])["away"]
    assert [(line["seat"], line["moderator"]) for line in away] == [(3, False)]
    assert away[0]["until"] is not None
    # The moderator leaves: every page says so, without a countdown for the bot.
    page = await open_seat(users[1], game)
    await page.receive_from(timeout=WAIT)
    moderator = await sync_to_async(lambda: game.moderator)()
    console = await open_seat(moderator, game)
    await console.receive_from(timeout=WAIT)
    await console.disconnect()
    notice = (
        await frames_until(
            page, lambda f: 'id="table-presence"' in f and "moderator" in f.lower()
        )
    )[-1]
    assert moderator.display_name in notice
    frames = await frames_until(
        program,
        lambda f: (
            json.loads(f).get("type") == "presence"
            and any(line["moderator"] for line in json.loads(f)["away"])
        ),
    )
    assert any(
        line["until"] is None
        for line in json.loads(frames[-1])["away"]
        if line["moderator"]
    )
    await page.disconnect()
    await program.disconnect()


async def test_a_player_back_on_the_page_is_never_played_for_again() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    leader = game.turn  # seat 0 leads the first proposal
    long_ago = timezone.now() - dt.timedelta(hours=1)
    await sync_to_async(Seat.objects.filter(game=game, position=leader).update)(
        away_since=long_ago
    )

    # Her page opens: she is back before her socket is.
    def open_page() -> int:
        client = Client()
        client.force_login(users[leader])
        return client.get(game.get_absolute_url()).status_code

    assert await sync_to_async(open_page)() == 200
    assert await sync_to_async(services.clocks_run_once)() == 0
    seat = await sync_to_async(Seat.objects.get)(game=game, position=leader)
    assert seat.away_since is None
    assert not await sync_to_async(GameAction.objects.filter(game=game).exists)()
