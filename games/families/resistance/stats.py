"""The Resistance family's own figures on a player's profile, and the filters of the
history list that pick the games behind each.

* as evil: missions gone on, and how many of those failed;
* as good: votes cast, those on a team with an evil player on it, and those that
  approved such a team;
* as good: teams proposed, and those with no evil player on them;
* as good: votes on teams the public odds leaned on (``Proposal.public_lean``), and
  those that went with the lean (the "deduction" figure).

Each is a database aggregate over the finished games the viewer may see (the seats
the platform hands in), so a profile costs the same few queries whatever the number
of games. Definitions: docs/stats.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import (
    BooleanField,
    Count,
    Exists,
    ExpressionWrapper,
    OuterRef,
    Q,
    QuerySet,
)
from django.utils.translation import gettext_lazy as _

from games.families.resistance.deduction import APPROVE, REJECT
from games.families.resistance.models import Mission, Proposal, Vote
from games.kit import Figure, game_model, seat_model

if TYPE_CHECKING:
    from games.kit import Seat

GOOD, EVIL = "good", "evil"
TeamSeat = Proposal.team.through

FACTS = {
    "evil_missions": _("missions gone on as evil"),
    "evil_missions_failed": _("missions gone on as evil that failed"),
    "good_votes": _("votes as good"),
    "evil_team_votes": _("votes as good on a team with an evil player"),
    "approved_evil": _("votes as good approving a team with an evil player"),
    "led_good": _("teams proposed as good"),
    "led_clean": _("teams proposed as good with no evil player"),
    "lean_votes": _("votes as good where the public odds leaned"),
    "with_odds": _("votes as good that went with the public odds"),
}
"""The history list's ``fact`` filters this family offers, with their meaning."""


@dataclass
class ResistanceFacts:
    """A player's figures over the games a viewer may see (see the module doc)."""

    evil_missions: int = 0
    evil_missions_failed: int = 0
    good_votes: int = 0
    approved_evil: int = 0
    votes_on_evil_teams: int = 0
    led_good: int = 0
    led_clean: int = 0
    lean_votes: int = 0
    with_odds: int = 0


WITH_ODDS = Q(approve=True, proposal__public_lean=APPROVE) | Q(
    approve=False, proposal__public_lean=REJECT
)
"""A vote that went with the public odds (games.families.resistance.deduction)."""


def _evil_teams(games: QuerySet[Any]) -> QuerySet[Any]:
    """The ids of the proposals, in ``games`` (a subquery of game ids), whose team
    had an evil player on it.

    Used as ``proposal_id IN (this)``: the database builds the set once and probes
    it per row. A correlated ``EXISTS`` per vote reads the same rows, but
    PostgreSQL prices it so high that it JIT-compiles the query, which alone takes
    longer than the whole page should.
    """
    return TeamSeat.objects.filter(seat__side=EVIL, seat__game_id__in=games).values(
        "proposal_id"
    )


def _member_of(field: str, ids: QuerySet[Any]) -> ExpressionWrapper:
    """``field IN (ids)`` as a true/false column to group by."""
    return ExpressionWrapper(Q(**{f"{field}__in": ids}), output_field=BooleanField())


def fact_condition(fact: str, player_id: int) -> Q:
    """The games behind one figure of ``player_id`` (see :data:`FACTS`)."""
    games_played = seat_model().objects.filter(user_id=player_id).values("game_id")
    if fact in ("evil_missions", "evil_missions_failed"):
        missions = Mission.objects.filter(
            team__user_id=player_id, team__side=EVIL
        ).exclude(result="")
        if fact == "evil_missions_failed":
            missions = missions.filter(result=Mission.Result.FAIL)
        return Q(pk__in=missions.values("game_id"))
    if fact in ("lean_votes", "with_odds"):
        votes = Vote.objects.filter(
            seat__user_id=player_id,
            seat__side=GOOD,
            proposal__public_lean__in=(APPROVE, REJECT),
        )
        if fact == "with_odds":
            votes = votes.filter(WITH_ODDS)
        return Q(pk__in=votes.values("seat__game_id"))
    if fact in ("good_votes", "evil_team_votes", "approved_evil"):
        votes = Vote.objects.filter(seat__user_id=player_id, seat__side=GOOD)
        if fact != "good_votes":
            votes = votes.filter(proposal_id__in=_evil_teams(games_played))
        if fact == "approved_evil":
            votes = votes.filter(approve=True)
        return Q(pk__in=votes.values("seat__game_id"))
    proposals = Proposal.objects.filter(leader__user_id=player_id, leader__side=GOOD)
    if fact == "led_clean":
        proposals = proposals.exclude(pk__in=_evil_teams(games_played))
    return Q(pk__in=proposals.values("game_id"))


