"""What the fuzz compares: a table's state as the database keeps it, before and
after a refused request, so "changes nothing" is checked, not assumed."""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import Game
from games.state import load_state


def fingerprint(game: Game, *, chat: bool = True) -> tuple[Any, ...]:
    """Version, turn, status, the whole action log and (unless ``chat`` is False,
    for fuzzing that may post a fair message) the chat, read afresh."""
    fresh = Game.objects.get(pk=game.pk)
    actions = list(
        fresh.actions.order_by("number").values_list("number", "position", "payload")
    )
    lines = list(fresh.chat.order_by("pk").values_list("pk", "text")) if chat else []
    return (fresh.version, fresh.turn, fresh.status, actions, lines)


def bystander(game: Game) -> int:
    """A seat the table is not waiting for: every move it sends must be refused."""
    waiting = set(awaited_seats(game))
    return next(seat for seat in range(game.seat_count) if seat not in waiting)


def awaited_seats(game: Game) -> list[int]:
    """Seats whose move the engine is waiting for now."""
    return sorted(engine.waiting_for(load_state(Game.objects.get(pk=game.pk))))
