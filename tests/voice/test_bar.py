"""The voice bar on the table page: the same for every seat and the moderator
whatever their side, absent for a spectator."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import engine
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import seated_users, start_table

pytestmark = pytest.mark.django_db

BAR = re.compile(r'<section id="voice-bar".*?</section>', re.S)


def _page(user, game) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def test_every_seat_and_the_moderator_see_one_bar_at_a_mafia_night() -> None:
    game = start_table("mafia_partisan", 10)
    state = load_state(game)
    users = seated_users(game)
    mafia = next(
        s for s in range(10) if "mafia" in engine.view(state, s)["me"]["channels"]
    )
    town = next(
        s for s in range(10) if "mafia" not in engine.view(state, s)["me"]["channels"]
    )
    bars = set()
    for user in (users[mafia], users[town], game.moderator):
        found = BAR.search(_page(user, game))
        assert found is not None
        bars.add(found.group(0))
    assert len(bars) == 1


def test_a_spectator_has_no_voice_bar() -> None:
    game = start_table("partisans", 5)
    page = _page(UserFactory(), game)
    assert "voice-bar" not in page and "voice-rights" not in page
