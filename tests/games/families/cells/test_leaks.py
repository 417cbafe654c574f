"""No page, fragment or push of a cells table shows a seat what it may not be shown.

In cells that is more than what a seat does not know: a player must remember their
cards, so a card of theirs may be on their screen only at the first look, during their
own swap and just after a look (RULES.md §2). Random complete games of three and four
players; at every step, for every seat and a spectator, the engine's leak oracle reads
the table page, the htmx fragment and the socket rendering, in Russian and English,
with the game's side, role and colour words."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.utils import translation

from games.engine import oracle
from games.models import Game
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import live_area, play_one, seated_users, start_table
from tests.games.families.cells.support import secret_words

pytestmark = pytest.mark.django_db


def assert_clean(state, position, payload, words, where: str) -> None:
    leaks = oracle.find_leaks(state, position, payload, words)
    assert not leaks, f"{where}: {leaks}"


@pytest.mark.parametrize(("players", "seed"), [(3, 21), (4, 22), (4, 23)])
def test_no_page_fragment_or_push_leaks(players: int, seed: int) -> None:
    game = start_table("cells", players)
    users = seated_users(game)
    clients = {}
    for position, user in users.items():
        clients[position] = Client()
        clients[position].force_login(user)
    spectator = UserFactory()
    clients[None] = Client()
    clients[None].force_login(spectator)
    viewers = {**users, None: spectator}
    words = secret_words()
    rng = random.Random(seed)
    steps = 0
    shown = {"card": 0, "swap": 0, "peek": 0, "hand": 0}
    while True:
        game.refresh_from_db()
        state = load_state(game)
        for position, client in clients.items():
            language = "en" if (position or 0) % 2 else "ru"
            page = client.get(
                game.get_absolute_url(), headers={"accept-language": language}
            )
            assert page.status_code == 200
            html = page.content.decode()
            assert_clean(state, position, html, words, f"page {position} @{steps}")
            shown["card"] += html.count("data-card=")
            shown["swap"] += (
                'data-kind="swap" data-step=' in html and "data-card" in html
            )
            shown["peek"] += 'class="cells-shown" data-kind="peek"' in html
            shown["hand"] += "data-hand=" in html
            fragment = client.get(
                game.get_absolute_url() + "?fragment=live",
                headers={"hx-request": "true"},
            )
            assert_clean(
                state,
                position,
                fragment.content.decode(),
                words,
                f"fragment {position}",
            )
            with translation.override(language):
                pushed = live_area(game, viewers[position])
            assert_clean(state, position, pushed, words, f"push {position} @{steps}")
        if game.status != Game.Status.PLAYING:
            break
        play_one(game, rng)
        steps += 1
    assert game.status == Game.Status.FINISHED
    assert steps > 10
    # The pages did show what may be shown: the oracle read real cards.
    assert shown["card"] and shown["swap"] and shown["hand"]


def test_the_oracle_would_catch_a_card_on_the_board() -> None:
    """The check above is only as good as the markup it reads: prove that a card
    turned up on the shared board, or its colour in words, is caught."""
    game = start_table("cells", 3)
    state = load_state(game)
    colour = state.cards[4]  # seat 1's centre card
    words = secret_words()
    marked = f'<span data-seat="1" data-slot="centre" data-card="{colour}">Ц</span>'
    assert oracle.find_leaks(state, None, marked, words)
    with translation.override("ru"):
        from games.families.cells.words import WORDS

        said = str(WORDS.colour(colour))
    worded = f'<span data-seat="1" data-slot="centre">Ц {said}</span>'
    assert oracle.find_leaks(state, 0, worded, words)
