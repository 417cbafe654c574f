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


def live_area(game: Game, user: Any, *, token: str = "x") -> str:
    """``user``'s whole live area of ``game``, as a fresh page draws it."""
    from live import parts
    from live import table as tables

    table = tables.read(game.pk, game.code)
    assert table is not None
    html, _shown = parts.area(
        table, table.viewer(user), parts.Drawings(), token=token, user=user
    )
    return html


def draw_push(table: Any, user: Any, shown: Any, drawings: Any) -> Any:
    """``user``'s push of ``table`` as a socket draws it, in Russian: the parts that
    changed since ``shown`` (the whole live area on a first push). Returns what the
    screen shows now."""
    from django.utils import translation

    from live import parts

    viewer = table.viewer(user)
    with translation.override("ru"):
        if shown is not None:
            found = parts.frame(table, viewer, drawings, shown, token="t")
            if found is not None:
                return found[1]
        return parts.area(table, viewer, drawings, token="t", user=user)[1]
