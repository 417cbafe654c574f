"""What the fuzz compares: a table's state as the database keeps it, before and
after a refused request, so "changes nothing" is checked, not assumed."""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import Game
from games.state import load_state


def fingerprint(game: Game) -> tuple[Any, ...]:
    """Version, turn, status, the whole action log and the chat, read afresh."""
    fresh = Game.objects.get(pk=game.pk)
    actions = list(
        fresh.actions.order_by("number").values_list("number", "position", "payload")
    )
    chat = list(fresh.chat.order_by("pk").values_list("pk", "text"))
    return (fresh.version, fresh.turn, fresh.status, actions, chat)


def awaited_seats(game: Game) -> list[int]:
    """Seats whose move the engine is waiting for now."""
    return sorted(engine.waiting_for(load_state(Game.objects.get(pk=game.pk))))
