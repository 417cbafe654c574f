"""A screen kept by its pushes shows what a fresh load of the page shows: the twin
of every socket, in every family, for every kind of viewer and language, including
a socket that misses pushes (it gets the next one)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.utils import translation

from games import engine, services
from games.models import Game
from games.state import load_state
from live import parts
from live import table as tables
from tests.factories import UserFactory
from tests.games.conftest import seated_users, start_table
from tests.live.frames import apply, parts_of

pytestmark = pytest.mark.django_db

GAMES = [
    ("partisans", 7, {"scout": True, "check": True}, 1),
    ("trust_no_one", 6, {}, 2),
    ("werewolves", 8, {}, 3),
    ("cells", 3, {}, 4),
    ("cells", 4, {}, 5),
    ("mafia_partisan", 10, {}, 6),
]
LANGUAGES = ("ru", "en", "fa")
MOVES = 80


def _fresh(game: Game, user: Any, language: str) -> dict[str, str]:
    table = tables.read(game.pk, game.code)
    assert table is not None
    with translation.override(language):
        html, _shown = parts.area(
            table, table.viewer(user), parts.Drawings(), token="t", user=user
        )
    return parts_of(html)


@pytest.mark.parametrize(
    ("ruleset", "players", "options", "seed"),
    GAMES,
    ids=[f"{g[0]}-{g[1]}" for g in GAMES],
)
def test_a_pushed_screen_equals_a_fresh_page(
    ruleset: str, players: int, options: dict[str, Any], seed: int
) -> None:
    game = start_table(ruleset, players, options)
    users = seated_users(game)
    viewers: list[Any] = [*users.values(), UserFactory()]
    if game.moderator is not None:
        viewers.append(game.moderator)
    table = tables.read(game.pk, game.code)
    assert table is not None
    drawings = parts.Drawings()
    screens = []
    for index, user in enumerate(viewers):
        language = LANGUAGES[index % len(LANGUAGES)]
        with translation.override(language):
            html, shown = parts.area(
                table, table.viewer(user), drawings, token="t", user=user
            )
        # Every third screen misses every other push.
        screens.append([user, language, parts_of(html), shown, index % 3 == 2])
    rng = random.Random(seed)
    for move in range(MOVES):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        seat, action = engine.random_action(load_state(game), rng)
        mover = game.moderator if seat == engine.MODERATOR else users[seat]
        services.game_act(game=game, user=mover, action=action, turn=game.turn)
        game.refresh_from_db()
        table = tables.read(game.pk, game.code, table)
        assert table is not None
        for screen in screens:
            user, language, page, shown, misses = screen
            if misses and move % 2 and game.status == Game.Status.PLAYING:
                continue
            with translation.override(language):
                found = parts.frame(
                    table, table.viewer(user), drawings, shown, token="t"
                )
                if found is None:
                    frame, screen[3] = parts.area(
                        table, table.viewer(user), drawings, token="t", user=user
                    )
                else:
                    frame, screen[3] = found
            apply(page, frame)
            assert page == _fresh(game, user, language), (move, language)
    assert move > 10
