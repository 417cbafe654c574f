"""Pages cost a fixed number of queries, however many games there are: the history
list, a busy profile with its stats, a review page and a replay fragment."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from history import replay
from tests.history.builders import FIVE, Table, deal

pytestmark = pytest.mark.django_db

RULES = [
    ("partisans", {"scout": True, "check": True}),
    ("trust_no_one", {}),
    ("werewolves", {}),
    ("partisans", {}),
]


def _games(count: int, rng: random.Random) -> list[Table]:
    """``count`` finished games of the same five players, of several rulesets."""
    tables = []
    for number in range(count):
        ruleset, options = RULES[number % len(RULES)]
        table = deal(ruleset, FIVE, options=options, private=number % 3 == 2)
        table.finish_randomly(rng)
        tables.append(table)
    return tables


def _queries(client: Client, url: str) -> int:
    """Queries for one page, cold: no replay kept from before."""
    replay.forget_all()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def _page_costs(client: Client, tables: list[Table]) -> dict[str, int]:
    game = tables[0].game.code
    return {
        "list": _queries(client, "/history/"),
        "list_filtered": _queries(
            client, "/history/?player=ann&side=good&won=1&fact=approved_evil"
        ),
        "profile": _queries(client, "/u/ann/"),
        "review": _queries(client, f"/history/g/{game}/?step=3&as=all"),
        "replay": _queries(client, f"/history/g/{game}/replay/?step=5&as=1"),
    }


@pytest.mark.parametrize("logged_in", [False, True])
def test_query_counts_do_not_grow_with_the_number_of_games(
    client: Client, logged_in: bool
) -> None:
    rng = random.Random(1)
    tables = _games(2, rng)
    if logged_in:
        client.force_login(tables[0].users["ann"])
    few = _page_costs(client, tables)
    tables += _games(10, rng)
    many = _page_costs(client, tables)
    assert many == few
    assert max(few.values()) <= 25, few


def test_the_profile_stats_fit_in_a_few_queries(
    client: Client, django_assert_max_num_queries
) -> None:
    _games(6, random.Random(2))
    with django_assert_max_num_queries(14):
        assert client.get("/u/ann/").status_code == 200
