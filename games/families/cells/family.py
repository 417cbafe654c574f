"""The ``cells`` family as the platform sees it: its parts, each handing the
platform's questions to the family's own module."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet

from games import engine, kit
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


class Live(kit.LivePage):
    regions = (
        kit.Region(
            "top",
            "cells/top.html",
            reads=_READS,
            column="top",
            facts=(*_FACTS, "ended_by"),
        ),
        kit.Region(
            "board", "cells/board.html", reads=_READS, public=True, facts=_FACTS
        ),
        kit.Region("card", "cells/card.html", reads=_READS, facts=_FACTS),
        kit.Region(
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


class Moves(kit.MoveCodec):
    parse = staticmethod(moves.parse_move)


class CellsRecords(kit.Records):
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


class CellsHistory(kit.History):
    review_template = "cells/review.html"

    sentence = staticmethod(sentences.sentence)
    step_kind = staticmethod(sentences.step_kind)

    def review(
        self, game: Game, names: Mapping[int, str], states: kit.States
    ) -> dict[str, Any]:
        return {"review": review.page(review.game_record(game, states), names)}


class CellsStats(kit.Stats):
    facts = stats.FACTS

    condition = staticmethod(stats.fact_condition)

    def figures(
        self, seats: QuerySet[Seat], url: Callable[..., str]
    ) -> list[kit.Figure]:
        return stats.figures(stats.player_facts(seats), url)


class CellsExport(kit.Export):
    records = staticmethod(export.export)

    setup = staticmethod(export.export_setup)
    start = staticmethod(export.import_start)

    action = staticmethod(export.export_action)
    restore_action = staticmethod(export.import_action)
    verify = staticmethod(export.verify)


class CellsRules(kit.Rules):
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


class CellsFamily(kit.Family):
    code = "cells"
    live = Live()
    moves = Moves()
    records = CellsRecords()
    history = CellsHistory()
    stats = CellsStats()
    export = CellsExport()
    rules = CellsRules()
    programs = kit.Programs(schemas.CellsView, schemas.CellsMove)

    def words(self, ruleset: str) -> Words:
        return words_for(ruleset)


FAMILY = CellsFamily()
