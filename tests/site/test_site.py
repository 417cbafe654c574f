"""The skeleton: pages in both languages, the health check, error pages, security
headers and the WebSocket door."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from config.asgi import application

pytestmark = pytest.mark.django_db


def test_front_page_speaks_russian_by_default(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response["Content-Language"] == "ru"
    assert '<html lang="ru"' in response.content.decode()
    assert "Подполье" in response.content.decode()


def test_front_page_speaks_english_to_an_english_browser(client: Client) -> None:
    response = client.get("/", headers={"accept-language": "en-GB,en;q=0.9"})
    assert response.status_code == 200
    assert response["Content-Language"] == "en"
    body = response.content.decode()
    assert "Podpolye" in body
    assert "Подполье" not in body


def test_unknown_browser_language_falls_back_to_russian(client: Client) -> None:
    response = client.get("/", headers={"accept-language": "de-DE,de;q=0.9"})
    assert response["Content-Language"] == "ru"


def test_healthz_reports_database_and_channel_layer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    payload = json.loads(response.content)
    assert payload["status"] == "ok"
    assert payload["database"] == "ok"
    assert payload["channel_layer"] == "ok"
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.parametrize(
    ("language", "title"), [("ru", "Страница не найдена"), ("en", "Page not found")]
)
def test_404_page_in_both_languages(client: Client, language: str, title: str) -> None:
    response = client.get("/no/such/page/", headers={"accept-language": language})
    assert response.status_code == 404
    assert title in response.content.decode()


def test_security_headers(client: Client) -> None:
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_pages_load_htmx_from_django_htmx(client: Client) -> None:
    body = client.get("/").content.decode()
    assert "/static/django_htmx/htmx-2.min.js" in body
    assert "/static/django_htmx/ext/hx-ws-2.min.js" in body


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_anonymous_websocket_is_refused() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, code = await communicator.connect(timeout=30)
    assert not connected
    assert code == 4401
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_authenticated_websocket_is_accepted() -> None:
    from asgiref.sync import sync_to_async

    user = await sync_to_async(User.objects.create_user)(
        username="olga", password="a-long-pass-phrase", display_name="Оля"
    )
    client = Client()
    await sync_to_async(client.force_login)(user)
    cookie = client.cookies["sessionid"].value
    communicator = WebsocketCommunicator(
        application,
        "/ws/ping/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    assert await communicator.receive_json_from(timeout=30) == {
        "type": "hello",
        "user": "Оля",
    }
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=30) == {"type": "pong"}
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_websocket_from_a_foreign_origin_is_refused() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect(timeout=30)
    assert not connected
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_profile_language_wins_under_the_async_handler() -> None:
    """Under daphne the middleware runs in async mode: the profile language still
    beats the browser's."""
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    user = await sync_to_async(User.objects.create_user)(
        username="ivan",
        password="a-long-pass-phrase",
        display_name="Ваня",
        language="en",
    )
    client = AsyncClient()
    await sync_to_async(client.force_login)(user)
    response = await client.get("/", headers={"accept-language": "ru"})
    # The request's sync parts ran in a worker thread: close its connection, or it
    # would keep PostgreSQL's test database from being dropped at the end.
    from django.db import connections

    await sync_to_async(connections.close_all)()
    assert response.status_code == 200
    assert response["Content-Language"] == "en"


def test_the_front_page_lists_every_installed_game_with_its_player_count(
    client: Client,
) -> None:
    """From the game families, not a hand-kept list: a new family shows up here."""
    from django.utils import translation
    from django.utils.html import escape

    from games import engine
    from games.kit.family import playable_rulesets, words_of

    body = client.get("/", headers={"accept-language": "en"}).content.decode()
    with translation.override("en"):
        for code in playable_rulesets():
            ruleset = engine.get_ruleset(code)
            assert escape(str(words_of(code).game)) in body
            assert escape(str(words_of(code).tagline)) in body
            low, high = ruleset.min_players, ruleset.max_players
            assert (
                f"{low}–{high} players" if low != high else f"{low} players"
            ) in body
    assert "3–4 players" in body  # the cells game


def test_favicon_ico_leads_to_the_sites_icon(client: Client) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    assert answer["Location"].endswith("img/favicon.svg")
    assert client.get(answer["Location"]).status_code in (200, 304)
