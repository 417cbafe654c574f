"""What every endpoint refuses before any service runs: bodies that are not JSON
objects, wrong types, unknown fields, oversize values, wrong methods and URLs. Each
answer is a JSON error with a stable code, and nothing is written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import translation

from api.plumbing import MAX_BODY_BYTES
from games import engine
from games.kit.family import playable_rulesets
from games.models import Game, GameAction
from tests.api.support import Api, game, open_table, program

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot() -> Api:
    return program()


GOOD_TABLE = {"ruleset": "partisans", "seats": 5}


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"{", "not valid JSON"),
        (b"[1, 2]", "top level must be an object"),
        (b'"text"', "top level must be an object"),
        (b"null", "top level must be an object"),
        (b'{"ruleset": "partisans", "ruleset": "werewolves", "seats": 5}', "twice"),
        (b'{"ruleset": "partisans", "seats": NaN}', "not valid JSON"),
        (b'{"ruleset": "partisans", "seats": Infinity}', "not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[" * 3000 + b"]" * 3000, "not valid JSON"),
        (b'{"a":' * 2000 + b"1" + b"}" * 2000, "not valid JSON"),
    ],
)
def test_body_that_is_not_one_json_object(bot: Api, raw: bytes, reason: str) -> None:
    answer = bot.post("tables", raw=raw)
    assert answer.status == 400, answer.body
    assert answer.code == "invalid_json"
    assert reason in answer.body["error"]["message"]
    assert not Game.objects.exists()


def test_body_must_be_sent_as_json(bot: Api) -> None:
    answer = bot.post(
        "tables", raw="ruleset=partisans&seats=5", content_type="text/plain"
    )
    assert answer.status == 415
    assert answer.code == "unsupported_media_type"
    form = bot.post(
        "tables",
        raw="ruleset=partisans&seats=5",
        content_type="application/x-www-form-urlencoded",
    )
    assert form.status == 415


def test_json_with_a_charset_is_json(bot: Api) -> None:
    answer = bot.post(
        "tables",
        raw=json.dumps(GOOD_TABLE),
        content_type="application/json; charset=utf-8",
    )
    assert answer.status == 201


def test_oversize_body_is_413(bot: Api) -> None:
    answer = bot.post("tables", {**GOOD_TABLE, "name": "x" * (MAX_BODY_BYTES + 1)})
    assert answer.status == 413
    assert answer.code == "body_too_large"
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"seats": 5}, "missing_field", "ruleset"),
        ({"ruleset": "partisans"}, "missing_field", "seats"),
        ({**GOOD_TABLE, "colour": "red"}, "unknown_field", "colour"),
        ({**GOOD_TABLE, "seat_count": 5}, "unknown_field", "seat_count"),
        ({"ruleset": "partisans", "seats": "5"}, "wrong_type", "seats"),
        ({"ruleset": "partisans", "seats": 5.0}, "wrong_type", "seats"),
        ({"ruleset": "partisans", "seats": True}, "wrong_type", "seats"),
        ({"ruleset": "partisans", "seats": None}, "wrong_type", "seats"),
        ({"ruleset": "partisans", "seats": 11}, "out_of_range", "seats"),
        ({"ruleset": "partisans", "seats": 2}, "out_of_range", "seats"),
        ({"ruleset": "partisans", "seats": 10**30}, "out_of_range", "seats"),
        ({"ruleset": "chess", "seats": 5}, "invalid_choice", "ruleset"),
        ({"ruleset": 7, "seats": 5}, "wrong_type", "ruleset"),
        ({**GOOD_TABLE, "private": "yes"}, "wrong_type", "private"),
        ({**GOOD_TABLE, "name": "x" * 61}, "out_of_range", "name"),
        ({**GOOD_TABLE, "name": ["a"]}, "wrong_type", "name"),
        ({**GOOD_TABLE, "options": []}, "wrong_type", "options"),
        ({**GOOD_TABLE, "options": {"scout": [1]}}, "wrong_type", "options.scout"),
        ({**GOOD_TABLE, "options": {"scout": None}}, "wrong_type", "options.scout"),
        (
            {**GOOD_TABLE, "options": {f"o{i}": True for i in range(17)}},
            "out_of_range",
            "options",
        ),
    ],
)
def test_table_create_body_checked_strictly(
    bot: Api, body: dict[str, Any], code: str, field: str
) -> None:
    answer = bot.post("tables", body)
    assert answer.status == 400, answer.body
    assert answer.code == code
    assert answer.body["error"]["field"] == field
    assert field.split(".")[0] in answer.body["error"]["message"]
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("ruleset", "options", "code", "field", "named"),
    [
        (
            "partisans",
            {"growing_patrol": True},
            "unknown_field",
            "options.growing_patrol",
            "",
        ),
        ("partisans", {"scout": 1}, "wrong_type", "options.scout", "true or false"),
        ("partisans", {"chat": False}, "invalid_choice", "options.chat", "true"),
        (
            "mafia_partisan",
            {"slaughters": 3},
            "invalid_choice",
            "options.slaughters",
            "1, 2, 0",
        ),
        (
            "mafia_partisan",
            {"ballot": "all"},
            "invalid_choice",
            "options.ballot",
            '"many", "one"',
        ),
        (
            "mafia_partisan",
            {"defence_seconds": 5},
            "out_of_range",
            "options.defence_seconds",
            "from 15 to 300",
        ),
        (
            "mafia_partisan",
            {"threshold_below_four": "2"},
            "wrong_type",
            "options.threshold_below_four",
            "a whole number",
        ),
    ],
)
def test_a_refused_option_names_the_values_it_takes(
    bot: Api, ruleset: str, options: dict[str, Any], code: str, field: str, named: str
) -> None:
    seats = engine.get_ruleset(ruleset).min_players
    answer = bot.post(
        "tables", {"ruleset": ruleset, "seats": seats, "options": options}
    )
    assert answer.status == 400
    assert (answer.code, answer.body["error"]["field"]) == (code, field)
    assert named in answer.body["error"]["message"]
    assert not Game.objects.exists()


def test_every_value_the_rulesets_list_is_taken(bot: Api) -> None:
    """What GET /rulesets says an option takes, a new table takes."""
    for ruleset in bot.get("rulesets").body["rulesets"]:
        for option in ruleset["options"]:
            values = [choice["value"] for choice in option["choices"]]
            values += [
                v for v in (option["minimum"], option["maximum"]) if v is not None
            ]
            for value in values or [option["default"]]:
                body = {
                    "ruleset": ruleset["code"],
                    "seats": ruleset["min_players"],
                    "options": {option["name"]: value},
                }
                assert bot.post("tables", body).status == 201, (body, ruleset)


def test_seat_count_outside_the_games_range_is_refused(bot: Api) -> None:
    """A seat count the game does not take is out of range, naming the game's."""
    for code in playable_rulesets():
        ruleset = engine.get_ruleset(code)
        for seats in (ruleset.min_players - 1, ruleset.max_players + 1):
            answer = bot.post("tables", {"ruleset": code, "seats": seats})
            assert answer.status == 400
            assert (answer.code, answer.body["error"]["field"]) == (
                "out_of_range",
                "seats",
            )
            message = answer.body["error"]["message"]
            bound = ruleset.min_players if seats < ruleset.min_players else None
            assert str(bound or ruleset.max_players) in message, (code, message)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"turn": 0}, "missing_field", "action"),
        ({"action": {"type": "vote", "approve": True}}, "missing_field", "turn"),
        ({"action": [], "turn": 0}, "wrong_type", "action"),
        ({"action": {"approve": True}, "turn": 0}, "missing_field", "action.type"),
        ({"action": {"type": "dance"}, "turn": 0}, "invalid_choice", "action.type"),
        ({"action": {"type": "vote"}, "turn": 0}, "missing_field", "action.approve"),
        (
            {"action": {"type": "vote", "approve": "yes"}, "turn": 0},
            "wrong_type",
            "action.approve",
        ),
        (
            {"action": {"type": "vote", "approve": True, "seat": 2}, "turn": 0},
            "unknown_field",
            "action.seat",
        ),
        (
            {"action": {"type": "vote", "approve": True}, "turn": 0, "seat": 2},
            "unknown_field",
            "seat",
        ),
        (
            {"action": {"type": "vote", "approve": True}, "turn": 0, "user": "x"},
            "unknown_field",
            "user",
        ),
        (
            {"action": {"type": "propose", "team": [0, "1"]}, "turn": 0},
            "wrong_type",
            "action.team[1]",
        ),
        (
            {"action": {"type": "propose", "team": [0, 10]}, "turn": 0},
            "out_of_range",
            "action.team[1]",
        ),
        (
            {"action": {"type": "propose", "team": list(range(11))}, "turn": 0},
            "out_of_range",
            "action.team",
        ),
        (
            {"action": {"type": "play", "card": "joker"}, "turn": 0},
            "invalid_choice",
            "action.card",
        ),
        (
            {"action": {"type": "vote", "approve": True}, "turn": -1},
            "out_of_range",
            "turn",
        ),
        (
            {"action": {"type": "vote", "approve": True}, "turn": "0"},
            "wrong_type",
            "turn",
        ),
        (
            {"action": {"type": "shoot", "target": True}, "turn": 0},
            "wrong_type",
            "action.target",
        ),
    ],
)
def test_action_body_checked_strictly(
    body: dict[str, Any], code: str, field: str
) -> None:
    table, players = open_table()
    answer = players[0].post(f"tables/{table}/actions", body)
    assert answer.status == 400, answer.body
    assert answer.code == code
    assert answer.body["error"]["field"] == field
    assert not GameAction.objects.exists()
    assert game(table).version == 0


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({}, "missing_field", "text"),
        ({"text": ""}, "out_of_range", "text"),
        ({"text": "x" * 301}, "out_of_range", "text"),
        ({"text": 5}, "wrong_type", "text"),
        ({"text": "hi", "channel": "Mafia!"}, "invalid_format", "channel"),
        ({"text": "hi", "to": "olga"}, "unknown_field", "to"),
    ],
)
def test_chat_body_checked_strictly(
    body: dict[str, Any], code: str, field: str
) -> None:
    table, players = open_table()
    answer = players[0].post(f"tables/{table}/chat", body)
    assert answer.status == 400
    assert answer.code == code
    assert answer.body["error"]["field"] == field


