"""The OpenAPI document: valid OpenAPI 3.1, describing exactly the URLs and methods
the API serves, every error code, and views and moves as the engine really makes
them, from the very models the request checks use."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from ninja.openapi.schema import REF_TEMPLATE
from ninja.schema import NinjaGenerateJsonSchema
from openapi_spec_validator import validate

from api import schemas
from api.views import OPERATIONS, api
from games import engine
from games import errors as game_errors
from games.kit.family import family_of, playable_rulesets
from live.requests import RequestError
from tests.api.support import conforms, program

ENDPOINTS = {
    "/api/v1/openapi.json": {"get"},
    "/api/v1/auth/token": {"post", "get", "delete"},
    "/api/v1/rulesets": {"get"},
    "/api/v1/tables": {"get", "post"},
    "/api/v1/tables/{code}": {"get", "delete"},
    "/api/v1/tables/{code}/join": {"post"},
    "/api/v1/tables/{code}/leave": {"post"},
    "/api/v1/tables/{code}/start": {"post"},
    "/api/v1/tables/{code}/view": {"get"},
    "/api/v1/tables/{code}/actions": {"post"},
    "/api/v1/tables/{code}/chat": {"get", "post"},
}


def _subclasses(cls: type) -> list[type]:
    """The site's subclasses of ``cls`` (a test's own family, tests/kit's toy, is
    no game the API offers)."""
    found = []
    for sub in cls.__subclasses__():
        if not sub.__module__.startswith("tests."):
            found += [sub, *_subclasses(sub)]
    return found


def test_document_is_valid_openapi_3_1() -> None:
    spec = api.document()
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_every_endpoint_is_documented() -> None:
    documented = {path: set(item) for path, item in api.document()["paths"].items()}
    assert documented == ENDPOINTS
    listed = {(op.path, op.method.lower()) for op in OPERATIONS}
    assert listed == {(path, m) for path, methods in ENDPOINTS.items() for m in methods}


@pytest.mark.django_db
def test_every_documented_method_is_served_and_no_other() -> None:
    bot = program()
    for route, methods in ENDPOINTS.items():
        url = route.replace("{code}", "no-such-table")
        for method in ("get", "post", "delete", "put", "patch"):
            answer = bot.call(method.upper(), url)
            if method in methods:
                assert answer.status != 405, (route, method)
                assert answer.code != "not_found", (route, method)
            else:
                assert answer.status == 405, (route, method)
                allowed = answer.headers["Allow"].lower().split(", ")
                assert set(allowed) == methods


def test_every_operation_answers_as_documented() -> None:
    for op in OPERATIONS:
        item = api.document()["paths"][op.path][op.method.lower()]
        ok = [status for status in item["responses"] if status.startswith("2")]
        assert len(ok) == 1
        assert "405" in item["responses"]
        for status, response in item["responses"].items():
            if not status.startswith("2"):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}
        if (
            op.path == "/api/v1/auth/token" and op.method == "POST"
        ) or op.path == "/api/v1/openapi.json":
            assert "security" not in item
        else:
            assert "401" in item["responses"]
            assert item["security"] == [{"TokenAuth": []}]


def test_every_error_code_is_documented() -> None:
    documented = set(api.document()["components"]["schemas"]["ErrorCode"]["enum"])
    for cls in _subclasses(RequestError):
        assert cls.code in documented, cls
    for cls in _subclasses(game_errors.GameError):
        if cls is not game_errors.IllegalMove:
            assert cls.code in documented, cls
    for cls in [engine.IllegalAction, *_subclasses(engine.IllegalAction)]:
        assert cls.code in documented, cls
    assert {"wrong_team_size", "already_voted", "not_leader", "token_missing"} <= (
        documented
    )


def test_every_request_error_code_is_unique_per_meaning() -> None:
    codes = [cls.code for cls in _subclasses(RequestError)]
    assert len(codes) == len(set(codes))


@pytest.mark.django_db
def test_document_served_without_a_token(client: Client) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == api.document()


@pytest.mark.django_db
def test_document_needs_no_token_but_refuses_other_methods(client: Client) -> None:
    response = client.post("/api/v1/openapi.json")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.django_db
def test_document_is_in_english_whatever_the_caller_speaks(client: Client) -> None:
    russian = client.get("/api/v1/openapi.json", headers={"accept-language": "ru"})
    assert russian.json() == api.document()
    summaries = {
        item["summary"]
        for path in api.document()["paths"].values()
        for item in path.values()
    }
    assert "Make a move" in summaries


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
    if language == "ru":
        assert "Make a move" not in body
    assert "<script" not in body.split("</header>", 1)[1].split("<footer", 1)[0]


@pytest.mark.parametrize(
    "model",
    [
        schemas.TableCreateRequest,
        schemas.ActionRequest,
        schemas.ChatRequest,
        schemas.TokenRequest,
        schemas.ViewEnvelope,
    ],
)
def test_the_document_publishes_the_models_the_checks_use(model: type) -> None:
    published = api.document()["components"]["schemas"]
    mode = "serialization" if model is schemas.ViewEnvelope else "validation"
    own = model.model_json_schema(  # type: ignore[attr-defined]
        ref_template=REF_TEMPLATE, schema_generator=NinjaGenerateJsonSchema, mode=mode
    )
    for name, schema in own.pop("$defs", {}).items():
        assert published[name] == schema, name
    assert published[model.__name__] == own


def test_every_family_gives_its_view_and_move_schemas() -> None:
    """The view union is discriminated on ``ruleset``: every game a table can be
    opened for is a value of it, mapped to its family's view schema."""
    view = api.document()["components"]["schemas"]["View"]
    for code in playable_rulesets():
        family = family_of(code)
        assert family.programs.view_schema.__name__ in str(view)
        ruleset = family.programs.view_schema.model_json_schema()["properties"][
            "ruleset"
        ]
        assert code in ruleset.get("enum", [ruleset.get("const")])
        assert family.programs.move_schema.__name__ in str(
            api.document()["components"]["schemas"]["Action"]
        )


