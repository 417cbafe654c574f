"""Helpers for the API tests: a JSON client that sends a token, and tables with
seated players, made through the API itself."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.test import Client

from accounts.models import User
from api.services import token_create
from games.models import Game, Seat
from tests.factories import UserFactory

V1 = "/api/v1"


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]

    @property
    def code(self) -> str | None:
        if isinstance(self.body, dict) and "error" in self.body:
            return self.body["error"]["code"]
        return None


@dataclass
class Api:
    """A program: a user and its token, speaking JSON."""

    user: User | None
    key: str | None
    language: str | None = "en"
    client: Client = field(default_factory=Client)

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers: dict[str, str] = {}
        if self.key is not None:
            headers["authorization"] = f"Token {self.key}"
        if self.language:
            headers["accept-language"] = self.language
        headers.update(extra or {})
        return headers

    def call(
        self,
        method: str,
        path: str,
        data: Any = None,
        *,
        raw: bytes | str | None = None,
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
    ) -> Answer:
        url = path if path.startswith("/") else f"{V1}/{path}"
        kwargs: dict[str, Any] = {"headers": self.headers(headers)}
        if raw is not None:
            kwargs["data"] = raw
            kwargs["content_type"] = content_type
        elif data is not None:
            kwargs["data"] = json.dumps(data)
            kwargs["content_type"] = content_type
        elif method.upper() != "GET":
            # No body at all, as an HTTP library sends a bodiless POST.
            kwargs["data"] = b""
            kwargs["content_type"] = content_type
        response = getattr(self.client, method.lower())(url, **kwargs)
        body: Any = None
        if response.content:
            try:
                body = json.loads(response.content)
            except ValueError:
                body = response.content.decode()
        return Answer(response.status_code, body, dict(response.headers))

    def get(self, path: str, **kwargs: Any) -> Answer:
        return self.call("GET", path, **kwargs)

    def post(self, path: str, data: Any = None, **kwargs: Any) -> Answer:
        return self.call("POST", path, data, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Answer:
        return self.call("DELETE", path, **kwargs)


def program(user: User | None = None, **fields: Any) -> Api:
    """A new user (unless given) with a fresh token."""
    user = user or UserFactory(**fields)
    issued = token_create(user=user, name="test bot")
    return Api(user=user, key=issued.key)


def open_table(
    ruleset: str = "partisans",
    seats: int = 5,
    options: dict[str, Any] | None = None,
    *,
    start: bool = True,
    seated: int | None = None,
    **extra: Any,
) -> tuple[str, list[Api]]:
    """A table opened by the first program and joined by others (all through the
    API), ``seated`` players in all (default: every seat); started unless ``start``
    is False. Returns the code and the programs, in the order they sat down."""
    host = program()
    body = {"ruleset": ruleset, "seats": seats, "options": options or {}, **extra}
    created = host.post("tables", body)
    assert created.status == 201, created.body
    code = created.body["code"]
    players = [host]
    for _ in range((seats if seated is None else seated) - 1):
        guest = program()
        joined = guest.post(f"tables/{code}/join")
        assert joined.status == 200, joined.body
        players.append(guest)
    if start:
        started = host.post(f"tables/{code}/start")
        assert started.status == 200, started.body
    return code, players


def by_seat(code: str, players: list[Api]) -> dict[int, Api]:
    """The programs of a started table, by the seat each was dealt."""
    positions = dict(
        Seat.objects.filter(game__code=code).values_list("user_id", "position")
    )
    return {positions[p.user.pk]: p for p in players if p.user is not None}


def game(code: str) -> Game:
    return Game.objects.get(code=code)


def state_of(code: str) -> Any:
    """The engine state of a table now (tests only: to know whose move it is and
    to ask the leak oracle about a payload)."""
    from games.state import load_state

    return load_state(game(code))


def act(player: Api, code: str, action: dict[str, Any]) -> Answer:
    """Make a move on the turn the player's own view shows."""
    turn = player.get(f"tables/{code}/view").body["turn"]
    return player.post(f"tables/{code}/actions", {"action": action, "turn": turn})


def cooperative_move(view: dict[str, Any]) -> dict[str, Any]:
    """A move from the seat's own legal list that lets every team pass: the first
    seats proposed, every team approved, every card a success, every claim "good".
    Drives a game to three successes (and the sniper phase, with the scout)."""
    legal = view["legal"][0]
    kind = legal["type"]
    if kind == "propose":
        return {"type": "propose", "team": legal["among"][: legal["size"]]}
    if kind == "vote":
        return {"type": "vote", "approve": True}
    if kind == "play":
        return {"type": "play", "card": "success"}
    if kind == "claim":
        return {"type": "claim", "side": "good"}
    return {"type": kind, "target": legal["among"][0]}


def play_until(code: str, seats: dict[int, Api], phase: str) -> None:
    """Cooperative moves until the table reaches ``phase`` (or the game is over)."""
    from games import engine

    for _ in range(200):
        state = state_of(code)
        view = engine.view(state, None)
        if view["phase"] in (phase, "over"):
            return
        seat = min(engine.waiting_for(state))
        player = seats[seat]
        own = player.get(f"tables/{code}/view").body
        answer = player.post(
            f"tables/{code}/actions",
            {"action": cooperative_move(own["view"]), "turn": own["turn"]},
        )
        assert answer.status == 200, answer.body
    raise AssertionError(f"{code} never reached {phase}")


@cache
def _validator(schema_name: str) -> Any:
    from openapi_schema_validator import OAS31Validator

    from api.views import api

    schema = {
        "$ref": f"#/components/schemas/{schema_name}",
        "components": api.document()["components"],
    }
    return OAS31Validator(schema)


def conforms(instance: Any, schema_name: str) -> None:
    """Check an answer against its schema in the published OpenAPI document."""
    _validator(schema_name).validate(instance)