def test_join_accepts_no_body_or_an_empty_object_only() -> None:
    table, _players = open_table(seats=5, start=False)
    guest = program()
    assert guest.post(f"tables/{table}/join", {"seat": 3}).code == "unknown_field"
    assert guest.post(f"tables/{table}/join", raw=b"[]").code == "invalid_json"
    assert guest.post(f"tables/{table}/join", {}).status == 409  # full: it was valid


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("?mine=yes", "invalid_choice"),
        ("?page=2", "unknown_field"),
        ("?mine=1&mine=0", "wrong_type"),
    ],
)
def test_query_parameters_checked_strictly(bot: Api, query: str, code: str) -> None:
    answer = bot.get(f"tables{query}")
    assert answer.status == 400
    assert answer.code == code


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "rulesets"),
        ("GET", "auth/token"),
        ("GET", "openapi.json"),
        ("GET", "tables/{code}"),
        ("GET", "tables/{code}/view"),
        ("POST", "tables/{code}/actions"),
        ("POST", "tables/{code}/join"),
        ("GET", "tables/{code}/chat"),
        ("GET", "tables"),
    ],
)
def test_every_endpoint_refuses_an_unknown_query_parameter(
    method: str, path: str
) -> None:
    """`?seat=2` names nothing an endpoint takes: refused, never ignored."""
    table, players = open_table()
    url = path.replace("{code}", table)
    body = {"action": {"type": "vote", "approve": True}, "turn": 0}
    data = body if path.endswith("actions") else None
    before = game(table).version
    answer = players[1].call(method, f"{url}?seat=2", data)
    assert answer.status == 400, answer.body
    assert (answer.code, answer.body["error"]["field"]) == ("unknown_field", "?seat")
    assert game(table).version == before


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("?after=x", "wrong_type"),
        ("?channel=All!", "invalid_format"),
        ("?channel=mafia", "chat_channel_closed"),
    ],
)
def test_chat_query_checked(query: str, code: str) -> None:
    table, players = open_table()
    assert players[0].get(f"tables/{table}/chat{query}").code == code


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PUT", "tables", "GET, POST"),
        ("DELETE", "rulesets", "GET"),
        ("GET", "tables/abc/join", "POST"),
        ("PATCH", "auth/token", "DELETE, GET, POST"),
        ("POST", "tables/abc/view", "GET"),
    ],
)
def test_wrong_method_is_405_with_allow(
    bot: Api, method: str, path: str, allowed: str
) -> None:
    answer = bot.call(method, path)
    assert answer.status == 405
    assert answer.code == "method_not_allowed"
    assert answer.headers["Allow"] == allowed


