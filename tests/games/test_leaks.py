"""No page, fragment or push tells a seat what it may not know.

Random complete games of each ruleset; at every step, for every seat and for a
spectator, the engine's leak oracle reads the table page, the htmx fragment and the
socket rendering, in Russian and in English, with each game's role and side words."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.utils import translation

from games import engine
from games.engine import oracle
from games.kit.family import words_of
from games.models import Game
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import live_area, play_one, seated_users, start_table

pytestmark = pytest.mark.django_db


def secret_words(ruleset: str) -> dict[str, list[str]]:
    """Display strings of every side and role code, in both languages: a seat's
    element must not carry these for a secret of that seat."""
    words: dict[str, list[str]] = {}
    for language in ("ru", "en"):
        with translation.override(language):
            w = words_of(ruleset)
            for code, text in [*w.sides.items(), *w.roles.items()]:
                words.setdefault(code, []).append(str(text))
    return words


def assert_clean(state, position, payload, words, where: str) -> None:
    leaks = oracle.find_leaks(state, position, payload, words)
    assert not leaks, f"{where}: {leaks}"


@pytest.mark.parametrize(
    ("ruleset", "players", "options", "seed"),
    [
        ("partisans", 7, {"scout": True, "check": True}, 11),
        ("partisans", 5, {"scout": True}, 12),
        ("trust_no_one", 6, {"chat": True}, 13),
        ("werewolves", 8, {}, 14),
    ],
)
def test_no_page_or_push_leaks(
    ruleset: str, players: int, options: dict, seed: int
) -> None:
    game = start_table(ruleset, players, options)
    users = seated_users(game)
    clients = {}
    for position, user in users.items():
        clients[position] = Client()
        clients[position].force_login(user)
    spectator = UserFactory()
    clients[None] = Client()
    clients[None].force_login(spectator)
    viewers = {**users, None: spectator}
    words = secret_words(ruleset)
    rng = random.Random(seed)
    steps = 0
    while True:
        game.refresh_from_db()
        state = load_state(game)
        for position, client in clients.items():
            language = "en" if (position or 0) % 2 else "ru"
            page = client.get(
                game.get_absolute_url(), headers={"accept-language": language}
            )
            assert page.status_code == 200
            assert_clean(
                state,
                position,
                page.content.decode(),
                words,
                f"page {position} @{steps}",
            )
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


def test_the_oracle_would_catch_a_role_on_a_page() -> None:
    """The check above is only as good as the markup it reads: prove that a role
    rendered into a seat's row is caught."""
    game = start_table("partisans", 5)
    state = load_state(game)
    viewer = next(p for p in range(5) if engine.view(state, p)["me"]["side"] == "good")
    other = next(p for p in range(5) if p != viewer)
    truth = engine.view(state, other)["me"]
    words = secret_words("partisans")
    with translation.override("ru"):
        label = str(words_of("partisans").role(truth["role"]))
    planted = f'<li data-seat="{other}">Оля <span>{label}</span></li>'
    assert oracle.find_leaks(state, viewer, planted, words)
    marked = f'<li data-seat="{other}" data-side="{truth["side"]}">Оля</li>'
    assert oracle.find_leaks(state, viewer, marked, words)
