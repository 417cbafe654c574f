"""The ``mafia`` family's records, written from the engine's events: a ``left`` event
(public: who, when, and the public word for how) makes a :class:`Departure`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games import engine
from games.families.mafia.models import Departure

if TYPE_CHECKING:
    from games.kit import Game, Seat


def project(
    *,
    game: Game,
    seats: Mapping[int, Seat],
    events: Sequence[engine.Event],
    state: Any,
) -> None:
    Departure.objects.bulk_create(
        Departure(
            game=game,
            seat=seats[event.data["seat"]],
            at=event.data["at"],
            number=event.data["number"],
            how=",".join(event.data["how"]),
        )
        for event in events
        if event.kind == "left" and event.visible_to is None
    )
