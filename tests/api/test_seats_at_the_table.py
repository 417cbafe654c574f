"""A seat a move names that is not at the table is one fact with one code (issue
#38): ``400 out_of_range``, naming the table's seats, in every family and every
move that names seats, over HTTP and over the JSON socket, whether the number is
within the schema's bounds (seat 7 at a table of five) or beyond them (12, -1).
The engine's own rule (``bad_target``) is unchanged; the API refuses first.

The refusal depends on the table's seat count alone, which everyone knows: it is
the same for every seat, whatever role it was dealt, and for a spectator."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, get_args

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connections

from api.views import api
from games import engine
from games.engine import oracle
from games.families import FAMILIES
from games.kit import AtTheTable
from games.kit.family import family_of
from games.models import GameAction
from tests.api.sockets import next_message, open_socket
from tests.api.support import (
    Answer,
    Api,
    act,
    by_seat,
    game,
    open_table,
    program,
    state_of,
)

# (ruleset, seats at the table, a move naming a seat not at it, the field at fault)
BEYOND_THE_TABLE = [
    ("partisans", 5, {"type": "propose", "team": [0, 7]}, "action.team[1]"),
    ("partisans", 5, {"type": "propose", "team": [5, 1]}, "action.team[0]"),
    ("partisans", 5, {"type": "check", "target": 9}, "action.target"),
    ("partisans", 5, {"type": "shoot", "target": 5}, "action.target"),
    ("werewolves", 6, {"type": "shoot", "target": 6}, "action.target"),
    ("trust_no_one", 5, {"type": "propose", "team": [1, 2, 8]}, "action.team[2]"),
    (
        "cells",
        3,
        {"type": "swap", "mine": "left", "player": 3, "theirs": "right"},
        "action.player",
    ),
    ("cells", 3, {"type": "mission", "partner": 3}, "action.partner"),
    ("mafia_partisan", 10, {"type": "choose", "target": 10}, "action.target"),
    ("mafia_partisan", 10, {"type": "tap", "target": 10}, "action.target"),
    ("mafia_partisan", 10, {"type": "choose", "targets": [1, 10]}, "action.targets[1]"),
    (
        "mafia_partisan",
        10,
        {"type": "vote", "candidates": [10]},
        "action.candidates[0]",
    ),
    (
        "mafia_partisan",
        10,
        {"type": "timer", "kind": "defence", "subject": 10},
        "action.subject",
    ),
    ("mafia_partisan", 10, {"type": "warn", "target": 10}, "action.target"),
    ("mafia_partisan", 10, {"type": "kick", "target": 10}, "action.target"),
]


# Every field of a move that the engines read as a seat (their ``_seat`` parsers).
SEAT_FIELDS = {
    "team",
    "target",
    "targets",
    "candidates",
    "subject",
    "player",
    "partner",
}


def _marked(annotation: Any) -> bool:
    if AtTheTable in getattr(annotation, "__metadata__", ()):
        return True
    return any(_marked(arg) for arg in get_args(annotation))


def test_every_seat_field_of_every_move_is_checked_against_the_table() -> None:
    """Each family's move schema marks exactly its seat fields (``AtTheTable``), and
    the cases above try each of them."""
    tried = {
        (family_of(r).code, field.removeprefix("action.").split("[")[0])
        for r, _, _, field in BEYOND_THE_TABLE
    }
    marked = set()
    for code in {r for r, _, _, _ in BEYOND_THE_TABLE}:
        family = family_of(code)
        union = family.programs.move_schema.model_fields["root"].annotation
        for model in get_args(union):  # the move's kinds
            for name, info in model.model_fields.items():
                seat = AtTheTable in info.metadata or _marked(info.annotation)
                assert seat == (name in SEAT_FIELDS), (model, name)
                if seat:
                    marked.add((family.code, name))
    assert {family for family, _ in marked} == set(FAMILIES)
    assert marked == tried


def _with_seat(move: dict[str, Any], field: str, seat: int) -> dict[str, Any]:
    """``move`` with the seat at ``field`` (``action.team[1]``) replaced."""
    copy = {k: list(v) if isinstance(v, list) else v for k, v in move.items()}
    name = field.removeprefix("action.")
    if "[" in name:
        name, index = name.rstrip("]").split("[")
        copy[name][int(index)] = seat
    else:
        copy[name] = seat
    return copy


def _range(seats: int) -> str:
    return f"must be from 0 to {seats - 1}."


def _moves_at(player: Api, code: str, move: dict[str, Any]) -> Answer:
    turn = player.get(f"tables/{code}/view").body["turn"]
    return player.post(f"tables/{code}/actions", {"action": move, "turn": turn})


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "seats", "move", "field"),
    BEYOND_THE_TABLE,
    ids=[f"{r}-{m['type']}-{f}" for r, _, m, f in BEYOND_THE_TABLE],
)
def test_a_seat_not_at_the_table_is_out_of_range(
    ruleset: str, seats: int, move: dict[str, Any], field: str
) -> None:
    """Within the schema's bounds or beyond them, the same code and the same words:
    the field, and the table's seats."""
    moderated = engine.get_ruleset(ruleset).has_moderator
    # A moderated game's host takes no seat; its moves are checked the same way
    # before the table starts (the check comes before every rule of the table).
    code, players = open_table(ruleset, seats, start=not moderated)
    player = players[0]
    answers = [
        _moves_at(player, code, _with_seat(move, field, seat))
        for seat in (move_seat(move, field), 12, 99, -1)
    ]
    for answer in answers:
        assert answer.status == 400, answer.body
        assert answer.body["error"] == {
            "code": "out_of_range",
            "message": f"“{field}” {_range(seats)}",
            "field": field,
        }
    assert game(code).version == 0
    assert not GameAction.objects.exists()


