"""Errors under /api/ answer the API's own JSON envelope, never the HTML page: a
program parses every answer the same way, a crash included."""

from __future__ import annotations

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from live.requests import error_json

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _failing_urls(settings: Settings) -> None:
    settings.ROOT_URLCONF = "tests.config.urls"


def envelope_of(response) -> dict:
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message"}
    return body["error"]


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/v1/test-crash", 500, "server_error"),
        ("/api/v1/test-suspicious", 400, "bad_request"),
        ("/api/no-such-thing", 404, "not_found"),
    ],
)
def test_api_errors_are_the_json_envelope(path: str, status: int, code: str) -> None:
    client = Client(raise_request_exception=False)
    response = client.get(path, headers={"accept-language": "en"})
    assert response.status_code == status
    error = envelope_of(response)
    assert error["code"] == code
    assert "<html" not in response.content.decode()
    assert "on purpose" not in error["message"]


def test_the_envelope_is_the_one_endpoints_use() -> None:
    """Same shape as an endpoint's own refusal (live.requests.error_json)."""
    from live import requests as errors

    crash = Client(raise_request_exception=False).get("/api/v1/test-crash")
    assert envelope_of(crash) == error_json(errors.ServerError())


def test_api_error_speaks_the_programs_language() -> None:
    client = Client(raise_request_exception=False)
    response = client.get("/api/v1/test-crash", headers={"accept-language": "ru"})
    assert response["Content-Language"] == "ru"
    assert "Что-то сломалось" in envelope_of(response)["message"]


@pytest.mark.parametrize(
    ("path", "status", "title"),
    [
        ("/test-crash/", 500, "Server error"),
        ("/test-suspicious/", 400, "Bad request"),
        ("/no-such-page/", 404, "Page not found"),
    ],
)
def test_pages_keep_the_html_error_page(path: str, status: int, title: str) -> None:
    client = Client(raise_request_exception=False)
    response = client.get(path, headers={"accept-language": "en"})
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    assert title in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_page_under_asgi_runs_its_middleware_in_the_views_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under daphne every request crosses from the event loop to a thread and back
    only a few times (config.middleware.OneThreadMiddleware): Django's own
    middleware classes, run in async mode, would each cross twice, and each crossing
    back waits for a loop that may be busy drawing a table's pushes."""
    import asyncio

    from asgiref.sync import SyncToAsync
    from django.test import AsyncClient

    crossings: list[object] = []
    cross = SyncToAsync.__call__

    async def counted(self: SyncToAsync, *args: object, **kwargs: object) -> object:
        crossings.append(self.func)
        return await cross(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    response = asyncio.run(AsyncClient().get("/", headers={"accept-language": "en"}))
    assert response.status_code == 200
    # The chain, the view, and the request's own bookkeeping (signals, the body).
    assert 1 <= len(crossings) <= 5, crossings
