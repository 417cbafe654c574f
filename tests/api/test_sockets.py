"""The table socket for programs: token authentication and the JSON mode. One
communicator per seat; each test checks what every seat must not receive as well
as what it must."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.utils import translation
from django.utils.translation import gettext

from api.models import ApiToken
from config.asgi import application
from games import engine
from games.engine import oracle
from games.families.resistance.engine import NotLeader
from tests.api.sockets import close_all, drain, next_message, open_socket, view_at
from tests.api.support import (
    Api,
    act,
    by_seat,
    open_table,
    play_until,
    program,
    state_of,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture(autouse=True)
async def _close_database_thread() -> AsyncIterator[None]:
    """The thread ``sync_to_async`` runs in keeps a connection of its own; close it,
    or PostgreSQL cannot drop the test database at the end."""
    yield
    await sync_to_async(connections.close_all)()


ORIGIN = [(b"origin", b"http://127.0.0.1")]


@sync_to_async
def started(
    ruleset: str = "partisans", seats: int = 5, **options: Any
) -> tuple[str, dict[int, Api]]:
    code, players = open_table(ruleset, seats, options)
    return code, by_seat(code, players)


@sync_to_async
def leaks(code: str, seat: int | None, payload: Any) -> list[Any]:
    return oracle.find_leaks(state_of(code), seat, payload)


@sync_to_async
def public_view(code: str) -> dict[str, Any]:
    return engine.view(state_of(code), None)


async def test_anonymous_socket_is_refused() -> None:
    code, _ = await started()
    for headers in ([], ORIGIN):
        communicator = WebsocketCommunicator(
            application, f"/ws/table/{code}/?format=json", headers=headers
        )
        connected, close_code = await communicator.connect(timeout=30)
        assert not connected
        assert close_code in (4401, 1000)
        await communicator.disconnect()


async def test_bad_or_revoked_token_is_refused() -> None:
    code, seats = await started()
    for header in (b"Token nonsense", b"Bearer abc", b"Token"):
        communicator = WebsocketCommunicator(
            application,
            f"/ws/table/{code}/?format=json",
            headers=[(b"authorization", header), *ORIGIN],
        )
        connected, close_code = await communicator.connect(timeout=30)
        assert not connected
        assert close_code == 4401
    player = seats[0]
    await sync_to_async(player.delete)("auth/token")
    _, connected, close_code = await open_socket(player, code)
    assert not connected
    assert close_code == 4401


async def test_token_socket_needs_no_origin_and_unknown_table_is_4404() -> None:
    code, seats = await started()
    communicator, connected, _ = await open_socket(seats[0], code)
    assert connected
    await communicator.disconnect()
    _, connected, close_code = await open_socket(seats[0], "no-such-table")
    assert not connected
    assert close_code == 4404


async def test_each_seat_gets_only_its_own_view() -> None:
    code, seats = await started("partisans", 7, scout=True, check=True)
    spectator = await sync_to_async(program)()
    sockets = {}
    for position, player in seats.items():
        sockets[position], connected, _ = await open_socket(player, code)
        assert connected
    watcher, connected, _ = await open_socket(spectator, code)
    assert connected
    for position, communicator in sockets.items():
        first = await next_message(communicator)
        assert first["type"] == "view"
        assert first["seat"] == position
        assert first["view"]["me"]["seat"] == position
        assert await leaks(code, position, first) == []
    snapshot = await next_message(watcher)
    assert snapshot["seat"] is None and snapshot["view"]["me"] is None
    assert await leaks(code, None, snapshot) == []

    leader = (await public_view(code))["leader"]
    move = {"type": "propose", "team": [0, 1, 2][:2]}
    answer = await sync_to_async(act)(seats[leader], code, move)
    assert answer.status == 200
    for position, communicator in sockets.items():
        log: list[dict[str, Any]] = []
        pushed = await view_at(communicator, 1, log)
        assert pushed["seat"] == position
        assert pushed["view"]["phase"] == "vote"
        assert pushed["view"]["me"]["seat"] == position
        for message in log:
            assert await leaks(code, position, message) == []
        assert await drain(communicator) == []
    pushed = await view_at(watcher, 1, [])
    assert pushed["view"]["me"] is None
    assert await drain(watcher) == []
    await close_all([*sockets.values(), watcher])


async def test_a_vote_in_progress_reaches_nobody_else() -> None:
    code, seats = await started("partisans", 5)
    leader = (await public_view(code))["leader"]
    await sync_to_async(act)(seats[leader], code, {"type": "propose", "team": [0, 1]})
    sockets = {p: (await open_socket(player, code))[0] for p, player in seats.items()}
    for communicator in sockets.values():
        await next_message(communicator)
    voter = (leader + 1) % 5
    await sync_to_async(act)(seats[voter], code, {"type": "vote", "approve": False})
    for position, communicator in sockets.items():
        pushed = await view_at(communicator, 2, [])
        assert pushed["view"]["proposal"]["voted"] == [voter]
        assert pushed["view"]["proposal"]["votes"] is None
        assert pushed["view"]["me"]["vote"] is (False if position == voter else None)
        assert await leaks(code, position, pushed) == []
    await close_all(list(sockets.values()))


async def test_act_over_the_socket() -> None:
    code, seats = await started("werewolves", 6)
    sockets = {p: (await open_socket(player, code))[0] for p, player in seats.items()}
    for communicator in sockets.values():
        await next_message(communicator)
    leader = (await public_view(code))["leader"]
    mine = sockets[leader]
    await mine.send_json_to(
        {"type": "act", "action": {"type": "propose", "team": [1, 2]}, "turn": 0}
    )
    log: list[dict[str, Any]] = []
    while True:
        message = await next_message(mine)
        log.append(message)
        if message["type"] == "acted":
            break
    assert log[-1] == {"type": "acted", "version": 1, "turn": 1}
    for position, communicator in sockets.items():
        pushed = await view_at(communicator, 1, [])
        assert pushed["view"]["proposal"]["team"] == [1, 2]
        assert await leaks(code, position, pushed) == []
    await close_all(list(sockets.values()))


async def test_refused_moves_and_messages_over_the_socket() -> None:
    code, seats = await started("partisans", 5)
    leader = (await public_view(code))["leader"]
    other = (leader + 1) % 5
    mine, _, _ = await open_socket(seats[other], code)
    await next_message(mine)

    await mine.send_json_to(
        {"type": "act", "action": {"type": "propose", "team": [0, 1]}, "turn": 0}
    )
    error = await next_message(mine)
    assert error["type"] == "error"
    assert error["code"] == "not_leader"
    fresh = await next_message(mine)
    assert fresh["type"] == "view" and fresh["version"] == 0

    await mine.send_json_to(
        {"type": "act", "action": {"type": "propose", "team": [0, 1]}, "turn": 7}
    )
    assert (await next_message(mine))["code"] == "table_moved_on"
    assert (await next_message(mine))["type"] == "view"

    for bad, code_expected in (
        ({"type": "act", "action": {"type": "vote"}, "turn": 0}, "missing_field"),
        ({"type": "act", "action": {"type": "vote", "approve": 1}, "turn": 0}, None),
        ({"type": "dance"}, "invalid_choice"),
        ({"type": "act", "turn": 0, "seat": 1, "action": {}}, "unknown_field"),
        ({"type": "chat", "text": "x" * 301}, "out_of_range"),
    ):
        await mine.send_json_to(bad)
        error = await next_message(mine)
        assert error["type"] == "error"
        if code_expected:
            assert error["code"] == code_expected
        assert await drain(mine) == []
    await mine.send_to(text_data="{not json")
    assert (await next_message(mine))["code"] == "invalid_json"
    await mine.send_to(text_data="[1, 2]")
    assert (await next_message(mine))["code"] == "invalid_json"
    assert await drain(mine) == []
    await mine.disconnect()


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_errors_in_the_programs_language(language: str) -> None:
    with translation.override(language):
        text = gettext(NotLeader.template)
    accept = language.encode()
    code, seats = await started("partisans", 5)
    leader = (await public_view(code))["leader"]
    communicator, _, _ = await open_socket(
        seats[(leader + 1) % 5], code, headers=[(b"accept-language", accept)]
    )
    await next_message(communicator)
    await communicator.send_json_to(
        {"type": "act", "action": {"type": "propose", "team": [0, 1]}, "turn": 0}
    )
    error = await next_message(communicator)
    assert error["code"] == "not_leader"
    assert error["message"] == text
    await communicator.disconnect()


async def test_chat_reaches_only_those_who_may_read_it() -> None:
    code, seats = await started("partisans", 5, scout=True)
    await sync_to_async(play_until)(code, seats, "sniper")
    spectator = await sync_to_async(program)()
    sockets = {p: (await open_socket(player, code))[0] for p, player in seats.items()}
    watcher, _, _ = await open_socket(spectator, code)
    evil = set()
    for position, communicator in sockets.items():
        snapshot = await next_message(communicator)
        if snapshot["view"]["me"]["side"] == "evil":
            evil.add(position)
    await next_message(watcher)
    author = min(evil)
    await sockets[author].send_json_to(
        {"type": "chat", "text": "the scout is 2", "channel": "evil"}
    )
    for position, communicator in sockets.items():
        if position in evil:
            message = await next_message(communicator)
            assert message["type"] == "chat"
            assert message["message"]["channel"] == "evil"
            assert message["message"]["text"] == "the scout is 2"
        assert await drain(communicator) == []
    assert await drain(watcher) == []
    await sockets[min(set(seats) - evil)].send_json_to({"type": "chat", "text": "hi"})
    for communicator in [*sockets.values(), watcher]:
        message = await next_message(communicator)
        assert message["message"]["channel"] == "table"
        assert message["message"]["text"] == "hi"
    await close_all([*sockets.values(), watcher])


async def test_revoking_the_token_closes_its_sockets() -> None:
    code, seats = await started()
    communicator, _, _ = await open_socket(seats[0], code)
    await next_message(communicator)
    other, _, _ = await open_socket(seats[1], code)
    await next_message(other)
    await sync_to_async(seats[0].delete)("auth/token")
    closed = await communicator.receive_output(timeout=30)
    assert closed == {"type": "websocket.close", "code": 4401}
    assert not await sync_to_async(ApiToken.objects.filter(user=seats[0].user).exists)()
    assert await drain(other) == []
    await other.disconnect()


async def test_html_mode_is_unchanged_for_a_token_socket() -> None:
    code, seats = await started()
    communicator, connected, _ = await open_socket(seats[0], code, json_mode=False)
    assert connected
    html = await communicator.receive_from(timeout=30)
    assert html.lstrip().startswith("<")
    assert await leaks(code, 0, html) == []
    await communicator.disconnect()


@sync_to_async
def _pushed_and_selected(code: str, users: list[Any]) -> list[tuple[Any, Any]]:
    """What the JSON socket pushes each user (its frame, from the table its room
    holds) beside what ``games.selectors.seat_view`` reads afresh."""
    from api.sockets import JsonSeatConsumer
    from games.models import Game
    from games.selectors import seat_view
    from live import table as tables

    game_row = Game.objects.get(code=code)
    table = tables.read(game_row.pk, code)
    assert table is not None
    pairs = []
    for user in users:
        socket = JsonSeatConsumer()
        socket.scope = {"user": user}
        frame = socket.table_frame(table, None)  # type: ignore[arg-type]
        assert frame is not None
        pairs.append((json.loads(frame), seat_view(game_row, user)))
    return pairs


async def test_pushed_views_are_the_selectors_views() -> None:
    """A room reads a table once for all its sockets; what it sends each seat is
    exactly what ``seat_view`` gives that seat, at every step."""
    code, seats = await started("partisans", 6, scout=True, check=True)
    stranger = await sync_to_async(program)()
    users = [*(p.user for p in seats.values()), stranger.user, None]
    for _ in range(12):
        for pushed, ctx in await _pushed_and_selected(code, users):
            assert pushed["view"] == ctx.view
            assert pushed["seat"] == ctx.position
            assert pushed["version"] == ctx.game.version
            assert pushed["turn"] == ctx.game.turn
            assert pushed["players"] == [
                {
                    "position": p.position,
                    "username": p.username,
                    "name": p.name,
                    "host": p.is_host,
                }
                for p in ctx.players
            ]
        state = await sync_to_async(state_of)(code)
        seat, action = engine.random_action(state, random.Random(7))
        await sync_to_async(act)(seats[seat], code, action)