def test_wrong_method_is_405_even_without_a_token() -> None:
    answer = Api(user=None, key=None).call("PUT", "tables")
    assert answer.status == 405


def test_unknown_endpoint_is_a_json_404(bot: Api) -> None:
    answer = bot.get("nothing/here")
    assert answer.status == 404
    assert answer.code == "not_found"
    assert answer.headers["Content-Type"] == "application/json"


@pytest.mark.parametrize(
    ("method", "suffix"),
    [
        ("GET", ""),
        ("DELETE", ""),
        ("POST", "/join"),
        ("POST", "/leave"),
        ("POST", "/start"),
        ("GET", "/view"),
        ("GET", "/chat"),
    ],
)
def test_unknown_table_is_a_json_404(bot: Api, method: str, suffix: str) -> None:
    answer = bot.call(method, f"tables/no-such-table{suffix}")
    assert answer.status == 404
    assert answer.code == "table_not_found"


def test_acting_at_an_unknown_table_is_404(bot: Api) -> None:
    body = {"action": {"type": "vote", "approve": True}, "turn": 0}
    answer = bot.post("tables/nope/actions", body)
    assert answer.status == 404
    assert answer.code == "table_not_found"
    assert "view" not in answer.body


def test_errors_follow_accept_language_then_the_profile() -> None:
    russian = program(language="ru")
    russian.language = None
    answer = russian.get("rulesets")
    assert answer.headers["Content-Language"] == "ru"
    assert answer.body["rulesets"][0]["name"] == "Партизаны"
    russian.language = "en"
    answer = russian.get("rulesets")
    assert answer.headers["Content-Language"] == "en"
    assert answer.body["rulesets"][0]["name"] == "Partisans"
    english = program(language="en")
    english.language = "ru-RU,ru;q=0.9"
    missing = english.get("tables/nope")
    assert missing.headers["Content-Language"] == "ru"
    with translation.override("ru"):
        from games.errors import TableNotFound

        assert missing.body["error"]["message"] == str(TableNotFound())
    english.language = "de"
    assert english.get("rulesets").headers["Content-Language"] == "en"


def test_an_invalid_choice_lists_the_values_as_a_program_sends_them() -> None:
    from api.checks import move_of
    from live.requests import RequestError

    with pytest.raises(RequestError) as refused:
        move_of("partisans", {"type": "dance"}, seats=5)
    assert refused.value.code == "invalid_choice"
    with translation.override("en"):
        message = str(refused.value)
    assert message == (
        '“action.type” must be one of: "propose", "vote", "play", "check", '
        '"claim", "shoot".'
    )
