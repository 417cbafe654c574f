"""The OpenAPI document: valid OpenAPI 3.1, describing exactly the URLs and methods
api/urls.py serves, every error code, and views as the engine really makes them."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import URLPattern
from openapi_spec_validator import validate

from api import errors as api_errors
from api import urls
from api.openapi import OPERATIONS, document
from api.schemas import components, engine_rule_codes, error_codes
from games import engine
from games import errors as game_errors
from tests.api.support import conforms, program

NOT_IN_THE_DOCUMENT = {"index", "not_found"}  # the HTML page; the JSON 404 for the rest


def test_document_is_valid_openapi_3_1() -> None:
    spec = document()
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def _documented_path(route: str) -> str:
    return "/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


def _served() -> dict[str, set[str]]:
    served = {}
    for pattern in urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        if pattern.name in NOT_IN_THE_DOCUMENT:
            continue
        route = str(pattern.pattern)
        methods = {m.lower() for m in pattern.callback.routes}  # type: ignore[attr-defined]
        served[_documented_path(route)] = methods
    return served


def test_every_url_is_documented_and_every_documented_url_served() -> None:
    documented = {path: set(item) for path, item in document()["paths"].items()}
    assert documented == _served()


def test_every_operation_answers_as_documented() -> None:
    for op in OPERATIONS:
        item = document()["paths"][op.path][op.method]
        assert str(op.ok) in item["responses"]
        assert "405" in item["responses"]
        if op.auth:
            assert "401" in item["responses"]
            assert item["security"] == [{"token": []}]
        else:
            assert item["security"] == []


def test_every_error_code_is_documented() -> None:
    documented = set(components()["ErrorCode"]["enum"])
    for cls in api_errors.API_ERRORS:
        assert cls.code in documented
    stack = [game_errors.GameError]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls not in (game_errors.GameError, game_errors.IllegalMove):
            assert cls.code in documented, cls
    for code in engine_rule_codes():
        assert code in documented
    listed = {code for op in OPERATIONS for code in op.errors}
    assert listed - {"__engine__"} <= set(error_codes())
    assert {"wrong_team_size", "already_voted", "not_leader"} <= set(
        engine_rule_codes()
    )


def test_every_error_class_code_is_unique_per_meaning() -> None:
    codes = [cls.code for cls in api_errors.API_ERRORS]
    assert len(codes) == len(set(codes))


@pytest.mark.django_db
def test_document_served_without_a_token(client: Client) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == document()


@pytest.mark.django_db
def test_document_needs_no_token_but_refuses_other_methods(client: Client) -> None:
    assert client.post("/api/v1/openapi.json").status_code == 405


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ru"])
def test_page_for_people_lists_every_endpoint(client: Client, language: str) -> None:
    response = client.get("/api/", headers={"accept-language": language})
    assert response.status_code == 200
    body = response.content.decode()
    assert 'class="site-header"' in body
    assert "/api/v1/openapi.json" in body
    for op in OPERATIONS:
        assert op.path in body
    assert "<script" not in body.split("</header>", 1)[1].split("<footer", 1)[0]


def test_request_checks_use_the_published_schemas() -> None:
    published = document()["components"]["schemas"]
    for name in ("TableCreateRequest", "ActionRequest", "ChatRequest", "TokenRequest"):
        assert published[name] is components()[name]


@pytest.mark.parametrize("ruleset", ["partisans", "trust_no_one", "werewolves"])
def test_real_views_match_the_view_schema(ruleset: str) -> None:
    """Engine views at every step of random games, for every seat and a spectator."""
    rng = random.Random(ruleset)
    options = {"scout": True, "check": True} if ruleset == "partisans" else {}
    for players in (5, 10):
        setup = engine.GameSetup(ruleset, players, options, seed=rng.randrange(2**32))
        state = engine.setup(setup)
        step = 0
        while True:
            if step % 3 == 0 or engine.outcome(state) is not None:
                for seat in [None, *range(players)]:
                    conforms(engine.view(state, seat), "View")
            if engine.outcome(state) is not None:
                break
            seat, action = engine.random_action(state, rng)
            conforms(action, "Action")
            state, _ = engine.apply(state, seat, action)
            step += 1


@pytest.mark.django_db
def test_answers_match_their_schemas() -> None:
    bot = program()
    conforms(bot.get("rulesets").body, "RulesetList")
    conforms(bot.get("tables").body, "TableList")
    created = bot.post("tables", {"ruleset": "werewolves", "seats": 5})
    conforms(created.body, "Table")
    conforms(bot.get("auth/token").body, "TokenInfo")
    conforms(bot.get(f"tables/{created.body['code']}/view").body, "ViewEnvelope")
    conforms(bot.get("tables/nope").body, "Error")
    conforms(bot.post("tables", {"seats": 5}).body, "Error")
    posted = bot.post(f"tables/{created.body['code']}/chat", {"text": "hi"})
    conforms(posted.body, "ChatMessage")
    conforms(bot.get(f"tables/{created.body['code']}/chat").body, "ChatList")
