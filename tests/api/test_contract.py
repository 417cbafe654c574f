"""The contract: programs play a random game of every family through the API, and
every answer they get (its status, and its body) is one the published OpenAPI
document describes for that operation. Refusals are part of the game: a stale move,
an unknown query parameter, a move after the end."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest
from openapi_schema_validator import OAS31Validator

from api.views import api
from games import engine
from games.kit.family import family_of, playable_rulesets
from games.models import Seat
from tests.api.support import V1, Answer, Api, program, state_of

pytestmark = pytest.mark.django_db


def _one_ruleset_per_family() -> list[str]:
    found: dict[str, str] = {}
    for code in playable_rulesets():
        found.setdefault(family_of(code).code, code)
    return sorted(found.values())


@cache
def _operations() -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
    """Every documented operation: its path as a pattern, its method, its item."""
    found = []
    for route, item in api.document()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{\w+\}", "[^/?]+", route) + "$")
        for method, operation in item.items():
            found.append((pattern, method.upper(), operation))
    return found


@cache
def _validator(reference: str) -> OAS31Validator:
    schema = {"$ref": reference, "components": api.document()["components"]}
    return OAS31Validator(schema)


class Contract:
    """Counts the answers held against the document."""

    def __init__(self) -> None:
        self.checked: dict[str, int] = {}

    def check(self, method: str, url: str, answer: Answer) -> Answer:
        """``answer`` is documented for the operation at ``url``: its status is one
        of the operation's responses, its body matches that response's schema."""
        path = url if url.startswith("/") else f"{V1}/{url}"
        path = path.split("?", 1)[0]
        matches = [
            operation
            for pattern, verb, operation in _operations()
            if verb == method and pattern.match(path)
        ]
        assert len(matches) == 1, (method, path)
        operation = matches[0]
        responses = operation["responses"]
        status = str(answer.status)
        assert status in responses, (method, path, status, answer.body)
        content = responses[status].get("content")
        if content is None:
            assert answer.body is None, (method, path, answer.body)
        else:
            schema = content["application/json"]["schema"]
            if "$ref" in schema:
                _validator(schema["$ref"]).validate(answer.body)
            else:
                OAS31Validator(schema).validate(answer.body)
        if answer.code is not None:
            described = responses[status]["description"]
            assert f"`{answer.code}`" in described, (method, path, answer.code)
        key = f"{method} {operation['operationId']} {status}"
        self.checked[key] = self.checked.get(key, 0) + 1
        return answer

    def get(self, who: Api, url: str) -> Answer:
        return self.check("GET", url, who.get(url))

    def post(self, who: Api, url: str, data: Any = None) -> Answer:
        return self.check("POST", url, who.post(url, data))

    def delete(self, who: Api, url: str) -> Answer:
        return self.check("DELETE", url, who.delete(url))


def _open(contract: Contract, ruleset: str) -> tuple[str, Api, dict[int, Api]]:
    """A full table of ``ruleset``'s fewest players, opened, joined and started
    through the API; the host (the moderator, at a moderated game) and the
    programs by the seat each was dealt."""
    rules = engine.get_ruleset(ruleset)
    host = program()
    body = {"ruleset": ruleset, "seats": rules.min_players}
    created = contract.post(host, "tables", body)
    assert created.status == 201, created.body
    code = created.body["code"]
    guests = []
    while created.body["seats"]["taken"] < created.body["seats"]["total"]:
        guest = program()
        created = contract.post(guest, f"tables/{code}/join")
        assert created.status == 200, created.body
        guests.append(guest)
    contract.get(guests[0], f"tables/{code}")
    started = contract.post(host, f"tables/{code}/start")
    assert started.status == 200, started.body
    positions = dict(
        Seat.objects.filter(game__code=code).values_list("user_id", "position")
    )
    players = {
        positions[p.user.pk]: p for p in [host, *guests] if p.user.pk in positions
    }
    if rules.has_moderator:
        players[engine.MODERATOR] = host
    return code, host, players


def _refusals(contract: Contract, code: str, player: Api, turn: int) -> None:
    """Refusals along the way: each is documented, and changes nothing."""
    stale = {"action": {"type": "confirm"}, "turn": turn + 1_000}
    assert contract.post(player, f"tables/{code}/actions", stale).status in (
        400,
        409,
    )
    assert contract.get(player, f"tables/{code}/view?seat=0").code == "unknown_field"
    assert contract.get(player, f"tables/{code}/chat?page=2").code == "unknown_field"


@pytest.mark.parametrize("ruleset", _one_ruleset_per_family())
def test_a_random_game_answers_as_documented(ruleset: str) -> None:
    contract = Contract()
    rng = random.Random(f"contract-{ruleset}")
    spectator = program()
    contract.get(spectator, "rulesets")
    contract.get(spectator, "tables")
    contract.get(spectator, "auth/token")
    code, host, players = _open(contract, ruleset)
    moves = 0
    turn = 0
    while True:
        state = state_of(code)
        if engine.outcome(state) is not None:
            break
        seat, action = engine.random_action(state, rng)
        player = players[seat]
        if moves % 5 == 0:
            # Every seat's envelope carries the table's turn: the last answer's
            # serves the next move, and a look at one's own view now and then.
            own = contract.get(player, f"tables/{code}/view").body
            assert own["seat"] == seat
            assert own["turn"] == turn
        if moves % 25 == 0:
            _refusals(contract, code, player, turn)
            contract.get(spectator, f"tables/{code}/view")
            contract.get(player, f"tables/{code}/chat")
        answer = contract.post(
            player, f"tables/{code}/actions", {"action": action, "turn": turn}
        )
        assert answer.status == 200, answer.body
        assert answer.body["seat"] == seat
        turn = answer.body["turn"]
        moves += 1
    for player in [*players.values(), spectator]:
        final = contract.get(player, f"tables/{code}/view")
        assert final.body["status"] == "finished"
    late = contract.post(
        players[0], f"tables/{code}/actions", {"action": {"type": "x"}, "turn": 0}
    )
    assert late.status in (400, 409)
    late = contract.post(
        players[0],
        f"tables/{code}/actions",
        {"action": action, "turn": final.body["turn"]},
    )
    assert late.code == "game_over"
    contract.get(host, f"tables/{code}")
    assert moves > 5
    operations = {key.split()[1] for key in contract.checked}
    assert {"tableView", "tableAct", "tableCreate", "tableJoin"} <= operations
