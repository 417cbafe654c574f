"""Complete random Partisan (Mafia) games played by programs through the API and the
JSON socket: ten players and the moderator (the host, seat -1), each with a token.
Every API answer and every socket message that reaches a seat, the moderator or a
spectator goes through the engine's leak oracle for that viewer and must conform to
the published schema; the moderator's moves go through the same doors as the
players'. At the first main night a mafia member writes to the mafia's channel:
only the mafia in the game and the moderator hear it."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connections

from games import engine
from games.families.mafia.engine.knowledge import mafia_team
from tests.api.sockets import close_all, drain, next_message, open_socket
from tests.api.support import Api, by_seat, conforms, program
from tests.api.test_random_games import Table, _call, _sampled, game_status

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

RULESET = "mafia_partisan"


@pytest_asyncio.fixture(autouse=True)
async def _close_database_thread() -> AsyncIterator[None]:
    """The thread ``sync_to_async`` runs in keeps a connection of its own; close it,
    or PostgreSQL cannot drop the test database at the end."""
    yield
    await sync_to_async(connections.close_all)()


def _check_message(table: Table, seat: int | None, message: dict[str, Any]) -> None:
    """A message for ``seat``: its schema, its own view, and the leak oracle. The
    moderator's envelope names his seat as his view does: -1."""
    if message["type"] == "view":
        if _sampled(message["version"]):
            conforms(message, "SocketView")
        assert message["seat"] == seat
        if seat == engine.MODERATOR:
            assert message["view"]["me"]["seat"] == engine.MODERATOR
    table.assert_no_leaks(seat, message, message["version"])


async def _read_pushes(
    table: Table, version: int, done: frozenset[int | None] = frozenset()
) -> None:
    """Every socket (but those in ``done``) reads up to the view of ``version``,
    each message checked for the socket's own viewer."""
    for seat, communicator in table.sockets.items():
        while seat not in done:
            message = await next_message(communicator)
            _check_message(table, seat, message)
            if message["type"] == "view" and message["version"] >= version:
                break


def _open(options: dict[str, Any]) -> tuple[str, Api, list[Api]]:
    """The host opens a table through the API (he moderates: no seat), ten programs
    join, he starts it."""
    host = program()
    created = host.post("tables", {"ruleset": RULESET, "seats": 10, "options": options})
    assert created.status == 201, created.body
    code = created.body["code"]
    players = []
    for _ in range(10):
        guest = program()
        joined = guest.post(f"tables/{code}/join")
        assert joined.status == 200, joined.body
        players.append(guest)
    started = host.post(f"tables/{code}/start")
    assert started.status == 200, started.body
    return code, host, players


async def _setup(options: dict[str, Any]) -> Table:
    code, host, players = await sync_to_async(_open)(options)
    seats = await sync_to_async(by_seat)(code, players)
    assert sorted(seats) == list(range(10))
    seats[engine.MODERATOR] = host
    table = Table(code, seats, await sync_to_async(program)())
    await table.remember_state()
    for seat, player in [*seats.items(), (None, table.spectator)]:
        communicator, connected, _ = await open_socket(player, code)
        assert connected
        table.sockets[seat] = communicator
    await _read_pushes(table, 0)
    return table


async def _mafia_chat(table: Table, version: int) -> None:
    """A mafia member in the game writes to the mafia's channel at night: the mafia
    in the game and the moderator hear it, nobody else."""
    state = table.states[version]
    team = [seat for seat in mafia_team(state) if state.in_game[seat]]
    hearers = {*team, engine.MODERATOR}
    answer = await sync_to_async(table.seats[team[0]].post)(
        f"tables/{table.code}/chat", {"text": "the nurse is 4", "channel": "mafia"}
    )
    assert answer.status == 201, answer.body
    for seat, communicator in table.sockets.items():
        if seat in hearers:
            message = await next_message(communicator)
            assert message["type"] == "chat"
            conforms(message, "SocketChatMessage")
        assert await drain(communicator) == []
    for seat, player in table.seats.items():
        listed = await sync_to_async(player.get)(f"tables/{table.code}/chat")
        assert ("mafia" in listed.body["channels"]) == (seat in hearers), seat
        table.assert_no_leaks(seat, listed.body, version)


@pytest.mark.parametrize(
    "options",
    [{}, {"inquiry_reading": "counts", "ballot": "one", "mafia_may_pass": True}],
    ids=["defaults", "house"],
)
async def test_random_game_leaks_nothing(options: dict[str, Any]) -> None:
    rng = random.Random(f"mafia-{sorted(options)}")
    table = await _setup(options)
    version = 0
    moves = moderated = 0
    chatted = False
    while True:
        state = table.states[version]
        if engine.outcome(state) is not None:
            break
        public = engine.view(state, None)
        if not chatted and public["phase"] == "night" and public["night"]["number"]:
            await _mafia_chat(table, version)
            chatted = True
        seat, action = engine.random_action(state, rng)
        player = table.seats[seat]
        own = await sync_to_async(player.get)(f"tables/{table.code}/view")
        body = await _call(table, seat, own, version)
        assert seat in body["view"]["waiting_for"]
        assert action["type"] in {spec["type"] for spec in body["view"]["legal"]}
        moderated += seat == engine.MODERATOR
        if rng.random() < 0.3:
            mine = table.sockets[seat]
            await mine.send_json_to(
                {"type": "act", "action": action, "turn": body["turn"]}
            )
            before_acted = []
            while (message := await next_message(mine))["type"] != "acted":
                before_acted.append(message)
            version = await table.remember_state()
            assert message["version"] == version
            for early in before_acted:
                _check_message(table, seat, early)
            done = frozenset(
                {seat} if any(m.get("version") == version for m in before_acted) else ()
            )
            moves += 1
            await _read_pushes(table, version, done)
            continue
        answer = await sync_to_async(player.post)(
            f"tables/{table.code}/actions", {"action": action, "turn": body["turn"]}
        )
        assert answer.status == 200, answer.body
        version = await table.remember_state()
        assert answer.body["version"] == version
        await _call(table, seat, answer, version)
        moves += 1
        await _read_pushes(table, version)
    assert chatted and moderated
    assert await sync_to_async(game_status)(table) == "finished"
    final = engine.view(table.states[version], None)
    assert final["phase"] == "over" and final["ledger"]["nights"]
    for seat, player in [*table.seats.items(), (None, table.spectator)]:
        answer = await sync_to_async(player.get)(f"tables/{table.code}/view")
        body = await _call(table, seat, answer, version)
        assert len(body["view"]["roles"]) == 10
    for communicator in table.sockets.values():
        assert await drain(communicator) == []
    await close_all(list(table.sockets.values()))
    assert table.checked > moves * 10
