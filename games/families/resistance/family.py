"""The Resistance family (``partisans``, ``trust_no_one``, ``werewolves``) as the
platform sees it: its parts, each handing the platform's questions to the family's
own module."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet

from games import engine, kit
from games.families.resistance import (
    export,
    moves,
    odds,
    presenters,
    projection,
    review,
    schemas,
    sentences,
    stats,
)
from games.families.resistance.words import WORDS, Words

if TYPE_CHECKING:
    from games.kit import Game, Seat

_TOP = (
    "checks",
    "history",
    "leader",
    "legal",
    "me.seat",
    "mission",
    "missions",
    "outcome",
    "phase",
    "proposal.team",
)


def _top_reads(view: Mapping[str, Any]) -> tuple[str, ...]:
    """A seat's banner and news: whom the table waits for only where the banner
    names them (the check and the claim), not at a vote, where who has voted
    changes with every ballot."""
    if view["phase"] in ("check", "claim"):
        return (*_TOP, "waiting_for")
    return _TOP


class Live(kit.LivePage):
    regions = (
        kit.Region(
            "top",
            "resistance/top.html",
            reads=_top_reads,
            column="top",
            facts=("ended_by",),
        ),
        kit.Region(
            "status",
            "resistance/status.html",
            public=True,
            column="top",
            reads=(
                "mission",
                "missions",
                "outcome",
                "phase",
                "proposal",
                "voters",
                "waiting_for",
            ),
        ),
        kit.Region(
            "action",
            "resistance/action.html",
            column="top",
            reads=("legal", "me.seat", "me.vote", "phase"),
            facts=("turn",),
        ),
        kit.Region(
            "board",
            "resistance/board.html",
            public=True,
            reads=(
                "history",
                "leader",
                "me",
                "mission",
                "missions",
                "phase",
                "play",
                "proposal",
                "rejections",
                "roles",
                "token",
                "voters",
            ),
        ),
        kit.Region(
            "card",
            "resistance/card.html",
            reads=("checks", "legal", "me", "phase", "sniper"),
            facts=("turn", "status", "chats"),
        ),
        kit.Region(
            "record",
            "resistance/record.html",
            public=True,
            column="side",
            reads=("checks", "history", "me", "phase", "sniper"),
        ),
    )

    def board(
        self, view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool
    ) -> Any:
        return presenters.board(view, names, playing=playing)


class Moves(kit.MoveCodec):
    parse = staticmethod(moves.parse_move)


class ResistanceRecords(kit.Records):
    def project(
        self,
        *,
        game: Game,
        seats: Mapping[int, Seat],
        events: Sequence[engine.Event],
        state: Any,
    ) -> None:
        projection.project(game=game, seats=seats, events=events)

    def admin_action(self, payload: dict[str, Any], finished: bool) -> dict[str, Any]:
        if payload.get("type") == "play":
            payload["card"] = "•"  # who played which card is never shown
        elif payload.get("type") == "vote" and not finished:
            payload["approve"] = "•"
        return payload


class ResistanceHistory(kit.History):
    review_template = "resistance/review.html"

    sentence = staticmethod(sentences.sentence)
    step_kind = staticmethod(sentences.step_kind)

    def review(
        self, game: Game, names: Mapping[int, str], states: kit.States
    ) -> dict[str, Any]:
        seats = list(game.seats.order_by("position", "pk"))
        return {"review": review.game_record(game, seats)}

    def analysis(self, game: Game, seat: int | None, states: kit.States) -> kit.Odds:
        return odds.odds_of_log(states.game_setup(game), states.action_log(game), seat)


class ResistanceStats(kit.Stats):
    facts = stats.FACTS

    condition = staticmethod(stats.fact_condition)

    def figures(
        self, seats: QuerySet[Seat], url: Callable[..., str]
    ) -> list[kit.Figure]:
        return stats.figures(stats.player_facts(seats), url)


class ResistanceExport(kit.Export):
    def records(
        self, game: Game, seats: Sequence[Seat], states: kit.States
    ) -> dict[str, Any]:
        return export.export(game, seats)

    action = staticmethod(export.export_action)
    restore_action = staticmethod(export.import_action)
    verify = staticmethod(export.verify)


class ResistanceRules(kit.Rules):
    template = "resistance/rules.html"

    def context(self, ruleset: str) -> dict[str, Any]:
        """The seeds' tables as rows, read from the engine's data so the page can
        never disagree with the game."""
        rules = engine.get_ruleset(ruleset)
        evil = dict(rules.evil_counts)  # type: ignore[attr-defined]
        mission, min_players = rules.two_fail_at  # type: ignore[attr-defined]
        two_fails = rules.two_fail_mission  # type: ignore[attr-defined]
        return {
            "sides": [(n, n - evil[n], evil[n]) for n in sorted(evil)],
            "sizes": [
                (
                    n,
                    [
                        (size, two_fails and i + 1 == mission and n >= min_players)
                        for i, size in enumerate(sizes)
                    ],
                )
                for n, sizes in rules.team_sizes  # type: ignore[attr-defined]
            ],
            "ruleset": rules,
        }


class ResistanceFamily(kit.Family):
    code = "resistance"
    live = Live()
    moves = Moves()
    records = ResistanceRecords()
    history = ResistanceHistory()
    stats = ResistanceStats()
    export = ResistanceExport()
    rules = ResistanceRules()
    programs = kit.Programs(schemas.ResistanceView, schemas.ResistanceMove)

    def words(self, ruleset: str) -> Words:
        return WORDS[ruleset]


FAMILY = ResistanceFamily()
