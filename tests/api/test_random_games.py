"""Complete random games of each Resistance-family game, 5 to 10 players, played by
programs through the API and the JSON socket. Every API answer and every socket
message that reaches a seat (or a spectator) goes through the engine's leak oracle
for that seat, and must conform to the published schema."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from games import engine
from games.engine import oracle
from tests.api.sockets import close_all, drain, next_message, open_socket
from tests.api.support import (
    Answer,
    Api,
    by_seat,
    conforms,
    game,
    open_table,
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


GAMES = [
    ("partisans", {"scout": True, "check": True}),
    ("trust_no_one", {}),
    ("werewolves", {}),
]
CASES = [
    pytest.param(ruleset, options, players, id=f"{ruleset}-{players}")
    for ruleset, options in GAMES
    for players in range(5, 11)
]


@dataclass
class Table:
    code: str
    seats: dict[int, Api]
    spectator: Api
    sockets: dict[int | None, WebsocketCommunicator] = field(default_factory=dict)
    states: dict[int, Any] = field(default_factory=dict)
    checked: int = 0

    async def remember_state(self) -> int:
        state = await sync_to_async(state_of)(self.code)
        version = await sync_to_async(lambda: game(self.code).version)()
        self.states[version] = state
        return version

    def assert_no_leaks(self, seat: int | None, payload: Any, version: int) -> None:
        leaks = oracle.find_leaks(self.states[version], seat, payload)
        assert leaks == [], (seat, leaks, payload)
        self.checked += 1


def _legal(view: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether ``action`` is among the moves the seat's own view offers."""
    for spec in view["legal"]:
        if spec["type"] != action["type"]:
            continue
        kind = action["type"]
        if kind == "propose":
            return len(action["team"]) == spec["size"] and set(action["team"]) <= set(
                spec["among"]
            )
        if kind == "vote":
            return action["approve"] in spec["choices"]
        if kind == "play":
            return action["card"] in spec["cards"]
        if kind == "claim":
            return action["side"] in spec["sides"]
        return action["target"] in spec["among"]
    return False


async def _call(table: Table, seat: int | None, answer: Answer, version: int) -> Any:
    """Check an HTTP answer meant for ``seat``: its schema and the leak oracle."""
    if answer.status == 200 and "view" in (answer.body or {}):
        if _sampled(version):
            conforms(answer.body, "ViewEnvelope")
    elif answer.code is not None:
        conforms(answer.body, "Error")
    table.assert_no_leaks(seat, answer.body, version)
    return answer.body


def _sampled(version: int) -> bool:
    """Schema checks cost ~10 ms each: every fourth version covers every phase."""
    return version % 4 == 0


def _check_message(table: Table, seat: int | None, message: dict[str, Any]) -> None:
    if message["type"] == "view":
        if _sampled(message["version"]):
            conforms(message, "SocketView")
        assert message["seat"] == seat
    table.assert_no_leaks(seat, message, message["version"])


async def _read_pushes(
    table: Table, version: int, done: frozenset[int | None] = frozenset()
) -> None:
    """Every socket (but those in ``done``) reads up to the view of ``version``;
    each message is checked for the socket's own seat against the state of the
    version it names."""
    for seat, communicator in table.sockets.items():
        while seat not in done:
            message = await next_message(communicator)
            _check_message(table, seat, message)
            if message["type"] == "view" and message["version"] >= version:
                break


async def _setup(ruleset: str, options: dict[str, Any], players: int) -> Table:
    code, joined = await sync_to_async(open_table)(ruleset, players, options)
    seats = await sync_to_async(by_seat)(code, joined)
    table = Table(code, seats, await sync_to_async(program)())
    await table.remember_state()
    for seat, player in [*seats.items(), (None, table.spectator)]:
        communicator, connected, _ = await open_socket(player, code)
        assert connected
        table.sockets[seat] = communicator
    await _read_pushes(table, 0)
    return table


async def _evil_chat(table: Table, version: int) -> None:
    """In the sniper phase an evil seat writes to its side: only evil seats hear."""
    sides = {
        seat: engine.view(table.states[version], seat)["me"]["side"]
        for seat in table.seats
    }
    evil = sorted(seat for seat, side in sides.items() if side == "evil")
    answer = await sync_to_async(table.seats[evil[0]].post)(
        f"tables/{table.code}/chat", {"text": "who is the scout?", "channel": "evil"}
    )
    assert answer.status == 201
    for seat, communicator in table.sockets.items():
        if seat in evil:
            message = await next_message(communicator)
            assert message["type"] == "chat"
            conforms(message, "SocketChatMessage")
        assert await drain(communicator) == []
    for seat, player in table.seats.items():
        listed = await sync_to_async(player.get)(f"tables/{table.code}/chat")
        conforms(listed.body, "ChatList")
        assert ("evil" in listed.body["channels"]) == (seat in evil)
        table.assert_no_leaks(seat, listed.body, version)


async def _stale_attempt(table: Table, rng: random.Random, version: int) -> None:
    """Someone acts on a decision that has passed: 409 and a fresh view."""
    seat = rng.choice(sorted(table.seats))
    body = {"action": {"type": "vote", "approve": True}, "turn": 10_000}
    answer = await sync_to_async(table.seats[seat].post)(
        f"tables/{table.code}/actions", body
    )
    assert answer.status == 409
    assert answer.code == "table_moved_on"
    await _call(table, seat, answer, version)


@pytest.mark.parametrize(("ruleset", "options", "players"), CASES)
async def test_random_game_leaks_nothing(
    ruleset: str, options: dict[str, Any], players: int
) -> None:
    rng = random.Random(f"{ruleset}-{players}")
    table = await _setup(ruleset, options, players)
    version = 0
    sniper_chat_done = False
    moves = 0
    while True:
        state = table.states[version]
        if engine.outcome(state) is not None:
            break
        public = engine.view(state, None)
        if public["phase"] == "sniper" and not sniper_chat_done:
            await _evil_chat(table, version)
            sniper_chat_done = True
        seat, action = engine.random_action(state, rng)
        player = table.seats[seat]
        own = await sync_to_async(player.get)(f"tables/{table.code}/view")
        body = await _call(table, seat, own, version)
        assert seat in body["view"]["waiting_for"] or public["phase"] == "sniper"
        assert _legal(body["view"], action), (action, body["view"]["legal"])
        if rng.random() < 0.1:
            await _stale_attempt(table, rng, version)
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
        else:
            answer = await sync_to_async(player.post)(
                f"tables/{table.code}/actions",
                {"action": action, "turn": body["turn"]},
            )
            assert answer.status == 200, answer.body
            version = await table.remember_state()
            assert answer.body["version"] == version
            await _call(table, seat, answer, version)
        moves += 1
        await _read_pushes(table, version)
    final = engine.view(table.states[version], None)
    assert final["phase"] == "over"
    assert await sync_to_async(game_status)(table) == "finished"
    for seat, player in [*table.seats.items(), (None, table.spectator)]:
        answer = await sync_to_async(player.get)(f"tables/{table.code}/view")
        body = await _call(table, seat, answer, version)
        assert len(body["view"]["roles"]) == players
    for communicator in table.sockets.values():
        assert await drain(communicator) == []
    await close_all(list(table.sockets.values()))
    assert moves >= 6
    assert table.checked > moves * players


def game_status(table: Table) -> str:
    from games.models import Game

    return Game.objects.values_list("status", flat=True).get(code=table.code)
