"""The ``mafia`` family's own figures on a player's profile, and the filters of the
history list that pick the games behind each.

The platform already counts games played and won by side (citizens, mafia: the side
a player ended on, so a recruited soldier's game counts as the mafia's) and by role.
What the family adds is how long each side lasted, and the recruitment:

* as a citizen, and as mafia: games in which they were still in the game at the
  end, and games in which the town voted them out;
* dealt a plain soldier: games in which the General recruited them.

"Left the game" comes from the family's :class:`.models.Departure` (written from the
public ``left`` events); the side and role from the platform's ``Seat``, written at
the end. Each figure is one database aggregate over the finished games the viewer
may see (the seats the platform hands in; practice games with bots are never among
them, docs/stats.md). Definitions: docs/stats.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from games import engine
from games.kit import Figure, Text, game_model, seat_model

if TYPE_CHECKING:
    from games.kit import Seat

CITIZENS, MAFIA = "citizens", "mafia"
SOLDIER = "soldier"

FACTS = {
    "mafia_citizen_games": _("games as a citizen"),
    "mafia_citizen_survived": _("games as a citizen still in the game at the end"),
    "mafia_citizen_voted_out": _("games as a citizen voted out by the town"),
    "mafia_mafia_games": _("games as mafia"),
    "mafia_mafia_survived": _("games as mafia still in the game at the end"),
    "mafia_mafia_voted_out": _("games as mafia voted out by the town"),
    "mafia_soldier_games": _("games dealt a plain soldier"),
    "mafia_recruited": _("games dealt a plain soldier and recruited by the mafia"),
}
"""The history list's ``fact`` filters this family offers, with their meaning."""

_STAYED = Q(mafia_departure__isnull=True)
_VOTED_OUT = Q(mafia_departure__how="vote")

_CONDITIONS = {
    "mafia_citizen_games": Q(side=CITIZENS),
    "mafia_citizen_survived": Q(side=CITIZENS) & _STAYED,
    "mafia_citizen_voted_out": Q(side=CITIZENS) & _VOTED_OUT,
    "mafia_mafia_games": Q(side=MAFIA),
    "mafia_mafia_survived": Q(side=MAFIA) & _STAYED,
    "mafia_mafia_voted_out": Q(side=MAFIA) & _VOTED_OUT,
    "mafia_soldier_games": Q(role=SOLDIER),
    "mafia_recruited": Q(role=SOLDIER, side=MAFIA),
}


@dataclass
class MafiaFacts:
    """A player's figures (one count per fact of :data:`FACTS`)."""

    citizen_games: int = 0
    citizen_survived: int = 0
    citizen_voted_out: int = 0
    mafia_games: int = 0
    mafia_survived: int = 0
    mafia_voted_out: int = 0
    soldier_games: int = 0
    recruited: int = 0


def rulesets() -> list[str]:
    """The games of this family."""
    return [
        code
        for code in engine.ruleset_codes()
        if engine.get_ruleset(code).family == "mafia"
    ]


def fact_condition(fact: str, player_id: int) -> Q:
    """The games behind one figure of ``player_id`` (see :data:`FACTS`); finished
    games only: sides and roles are written at the end."""
    seats = seat_model().objects.filter(
        _CONDITIONS[fact],
        user_id=player_id,
        game__status=game_model().Status.FINISHED,
        game__ruleset__in=rulesets(),
    )
    return Q(pk__in=seats.values("game_id"))


def player_facts(seats: QuerySet[Seat]) -> MafiaFacts:
    """The figures over ``seats`` (a player's seats in the games a viewer may see):
    one query."""
    finished = seats.filter(
        game__status=game_model().Status.FINISHED, game__ruleset__in=rulesets()
    )
    totals = finished.aggregate(
        **{
            fact.removeprefix("mafia_"): Count("pk", filter=condition)
            for fact, condition in _CONDITIONS.items()
        }
    )
    return MafiaFacts(**totals)


def figures(facts: MafiaFacts, url: Callable[..., str]) -> list[Figure]:
    """The profile's figures; ``url(fact=...)`` links the games behind a number."""

    def figure(key: str, caption: Text, count: str, total: str) -> Figure:
        return Figure(
            key=key,
            caption=caption,
            count=getattr(facts, count),
            total=getattr(facts, total),
            count_url=url(fact=f"mafia_{count}"),
            total_url=url(fact=f"mafia_{total}"),
        )

    return [
        figure(
            "mafia-citizen-survived",
            _("of their games as a citizen they were still in at the end"),
            "citizen_survived",
            "citizen_games",
        ),
        figure(
            "mafia-mafia-survived",
            _("of their games as mafia they were still in at the end"),
            "mafia_survived",
            "mafia_games",
        ),
        figure(
            "mafia-citizen-voted-out",
            _("of their games as a citizen the town voted them out"),
            "citizen_voted_out",
            "citizen_games",
        ),
        figure(
            "mafia-mafia-voted-out",
            _("of their games as mafia the town voted them out"),
            "mafia_voted_out",
            "mafia_games",
        ),
        figure(
            "mafia-recruited",
            _("of their games as a plain soldier the mafia recruited them"),
            "recruited",
            "soldier_games",
        ),
    ]
