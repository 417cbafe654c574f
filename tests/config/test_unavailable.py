"""With the cache's Redis unreachable, the doors that need it answer a clear 503 at
once (the JSON envelope under /api/), and the rest of the site keeps working.

"Unreachable" here is a server that accepts connections and never answers, the
worst case (a hung or firewalled Redis): before, each request hung for redis-py's
default five seconds and then answered a generic 500. A closed port is tried too."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from config.settings.base import redis_cache
from games.models import ChatMessage
from tests.api.support import open_table
from tests.factories import PASSWORD, UserFactory
from tests.games.conftest import seated_users, start_table

pytestmark = pytest.mark.django_db


def test_the_cache_gives_up_within_a_second() -> None:
    options = redis_cache("redis://127.0.0.1:6379/0")["OPTIONS"]
    assert 0 < options["socket_timeout"] <= 1
    assert 0 < options["socket_connect_timeout"] <= 1


@pytest.fixture(params=["silent", "closed"])
def cache_down(request: pytest.FixtureRequest, settings: Settings) -> Iterator[None]:
    """The cache pointed at a server that never answers, or at a closed port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    if request.param == "silent":
        listener.listen(64)  # the kernel accepts; nobody ever reads or answers
    else:
        listener.close()
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{port}/0")}
    yield
    listener.close()


def assert_unavailable_page(response) -> None:
    assert response.status_code == 503
    assert "Temporarily unavailable" in response.content.decode()


def assert_unavailable_json(response) -> None:
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "unavailable"


@pytest.mark.usefixtures("cache_down")
def test_log_in_and_the_token_answer_503() -> None:
    UserFactory(username="olga")
    english = {"accept-language": "en"}
    page = Client(raise_request_exception=False).post(
        "/accounts/login/", {"username": "olga", "password": PASSWORD}, headers=english
    )
    assert_unavailable_page(page)
    token = Client(raise_request_exception=False).post(
        "/api/v1/auth/token",
        {"username": "olga", "password": PASSWORD},
        content_type="application/json",
    )
    assert_unavailable_json(token)


@pytest.mark.usefixtures("cache_down")
def test_chat_answers_503_and_stores_nothing() -> None:
    game = start_table("partisans", 5, {"chat": True})
    client = Client(raise_request_exception=False)
    client.force_login(seated_users(game)[0])
    page = client.post(
        f"/games/t/{game.code}/chat/",
        {"text": "hello", "channel": "table"},
        headers={"accept-language": "en"},
    )
    assert_unavailable_page(page)
    code, players = open_table("partisans", 5, {"chat": True})
    players[0].client = Client(raise_request_exception=False)
    answer = players[0].post(f"tables/{code}/chat", {"text": "hello"})
    assert answer.status == 503 and answer.code == "unavailable"
    assert not ChatMessage.objects.exists()


@pytest.mark.usefixtures("cache_down")
def test_the_rest_of_the_site_keeps_working() -> None:
    user = UserFactory()
    client = Client(raise_request_exception=False)
    client.force_login(user)
    for path in ("/", "/games/", "/history/", "/games/rules/", f"/u/{user.username}/"):
        assert client.get(path).status_code == 200, path
