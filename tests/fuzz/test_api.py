"""Fuzz of the JSON API, driven by its own OpenAPI document (/api/v1/openapi.json):
every operation, with bodies shaped by its request schema (and bent out of shape),
path codes and query values of every kind, sent by a program seated at a started
table that is not waiting for it. Never a 5xx, always JSON; a refusal carries a code
the document lists; a refused request leaves the table exactly as it was and no move
is ever accepted from this seat.

Written against the document rather than with schemathesis: the API's schemas use a
small, known part of JSON Schema, the fuzz stays in this process's test database
and transaction, and no new package (and its pins) is needed."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.services import token_create
from api.views import api
from games.models import Game
from tests.api.support import Api, by_seat, open_table
from tests.fuzz.strategies import JSON, TEXT
from tests.fuzz.tables import bystander, fingerprint

pytestmark = pytest.mark.django_db

# The document /api/v1/openapi.json serves (tests/api checks they are equal).
DOCUMENT = api.document()
COMPONENTS = DOCUMENT["components"]["schemas"]
ERROR_CODES = set(COMPONENTS["ErrorCode"]["enum"])
OPERATIONS = sorted(
    (path, method, spec)
    for path, methods in DOCUMENT["paths"].items()
    for method, spec in methods.items()
)


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = COMPONENTS[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def from_schema(schema: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values shaped by ``schema`` (the API's subset of JSON Schema), sometimes
    bent: a value of another shape, or a field too many."""
    schema = _resolve(schema)
    if depth > 4:
        return JSON
    if "oneOf" in schema:
        return st.one_of(*(from_schema(s, depth + 1) for s in schema["oneOf"]))
    if "enum" in schema:
        return st.one_of(st.sampled_from(schema["enum"]), JSON)
    kinds = schema.get("type", [])
    kinds = [kinds] if isinstance(kinds, str) else kinds
    choices: list[st.SearchStrategy[Any]] = []
    for kind in kinds:
        if kind == "string":
            choices.append(TEXT)
        elif kind == "integer":
            choices.append(st.integers(-3, 1000))
        elif kind == "boolean":
            choices.append(st.booleans())
        elif kind == "null":
            choices.append(st.none())
        elif kind == "array":
            choices.append(st.lists(from_schema(schema.get("items", {}), depth + 1),
                                    max_size=6))  # fmt: skip
        elif kind == "object":
            properties = schema.get("properties", {})
            choices.append(
                st.fixed_dictionaries(
                    {},
                    optional={
                        name: from_schema(sub, depth + 1)
                        for name, sub in properties.items()
                    },
                )
            )
    if not choices:
        return JSON
    return st.one_of(*choices, JSON) if depth == 0 else st.one_of(*choices)


def _parameters(spec: dict[str, Any]) -> dict[str, Any]:
    return {
        parameter["name"]: parameter.get("schema", {})
        for parameter in spec.get("parameters", [])
        if parameter.get("in") == "query"
    }


@st.composite
def request_for(draw: st.DrawFn, code: str) -> tuple[str, str, str, Any]:
    path, method, spec = draw(st.sampled_from(OPERATIONS))
    where = re.sub(
        r"\{[^}]+\}",
        lambda _: draw(st.one_of(st.just(code), TEXT.filter(lambda t: "/" not in t))),
        path,
    )
    query = {
        name: draw(st.one_of(st.integers(-3, 200).map(str), TEXT))
        for name, schema in _parameters(spec).items()
        if draw(st.booleans())
    }
    body = None
    content = spec.get("requestBody", {}).get("content", {})
    if "application/json" in content:
        body = draw(from_schema(content["application/json"]["schema"]))
    elif method != "get" and draw(st.booleans()):
        body = draw(JSON)
    return method, where, path, (query, body)


@pytest.fixture
def seat() -> tuple[Game, Api]:
    code, players = open_table("partisans", 5, {"chat": True})
    game = Game.objects.get(code=code)
    seats = by_seat(code, players)
    return game, seats[bystander(game)]


@settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_every_operation_refuses_cleanly(seat: tuple[Game, Api], data: Any) -> None:
    game, player = seat
    method, where, template, (query, body) = data.draw(request_for(game.code))
    before = fingerprint(game, chat=False)
    client = Client(raise_request_exception=False)
    # A fresh token each time: one example may revoke its own (DELETE auth/token).
    key = token_create(user=player.user, name="fuzz").key
    headers = {"authorization": f"Token {key}", "accept-language": "en"}
    kwargs: dict[str, Any] = {"headers": headers, "QUERY_STRING": _query(query)}
    if body is not None:
        kwargs["data"] = json.dumps(body)
        kwargs["content_type"] = "application/json"
    response = getattr(client, method)(where, **kwargs)
    assert response.status_code < 500, (method, where, body, response.content[:300])
    if response.status_code != 204:
        assert response["Content-Type"].startswith("application/json"), where
    if response.status_code >= 400:
        code = response.json()["error"]["code"]
        assert code in ERROR_CODES, code
        assert fingerprint(game, chat=False) == before
    if template.endswith("/actions") and method == "post":
        assert response.status_code >= 400  # this seat is never the one to move
        assert fingerprint(game, chat=False) == before


def _query(values: dict[str, str]) -> str:
    from urllib.parse import urlencode

    return urlencode(values)
