"""The table's WebSocket: one communicator per seat. Each seat receives its own
rendering after every change, a reconnect is a full snapshot, and nothing a seat may
not know ever arrives on its socket."""

from __future__ import annotations

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client

from config.asgi import application
from games import engine, hooks, push, services
from games.engine import oracle
from games.models import Game
from games.state import load_state
from live import room as rooms
from tests.factories import UserFactory
from tests.games.conftest import play_until, seated_users, start_table
from tests.games.test_leaks import secret_words

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30  # a bound on waiting for an event, not a timing: a loaded machine is slow


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def connect(user, code: str) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if user is not None:
        cookie = await sync_to_async(_session_cookie)(user)
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{code}/", headers=headers
    )
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    return communicator


async def drain(communicator: WebsocketCommunicator) -> list[str]:
    """Every message waiting on this socket."""
    messages = []
    while not await communicator.receive_nothing(timeout=0.2):
        messages.append(await communicator.receive_from(timeout=TIMEOUT))
    return messages


async def test_anonymous_and_unknown_tables_are_refused() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    anonymous = WebsocketCommunicator(
        application,
        f"/ws/table/{game.code}/",
        headers=[(b"origin", b"http://127.0.0.1")],
    )
    connected, code = await anonymous.connect(timeout=30)
    assert not connected and code == 4401
    user = await sync_to_async(UserFactory)()
    cookie = await sync_to_async(_session_cookie)(user)
    unknown = WebsocketCommunicator(
        application,
        "/ws/table/nosuchtable/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )
    connected, code = await unknown.connect(timeout=30)
    assert not connected and code == 4404


async def test_each_seat_gets_its_own_snapshot_and_pushes_without_leaks() -> None:
    game = await sync_to_async(start_table)(
        "partisans", 7, {"scout": True, "check": True}
    )
    users = await sync_to_async(seated_users)(game)
    spectator = await sync_to_async(UserFactory)()
    sockets = {
        position: await connect(user, game.code) for position, user in users.items()
    }
    sockets[None] = await connect(spectator, game.code)
    words = secret_words("partisans")
    state = await sync_to_async(load_state)(game)
    for position, socket in sockets.items():
        snapshot = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="table-live"' in snapshot and 'hx-swap-oob="true"' in snapshot
        assert not oracle.find_leaks(state, position, snapshot, words)
        if position is not None:
            assert f'data-seat="{position}" data-side=' in snapshot  # its own card
    rng = random.Random(5)
    for _ in range(40):
        await sync_to_async(game.refresh_from_db)()
        if game.status != Game.Status.PLAYING:
            break
        state = await sync_to_async(load_state)(game)
        seat, action = engine.random_action(state, rng)
        await sync_to_async(services.game_act)(
            game=game, user=users[seat], action=action, turn=game.turn
        )
        await sync_to_async(game.refresh_from_db)()
        state = await sync_to_async(load_state)(game)
        for position, socket in sockets.items():
            message = await socket.receive_from(timeout=TIMEOUT)
            assert f'data-version="{game.version}"' in message
            assert not oracle.find_leaks(state, position, message, words), position
    for socket in sockets.values():
        await socket.disconnect()


async def test_a_move_over_the_socket_and_a_stale_one() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    state = await sync_to_async(load_state)(game)
    leader = engine.view(state, None)["leader"]
    socket = await connect(users[leader], game.code)
    await socket.receive_from(timeout=TIMEOUT)
    await socket.send_json_to(
        {
            "action": "propose",
            "team": ["0", "1"],
            "turn": "0",
            "HEADERS": {"HX-Request": "true"},
        }
    )
    pushed = await socket.receive_from(timeout=TIMEOUT)
    assert 'data-version="1"' in pushed
    # The same move again, on the old turn: an error for this socket and a fresh view.
    await socket.send_json_to({"action": "propose", "team": ["0", "1"], "turn": "0"})
    replies = [await socket.receive_from(timeout=TIMEOUT) for _ in range(2)]
    assert any('id="table-error"' in r and "message error" in r for r in replies)
    assert any('data-version="1"' in r for r in replies)
    # Garbage is refused without closing the socket.
    await socket.send_to(text_data="[1, 2, 3]")
    assert 'id="table-error"' in await socket.receive_from(timeout=TIMEOUT)
    await socket.disconnect()


async def test_reconnect_is_the_same_snapshot_as_a_refresh() -> None:
    game = await sync_to_async(start_table)("werewolves", 6)
    await sync_to_async(play_until)(game, random.Random(2), lambda g: g.version >= 9)
    users = await sync_to_async(seated_users)(game)
    first = await connect(users[3], game.code)
    before = await first.receive_from(timeout=TIMEOUT)
    await first.disconnect()
    second = await connect(users[3], game.code)
    after = await second.receive_from(timeout=TIMEOUT)
    await second.disconnect()
    assert before == after

    def page() -> str:
        client = Client()
        client.force_login(users[3])
        return client.get(
            game.get_absolute_url() + "?fragment=live", headers={"hx-request": "true"}
        ).content.decode()

    fragment = await sync_to_async(page)()
    # The page's fragment is the same live area, without the out-of-band marker.
    assert (
        fragment.replace(' hx-swap-oob="true"', "").split("data-turn")[1][:40]
        == after.replace(' hx-swap-oob="true"', "").split("data-turn")[1][:40]
    )


async def _at_the_sniper() -> Game:
    """A five-seat game with the scout, played at random to the sniper's shot."""
    for seed in range(60):
        game = await sync_to_async(start_table)("partisans", 5, {"scout": True})
        game = await sync_to_async(play_until)(
            game, random.Random(seed), lambda g: g.phase == "sniper"
        )
        if game.phase == "sniper":
            return game
    pytest.fail("no random game reached the sniper phase")


async def test_the_evil_channel_reaches_evil_seats_only() -> None:
    game = await _at_the_sniper()
    users = await sync_to_async(seated_users)(game)
    state = await sync_to_async(load_state)(game)
    sides = {p: engine.view(state, p)["me"]["side"] for p in users}
    spectator = await sync_to_async(UserFactory)()
    sockets = {p: await connect(u, game.code) for p, u in users.items()}
    sockets[None] = await connect(spectator, game.code)
    for socket in sockets.values():
        await drain(socket)
    evil = next(p for p, side in sides.items() if side == "evil")
    await sync_to_async(services.chat_post)(
        game=game,
        user=users[evil],
        text="целимся в третьего",
        channel="evil",
    )
    for position, socket in sockets.items():
        received = await drain(socket)
        text = "".join(received)
        if position is not None and sides[position] == "evil":
            assert "целимся в третьего" in text
        else:
            assert received == [], position
    for socket in sockets.values():
        await socket.disconnect()


async def test_the_push_that_ends_a_game_opens_the_sides_channels_to_everyone() -> None:
    """A finished game's private channels are open to every seat and spectator:
    every socket's last push shows them, from the lines its room holds."""
    game = await _at_the_sniper()
    users = await sync_to_async(seated_users)(game)
    state = await sync_to_async(load_state)(game)
    evil = next(p for p in users if engine.view(state, p)["me"]["side"] == "evil")
    await sync_to_async(services.chat_post)(
        game=game, user=users[evil], text="целимся в третьего", channel="evil"
    )
    spectator = await sync_to_async(UserFactory)()
    sockets = [await connect(u, game.code) for u in [*users.values(), spectator]]
    for socket in sockets:
        await drain(socket)
    game = await sync_to_async(play_until)(game, random.Random(0), lambda g: False)
    assert game.status == Game.Status.FINISHED
    for socket in sockets:
        text = "".join(await drain(socket))
        assert 'data-status="finished"' in text
        assert "целимся в третьего" in text
        await socket.disconnect()


async def test_table_chat_reaches_everyone_at_the_table() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    sockets = [await connect(u, game.code) for u in users.values()]
    for socket in sockets:
        await drain(socket)
    await sockets[0].send_json_to({"text": "<b>привет</b>", "channel": "table"})
    for socket in sockets:
        message = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="chat-table-messages"' in message
        assert "&lt;b&gt;привет&lt;/b&gt;" in message and "<b>привет" not in message
    for socket in sockets:
        await socket.disconnect()


async def test_a_dropped_connection_loses_nothing() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    socket = await connect(users[1], game.code)
    await socket.receive_from(timeout=TIMEOUT)
    await socket.disconnect()
    # While the player is away the table moves on.
    await sync_to_async(play_until)(game, random.Random(4), lambda g: g.version >= 6)
    socket = await connect(users[1], game.code)
    snapshot = await socket.receive_from(timeout=TIMEOUT)
    await sync_to_async(game.refresh_from_db)()
    assert f'data-version="{game.version}"' in snapshot
    await socket.disconnect()
    await asyncio.sleep(0)


# --- One address, two sockets ---------------------------------------------------------


async def connect_json(user, code: str) -> WebsocketCommunicator:
    """A page's session opening the JSON socket (as a program may, with a cookie)."""
    cookie = await sync_to_async(_session_cookie)(user)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/table/{code}/?format=json",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    return communicator


async def test_the_query_picks_the_socket_and_both_show_the_same_seat() -> None:
    game = await sync_to_async(start_table)("partisans", 5, {"scout": True})
    users = await sync_to_async(seated_users)(game)
    state = await sync_to_async(load_state)(game)
    words = secret_words("partisans")
    for position, user in users.items():
        html = await connect(user, game.code)
        page = await html.receive_from(timeout=TIMEOUT)
        program = await connect_json(user, game.code)
        seat = await program.receive_json_from(timeout=TIMEOUT)
        assert page.lstrip().startswith("<") and 'id="table-live"' in page
        assert seat["type"] == "view" and seat["seat"] == position
        assert seat["view"] == engine.view(state, position)
        assert f'data-seat="{position}" data-side="{seat["view"]["me"]["side"]}"' in (
            page
        )
        assert not oracle.find_leaks(state, position, page, words)
        assert not oracle.find_leaks(state, position, seat)
        await html.disconnect()
        await program.disconnect()


async def test_a_move_from_either_socket_reaches_both() -> None:
    game = await sync_to_async(start_table)("werewolves", 5)
    users = await sync_to_async(seated_users)(game)
    leader = engine.view(await sync_to_async(load_state)(game), None)["leader"]
    page = await connect(users[leader], game.code)
    program = await connect_json(users[(leader + 1) % 5], game.code)
    await page.receive_from(timeout=TIMEOUT)
    await program.receive_json_from(timeout=TIMEOUT)
    await page.send_json_to({"action": "propose", "team": ["0", "1"], "turn": "0"})
    assert 'data-version="1"' in await page.receive_from(timeout=TIMEOUT)
    pushed = await program.receive_json_from(timeout=TIMEOUT)
    assert (pushed["version"], pushed["view"]["phase"]) == (1, "vote")
    await program.send_json_to(
        {"type": "act", "action": {"type": "vote", "approve": True}, "turn": 1}
    )
    replies = [await program.receive_json_from(timeout=TIMEOUT) for _ in range(2)]
    assert {"type": "acted", "version": 2, "turn": 1} in replies
    assert 'data-version="2"' in await page.receive_from(timeout=TIMEOUT)
    await page.disconnect()
    await program.disconnect()


async def test_frames_that_are_not_json_are_answered_on_both_sockets() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    page = await connect(users[0], game.code)
    program = await connect_json(users[1], game.code)
    await page.receive_from(timeout=TIMEOUT)
    await program.receive_json_from(timeout=TIMEOUT)
    for frame in ("{not json", '{"a": 1, "a": 2}', '{"turn": NaN}'):
        await page.send_to(text_data=frame)
        assert 'id="table-error"' in await page.receive_from(timeout=TIMEOUT)
        await program.send_to(text_data=frame)
        error = await program.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["code"]) == ("error", "invalid_json")
    assert await drain(page) == []
    assert await drain(program) == []
    await page.disconnect()
    await program.disconnect()


