"""The ``mafia`` family as the platform sees it: its parts, each handing the
platform's questions to the family's own module. A game of this family has a
moderator (``Ruleset.has_moderator``): the platform seats the host as the table's
moderator, shows him the engine's moderator view and takes his moves as seat -1."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from games import engine, kit
from games.families.mafia import (
    export,
    moves,
    presenters,
    projection,
    review,
    schemas,
    sentences,
    stats,
)
from games.families.mafia.engine.roles import DEALT, MAFIA_ROLES, Side
from games.families.mafia.words import Words, words_for

if TYPE_CHECKING:
    from games.kit import Game, Seat


_READS = (
    "day",
    "ledger",
    "legal",
    "me",
    "mornings",
    "night",
    "options",
    "outcome",
    "phase",
    "roles",
    "seats",
    "timer",
    "vote",
)
"""What every region reads of the view (the board is made whole from it)."""
_FACTS = ("turn", "status")
_CARD = ("legal", "me", "options", "phase", "seats")
"""What a player's card reads (``presenters.LiveBoard.card``)."""


_PLAYERS_TOP = (
    *(key for key in _READS if key not in ("ledger", "vote")),
    "vote.kind",
)
"""A player's banner and heading: of the vote only its kind, and nothing of who
has tapped (the moderator's console shows that): a ballot or a tap changes no other
player's top region."""


def _top_reads(view: Mapping[str, Any]) -> tuple[str, ...]:
    return _READS if presenters.moderating(view) else _PLAYERS_TOP


def _card_reads(view: Mapping[str, Any]) -> tuple[str, ...]:
    return ("me",) if presenters.moderating(view) else _CARD


def _console_reads(view: Mapping[str, Any]) -> tuple[str, ...]:
    return _READS if presenters.moderating(view) else ("me",)


class Live(kit.LivePage):
    regions = (
        kit.Region(
            "top",
            "mafia/top.html",
            reads=_top_reads,
            column="top",
            facts=(*_FACTS, "countdown", "ended_by"),
        ),
        # A player's console and the moderator's card are empty: the player's
        # console, and the card, read only what they show.
        kit.Region("console", "mafia/console.html", reads=_console_reads, facts=_FACTS),
        kit.Region(
            "board", "mafia/board.html", reads=_READS, public=True, facts=_FACTS
        ),
        kit.Region("card", "mafia/card.html", reads=_card_reads, facts=_FACTS),
        kit.Region(
            "record",
            "mafia/record.html",
            reads=(*_READS, "discipline", "inquiries", "middays", "votes"),
            public=True,
            column="side",
            facts=_FACTS,
        ),
    )

    def board(
        self, view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool
    ) -> presenters.LiveBoard:
        return presenters.LiveBoard(view, names, playing=playing)

    def countdown(self, view: Mapping[str, Any]) -> tuple[int, int] | None:
        # The moderator's speech timer (engine/README.md: "the platform shows the
        # countdown from that action's time").
        timer = view.get("timer")
        if not timer or view.get("phase") == "over":
            return None
        return int(timer["step"]), int(timer["seconds"])

    def table_voices(self, view: Mapping[str, Any]) -> tuple[int, ...]:
        # Eyes closed at night, at dawn and in a midday sleep: nobody speaks to the
        # table (the moderator does). A player out of the game listens only.
        phase = view.get("phase")
        if phase == "over":
            return tuple(range(int(view["players"])))
        if phase in ("night", "dawn", "midday"):
            return ()
        return tuple(seat["seat"] for seat in view["seats"] if seat["in_game"])


class Moves(kit.MoveCodec):
    parse = staticmethod(moves.parse_move)

    complete = staticmethod(moves.complete_move)
    private_refusal = staticmethod(moves.private_refusal)


class MafiaRecords(kit.Records):
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
        # A night's choice (or tap: the admin must not tell them apart either) and
        # its fields stay hidden until the end.
        if not finished and payload.get("type") in ("choose", "tap", "night"):
            return {"type": "•"}
        return payload


class MafiaHistory(kit.History):
    review_template = "mafia/review.html"
    replay_notes = {
        "everyone": _(
            "Everyone: every role turned up, and every choice of the night so far."
        ),
        "own": _("What you knew at this step."),
        "other": _(
            "Exactly what this player knew at this step: their card, their own "
            "choices, and the mafia's nights if they woke with them."
        ),
    }

    sentence = staticmethod(sentences.sentence)
    step_kind = staticmethod(sentences.step_kind)

    def review(
        self, game: Game, names: Mapping[int, str], states: kit.States
    ) -> dict[str, Any]:
        return review.review(game, names, states)


class MafiaStats(kit.Stats):
    facts = stats.FACTS

    condition = staticmethod(stats.fact_condition)

    def figures(
        self, seats: QuerySet[Seat], url: Callable[..., str]
    ) -> list[kit.Figure]:
        return stats.figures(stats.player_facts(seats), url)


class MafiaExport(kit.Export):
    records = staticmethod(export.export)

    action = staticmethod(export.export_action)
    restore_action = staticmethod(export.import_action)
    verify = staticmethod(export.verify)


class MafiaRules(kit.Rules):
    template = "mafia/rules.html"

    def context(self, ruleset: str) -> dict[str, Any]:
        """The ten cards, read from what the engine deals."""
        words = words_for(ruleset)
        counts: dict[str, int] = {}
        sides: dict[str, str] = {}
        for role in DEALT:
            counts[role.value] = counts.get(role.value, 0) + 1
            side = Side.MAFIA if role in MAFIA_ROLES else Side.CITIZENS
            sides[role.value] = side.value
        return {
            "deal": [
                (words.role(code), count, words.side(sides[code]))
                for code, count in counts.items()
            ],
            "ruleset": engine.get_ruleset(ruleset),
        }


class MafiaFamily(kit.Family):
    code = "mafia"
    live = Live()
    moves = Moves()
    records = MafiaRecords()
    history = MafiaHistory()
    stats = MafiaStats()
    export = MafiaExport()
    rules = MafiaRules()
    programs = kit.Programs(schemas.MafiaView, schemas.MafiaMove)

    def words(self, ruleset: str) -> Words:
        return words_for(ruleset)


FAMILY = MafiaFamily()