def _presets(ruleset: str) -> dict[str, bool]:
    """Every yes/no option of a game switched on (the chat aside), so the views
    show everything the game can show."""
    return {
        option.name: True
        for option in engine.get_ruleset(ruleset).options
        if isinstance(option.default, bool) and option.name != "chat"
    }


@pytest.mark.parametrize("ruleset", playable_rulesets())
def test_real_views_match_the_view_schema(ruleset: str) -> None:
    """Engine views at every step of random games of every installed game, for
    every seat, the moderator if any and a spectator, at its fewest and most
    players; every random move is one the move schema describes."""
    rng = random.Random(ruleset)
    rules = engine.get_ruleset(ruleset)
    moderator = [engine.MODERATOR] if rules.has_moderator else []
    for players in sorted({rules.min_players, rules.max_players}):
        setup = engine.GameSetup(
            ruleset, players, _presets(ruleset), seed=rng.randrange(2**32)
        )
        state = engine.setup(setup)
        step = 0
        while True:
            if step % 3 == 0 or engine.outcome(state) is not None:
                for seat in [None, *moderator, *range(players)]:
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


def test_every_operation_and_field_is_described() -> None:
    """A program learns what each operation does and what each field means from
    the document alone: every operation, schema and property has a description
    (its own, or that of the schema it refers to)."""
    document = api.document()
    components = document["components"]["schemas"]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert operation.get("description"), (path, method)
            assert operation.get("summary"), (path, method)
    undescribed = []
    for name, schema in components.items():
        if not schema.get("description"):
            undescribed.append(name)
        for field, sub in (schema.get("properties") or {}).items():
            target = sub.get("$ref", "").rsplit("/", 1)[-1]
            if not sub.get("description") and not (
                target and components[target].get("description")
            ):
                undescribed.append(f"{name}.{field}")
    assert undescribed == []


