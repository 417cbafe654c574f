"""Cells on the site's pages: registered once, offered on the create page for three
or four seats, explained on the Rules page (the deal read from the engine, a turn's
three actions, the end, every house decision), listed in the lobby, its table
waiting room and its game seen by a spectator; and every event of a game said in
words on the replay's steps."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games import engine, services
from games.families.cells.engine import HOUSE_DECISIONS
from games.kit.family import family_of, playable_rulesets
from games.models import Game
from history import replay
from tests.factories import UserFactory
from tests.games.conftest import start_table
from tests.history.builders import random_game

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_family_is_registered_and_offered() -> None:
    assert "cells" in playable_rulesets()
    assert family_of("cells").code == "cells"
    page = _client(UserFactory()).get("/games/new/", headers={"accept-language": "ru"})
    body = page.content.decode()
    assert 'name="ruleset" value="cells"' in body and "Ячейки" in body
    assert '<option value="3"' in body and '<option value="4"' in body


@pytest.mark.parametrize(
    ("seats", "ok"), [(2, False), (3, True), (4, True), (5, False)]
)
def test_a_cells_table_takes_three_or_four_seats(seats: int, ok: bool) -> None:
    user = UserFactory()
    response = _client(user).post(
        "/games/new/",
        {"ruleset": "cells", "seat_count": str(seats), "opt_cells_chat": "on"},
    )
    assert Game.objects.filter(ruleset="cells").exists() is ok
    if ok:
        game = Game.objects.get()
        assert response["Location"] == game.get_absolute_url()
        assert game.options == {"chat": True}
        lobby = _client().get("/games/").content.decode()
        assert game.code in lobby and "Ячейки" in lobby


def test_the_rules_page_explains_cells_with_every_house_decision() -> None:
    for language, word in (("en", "Cells"), ("ru", "Ячейки")):
        body = _client().get("/games/rules/", headers={"accept-language": language})
        text = body.content.decode()
        assert 'id="cells"' in text and word in text
        with translation.override(language):
            for decision in HOUSE_DECISIONS:
                assert translation.gettext(decision) in text.replace("&#x27;", "'")
    english = _client().get("/games/rules/", headers={"accept-language": "en"})
    text = english.content.decode()
    # The deal, counted from what the engine deals: 9 cards with 3 players, 4 red.
    assert '<th scope="row">3</th><td class="num">9</td><td class="num">4</td>' in text
    assert '<th scope="row">4</th><td class="num">12</td><td class="num">5</td>' in text
    for action in ("Swap.", "Mission.", "Look."):
        assert action in text


def test_the_waiting_room_and_a_spectator_see_the_table() -> None:
    host = UserFactory()
    game = services.game_create(host=host, ruleset="cells", seat_count=3)
    body = _client(host).get(game.get_absolute_url()).content.decode()
    with translation.override("ru"):
        assert translation.gettext(HOUSE_DECISIONS[0]) in body.replace("&#x27;", "'")
    started = start_table("cells", 4)
    watching = _client(UserFactory()).get(started.get_absolute_url()).content.decode()
    assert "data-role-card" not in watching  # a spectator has no cell of their own
    assert watching.count("cell-card down") == 12  # every card face down


def test_every_step_of_a_game_is_said_in_words() -> None:
    table = random_game("cells", 4, 71)
    names = {position: name for name, position in table.position.items()}
    with translation.override("en"):
        steps = replay.steps(table.game, names)
    assert steps[0].kind == "deal" and steps[0].milestone
    for step in steps:
        assert step.label, step
    kinds = {step.kind for step in steps}
    assert kinds >= {"deal", "confirm", "swap", "exchange", "mission", "discard"}
    assert steps[-1].label.endswith("win.")
    with translation.override("ru"):
        russian = replay.steps(table.game, names)
    assert all(a.label != b.label for a, b in zip(steps, russian, strict=True))


def test_the_admin_never_shows_a_discard_and_an_exchange_only_after_the_end() -> None:
    family = family_of("cells")
    assert family.records.admin_action({"type": "discard", "card": "red"}, True) == {
        "type": "discard",
        "card": "•",
    }
    hidden = family.records.admin_action({"type": "exchange", "exchange": True}, False)
    assert hidden == {"type": "exchange", "exchange": "•"}
    shown = family.records.admin_action({"type": "exchange", "exchange": True}, True)
    assert shown == {"type": "exchange", "exchange": True}
    assert engine.get_ruleset("cells").family == "cells"


def test_an_abandoned_game_offers_no_move_anywhere() -> None:
    game = start_table("cells", 3)
    services.game_abandon(game=game, user=game.host)
    for seat in game.seats.select_related("user"):
        body = _client(seat.user).get(game.get_absolute_url()).content.decode()
        assert "banner abandoned" in body
        assert 'name="action"' not in body  # no confirm, no turn, nothing
