"""A NUL character anywhere in a request is refused with a 400 at the boundary.

PostgreSQL can neither store nor compare a string holding U+0000, so each of these
used to be a 500 there (an HTML page even under /api/), some without logging in; on
SQLite some were silently stored. Now the middleware answers before any view runs:
the API's JSON envelope under /api/, the error page elsewhere, and nothing changes."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import ChatMessage, Game
from tests.api.support import Api, open_table, program
from tests.factories import UserFactory
from tests.fuzz.tables import fingerprint
from tests.games.conftest import seated_users, start_table

pytestmark = pytest.mark.django_db


def assert_page_400(response) -> None:
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "Bad request" in response.content.decode()


def assert_api_400(response) -> None:
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "forbidden_character"


@pytest.mark.parametrize(
    "path",
    [
        "/games/t/%00/",
        "/u/%00/",
        "/history/g/%00/",
        "/games/t/ab%00cd/chat/",
        "/games/?q=%00",
        "/history/?x%00=1",
    ],
)
def test_a_nul_in_a_page_address_is_a_bad_request(path: str) -> None:
    response = Client().get(path, headers={"accept-language": "en"})
    assert_page_400(response)


def test_the_refusal_speaks_russian_too() -> None:
    response = Client().get("/u/%00/", headers={"accept-language": "ru"})
    assert response.status_code == 400
    assert "Неверный запрос" in response.content.decode()


def test_a_nul_in_the_session_cookie_never_reaches_the_database() -> None:
    client = Client()
    client.cookies["sessionid"] = "abc\x00def"
    assert_page_400(client.get("/games/", headers={"accept-language": "en"}))


def test_a_nul_in_the_token_request() -> None:
    UserFactory(username="a")
    response = Client().post(
        "/api/v1/auth/token",
        json.dumps({"username": "a\u0000", "password": "x"}),
        content_type="application/json",
    )
    assert_api_400(response)
    raw = Client().post(
        "/api/v1/auth/token",
        b'{"username": "a\x00", "password": "x"}',
        content_type="application/json",
    )
    assert_api_400(raw)


def test_an_escaped_backslash_before_u0000_is_not_a_nul() -> None:
    """The text \\u0000 (a backslash, then u0000) is ordinary text."""
    UserFactory(username="a")
    response = Client().post(
        "/api/v1/auth/token",
        json.dumps({"username": "a\\u0000", "password": "x"}),
        content_type="application/json",
    )
    assert response.status_code == 401


def test_a_nul_in_api_chat_and_table_names_changes_nothing() -> None:
    code, players = open_table("partisans", 5)
    host: Api = players[0]
    before = fingerprint(Game.objects.get(code=code))
    chat = host.post(f"tables/{code}/chat", {"text": "hi\u0000there"})
    assert chat.status == 400 and chat.code == "forbidden_character"
    named = program().post(
        "tables", {"ruleset": "partisans", "seats": 5, "options": {}, "name": "a\x00"}
    )
    assert named.status == 400 and named.code == "forbidden_character"
    assert fingerprint(Game.objects.get(code=code)) == before
    assert Game.objects.count() == 1


def test_a_nul_in_form_chat_changes_nothing() -> None:
    game = start_table("partisans", 5, {"chat": True})
    client = Client()
    client.force_login(seated_users(game)[0])
    response = client.post(
        f"/games/t/{game.code}/chat/",
        {"text": "hi\x00", "channel": "table"},
        headers={"accept-language": "en"},
    )
    assert_page_400(response)
    assert not ChatMessage.objects.exists()


def test_a_nul_in_a_form_field_name_too() -> None:
    response = Client().post("/accounts/login/", {"user\x00name": "a"})
    assert response.status_code == 400