def _option_values(option: engine.OptionSpec) -> dict[str, Any]:
    if option.choices:
        return {"enum": [value for value, _label in option.choices]}
    if isinstance(option.default, bool):
        return {"type": "boolean"}
    if isinstance(option.default, int):
        bounds = {"minimum": option.minimum, "maximum": option.maximum}
        return {"type": "integer", **{k: v for k, v in bounds.items() if v is not None}}
    return {"type": "string"}


def test_the_document_gives_every_options_values() -> None:
    """`RulesetOption` has one branch per option, its `default` holding the values
    the option takes; a new table's `options` are described per game, each option
    with its values and default."""
    components = api.document()["components"]["schemas"]
    branches = {
        branch["properties"]["name"]["const"]: branch["properties"]["default"]
        for branch in components["RulesetOption"]["oneOf"]
    }
    per_game = {
        branch["title"].removeprefix("Options of "): branch["properties"]
        for branch in components["TableCreateRequest"]["properties"]["options"]["anyOf"]
    }
    assert set(per_game) == set(playable_rulesets())
    for code in playable_rulesets():
        for option in engine.get_ruleset(code).options:
            values = _option_values(option)
            known = branches[option.name]
            assert known == values or values in known.get("anyOf", []), option.name
            documented = per_game[code][option.name]
            assert {k: v for k, v in documented.items() if k in values} == values
            assert documented["default"] == option.default


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ru", "fa"])
def test_rulesets_give_every_options_values(language: str) -> None:
    bot = program()
    bot.language = language
    answer = bot.get("rulesets")
    assert answer.status == 200
    conforms(answer.body, "RulesetList")
    for ruleset in answer.body["rulesets"]:
        specs = {o.name: o for o in engine.get_ruleset(ruleset["code"]).options}
        assert [o["name"] for o in ruleset["options"]] == list(specs)
        for option in ruleset["options"]:
            spec = specs[option["name"]]
            values = [choice["value"] for choice in option["choices"]]
            assert values == [value for value, _label in spec.choices]
            assert all(choice["label"] for choice in option["choices"])
            assert (option["minimum"], option["maximum"]) == (
                spec.minimum,
                spec.maximum,
            )
            # A help that introduces the choices goes on with them.
            assert not option["help"].rstrip().endswith(":"), option
            if spec.help.endswith(":"):
                for choice in option["choices"]:
                    assert choice["label"] in option["help"]


@pytest.mark.django_db
def test_a_help_that_introduces_choices_names_them() -> None:
    bot = program()
    mafia = next(
        ruleset
        for ruleset in bot.get("rulesets").body["rulesets"]
        if ruleset["code"] == "mafia_partisan"
    )
    reading = next(o for o in mafia["options"] if o["name"] == "inquiry_reading")
    assert reading["help"].startswith(
        "An inquiry of those who have left the game reads out: "
        'The side of each player who has left ("sides")'
    )
    assert reading["choices"][1] == {
        "value": "counts",
        "label": "How many citizens and mafia have left",
    }
    seconds = next(o for o in mafia["options"] if o["name"] == "defence_seconds")
    assert (seconds["minimum"], seconds["maximum"], seconds["choices"]) == (15, 300, [])


def test_one_code_per_fact() -> None:
    """The refusals that used to have two codes have one: a move after the end is
    the engine's `game_over`, a mafia seat out of range is `out_of_range` in every
    move, and a colonel's count is left to the engine (`wrong_count`)."""
    from api import checks as request_checks
    from games.errors import GameOver

    assert GameOver.code == "game_over"
    assert schemas.ERROR_CODES["game_over"][0] == 409
    for move in (
        {"type": "warn", "target": 12},
        {"type": "choose", "target": 12},
        {"type": "vote", "candidates": [12]},
        {"type": "timer", "kind": "defence", "subject": 12},
    ):
        with pytest.raises(RequestError) as refused:
            request_checks.move_of("mafia_partisan", move, seats=10)
        assert refused.value.code == "out_of_range", move
    one = request_checks.move_of(
        "mafia_partisan", {"type": "choose", "targets": [1]}, seats=10
    )
    assert one == {"type": "choose", "targets": [1]}
