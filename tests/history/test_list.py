"""The history list: finished and abandoned games, newest first, paginated, each
filter, and who may see a private table's game."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from history.views import PAGE_SIZE
from tests.factories import UserFactory
from tests.history.builders import FIVE, deal
from tests.history.records import Record, anns_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def record() -> Record:
    return anns_record()


def _codes(client: Client, query: dict[str, str] | None = None) -> list[str]:
    response = client.get("/history/", query or {})
    assert response.status_code == 200
    return re.findall(r'<li data-game="([^"]+)"', response.content.decode())


def test_newest_first_with_game_date_players_and_winner(
    record: Record, client: Client
) -> None:
    response = client.get("/history/", headers={"accept-language": "en"})
    page = response.content.decode()
    public = [record.g5, record.g4, record.g3, record.g2, record.g1]
    assert _codes(client) == [t.game.code for t in public]
    assert "Partisans win" in page or "partisans win" in page.lower()
    assert "abandoned" in page
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve"):
        assert f'href="/u/{name.lower()}/"><bdi>{name}</bdi></a>' in page
    assert 'datetime="' in page


def test_playing_and_open_tables_are_not_history(client: Client) -> None:
    table = deal("partisans", FIVE)
    assert _codes(client) == []
    table.propose(["ann", "bob"])
    assert _codes(client) == []


def test_a_private_tables_game_is_shown_to_its_players_only(
    record: Record, client: Client
) -> None:
    code = record.g6.game.code
    assert code not in _codes(client)
    assert client.get(f"/history/g/{code}/").status_code == 404
    client.force_login(UserFactory())
    assert code not in _codes(client)
    assert client.get(f"/history/g/{code}/").status_code == 404
    client.force_login(record.g6.users["dan"])
    assert code in _codes(client)
    assert client.get(f"/history/g/{code}/").status_code == 200


def test_filters(record: Record, client: Client) -> None:
    def codes(**query: str) -> set[str]:
        return set(_codes(client, query))

    g = {n: getattr(record, n).game.code for n in ("g1", "g2", "g3", "g4", "g5", "g6")}
    assert codes(ruleset="trust_no_one") == {g["g3"]}
    assert codes(ruleset="werewolves") == set()  # private to anonymous visitors
    assert codes(players="5") == {g["g1"], g["g2"], g["g3"], g["g4"], g["g5"]}
    assert codes(players="7") == set()
    assert codes(result="good") == {g["g2"]}
    assert codes(result="evil") == {g["g1"], g["g3"], g["g4"]}
    assert codes(result="abandoned") == {g["g5"]}
    assert codes(result="finished") == {g["g1"], g["g2"], g["g3"], g["g4"]}
    assert codes(player="ann", side="evil") == {g["g1"]}
    assert codes(player="ann", role="scout") == {g["g4"]}
    assert codes(player="bob", role="sniper") == {g["g4"]}
    assert codes(player="ann", won="1") == {g["g1"], g["g2"]}
    assert codes(player="ann", won="0") == {g["g3"], g["g4"]}
    assert codes(player="nobody") == set()
    # A bad value drops that filter only.
    assert codes(players="many", result="good") == {g["g2"]}
    client.force_login(record.g6.users["ann"])
    assert codes(mine="on", result="good") == {g["g2"], g["g6"]}
    assert codes(ruleset="werewolves") == {g["g6"]}


def test_date_filters(record: Record, client: Client) -> None:
    old = timezone.make_aware(dt.datetime(2024, 3, 15, 23, 30))
    Game.objects.filter(pk=record.g1.game.pk).update(finished_at=old)
    g1 = record.g1.game.code
    assert _codes(client, {"since": "2024-03-15", "until": "2024-03-15"}) == [g1]
    assert _codes(client, {"until": "2024-03-14"}) == []
    assert g1 not in _codes(client, {"since": "2024-03-16"})
    assert _codes(client)[-1] == g1  # the oldest goes last


def test_games_i_played_needs_a_login(record: Record, client: Client) -> None:
    assert _codes(client, {"mine": "on"}) == []
    page = client.get("/history/").content.decode()
    assert 'name="mine"' not in page


def test_pagination(client: Client) -> None:
    table = deal("partisans", FIVE)
    table.abandon()
    original = Game.objects.get(pk=table.game.pk)
    copies = []
    for number in range(PAGE_SIZE + 3):
        copies.append(
            Game(
                code=f"copy{number:04d}",
                ruleset="partisans",
                host=original.host,
                seat_count=5,
                options=original.options,
                seed=original.seed,
                status=Game.Status.ABANDONED,
                finished_at=timezone.now() - dt.timedelta(minutes=number + 1),
            )
        )
    Game.objects.bulk_create(copies)
    first = _codes(client)
    assert len(first) == PAGE_SIZE
    second = _codes(client, {"page": "2"})
    assert len(second) == 4
    assert not set(first) & set(second)
    page = client.get(
        "/history/", {"page": "2", "result": "abandoned"}
    ).content.decode()
    assert "result=abandoned" in page and "page=1" in page
