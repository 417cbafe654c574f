"""The Resistance family's analysis board (``Family.analysis``): at every step of a
finished game, the exact chance that each seat is evil, from the engine's analysis
(``engine.analysis``) of the view a perspective had at that step.

The views are the engine's own ``view(state, seat)`` of each step, taken without the
end's reveal, so a seat's board holds what that seat knew then and the public board
only what the table saw (the fail counts of the missions). Stages begin where a
mission ends and where a check is made.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import engine
from games.families.resistance.engine.analysis import analyse_steps
from games.families.resistance.words import phrases_for
from games.kit import Odds

EXPLANATION = gettext_lazy(
    "Each number is the chance, in percent, that the player was on the evil side, "
    "counted from hard facts only: every fail card came from an evil player (an "
    "evil player may also play a success), and, seen as a player, what that player "
    "knew for certain (their own side, their partners, their checks). Every evil "
    "team those facts allow counts the same; votes, proposals and claims are not "
    "counted, because they are what people chose to do and say."
)


def views(
    setup: engine.GameSetup, log: Iterable[tuple[int, Any]], seat: int | None
) -> list[dict[str, Any]]:
    """The view of every step of a game (its deal and action log) as ``seat`` had
    it then (None: a spectator), replaying the log once."""
    state, _events = engine.start(setup)
    result = [engine.view(state, seat)]
    for position, action in log:
        state, _events = engine.apply(state, position, action)
        result.append(engine.view(state, seat))
    return result


def _mark(view: dict[str, Any], before: dict[str, Any] | None, ruleset: str) -> str:
    """The stage a step begins: after a mission's end or a check ("" for none)."""
    if before is None:
        return str(_("The deal"))
    played = [m for m in view["missions"] if m["result"] is not None]
    if len(played) > len([m for m in before["missions"] if m["result"]]):
        mission = played[-1]
        name = phrases_for(ruleset).mission_number % {"n": mission["number"]}
        fails = mission["fails"]
        return str(
            ngettext(
                "%(mission)s: %(fails)s fail",
                "%(mission)s: %(fails)s fails",
                fails,
            )
            % {"mission": name, "fails": fails}
        )
    if len(view["checks"]) > len(before["checks"]):
        check = view["checks"][-1]
        name = phrases_for(ruleset).mission_number % {"n": check["after_mission"]}
        return str(_("%(mission)s: a check") % {"mission": name})
    return ""


def odds_of_log(
    setup: engine.GameSetup, log: Iterable[tuple[int, Any]], seat: int | None
) -> Odds:
    """The same from a game's deal and action log (no database)."""
    seen = views(setup, log, seat)
    boards = analyse_steps(seen)
    phrases = phrases_for(setup.ruleset)
    return Odds(
        steps=[board.probabilities for board in boards],
        marks=[
            _mark(view, seen[step - 1] if step else None, setup.ruleset)
            for step, view in enumerate(seen)
        ],
        evil_one=phrases.evil_one,
        good_one=phrases.good_one,
        explanation=EXPLANATION,
        evil_percent=gettext_lazy("%(n)s%% evil"),
    )
