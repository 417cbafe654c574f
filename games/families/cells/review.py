"""What the review page and the export say about a finished ``cells`` game: every
cell as it was dealt and as it ended, every swap and look (with whether each swap
exchanged the cards, public once the game is over), and every mission with the card
turned up.

All of it is read from the engine's replay of the action log, which is the record:
the final view of the game turns every character card up and says each swap's
decision, and the deal's view seen after the end turns up the cards as dealt. The
discarded mission cards and the undrawn deck are in no view, so they are in no review
and no export. The family's own table (:mod:`.models`) holds only what the profile's
figures aggregate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from games import engine
from games.families.cells import presenters
from games.families.cells.words import words_for
from games.kit import States

if TYPE_CHECKING:
    from games.kit import Game

SLOTS = ("left", "centre", "right")


@dataclass(frozen=True)
class CellRecord:
    seat: int
    dealt: dict[str, str]
    final: dict[str, str]


@dataclass(frozen=True)
class TouchRecord:
    step: int
    kind: str
    seat: int
    slot: str
    player: int | None
    theirs: str | None
    exchanged: bool | None


@dataclass(frozen=True)
class MissionRecord:
    number: int
    step: int
    leader: int
    partner: int
    card: str
    result: str


@dataclass(frozen=True)
class CellsRecord:
    """A finished game's record, by seat position."""

    cells: list[CellRecord]
    touches: list[TouchRecord]
    missions: list[MissionRecord]


def record_from_views(
    dealt: Mapping[str, Any], final: Mapping[str, Any]
) -> CellsRecord:
    """The record from the deal's view and the final view, both seen by everyone
    after the end (every character card turned up)."""
    first = {cell["seat"]: cell["cards"] for cell in dealt["cells"]}
    return CellsRecord(
        cells=[
            CellRecord(
                seat=cell["seat"],
                dealt=dict(first[cell["seat"]]),
                final=dict(cell["cards"]),
            )
            for cell in final["cells"]
        ],
        touches=[
            TouchRecord(
                step=t["step"],
                kind=t["kind"],
                seat=t["seat"],
                slot=t["slot"],
                player=t["player"],
                theirs=t["theirs"],
                exchanged=t["exchanged"],
            )
            for t in final["touches"]
        ],
        missions=[
            MissionRecord(
                number=m["number"],
                step=m["step"],
                leader=m["leader"],
                partner=m["partner"],
                card=m["card"],
                result=m["result"],
            )
            for m in final["missions"]
        ],
    )


def game_record(game: Game, states: States) -> CellsRecord:
    """The record of a finished game, replayed from its action log."""
    final = states.load_state(game)
    return record_from_views(
        engine.view(states.state_at(game, 0), None, after=final),
        engine.view(final, None),
    )


# --- the review page ------------------------------------------------------------------


@dataclass(frozen=True)
class CellRow:
    seat: int
    name: str
    dealt: list[presenters.Card]
    final: list[presenters.Card]


@dataclass(frozen=True)
class ReviewPage:
    """The record in words, for ``cells/review.html``."""

    cells: list[CellRow]
    record: list[presenters.RecordEntry]
    missions: list[presenters.Revealed]
    swaps: int
    exchanged: int


def page(record: CellsRecord, names: Mapping[int, str]) -> ReviewPage:
    words = words_for("cells")

    def cards(seat: int, laid: Mapping[str, str]) -> list[presenters.Card]:
        return [presenters.card(words, seat, slot, colour=laid[slot]) for slot in SLOTS]

    touches = [asdict(t) for t in record.touches]
    missions = [asdict(m) for m in record.missions]
    view = {"touches": touches, "missions": missions}
    swaps = [t for t in record.touches if t.kind == "swap"]
    return ReviewPage(
        cells=[
            CellRow(
                seat=cell.seat,
                name=names.get(cell.seat, "?"),
                dealt=cards(cell.seat, cell.dealt),
                final=cards(cell.seat, cell.final),
            )
            for cell in record.cells
        ],
        record=presenters.record(view, names, words),
        missions=presenters.track(view, names, words),
        swaps=len(swaps),
        exchanged=sum(1 for t in swaps if t.exchanged),
    )
