"""Every table of every family, in every phase, fits a phone and passes axe-core.

One table per family and size (partisans plain and with both presets, Nikomu, the
werewolves here; cells at 3 and 4 and Mafia with its moderator in
test_phone_tables_more_browser.py) is played to its end by
random legal moves through the services. Each time the game reaches a phase not yet
seen (the phase and what the awaited seat may do), the awaited seat's page (the
moderator's console when it is his move) is audited at 390 and 360 px
(:mod:`tests.e2e.audit`) in one of Russian, English and Persian, taking turns; the
waiting room before the start, the finished table and its review are audited in all
three.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from accounts.models import User
from games import engine, services
from games.models import Game
from games.state import load_state
from tests.e2e.audit import LANGUAGES, Audit, table_ready
from tests.factories import UserFactory

pytestmark = pytest.mark.browser

GAMES = [
    ("partisans", 5, {}, 1),
    ("partisans", 7, {"scout": True, "check": True}, 2),
    ("trust_no_one", 6, {}, 3),
    ("werewolves", 8, {}, 4),
]
"""The Resistance family's tables; cells and Mafia are audited the same way by
test_phone_tables_more_browser.py (a file of their own, for xdist's loadfile to run
the two halves on two workers)."""
NAMES = [
    "Александра Константиновна",
    "Max 2",
    "علی",
    "Оля!",
    "Zoë (Z)",
    "Катя",
    "Егор",
    "فاطمه",
    "Аня",
    "Gus",
    "Вера",
]
"""Names as players type them, a long one first (it is the host's, shown most)."""
MOVES = 600


def _players(count: int) -> list[User]:
    return [UserFactory(display_name=NAMES[i % len(NAMES)]) for i in range(count)]


def _phase(state: Any, seat: int) -> tuple[Any, ...]:
    view = engine.view(state, seat)
    legal = tuple(sorted({spec["type"] for spec in view.get("legal", [])}))
    return (view.get("phase"), legal)


def game_ids(games: list[tuple[str, int, dict[str, Any], int]]) -> list[str]:
    return [f"{g[0]}-{g[1]}{'-presets' if g[2] else ''}" for g in games]


@pytest.mark.parametrize(
    ("ruleset", "players", "options", "seed"), GAMES, ids=game_ids(GAMES)
)
def test_every_phase_fits_and_passes_axe(
    new_player: Callable[..., Page],
    ruleset: str,
    players: int,
    options: dict[str, Any],
    seed: int,
) -> None:
    audit_a_whole_game(new_player, ruleset, players, options, seed)


def audit_a_whole_game(
    new_player: Callable[..., Page],
    ruleset: str,
    players: int,
    options: dict[str, Any],
    seed: int,
) -> None:
    """The waiting room, every phase met in a random game, the end and the review."""
    audit = Audit(new_player)
    moderated = engine.get_ruleset(ruleset).has_moderator
    users = _players(players + moderated)
    game = services.game_create(
        host=users[0],
        ruleset=ruleset,
        seat_count=players,
        options=options,
        name="Пятница 13",
    )
    for user in users[1 : len(users) - 1]:
        services.seat_join(game=game, user=user)
    url = game.get_absolute_url()
    audit.look(users[0], url, f"{ruleset} waiting room", ready=table_ready)
    services.seat_join(game=game, user=users[-1])
    game = services.game_start(game=game, user=users[0])
    seated = {seat.position: seat.user for seat in game.seats.select_related("user")}
    rng = random.Random(seed)
    seen: set[tuple[Any, ...]] = set()
    for _ in range(MOVES):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        state = load_state(game)
        seat, action = engine.random_action(state, rng)
        mover = game.moderator if seat == engine.MODERATOR else seated[seat]
        assert mover is not None
        phase = _phase(state, seat)
        if phase not in seen:
            seen.add(phase)
            label = f"{ruleset} {'/'.join(map(str, phase))}"
            # One language a phase, in turn: the three see every family's phases
            # between them, and each phase's page is laid out and audited once.
            language = LANGUAGES[len(seen) % len(LANGUAGES)]
            audit.look(mover, url, label, ready=table_ready, languages=[language])
        services.game_act(game=game, user=mover, action=action, turn=game.turn)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    audit.look(seated[0], url, f"{ruleset} over", ready=table_ready)
    audit.look(seated[0], f"/history/g/{game.code}/", f"{ruleset} review")
    audit.assert_clean()
