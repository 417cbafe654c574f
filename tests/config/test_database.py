"""Connections the PostgreSQL server has cut (a restart, a failover, a proxy's idle
kill; here pg_terminate_backend) are never handed to a request.

Before, the pool handed out each dead connection once, and each one cost a request a
500. Now the pool checks a connection as it hands it out, and a read-only request
whose connection dies under it is run once more on a fresh one; a request that may
have written is not repeated, and answers 503."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection, connections
from django.test import Client
from pytest_django.fixtures import Settings

from tests.config import urls as failing_urls
from tests.config.pg import cut_connections
from tests.conftest import uses_postgres
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not uses_postgres(), reason="needs DATABASE_URL: PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def _fresh_pool() -> Iterator[None]:
    """A pool of this test's own: connections that earlier tests' threads never gave
    back must not leave it short (its 10-second wait would read as a 503)."""
    connections.close_all()
    connection.close_pool()
    yield
    connections.close_all()
    connection.close_pool()


@pytest.fixture
def client() -> Iterator[Client]:
    user = UserFactory()
    browser = Client(raise_request_exception=False)
    browser.force_login(user)
    yield browser
    connections.close_all()


def end_of_request() -> None:
    """What the end of a real request does (the test client skips it): give the
    connection back to the pool."""
    connections.close_all()


def test_the_pool_is_in_use() -> None:
    assert connection.pool is not None
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_cut_pooled_connections_are_not_handed_out(client: Client) -> None:
    for _ in range(3):
        assert client.get("/history/").status_code == 200
        end_of_request()
    assert cut_connections() >= 1
    answers = []
    for _ in range(10):
        answers.append(client.get("/history/").status_code)
        end_of_request()
    assert answers == [200] * 10


def test_a_read_that_loses_its_connection_is_run_again(client: Client) -> None:
    assert client.get("/games/").status_code == 200
    connection.ensure_connection()  # held, as if just checked out
    assert cut_connections() >= 1
    assert client.get("/history/").status_code == 200


def test_a_user_read_on_a_dead_connection_is_read_again(client: Client) -> None:
    """Even a POST: the session and user are read before the view writes anything."""
    connection.ensure_connection()
    assert cut_connections() >= 1
    response = client.post(
        "/games/new/",
        {"ruleset": "partisans", "seat_count": "5"},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 302
    end_of_request()
    from games.models import Game

    assert Game.objects.count() == 1


@pytest.fixture
def failing_views(settings: Settings) -> Iterator[list[str]]:
    settings.ROOT_URLCONF = "tests.config.urls"
    failing_urls.CALLS.clear()
    yield failing_urls.CALLS


def test_a_view_that_loses_its_connection_reads_again(
    client: Client, failing_views: list[str]
) -> None:
    response = client.get("/test-cut/")
    assert response.status_code == 200
    assert failing_views == ["GET", "GET"]


def test_a_view_that_may_have_written_is_not_repeated(
    client: Client, failing_views: list[str]
) -> None:
    response = client.post("/test-cut/", headers={"accept-language": "en"})
    assert response.status_code == 503
    assert "Temporarily unavailable" in response.content.decode()
    assert failing_views == ["POST"]


def test_a_connection_cut_inside_a_transaction_is_503(
    client: Client, failing_views: list[str]
) -> None:
    """As a move's: the transaction is lost (nothing was written) and the program
    is told to try again, in the API's envelope."""
    response = client.post("/api/v1/test-cut-in-transaction")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"
    assert failing_views == ["POST"]


@pytest.fixture
def strict_pool() -> Iterator[None]:
    """The pool holding several idle connections, and waiting at most one second
    for one: a request that waited longer would answer 503."""
    pool_options = connection.settings_dict["OPTIONS"]["pool"]
    saved = dict(pool_options)
    pool_options.update(min_size=6, max_size=8, timeout=1)
    connection.close_pool()
    connection.pool.open(wait=True, timeout=30)
    yield
    connections.close_all()
    connection.close_pool()
    pool_options.clear()
    pool_options.update(saved)


@pytest.mark.usefixtures("strict_pool")
def test_back_within_a_second_of_the_database(client: Client) -> None:
    """Every connection cut (as a restart or failover does): the first request after
    it, and the readiness check, are served, none waiting on a pool backing off.
    (psycopg_pool alone slept 1, 2, 4 … s after each dead connection it found.)"""
    assert client.get("/history/").status_code == 200
    end_of_request()
    assert connection.pool.get_stats()["pool_size"] >= 6
    assert cut_connections() >= 6
    assert client.get("/history/").status_code == 200
    end_of_request()
    assert Client().get("/healthz/ready").status_code == 200
    assert cut_connections() >= 1
    assert Client().get("/healthz/ready").status_code == 200
    assert Client().get("/healthz/live").status_code == 200
