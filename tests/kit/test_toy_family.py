"""A fourth family added through the kit alone (``tests/kit/toy.py``): offered on the
create page, played through the table page's forms, its page drawn from its regions
with each seat's colour on that seat's screen only, its review and replay drawn by the
history pages, and its export replayed; known only while it is installed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import resolve

from api.shapes import shapes
from games import engine
from games.kit import Family, playable_rulesets
from games.models import Game
from games.state import load_state
from history import export
from tests.factories import UserFactory
from tests.kit import toy

pytestmark = pytest.mark.django_db


@pytest.fixture
def family(settings: Any) -> Iterator[Family]:
    """The toy installed, its templates findable, for one test."""
    resolve("/")  # the site's modules loaded (and their shapes made) without the toy
    django, jinja = (dict(engine) for engine in settings.TEMPLATES)
    django["DIRS"] = [*django["DIRS"], toy.TEMPLATES]
    jinja["DIRS"] = [*jinja["DIRS"], toy.JINJA]
    settings.TEMPLATES = [django, jinja]
    shapes.cache_clear()
    with toy.installed() as installed:
        yield installed
    shapes.cache_clear()


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def _table(pile: int = 5) -> tuple[Game, list[Client]]:
    """A three-seat table made, joined and started through the pages; its players'
    clients in seat order."""
    users = [UserFactory(display_name=name) for name in ("Аня", "Боря", "Вера")]
    clients = [_client(user) for user in users]
    made = clients[0].post(
        "/games/new/",
        {"ruleset": "pebbles", "seat_count": "3", "opt_pebbles_pile": str(pile)},
    )
    game = Game.objects.get(ruleset="pebbles")
    assert made["Location"] == game.get_absolute_url()
    assert game.options == {"pile": pile}
    for client in clients[1:]:
        client.post(f"/games/t/{game.code}/join/")
    clients[0].post(f"/games/t/{game.code}/start/")
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    client_of = {user.pk: client for user, client in zip(users, clients, strict=True)}
    return game, [client_of[seat.user_id] for seat in game.seats.order_by("position")]


def _page(client: Client, game: Game) -> str:
    return client.get(game.get_absolute_url()).content.decode()


def _state(game: Game) -> Any:
    game.refresh_from_db()
    return load_state(game)


def _colours(game: Game) -> list[str]:
    return [role for role, _side in engine.final_roles(_state(game))]


def test_the_toy_is_offered_only_while_installed(family: Family) -> None:
    assert "pebbles" in playable_rulesets()
    body = _client(UserFactory()).get("/games/new/").content.decode()
    assert 'value="pebbles"' in body and "Take the last pebble." in body


def test_outside_the_block_the_site_does_not_know_it() -> None:
    assert "pebbles" not in playable_rulesets()
    assert "pebbles" not in engine.ruleset_codes()


def test_each_seat_sees_its_own_colour_and_no_other(family: Family) -> None:
    game, clients = _table()
    colours = _colours(game)
    for seat, client in enumerate(clients):
        page = _page(client, game)
        assert 'data-toy="board"' in page and "data-pile>5<" in page
        assert f"data-colour>{colours[seat]}<" in page
        for other in set(colours) - {colours[seat]}:
            assert not re.search(rf"\b{other}\b", page), "another seat's colour shows"
    # The mover's card offers the take form; the others' do not.
    assert 'name="count" value="3"' in _page(clients[0], game)
    assert 'name="count"' not in _page(clients[1], game) + _page(clients[2], game)


def test_a_malformed_move_changes_nothing(family: Family) -> None:
    game, clients = _table()
    version = game.version
    for fields in (
        {"action": "take", "count": "x", "turn": "0"},
        {"action": "give", "count": "1", "turn": "0"},
        {"action": "take", "turn": "0"},
    ):
        clients[0].post(f"/games/t/{game.code}/act/", fields)
        game.refresh_from_db()
        assert game.version == version
        assert "data-pile>5<" in _page(clients[0], game)


def test_a_game_is_played_reviewed_replayed_and_exported(family: Family) -> None:
    game, clients = _table(pile=5)
    colours = _colours(game)
    pile = 5
    while game.status == Game.Status.PLAYING:
        mover = _state(game).mover
        clients[mover].post(
            f"/games/t/{game.code}/act/",
            {"action": "take", "count": "1", "turn": str(game.turn)},
        )
        game.refresh_from_db()
        pile -= 1
        assert f"data-pile>{pile}<" in _page(clients[(mover + 1) % 3], game)
    assert game.status == Game.Status.FINISHED
    # One at a time round three seats: seat 1 takes the fifth, for its colour.
    assert f"The {colours[1]} stone took the last pebble." in _page(clients[0], game)

    review = clients[1].get(f"/history/g/{game.code}/").content.decode()
    assert 'data-toy="review"' in review
    assert review.count("data-colour>") == 3
    first = game.seats.get(position=0).user.display_name
    assert f"{first}: <span data-colour>{colours[0]}<" in review

    replay = clients[1].get(f"/history/g/{game.code}/?step=2").content.decode()
    assert "took 1." in replay

    document = json.loads(export.export_json(game))
    _final, outcome = export.rebuild(document)
    assert outcome is not None and outcome.winner == colours[1]
    assert export.verify(document) == []
