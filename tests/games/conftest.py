"""Tables for the live-table tests: created, filled and started through the services,
so every row is the one a real game writes."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import engine, services
from games.models import Game
from games.state import load_state
from tests.factories import UserFactory


def seated_users(game: Game) -> dict[int, User]:
    """Seat position -> user, once the game has started."""
    return {seat.position: seat.user for seat in game.seats.select_related("user")}


def start_table(
    ruleset: str = "partisans", players: int = 5, options: dict[str, Any] | None = None
) -> Game:
    """A table of ``players`` seats, started; a moderated game's host (one more
    user) moderates it."""
    moderated = engine.get_ruleset(ruleset).has_moderator
    users = UserFactory.create_batch(players + moderated)
    game = services.game_create(
        host=users[0], ruleset=ruleset, seat_count=players, options=options or {}
    )
    for user in users[1:]:
        services.seat_join(game=game, user=user)
    return services.game_start(game=game, user=users[0])


def play_one(game: Game, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """One random legal move by whichever seat is awaited, through the service."""
    game.refresh_from_db()
    seat, action = engine.random_action(load_state(game), rng)
    user = seated_users(game)[seat]
    services.game_act(game=game, user=user, action=action, turn=game.turn)
    game.refresh_from_db()
    return seat, action


def play_until(game: Game, rng: random.Random, stop: Callable[[Game], bool]) -> Game:
    for _ in range(1000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING or stop(game):
            return game
        play_one(game, rng)
    raise AssertionError("the game did not reach the wanted point")


def public_view(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return engine.view(load_state(game), None)


@pytest.fixture
def table() -> Callable[..., Game]:
    return start_table


def draw_push(
    game: Game, user: Any, last: dict[str, str] | None, memo: dict[Any, Any]
) -> dict[str, str]:
    """``user``'s push of ``game`` as a socket draws it, in Russian: the parts that
    changed since ``last`` (the whole live area on a first push), with the socket's
    ``memo``. Returns the parts the screen shows now."""
    from django.utils import translation

    from games import rendering
    from games.selectors import table_context

    with translation.override("ru"):
        ctx = table_context(game, user, with_chat=False)
        if last is not None:
            _frame, shown = rendering.render_update(
                ctx, last, csrf_token="t", memo=memo
            )
        else:
            _frame, shown = rendering.render_whole(ctx, csrf_token="t", memo=memo)
    return shown