def move_seat(move: dict[str, Any], field: str) -> int:
    name = field.removeprefix("action.")
    if "[" in name:
        name, index = name.rstrip("]").split("[")
        return int(move[name][int(index)])
    return int(move[name])


@pytest.mark.django_db
def test_every_seat_of_the_table_is_still_a_seat() -> None:
    """The check refuses no seat of the table: the last seat reaches the rules
    (here the leader's team of the right size is applied)."""
    code, players = open_table("partisans", 5)
    seats = by_seat(code, players)
    leader = engine.view(state_of(code), None)["leader"]
    answer = act(seats[leader], code, {"type": "propose", "team": [3, 4]})
    assert answer.status == 200, answer.body
    assert answer.body["view"]["proposal"]["team"] == [3, 4]


@pytest.mark.django_db
def test_the_refusal_is_the_same_whatever_the_hidden_roles() -> None:
    """Every seat, evil or good, leader or not, and a spectator, sending the same
    seat that is not at the table, on two tables dealt apart, gets the same answer,
    and it names nothing of anyone's role."""
    found: dict[str, set[str]] = {}
    sides: set[str] = set()
    for _ in range(2):
        code, players = open_table("partisans", 5, {"scout": True, "check": True})
        seats = by_seat(code, players)
        state = state_of(code)
        watchers: dict[int | None, Api] = {**seats, None: program()}
        for position, player in watchers.items():
            if position is not None:
                sides.add(engine.view(state, position)["me"]["side"])
            for move in (
                {"type": "propose", "team": [0, 7]},
                {"type": "check", "target": 7},
                {"type": "shoot", "target": 7},
            ):
                answer = _moves_at(player, code, move)
                assert answer.status == 400
                assert "view" not in answer.body  # nothing of the table with it
                assert oracle.find_leaks(state, position, answer.body) == []
                found.setdefault(move["type"], set()).add(repr(answer.body))
        assert game(code).version == 0
    assert sides == {"good", "evil"}  # the askers' hidden roles did differ
    assert all(len(bodies) == 1 for bodies in found.values()), found


def test_the_engine_still_refuses_it_as_its_own_rule() -> None:
    """The engine is unchanged: handed such a move directly, it refuses it with
    ``bad_target`` as before; the API simply never lets one through."""
    state, _ = engine.start(engine.GameSetup("partisans", 5, seed=3))
    leader = engine.view(state, None)["leader"]
    with pytest.raises(engine.BadTarget):
        engine.apply(state, leader, {"type": "propose", "team": [0, 7]})


def test_the_document_says_when() -> None:
    document = api.document()
    described = document["components"]["schemas"]["ErrorCode"]["description"]
    line = next(x for x in described.splitlines() if x.startswith("- `out_of_range`"))
    assert "not at the table" in line
    bad_target = next(
        x for x in described.splitlines() if x.startswith("- `bad_target`")
    )
    assert "Never answered by the API" in bad_target
    actions = document["paths"]["/api/v1/tables/{code}/actions"]["post"]
    assert "`out_of_range`" in actions["responses"]["400"]["description"]
    assert "`bad_target`" not in actions["responses"]["409"]["description"]
    assert "not_leader" in actions["responses"]["409"]["description"]
    action = document["components"]["schemas"]["Action"]["description"]
    assert "out_of_range" in action


# --- the JSON socket ----------------------------------------------------------------


@pytest_asyncio.fixture
async def _close_database_thread() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_close_database_thread")
@pytest.mark.parametrize(
    ("ruleset", "seats", "move", "field"),
    [case for case in BEYOND_THE_TABLE if case[0] in ("partisans", "cells")],
    ids=lambda value: value if isinstance(value, str) else None,
)
async def test_the_socket_answers_the_same(
    ruleset: str, seats: int, move: dict[str, Any], field: str
) -> None:
    code, players = await sync_to_async(open_table)(ruleset, seats)
    player = players[0]
    over_http = await sync_to_async(_moves_at)(player, code, move)
    # The program's language, as over HTTP (the client's Accept-Language).
    english = [(b"accept-language", b"en")]
    communicator, connected, _ = await open_socket(player, code, headers=english)
    assert connected
    try:
        first = await next_message(communicator)
        assert first["type"] == "view"
        await communicator.send_json_to(
            {"type": "act", "action": move, "turn": first["turn"]}
        )
        error = await next_message(communicator)
        assert error == {"type": "error", **over_http.body["error"]}
        assert error["code"] == "out_of_range"
        assert error["field"] == field
        assert error["message"].endswith(_range(seats))
        # Refused before any rule: nothing applied and no fresh view follows it
        # (the next frame is the answer to the next message sent).
        await communicator.send_json_to({"type": "dance"})
        assert (await next_message(communicator))["code"] == "invalid_choice"
    finally:
        await communicator.disconnect()
    assert (await sync_to_async(game)(code)).version == 0