async def test_losing_access_closes_both_sockets() -> None:
    """A club removing a member (``access_changed``): every socket of a viewer who
    may no longer reach the table is closed with 4404, the others stay open."""
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    outsider = users[2]
    page = await connect(outsider, game.code)
    program = await connect_json(outsider, game.code)
    other = await connect(users[3], game.code)
    for socket in (page, program, other):
        await socket.receive_from(timeout=TIMEOUT)

    def shut_out(table: Game, user: object) -> hooks.Access | None:
        return hooks.Access.NONE if user == outsider else None

    hooks.table_rules.append(shut_out)
    try:
        await sync_to_async(_access_changed)(game)
        for socket in (page, program):
            closed = await socket.receive_output(timeout=TIMEOUT)
            assert closed == {"type": "websocket.close", "code": 4404}
        assert await drain(other) == []
    finally:
        hooks.table_rules.remove(shut_out)
    await other.disconnect()


def _access_changed(game: Game) -> None:
    with transaction.atomic():
        push.access_changed_on_commit(game)


async def test_a_tables_room_goes_when_its_last_screen_here_closes() -> None:
    """What this process keeps of a table (its room: the table, its drawings) goes
    when the table's last socket here closes, and not before: another table's
    stays, and a screen that opens there again is drawn afresh and pushed to as
    before."""
    first = await sync_to_async(start_table)("partisans", 5)
    second = await sync_to_async(start_table)("partisans", 5)
    first_users = await sync_to_async(seated_users)(first)
    second_users = await sync_to_async(seated_users)(second)
    one = await connect(first_users[0], first.code)
    two = await connect(first_users[1], first.code)
    elsewhere = await connect(second_users[0], second.code)
    rng = random.Random(3)
    for game in (first, second):
        await sync_to_async(play_until)(game, rng, lambda g: g.version >= 3)
    for socket in (one, two, elsewhere):
        assert any('data-version="' in frame for frame in await drain(socket))
    assert rooms.room_of(first.pk) is not None
    assert rooms.room_of(second.pk) is not None

    await one.disconnect()
    assert rooms.room_of(first.pk) is not None  # a screen is still open there
    await two.disconnect()
    assert rooms.room_of(first.pk) is None
    assert rooms.room_of(second.pk) is not None

    again = await connect(first_users[0], first.code)
    first = await sync_to_async(Game.objects.get)(pk=first.pk)
    assert f'data-version="{first.version}"' in (await drain(again))[0]
    await sync_to_async(play_until)(
        first, rng, lambda g: g.version >= first.version + 1
    )
    first = await sync_to_async(Game.objects.get)(pk=first.pk)
    pushed = await drain(again)
    assert any(f'data-version="{first.version}"' in frame for frame in pushed)
    await again.disconnect()
    await elsewhere.disconnect()
    assert rooms.room_of(first.pk) is None and rooms.room_of(second.pk) is None
