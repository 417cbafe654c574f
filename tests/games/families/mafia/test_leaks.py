"""No page, fragment or push of a Partisan (Mafia) table shows a seat what it may not
know, and every player's screen has one shape at a night step.

Random complete games driven by the engine's bots through the services, the
moderator's moves included. At every step, for two seats in turn (every seat many
times over a game) and a spectator, the engine's leak oracle reads the table page,
the htmx fragment and the socket's rendering, in English, Russian and Persian, with
the game's side and role words. The glance check: at every night step, the top
regions of all the players still to tap are the same, byte for byte but for the
csrf token (no greyed-out cell or mode, no hidden ``choose``/``tap``)."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.utils import translation

from games import engine
from games.engine import oracle
from games.models import Game
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import live_area
from tests.games.families.mafia.support import (
    play_one,
    secret_words,
    start_table,
    users_by_seat,
)

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ru", "fa")
TOP = re.compile(
    r'<div id="region-top" class="region">(.*?)</div>\s*<div class="play-layout">', re.S
)


def _clean(state, seat, payload, words, where) -> None:
    leaks = oracle.find_leaks(state, seat, payload, words)
    assert not leaks, f"{where}: {leaks}"


def _shape(top: str) -> str:
    """A top region as a glance sees it: only the csrf token may differ."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", top)


@pytest.mark.parametrize("seed", [31])
def test_no_page_fragment_or_push_leaks_and_nights_look_alike(seed: int) -> None:
    game, moderator = start_table()
    users = users_by_seat(game)
    clients = {}
    for seat, user in users.items():
        clients[seat] = Client()
        clients[seat].force_login(user)
    spectator = UserFactory()
    clients[None] = Client()
    clients[None].force_login(spectator)
    words = secret_words()
    rng = random.Random(seed)
    night_steps = 0
    for step in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        state = load_state(game)
        language = LANGUAGES[step % 3]
        for seat in (step % 10, None) if step % 2 else ((step + 5) % 10,):
            html = (
                clients[seat]
                .get(game.get_absolute_url(), headers={"accept-language": language})
                .content.decode()
            )
            _clean(state, seat, html, words, f"page {seat} @{step}")
            fragment = clients[seat].get(
                game.get_absolute_url() + "?fragment=live",
                headers={"hx-request": "true", "accept-language": language},
            )
            _clean(state, seat, fragment.content.decode(), words, f"fragment {seat}")
            viewer = users[seat] if seat is not None else spectator
            with translation.override(language):
                pushed = live_area(game, viewer)
            _clean(state, seat, pushed, words, f"push {seat} @{step}")
        public = engine.view(state, None)
        if public["phase"] == "night" and step % 4 == 0:
            shapes = set()
            for seat in range(10):
                if not engine.legal_actions(state, seat):
                    continue  # tapped already or left the game: "done" / "left"
                with translation.override("en"):
                    live = live_area(game, users[seat])
                found = TOP.search(live)
                assert found, live[:500]
                shapes.add(_shape(found.group(1)))
            assert len(shapes) <= 1, f"night screens differ @{step}"
            night_steps += 1
        play_one(game, rng)
    assert game.status == Game.Status.FINISHED
    assert night_steps > 5
    # After the end every card is on everyone's page.
    page = clients[3].get(game.get_absolute_url()).content.decode()
    for seat, (role, side) in enumerate(engine.final_roles(load_state(game))):
        assert f'data-seat="{seat}" data-side="{side}" data-role="{role}"' in page
    assert moderator is not None
