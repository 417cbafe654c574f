"""Which way the public odds leaned on a proposed team, for the players' "deduction"
figure (docs/stats.md, docs/analysis.md).

When a team is put to the vote, the table's public facts are the fail counts of the
missions played so far. From them the engine's analysis gives each seat's chance of
being evil; the team's expected number of evil members is the sum over its members.
The odds *lean to approve* when that is below what a team of the same size drawn at
random would hold (``size * evil / players``: the average over every seat), *to
reject* when above, and nowhere when equal (at the start of every game, and after
clean missions only). A vote "went with the odds" when it approved a team the odds
leaned to approve or rejected one they leaned to reject.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from games.engine.core import get_ruleset
from games.families.resistance.engine.analysis import Facts, mask_of, probabilities
from games.families.resistance.engine.rulesets import ResistanceRuleset

APPROVE, REJECT, EVEN = "approve", "reject", ""
TOLERANCE = 1e-9


def evil_at(ruleset: str, players: int) -> int:
    """How many evil seats a game of ``ruleset`` with ``players`` has."""
    rules = cast("ResistanceRuleset", get_ruleset(ruleset))
    return dict(rules.evil_counts)[players]


def lean(
    ruleset: str,
    players: int,
    played: Iterable[tuple[Iterable[int], int]],
    team: Iterable[int],
) -> str:
    """The public lean on ``team`` (seat positions) after the missions ``played``
    (each ``(team, fail count)``): :data:`APPROVE`, :data:`REJECT` or :data:`EVEN`."""
    evil = evil_at(ruleset, players)
    missions = tuple(
        sorted({(mask_of(members), fails) for members, fails in played if fails})
    )
    odds = probabilities(Facts(players, evil, 0, 0, missions))
    members = list(team)
    expected = sum(odds[seat] for seat in members)
    average = len(members) * evil / players
    if expected < average - TOLERANCE:
        return APPROVE
    if expected > average + TOLERANCE:
        return REJECT
    return EVEN
