"""What the mafia web tests share: a moderated table started through the services,
one random move by whoever is awaited (the moderator included), and the oracle's
words."""

from __future__ import annotations

import random
from typing import Any

from django.utils import translation

from accounts.models import User
from games import engine, services
from games.families.mafia.words import WORDS
from games.models import Game
from games.state import load_state
from tests.factories import UserFactory

RULESET = "mafia_partisan"
PLAYERS = 10


def open_table(options: dict[str, Any] | None = None) -> tuple[Game, User, list[User]]:
    """A table with its moderator (the host) and ten players seated, not started."""
    moderator = UserFactory()
    game = services.game_create(
        host=moderator, ruleset=RULESET, seat_count=PLAYERS, options=options or {}
    )
    players = UserFactory.create_batch(PLAYERS)
    for user in players:
        services.seat_join(game=game, user=user)
    return game, moderator, players


def start_table(options: dict[str, Any] | None = None) -> tuple[Game, User]:
    game, moderator, _players = open_table(options)
    return services.game_start(game=game, user=moderator), moderator


def users_by_seat(game: Game) -> dict[int, User]:
    """Seat position -> user, the moderator as -1."""
    seats = {seat.position: seat.user for seat in game.seats.select_related("user")}
    seats[engine.MODERATOR] = game.moderator
    return seats


def play_one(game: Game, rng: random.Random) -> tuple[int, dict[str, Any]]:
    game.refresh_from_db()
    seat, action = engine.random_action(load_state(game), rng)
    services.game_act(
        game=game, user=users_by_seat(game)[seat], action=action, turn=game.turn
    )
    game.refresh_from_db()
    return seat, action


def secret_words() -> dict[str, list[str]]:
    """Display strings of every side and role in English, Russian and Persian."""
    words: dict[str, list[str]] = {}
    for language in ("en", "ru", "fa"):
        with translation.override(language):
            sides = [str(text) for text in WORDS.sides.values()]
            for code, text in WORDS.sides.items():
                words.setdefault(code, []).append(str(text))
            for code, text in WORDS.roles.items():
                name = str(text)
                if not any(name.casefold() in side.casefold() for side in sides):
                    words.setdefault(code, []).append(name)
    return words
