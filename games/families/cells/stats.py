"""The ``cells`` family's own figures on a player's profile, and the filters of the
history list that pick the games behind each.

A player's side in ``cells`` is the colour most of their cards are, and it can change
with every swap; the platform's figures count the side each player ended with. What
the family adds is how their missions went for the colour they were at the time:

* missions gone on (as leader or second player) while mostly blue, and how many of
  those succeeded;
* missions gone on while mostly red, and how many of those failed.

Each is one database aggregate over the finished games the viewer may see (the seats
the platform hands in). Definitions: docs/stats.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from games.families.cells.models import MissionPart
from games.kit import Figure, game_model

if TYPE_CHECKING:
    from games.kit import Seat

GOOD, EVIL = MissionPart.Side.GOOD, MissionPart.Side.EVIL

FACTS = {
    "cells_blue_missions": _("missions gone on while mostly blue"),
    "cells_blue_missions_succeeded": _(
        "missions gone on while mostly blue that succeeded"
    ),
    "cells_red_missions": _("missions gone on while mostly red"),
    "cells_red_missions_failed": _("missions gone on while mostly red that failed"),
}
"""The history list's ``fact`` filters this family offers, with their meaning."""

_CONDITIONS = {
    "cells_blue_missions": Q(side=GOOD),
    "cells_blue_missions_succeeded": Q(side=GOOD, success=True),
    "cells_red_missions": Q(side=EVIL),
    "cells_red_missions_failed": Q(side=EVIL, success=False),
}


@dataclass
class CellsFacts:
    blue_missions: int = 0
    blue_succeeded: int = 0
    red_missions: int = 0
    red_failed: int = 0


def fact_condition(fact: str, player_id: int) -> Q:
    """The games behind one figure of ``player_id`` (see :data:`FACTS`); finished
    games only, since the colour at the time is a secret until the end."""
    parts = MissionPart.objects.filter(
        _CONDITIONS[fact],
        seat__user_id=player_id,
        game__status=game_model().Status.FINISHED,
    )
    return Q(pk__in=parts.values("game_id"))


def player_facts(seats: QuerySet[Seat]) -> CellsFacts:
    """The figures over ``seats`` (a player's seats in the games a viewer may see):
    one query."""
    finished = seats.filter(game__status=game_model().Status.FINISHED)
    totals = MissionPart.objects.filter(seat__in=finished).aggregate(
        **{
            name: Count("pk", filter=_CONDITIONS[fact])
            for name, fact in (
                ("blue_missions", "cells_blue_missions"),
                ("blue_succeeded", "cells_blue_missions_succeeded"),
                ("red_missions", "cells_red_missions"),
                ("red_failed", "cells_red_missions_failed"),
            )
        }
    )
    return CellsFacts(**totals)


def figures(facts: CellsFacts, url: Callable[..., str]) -> list[Figure]:
    """The profile's figures; ``url(fact=...)`` links the games behind a number."""
    return [
        Figure(
            key="cells-blue-missions-succeeded",
            caption=_("of their missions while mostly blue succeeded"),
            count=facts.blue_succeeded,
            total=facts.blue_missions,
            count_url=url(fact="cells_blue_missions_succeeded"),
            total_url=url(fact="cells_blue_missions"),
        ),
        Figure(
            key="cells-red-missions-failed",
            caption=_("of their missions while mostly red failed"),
            count=facts.red_failed,
            total=facts.red_missions,
            count_url=url(fact="cells_red_missions_failed"),
            total_url=url(fact="cells_red_missions"),
        ),
    ]
