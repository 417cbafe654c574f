"""The ``cells`` family as the platform sees it: its parts, each handing the
platform's questions to the family's own module."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet

from games import engine
from games.families.cells import (
    export,
    moves,
    presenters,
    projection,
    review,
    schemas,
    sentences,
    stats,
)
from games.families.cells.engine.rules import MISSION_DECK
from games.families.cells.words import Words, words_for
from games.kit import (
    Export,
    Family,
    Figure,
    History,
    LivePage,
    MoveCodec,
    Programs,
    Records,
    Region,
    Rules,
    States,
    Stats,
)

if TYPE_CHECKING:
    from games.kit import Game, Seat


_READS = (
    "cells",
    "confirmed",
    "current",
    "deck",
    "failures",
    "legal",
    "me",
    "mission",
    "missions",
    "outcome",
    "phase",
    "roles",
    "successes",
    "touches",
    "waiting_for",
)
"""What every region reads of the view (the board is made whole from it)."""
_FACTS = ("turn", "status")


class Live(LivePage):
    regions = (
        Region("top", "cells/top.html", reads=_READS, column="top", facts=_FACTS),
        Region("board", "cells/board.html", reads=_READS, public=True, facts=_FACTS),
        Region("card", "cells/card.html", reads=_READS, facts=_FACTS),
        Region(
            "record",
            "cells/record.html",
            reads=_READS,
            public=True,
            column="side",
            facts=_FACTS,
        ),
    )

    def board(
        self, view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool
    ) -> presenters.Board:
        return presenters.board(view, names, playing=playing)


class Moves(MoveCodec):
    def parse(self, fields: Any) -> dict[str, Any]:
        return moves.parse_move(fields)


class CellsRecords(Records):
    def project(
        self,
        *,
        game: Game,
        seats: Mapping[int, Seat],
        events: Sequence[engine.Event],
        state: Any,
    ) -> None:
        projection.project(game=game, seats=seats, events=events, state=state)

    def admin_action(self, payload: dict[str, Any], finished: bool) -> dict[str, Any]:
        if payload.get("type") == "discard":
            payload["card"] = "•"  # a discarded mission card is never shown
        elif payload.get("type") == "exchange" and not finished:
            payload["exchange"] = "•"
        return payload


class CellsHistory(History):
    review_template = "cells/review.html"

    def sentence(
        self, event: engine.Event, ruleset: str, names: Mapping[int, str]
    ) -> str:
        return sentences.sentence(event, ruleset, names)

    def step_kind(self, events: Sequence[engine.Event]) -> tuple[str, bool]:
        return sentences.step_kind(events)

    def review(
        self, game: Game, names: Mapping[int, str], states: States
    ) -> dict[str, Any]:
        return {"review": review.page(review.game_record(game, states), names)}


class CellsStats(Stats):
    facts = stats.FACTS

    def condition(self, fact: str, player_id: int) -> Q:
        return stats.fact_condition(fact, player_id)

    def figures(self, seats: QuerySet[Seat], url: Callable[..., str]) -> list[Figure]:
        return stats.figures(stats.player_facts(seats), url)


class CellsExport(Export):
    def records(
        self, game: Game, seats: Sequence[Seat], states: States
    ) -> dict[str, Any]:
        return export.export(game, seats, states)

    def setup(self, setup: engine.GameSetup) -> dict[str, Any]:
        return export.export_setup(setup)

    def start(self, data: Mapping[str, Any]) -> Any:
        return export.import_start(data)

    def action(self, action: dict[str, Any]) -> dict[str, Any]:
        return export.export_action(action)

    def restore_action(
        self, state: Any, seat: int, action: dict[str, Any], data: Mapping[str, Any]
    ) -> dict[str, Any]:
        return export.import_action(state, seat, action, data)

    def verify(
        self, final_view: Mapping[str, Any], data: Mapping[str, Any]
    ) -> list[str]:
        return export.verify(final_view, data)


class CellsRules(Rules):
    template = "cells/rules.html"

    def context(self, ruleset: str) -> dict[str, Any]:
        """The deal and the mission deck, counted from what the engine deals, so the
        page can never disagree with the game."""
        rules = engine.get_ruleset(ruleset)
        deals = []
        for players in range(rules.min_players, rules.max_players + 1):
            state = engine.setup(engine.GameSetup(ruleset, players))
            colours = Counter(state.cards)
            deals.append((players, 3 * players, colours["red"], colours["blue"]))
        deck = Counter(MISSION_DECK)
        return {
            "deals": deals,
            "mission_blue": deck["blue"],
            "mission_red": deck["red"],
            "ruleset": rules,
        }


class CellsFamily(Family):
    code = "cells"
    live = Live()
    moves = Moves()
    records = CellsRecords()
    history = CellsHistory()
    stats = CellsStats()
    export = CellsExport()
    rules = CellsRules()
    programs = Programs(schemas.CellsView, schemas.CellsMove)

    def words(self, ruleset: str) -> Words:
        return words_for(ruleset)


FAMILY = CellsFamily()
