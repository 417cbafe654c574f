"""Who could be evil: exact odds for the analysis board, from a view alone.

For every seat, the probability that it is evil, counted exactly over the possible evil
teams (which seats are evil; the number of evil seats is fixed by the player count).
An evil team is *possible* when it agrees with every hard fact the view states:

* each finished mission with ``f`` fail cards had at least ``f`` evil members (a fail
  card can only come from an evil player; an evil player may also play success, so a
  clean mission proves nothing);
* for a seat's own view, what that player knows for certain: their own side, their
  evil partners (an evil player therefore knows the whole evil team), the scout's list
  (the scout too), and their own check results (``me.known``).

**Every possible evil team counts the same** (a uniform prior, and nothing else): votes,
proposals and claims are what people chose to do and say, not facts, so they do not
move the odds here.  The werewolves' rules and both presets of ``partisans`` give
facts of the same kinds (the scout knows the evil seats but not which is the sniper;
the sniper is one of the evil seats, so a side's odds do not depend on roles), and
the two-fail mission is no exception: one fail card there still proves one evil member.

The analysis reads what the viewer knew *at that step*: it ignores what a finished
game's reveal lays over a replay's view (``roles``, other holders' check results, the
sniper's seat), so a replay's board shows what the play itself had shown so far.

It reads only the view, so the public analysis (the spectator's view) can only be
made of public facts; the tests prove it the other way round too: two games a
spectator cannot tell apart get the same analysis.

Speed: an evil team is a bitmask; at most C(10, 4) = 210 of them.  The counting is
cached by the facts (a game's facts change only when a mission ends or a check is
made), so the board for every step of a game costs a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from games.engine.core import get_ruleset

if TYPE_CHECKING:
    from games.families.resistance.engine.rulesets import ResistanceRuleset

__all__ = [
    "Analysis",
    "Facts",
    "analyse",
    "analyse_steps",
    "clear_cache",
    "evil_count",
    "evil_teams",
    "facts_of",
    "mask_of",
    "probabilities",
]


class Facts(NamedTuple):
    """The hard facts a view states about who is evil, as bitmasks (bit ``i`` is seat
    ``i``).  Hashable: the counting is cached by it."""

    players: int
    evil: int
    """How many seats are evil at this table."""
    known_evil: int
    """Seats the viewer knows to be evil."""
    known_good: int
    """Seats the viewer knows to be good (their own seat when they are good)."""
    missions: tuple[tuple[int, int], ...]
    """``(team, fails)`` of each finished mission with at least one fail, sorted."""


class Analysis(NamedTuple):
    """The analysis board at one step: per seat, in how many of the possible evil
    teams that seat is evil.  ``probabilities[i] == counts[i] / assignments``."""

    step: int
    viewer: int | None
    """The seat whose view this was; ``None`` for the public (spectator's) view."""
    assignments: int
    """How many evil teams agree with the facts the viewer had."""
    counts: tuple[int, ...]
    probabilities: tuple[float, ...]

    def fraction(self, seat: int) -> Fraction:
        """The exact probability that ``seat`` is evil."""
        return Fraction(self.counts[seat], self.assignments)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON for a page or the API (seats are list positions)."""
        return {
            "step": self.step,
            "viewer": self.viewer,
            "assignments": self.assignments,
            "counts": list(self.counts),
            "probabilities": list(self.probabilities),
        }


def mask_of(seats: Iterable[int]) -> int:
    """The bitmask of a collection of seats."""
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def evil_count(view: Mapping[str, Any]) -> int:
    """How many evil seats the view's game has (fixed by its ruleset and players)."""
    ruleset = cast("ResistanceRuleset", get_ruleset(view["ruleset"]))
    players = view["players"]
    for count, evil in ruleset.evil_counts:
        if count == players:
            return evil
    raise ValueError(f"no evil count for {players} players")


@lru_cache(maxsize=64)
def evil_teams(players: int, evil: int) -> tuple[int, ...]:
    """Every possible evil team of ``evil`` seats among ``players``, as bitmasks."""
    return tuple(mask_of(team) for team in combinations(range(players), evil))


def facts_of(view: Mapping[str, Any]) -> Facts:
    """The hard facts of ``view``: its finished missions' fail counts and, for a
    seat's view, what that seat knows for certain (``me``)."""
    players = view["players"]
    known_evil = known_good = 0
    me = view["me"]
    if me is not None:
        own = 1 << me["seat"]
        if me["side"] == "evil":
            known_evil |= own
        else:
            known_good |= own
        for fact in me["known"]:
            if fact["side"] == "evil":
                known_evil |= 1 << fact["seat"]
            elif fact["side"] == "good":
                known_good |= 1 << fact["seat"]
    missions = {
        (mask_of(record["team"]), record["fails"])
        for record in view["history"]
        if record["approved"] and record["fails"]
    }
    return Facts(
        players, evil_count(view), known_evil, known_good, tuple(sorted(missions))
    )


Counted = tuple[int, tuple[int, ...], tuple[float, ...]]


@lru_cache(maxsize=4096)
def _count(facts: Facts) -> Counted:
    """How many evil teams fit the facts, in how many of them each seat is, and so
    the probability that each seat is evil."""
    evil, good = facts.known_evil, facts.known_good
    fitting = [
        team
        for team in evil_teams(facts.players, facts.evil)
        if team & evil == evil and not team & good
    ]
    for members, fails in facts.missions:
        fitting = [team for team in fitting if (team & members).bit_count() >= fails]
    if not fitting:
        raise ValueError("no evil team agrees with this view")
    total = len(fitting)
    counts = [0] * facts.players
    for team in fitting:
        seat = 0
        while team:
            if team & 1:
                counts[seat] += 1
            team >>= 1
            seat += 1
    return total, tuple(counts), tuple(count / total for count in counts)


def probabilities(facts: Facts) -> tuple[float, ...]:
    """The probability that each seat is evil given ``facts`` alone (for records
    that hold a game's facts without its views: the stats' public lean)."""
    return _count(facts)[2]


def clear_cache() -> None:
    """Forget the counted facts (for benchmarks that want a cold start)."""
    _count.cache_clear()


def analyse(view: Mapping[str, Any]) -> Analysis:
    """The probability that each seat is evil, as the viewer of ``view`` can know it.

    ``view`` is ``games.engine.view(state, seat)``: ``seat=None`` gives the public
    board, a seat gives the board "as seen by that player".  Uniform over the evil
    teams that agree with the view's hard facts (see the module doc); raises
    ``ValueError`` for a view no game can produce (no evil team fits).
    """
    return _board(view, _count(facts_of(view)))


def _board(view: Mapping[str, Any], counted: Counted) -> Analysis:
    me = view["me"]
    total, counts, probabilities = counted
    return Analysis(
        step=view["step"],
        viewer=None if me is None else me["seat"],
        assignments=total,
        counts=counts,
        probabilities=probabilities,
    )


def analyse_steps(views: Sequence[Mapping[str, Any]]) -> list[Analysis]:
    """The board for every step of a game: ``views[k]`` is the view at step ``k``
    (``view(state_k, seat)`` for one ``seat``, or ``None`` for the public board).

    Consecutive steps with the same facts share one count, so a whole game costs
    little more than its few distinct sets of facts.
    """
    boards: list[Analysis] = []
    last: Facts | None = None
    counted: Counted | None = None
    for view in views:
        facts = facts_of(view)
        if counted is None or facts != last:
            last, counted = facts, _count(facts)
        boards.append(_board(view, counted))
    return boards
