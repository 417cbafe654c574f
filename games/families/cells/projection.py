"""The ``cells`` family's records, written from the engine's events.

Only ``mission_done`` makes rows: the leader's and the partner's parts in it. The
event says who went and whether the mission succeeded; the colour each of them was
mostly of at that moment is read from the state after the move (a turned-up mission
card changes no character card), which is what ``Records.project`` hands over it for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games import engine
from games.families.cells.engine import GameState
from games.families.cells.engine.rules import side_of
from games.families.cells.models import MissionPart

if TYPE_CHECKING:
    from games.kit import Game, Seat


def project(
    *,
    game: Game,
    seats: Mapping[int, Seat],
    events: Sequence[engine.Event],
    state: GameState,
) -> None:
    for event in events:
        if event.kind == "mission_done":
            _mission_done(game, seats, event.data, state)


def _mission_done(
    game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any], state: GameState
) -> None:
    MissionPart.objects.bulk_create(
        MissionPart(
            game=game,
            number=data["number"],
            seat=seats[data[part]],
            part=part,
            side=side_of(state.cards, data[part]).value,
            success=bool(data["success"]),
        )
        for part in ("leader", "partner")
    )
