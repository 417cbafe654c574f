"""Presence at a table and the bot that stands in (docs/clocks.md): a seat whose last
screen closed is away, the whole table sees it with its grace, the clock's runner
lets the bot play its decisions past the grace, the player takes the seat back by
returning, and the table, the review and the replay say which moves the bot made
(only where the table saw that seat awaited). Then the runner itself: a time-out is
played once when two runners race, and a runner started after a "restart" plays
what fell due meanwhile, since the deadline lives in the database."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import override_settings
from django.utils import timezone, translation

from games import engine, presence, services
from games.families.resistance.models import Vote
from games.models import Game, GameAction, Seat, TableSocket
from tests.games.conftest import play_until, public_view, seated_users, start_table
from tests.games.test_clocks import clocked_table, later, propose
from tests.games.test_consumers import connect, drain

BASE_DIR = Path(__file__).resolve().parents[2]


def away_since(game: Game, position: int) -> dt.datetime | None:
    return Seat.objects.get(game=game, position=position).away_since


def leave(game: Game, position: int, seconds_ago: int) -> None:
    """The player at ``position`` left ``seconds_ago`` seconds ago."""
    Seat.objects.filter(game=game, position=position).update(
        away_since=timezone.now() - dt.timedelta(seconds=seconds_ago)
    )


# --- sockets ------------------------------------------------------------------------


def _presence_lines(frames: list[str]) -> list[str]:
    return [frame for frame in frames if 'id="table-presence"' in frame]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_last_screen_closing_makes_a_seat_away_and_returning_clears_it() -> (
    None
):
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    vera, other = users[1], users[2]
    await sync_to_async(
        lambda: type(vera).objects.filter(pk=vera.pk).update(display_name="Вера")
    )()
    tab1, tab2 = await connect(vera, game.code), await connect(vera, game.code)
    watcher = await connect(other, game.code)
    try:
        for socket in (tab1, tab2, watcher):
            await drain(socket)
        assert await sync_to_async(TableSocket.objects.count)() == 3
        await tab1.disconnect()
        # Another tab of hers is still open: she is here.
        assert await sync_to_async(away_since)(game, 1) is None
        assert await drain(watcher) == []
        await tab2.disconnect()
        left = await sync_to_async(away_since)(game, 1)
        assert left is not None
        # The presence line (and, where the room caught up by the watch, the
        # table's changed regions beside it).
        frames = _presence_lines(await drain(watcher))
        assert len(frames) == 1 and "Вера" in frames[0]
        assert "data-away-until" in frames[0] and "hidden" not in frames[0]
        # A fresh page shows the same notice to anyone, seated or not.
        page = await sync_to_async(_page)(game, other)
        assert "data-away-until" in page and "Вера" in page
        back = await connect(vera, game.code)
        try:
            first = await drain(back)
            assert 'id="table-presence"' in first[0]
            assert await sync_to_async(away_since)(game, 1) is None
            frames = _presence_lines(await drain(watcher))
            assert len(frames) == 1 and "Вера" not in frames[0]
            assert 'id="table-presence"' in frames[0] and "hidden" in frames[0]
        finally:
            await back.disconnect()
    finally:
        await watcher.disconnect()
    assert await sync_to_async(TableSocket.objects.count)() == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_players_leaving_a_finished_table_send_the_others_nothing() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    game = await sync_to_async(play_until)(
        game, random.Random(4), lambda g: g.status != Game.Status.PLAYING
    )
    assert game.status == Game.Status.FINISHED
    users = await sync_to_async(seated_users)(game)
    leaving = await connect(users[1], game.code)
    watcher = await connect(users[2], game.code)
    try:
        for socket in (leaving, watcher):
            first = await drain(socket)
            assert (
                'id="table-presence"' in first[0] and "data-away-until" not in first[0]
            )
        await leaving.disconnect()
        # The seat is noted away as at any table, but a finished game shows nobody
        # away: the screen still open there gets no notice (and reads nothing).
        assert await sync_to_async(away_since)(game, 1) is not None
        assert await drain(watcher) == []
    finally:
        await watcher.disconnect()


def _page(game: Game, viewer) -> str:  # type: ignore[no-untyped-def]
    from django.test import Client

    client = Client()
    client.force_login(viewer)
    return client.get(game.get_absolute_url()).content.decode()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@override_settings(PRESENCE_HEARTBEAT_SECONDS=0.1)
async def test_a_beating_socket_keeps_its_seat_and_heals_a_wrong_away() -> None:
    """A sweep during a long stall of this process (its row taken, the seat marked
    away) is undone by the socket's next beat: nothing keeps a seat away while one
    of its screens is open."""
    game = await sync_to_async(start_table)("partisans", 5)
    user = (await sync_to_async(seated_users)(game))[0]
    socket = await connect(user, game.code)
    try:
        await drain(socket)
        await sync_to_async(TableSocket.objects.all().delete)()
        await sync_to_async(leave)(game, 0, 100)
        for _ in range(50):
            await asyncio.sleep(0.1)
            if await sync_to_async(away_since)(game, 0) is None:
                break
        assert await sync_to_async(away_since)(game, 0) is None
        assert await sync_to_async(TableSocket.objects.count)() == 1
    finally:
        await socket.disconnect()


@pytest.mark.django_db
def test_a_beat_freshens_its_own_row_and_an_opening_writes_a_new_one() -> None:
    game = start_table("partisans", 5)
    user = seated_users(game)[0]
    presence._opened(game.pk, user.pk, "one")
    TableSocket.objects.update(beat_at=timezone.now() - dt.timedelta(minutes=5))
    presence._beaten(game.pk, user.pk, "one")
    row = TableSocket.objects.get()
    assert row.channel == "one" and timezone.now() - row.beat_at < dt.timedelta(
        seconds=30
    )
    presence._opened(game.pk, user.pk, "two")
    assert sorted(TableSocket.objects.values_list("channel", flat=True)) == [
        "one",
        "two",
    ]


@pytest.mark.django_db
def test_presence_locks_the_table_row_only_where_rows_can_be_locked() -> None:
    """On PostgreSQL an opening, a beat and a closing take the table's row first
    (the order every move takes); SQLite's writing transaction holds the whole
    file already, so no statement is sent for a lock that would lock nothing."""
    from django.test.utils import CaptureQueriesContext

    game = start_table("partisans", 5)
    user = seated_users(game)[0]
    with CaptureQueriesContext(connection) as written:
        presence._opened(game.pk, user.pk, "one")
        presence._beaten(game.pk, user.pk, "one")
        presence._closed(game.pk, user.pk, "one")
    on_table = [q["sql"] for q in written if '"games_game"' in q["sql"]]
    locks = [sql for sql in on_table if "FOR UPDATE" in sql]
    if connection.features.has_select_for_update:
        assert len(locks) == 3
        assert "FOR UPDATE" in on_table[0]
    else:
        assert locks == []
    # Besides the lock, the table's row is only written: the moderator's mark (a
    # player's screen changes no moderator) and the change number, when someone
    # left or came back.
    others = [sql for sql in on_table if "FOR UPDATE" not in sql]
    assert all(
        sql.startswith("UPDATE") or "change_id" in sql.split("FROM")[0]
        for sql in others
    ), others
    assert not TableSocket.objects.exists()
    assert away_since(game, 0) is not None


@pytest.mark.django_db
def test_dead_sockets_are_swept_and_the_seat_is_away_from_their_last_beat() -> None:
    game = start_table("partisans", 5)
    users = seated_users(game)
    now = timezone.now()
    last_beat = now - dt.timedelta(seconds=300)
    # Two tabs on a process killed with kill -9: rows that stopped beating.
    for number in range(2):
        TableSocket.objects.create(
            game=game, user=users[3], channel=f"dead-{number}", beat_at=last_beat
        )
    # Seat 4 has one dead row and one fresh (a tab on a live process).
    TableSocket.objects.create(
        game=game, user=users[4], channel="dead-2", beat_at=last_beat
    )
    TableSocket.objects.create(game=game, user=users[4], channel="live", beat_at=now)
    assert away_since(game, 3) is None  # not yet: only the sweep knows they are dead
    assert presence.sweep(now) == 3
    assert away_since(game, 3) == last_beat
    assert away_since(game, 4) is None
    assert list(TableSocket.objects.values_list("channel", flat=True)) == ["live"]
    # Its grace ran out long ago: the next pass plays seat 3's decisions.
    assert presence.expired_positions(game.pk, now) == {3}


# --- the runner and the grace --------------------------------------------------------


@pytest.mark.django_db
def test_an_away_seat_is_waited_for_then_played_by_the_bot_until_its_player_returns(
    client,
) -> None:
    game = start_table("partisans", 5)  # no turn clock at all
    leader = public_view(game)["leader"]
    leave(game, leader, 10)
    assert services.clocks_run_once() == 0  # still within the grace
    leave(game, leader, presence.grace().seconds + 1)
    assert services.clocks_run_once() == 1
    game.refresh_from_db()
    action = GameAction.objects.get(game=game)
    assert action.by_bot and action.position == leader
    assert game.bot_marks == [[1, leader]]
    assert game.phase == "vote"
    # The table says so, the same on every screen.
    name = Seat.objects.get(game=game, position=leader).user.display_name
    pages = []
    with translation.override("en"):
        # Not the away player's page: opening it brings her back.
        for position, user in seated_users(game).items():
            if position == leader:
                continue
            client.force_login(user)
            html = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en")
            pages.append(html.content.decode())
    for html in pages:
        assert 'data-bot-mark="1"' in html
        assert name in html.split('id="bot-moves"')[1].split("</details>")[0]
    # The vote: the away seat's ballot is cast by the bot (its content stays secret),
    # the others' are theirs.
    users = seated_users(game)
    for position, user in users.items():
        if position != leader:
            services.game_act(
                game=game,
                user=user,
                action={"type": "vote", "approve": True},
                turn=game.turn,
            )
    assert services.clocks_run_once() == 1
    game.refresh_from_db()
    assert [leader] == [p for _, p in game.bot_marks[1:]]
    # She returns: her decisions wait for her again, however long (no clock).
    Seat.objects.filter(game=game, position=leader).update(away_since=None)
    before = GameAction.objects.count()
    assert services.clocks_run_once(timezone.now() + dt.timedelta(days=1)) == 0
    assert GameAction.objects.count() == before


@pytest.mark.django_db
def test_a_decision_the_table_cannot_see_awaited_is_played_but_not_marked() -> None:
    """The sniper's shot: the spectator does not see whom the table waits for, so a
    mark would name the sniper. The bot shoots for an away sniper; no mark says so."""
    game = start_table("partisans", 5, {"scout": True})
    for _ in range(200):
        game.refresh_from_db()
        if (
            game.phase != "proposal"
            and game.phase != "vote"
            and game.phase != "mission"
        ):
            break
        # Every team approved, every card a success: good wins three missions.
        state = services.load_state(game)
        seat = min(engine.waiting_for(state))
        spec = engine.legal_actions(state, seat)[0]
        action = {
            "propose": {"type": "propose", "team": spec.get("among", [])[:2]},
            "vote": {"type": "vote", "approve": True},
            "play": {"type": "play", "card": "success"},
        }[spec["type"]]
        if spec["type"] == "propose":
            action["team"] = spec["among"][: spec["size"]]
        services.game_act(
            game=game, user=seated_users(game)[seat], action=action, turn=game.turn
        )
    assert game.phase == "sniper"
    assert public_view(game)["waiting_for"] == []
    (sniper,) = engine.waiting_for(services.load_state(game))
    marks = list(game.bot_marks)
    leave(game, sniper, presence.grace().seconds + 1)
    assert services.clocks_run_once() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    last = GameAction.objects.filter(game=game).order_by("-number").first()
    assert last is not None and last.by_bot and last.position == sniper
    assert game.bot_marks == marks


@pytest.mark.django_db
def test_the_review_and_the_replay_mark_the_bots_moves(client) -> None:
    game = clocked_table(60)
    leader = public_view(game)["leader"]
    name = Seat.objects.get(game=game, position=leader).user.display_name
    services.clocks_run_once(later(game))  # the proposal timed out
    game.refresh_from_db()
    assert game.bot_marks == [[1, leader]]
    services.game_abandon(game=game, user=game.host)
    client.force_login(game.host)
    review = client.get(f"/history/g/{game.code}/", HTTP_ACCEPT_LANGUAGE="en")
    html = review.content.decode()
    assert review.status_code == 200, html[:500]
    assert "data-bot-moves" in html and 'data-bot-mark="1"' in html
    assert name in html
    step = client.get(
        f"/history/g/{game.code}/?step=1", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "played by the bot for" in step.split('class="replay-step"')[1][:800]


# --- two runners, and a restart -------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_runner_threads_play_a_time_out_once() -> None:
    """On either database: the row lock (PostgreSQL) or the writer lock (SQLite)."""
    game = clocked_table(30)
    propose(game)
    now = later(game)
    start = threading.Barrier(2)
    played: list[int] = []

    def runner() -> None:
        try:
            start.wait(timeout=10)
            played.append(services.clocks_run_once(now))
        finally:
            connection.close()

    threads = [threading.Thread(target=runner) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(played) == [0, 5]
    assert Vote.objects.count() == 5
    assert GameAction.objects.filter(game=game, by_bot=True).count() == 5


def _runner(args: list[str]) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DJANGO_TEST_DATABASE_NAME": str(connection.settings_dict["NAME"]),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return subprocess.Popen(
        [sys.executable, "manage.py", "run_clocks", *args],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


@pytest.mark.django_db(transaction=True)
def test_two_runner_processes_play_a_time_out_once_and_a_restarted_one_finds_it() -> (
    None
):
    """Two ``run_clocks`` processes race on a vote that timed out while no runner
    was up (the deadline is a row: a process started later still finds it): each
    missing ballot is cast once. A third, "restarted" runner finds nothing left."""
    game = clocked_table(30)
    propose(game)
    later(game, seconds=5)
    runners = [_runner(["--once", "-v", "2"]) for _ in range(2)]
    outputs = [runner.communicate(timeout=120)[0].decode() for runner in runners]
    assert [runner.returncode for runner in runners] == [0, 0], outputs
    assert Vote.objects.count() == 5
    assert GameAction.objects.filter(game=game, by_bot=True).count() == 5
    assert sorted("5 move(s)" in out for out in outputs) == [False, True], outputs
    game.refresh_from_db()
    version = game.version
    again = _runner(["--once", "-v", "2"])
    out = again.communicate(timeout=120)[0].decode()
    assert again.returncode == 0, out
    game.refresh_from_db()
    # The next decision's clock has only just started: nothing more is due.
    assert game.version == version and "move(s)" not in out
