"""A ``\\uD800``-style escape without its pair (a lone surrogate) is not text: no
encoding can write it, to the database, a log or an error message. Anywhere in a
JSON body or frame (a key, a value, a list) it is refused as invalid JSON, with a
message that does not repeat it; nothing is written and nothing crashes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connections

from games.models import ChatMessage, Game
from tests.api.sockets import next_message, open_socket
from tests.api.support import by_seat, open_table, program
from tests.config.sockets import browser_socket

pytestmark = pytest.mark.django_db(transaction=True)

LONE = [
    '{"ruleset": "partisans", "seats": 5, "options": {"\\ud800": true}}',
    '{"ruleset": "partisans", "seats": 5, "options": {"chat": "\\udfff"}}',
    '{"ruleset": "partisans", "seats": 5, "name": "a\\ud83d"}',
    '{"ruleset": "partisans", "seats": 5, "x": ["ok", ["\\udc00"]]}',
    '{"ruleset": "partisans", "seats": 5, "\\ud800": 1, "\\ud800": 2}',
]


@pytest.mark.parametrize("raw", LONE)
def test_the_api_refuses_a_lone_surrogate(raw: str) -> None:
    answer = program().post("tables", raw=raw)
    assert answer.status == 400, answer.body
    assert answer.code == "invalid_json"
    assert "surrogate" in answer.body["error"]["message"]
    assert not Game.objects.exists()
    connections.close_all()


def test_a_pair_is_one_character_and_is_accepted() -> None:
    raw = '{"ruleset": "partisans", "seats": 5, "name": "\\ud83c\\udfb2"}'
    answer = program().post("tables", raw=raw)
    assert answer.status == 201, answer.body
    connections.close_all()


FRAMES = [
    '{"text": "\\ud800", "channel": "table"}',
    '{"\\udfff": "x"}',
    '{"text": "hi", "channel": "\\ud800"}',
    '{"type": "chat", "text": "\\ud800"}',
    '{"type": "act", "action": {"kind": "\\udc00"}, "turn": 0}',
]


@pytest.fixture
def table() -> tuple[Game, Any]:
    code, players = open_table("partisans", 5, {"chat": True})
    game = Game.objects.get(code=code)
    yield game, by_seat(code, players)[0]
    connections.close_all()


@pytest.mark.parametrize("frame", FRAMES)
def test_the_program_socket_answers_an_error_frame(
    table: tuple[Game, Any], frame: str
) -> None:
    game, player = table
    version = game.version

    async def scenario() -> dict[str, Any]:
        communicator, connected, _ = await open_socket(
            player, game.code, headers=[(b"accept-language", b"en")]
        )
        assert connected
        assert (await next_message(communicator))["type"] == "view"
        await communicator.send_to(text_data=frame)
        answer = await next_message(communicator)
        assert not communicator.future.done()
        await communicator.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert answer["type"] == "error"
    assert answer["code"] == "invalid_json"
    assert "surrogate" in answer["message"]
    assert not ChatMessage.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.version == version


@pytest.mark.parametrize("frame", FRAMES)
def test_the_page_socket_answers_an_error_frame(
    table: tuple[Game, Any], frame: str
) -> None:
    game, player = table

    async def scenario() -> str:
        communicator, connected, _ = await browser_socket(
            player.user, f"/ws/table/{game.code}/"
        )
        assert connected
        await communicator.receive_from(timeout=30)  # the table
        await communicator.send_to(text_data=frame)
        answer = await communicator.receive_from(timeout=30)
        assert not communicator.future.done()
        await communicator.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert "surrogate" in answer
    assert "server_error" not in answer
    assert not ChatMessage.objects.filter(game=game).exists()
    json.dumps(answer).encode()
