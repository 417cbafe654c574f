"""What a family's records and their admin pages need of the platform's tables.

A family's models point at the platform's with string references (``"games.Game"``,
``"games.Seat"``); code that queries them at run time takes the classes from
:func:`game_model` and :func:`seat_model`. A family that needs a game's engine state
(its review, its export) is handed a :class:`States`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from django.apps import apps
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games import engine

if TYPE_CHECKING:
    from games.models import Game, Seat

HIDDEN = _("(hidden until the end)")
"""What the admin shows in place of a secret."""


def game_model() -> type[Game]:
    """The platform's table model (``games.Game``)."""
    model: type[Game] = apps.get_model("games", "Game")
    return model


def seat_model() -> type[Seat]:
    """The platform's seat model (``games.Seat``)."""
    model: type[Seat] = apps.get_model("games", "Seat")
    return model


def finished(game: Game) -> bool:
    """Only a finished game is revealed; an abandoned one never is."""
    return bool(game.status == game_model().Status.FINISHED)


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """An admin page over records that only the platform's moves write."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class States(Protocol):
    """A game's engine states, read from its setup and action log (``games.state``)."""

    def load_state(self, game: Game, *, known: tuple[int, Any] | None = None) -> Any:
        """The state at the game's current version."""

    def state_at(self, game: Game, step: int) -> Any:
        """The state after ``step`` actions (0: the deal)."""

    def game_setup(self, game: Game) -> engine.GameSetup:
        """What the engine deals the game from."""

    def action_log(
        self, game: Game, *, upto: int | None = None, after: int | None = None
    ) -> list[tuple[int, dict[str, Any]]]:
        """The game's actions as (seat, action), oldest first."""


def final_view(game: Game, states: States) -> dict[str, Any]:
    """A game's last view as everyone sees it (once a game is over, the families'
    engines reveal in it what the review shows)."""
    return engine.view(states.load_state(game), None)