def player_facts(seats: QuerySet[Seat]) -> ResistanceFacts:
    """The figures over ``seats`` (a player's seats in the games a viewer may see):
    four queries."""
    facts = ResistanceFacts()
    finished = seats.filter(game__status=game_model().Status.FINISHED)
    totals = (
        Mission.objects.filter(team__in=finished.filter(side=EVIL))
        .exclude(result="")
        .aggregate(
            total=Count("pk"), failed=Count("pk", filter=Q(result=Mission.Result.FAIL))
        )
    )
    facts.evil_missions = totals["total"]
    facts.evil_missions_failed = totals["failed"]
    good = finished.filter(side=GOOD)
    rows = (
        Vote.objects.filter(seat__in=good)
        .annotate(
            evil_team=_member_of("proposal_id", _evil_teams(good.values("game_id")))
        )
        .values("approve", "evil_team")
        .annotate(votes=Count("pk"))
        .order_by()
    )
    for row in rows:
        facts.good_votes += row["votes"]
        if row["evil_team"]:
            facts.votes_on_evil_teams += row["votes"]
            if row["approve"]:
                facts.approved_evil += row["votes"]
    # A player leads a few proposals per game, so a per-row EXISTS is cheap here.
    evil_member = TeamSeat.objects.filter(proposal_id=OuterRef("pk"), seat__side=EVIL)
    led = (
        Proposal.objects.filter(leader__in=good)
        .alias(evil_team=Exists(evil_member))
        .aggregate(total=Count("pk"), clean=Count("pk", filter=Q(evil_team=False)))
    )
    facts.led_good = led["total"]
    facts.led_clean = led["clean"]
    leaned = Vote.objects.filter(
        seat__in=good, proposal__public_lean__in=(APPROVE, REJECT)
    ).aggregate(total=Count("pk"), with_odds=Count("pk", filter=WITH_ODDS))
    facts.lean_votes = leaned["total"]
    facts.with_odds = leaned["with_odds"]
    return facts


def figures(facts: ResistanceFacts, url: Callable[..., str]) -> list[Figure]:
    """The profile's figures; ``url(fact=...)`` links the games behind a number."""
    return [
        Figure(
            key="evil-missions-failed",
            caption=_("of their missions as evil failed"),
            count=facts.evil_missions_failed,
            total=facts.evil_missions,
            count_url=url(fact="evil_missions_failed"),
            total_url=url(fact="evil_missions"),
        ),
        Figure(
            key="approved-evil",
            caption=_("of their votes as good approved a team with an evil player"),
            count=facts.approved_evil,
            total=facts.good_votes,
            count_url=url(fact="approved_evil"),
            total_url=url(fact="good_votes"),
        ),
        Figure(
            key="approved-evil-teams",
            caption=_("of their votes as good on teams with an evil player approved"),
            count=facts.approved_evil,
            total=facts.votes_on_evil_teams,
            count_url=url(fact="approved_evil"),
            total_url=url(fact="evil_team_votes"),
        ),
        Figure(
            key="clean-proposals",
            caption=_("of the teams they proposed as good had no evil player"),
            count=facts.led_clean,
            total=facts.led_good,
            count_url=url(fact="led_clean"),
            total_url=url(fact="led_good"),
        ),
        Figure(
            key="deduction",
            caption=_(
                "of their votes as good where the public odds leaned went with them "
                "(deduction)"
            ),
            count=facts.with_odds,
            total=facts.lean_votes,
            count_url=url(fact="with_odds"),
            total_url=url(fact="lean_votes"),
        ),
    ]
