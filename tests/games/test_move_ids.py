"""A client may name its move (``Idempotency-Key`` on the API, ``move_id`` on the
sockets' move frames and in the page's form): a repeat of the same name by the same
user at the same table applies nothing and answers as the first did, from any
process and after any restart (the receipt is a row, written with the move); the
same name from another user is another move; the same name for a different move is
refused, with nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connections
from django.test import Client

from games import engine, errors, services
from games.models import Game, GameAction, MoveReceipt
from tests.api.sockets import next_message, open_socket
from tests.api.support import Api, by_seat, open_table, state_of
from tests.config.sockets import browser_socket

pytestmark = pytest.mark.django_db(transaction=True)

KEY = "4b1f0c3e-9a77-4e55-8d0e-2f6a1c9b7d10"


@pytest.fixture
def table() -> tuple[str, dict[int, Api]]:
    code, players = open_table("partisans", 5)
    yield code, by_seat(code, players)
    connections.close_all()


def leader(code: str) -> int:
    return engine.view(state_of(code), None)["leader"]


def propose(team: list[int]) -> dict[str, Any]:
    return {"action": {"type": "propose", "team": team}, "turn": 0}


def actions(code: str) -> int:
    return GameAction.objects.filter(game__code=code).count()


def test_the_service_applies_a_named_move_once(table) -> None:
    code, seats = table
    user = seats[leader(code)].user
    game = Game.objects.get(code=code)
    move = {"type": "propose", "team": [0, 1]}
    first = services.game_act_named(
        game=game, user=user, action=move, turn=0, move_id=KEY
    )
    assert not first.replayed and first.version == 1
    for _ in range(3):
        again = services.game_act_named(
            game=Game.objects.get(code=code),
            user=user,
            action=move,
            turn=0,
            move_id=KEY,
        )
        assert again.replayed
        assert (again.version, again.turn) == (first.version, first.turn)
    assert actions(code) == 1
    assert MoveReceipt.objects.filter(game__code=code).count() == 1


def test_another_users_same_name_is_another_move(table) -> None:
    code, seats = table
    game = Game.objects.get(code=code)
    first = leader(code)
    services.game_act_named(
        game=game,
        user=seats[first].user,
        action={"type": "propose", "team": [0, 1]},
        turn=0,
        move_id=KEY,
    )
    voter = next(p for p in seats if p != first)
    answer = services.game_act_named(
        game=Game.objects.get(code=code),
        user=seats[voter].user,
        action={"type": "vote", "approve": True},
        turn=1,
        move_id=KEY,
    )
    assert not answer.replayed
    assert actions(code) == 2


def test_a_name_reused_for_another_move_is_refused(table) -> None:
    code, seats = table
    user = seats[leader(code)].user
    services.game_act_named(
        game=Game.objects.get(code=code),
        user=user,
        action={"type": "propose", "team": [0, 1]},
        turn=0,
        move_id=KEY,
    )
    before = Game.objects.get(code=code).version
    with pytest.raises(errors.MoveIdReused):
        services.game_act_named(
            game=Game.objects.get(code=code),
            user=user,
            action={"type": "propose", "team": [2, 3]},
            turn=0,
            move_id=KEY,
        )
    assert Game.objects.get(code=code).version == before
    assert actions(code) == 1


@pytest.mark.parametrize("bad", ["", "x" * 65, "a b", "ключ", "a/b", "\x00"])
def test_a_malformed_name_is_refused(table, bad: str) -> None:
    code, seats = table
    with pytest.raises(errors.BadMoveId):
        services.game_act_named(
            game=Game.objects.get(code=code),
            user=seats[leader(code)].user,
            action={"type": "propose", "team": [0, 1]},
            turn=0,
            move_id=bad,
        )
    assert actions(code) == 0


def test_the_api_applies_a_repeated_key_once(table) -> None:
    code, seats = table
    player = seats[leader(code)]
    path = f"tables/{code}/actions"
    headers = {"Idempotency-Key": KEY}
    first = player.post(path, propose([0, 1]), headers=headers)
    assert first.status == 200, first.body
    assert first.body["version"] == 1
    again = player.post(path, propose([0, 1]), headers=headers)
    assert again.status == 200, again.body
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Move-Version"] == first.headers["Move-Version"] == "1"
    assert actions(code) == 1
    other = player.post(path, propose([2, 3]), headers=headers)
    assert other.status == 422
    assert other.code == "move_id_reused"
    assert actions(code) == 1
    malformed = player.post(path, propose([0, 1]), headers={"Idempotency-Key": "a b"})
    assert malformed.status == 400 and malformed.code == "bad_move_id"


def test_the_program_socket_applies_a_repeated_move_id_once(table) -> None:
    code, seats = table
    player = seats[leader(code)]
    frame = {"type": "act", **propose([0, 1]), "move_id": KEY}

    async def scenario() -> list[dict[str, Any]]:
        acted = []
        communicator, connected, _ = await open_socket(player, code)
        assert connected
        await next_message(communicator)
        for _ in range(2):
            await communicator.send_json_to(frame)
            while (message := await next_message(communicator))["type"] != "acted":
                pass
            acted.append(message)
        await communicator.send_json_to({**frame, "action": propose([2, 3])["action"]})
        while (message := await next_message(communicator))["type"] != "error":
            pass
        acted.append(message)
        await communicator.disconnect()
        return acted

    first, again, reused = async_to_sync(scenario)()
    assert first == {"type": "acted", "version": 1, "turn": 1}
    assert again == {"type": "acted", "version": 1, "turn": 1, "replayed": True}
    assert reused["code"] == "move_id_reused"
    assert actions(code) == 1


def test_the_page_socket_and_form_apply_a_repeated_move_id_once(table) -> None:
    code, seats = table
    player = seats[leader(code)]
    frame = {"action": "propose", "team": ["0", "1"], "turn": "0", "move_id": KEY}

    async def scenario() -> None:
        communicator, connected, _ = await browser_socket(
            player.user, f"/ws/table/{code}/"
        )
        assert connected
        await communicator.receive_from(timeout=30)
        for _ in range(2):
            await communicator.send_to(text_data=json.dumps(frame))
            await communicator.receive_from(timeout=30)
        await communicator.disconnect()

    async_to_sync(scenario)()
    assert actions(code) == 1
    # The same form posted without JavaScript, by the page's no-script path.
    browser = Client()
    browser.force_login(player.user)
    answer = browser.post(f"/games/t/{code}/act/", frame)
    assert answer.status_code in (200, 204, 302)
    assert actions(code) == 1
    assert MoveReceipt.objects.filter(game__code=code).count() == 1
