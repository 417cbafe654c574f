"""What the Resistance family's records say about a finished game: every team and
vote, each mission's fail count (never a card's author: the cards table has none),
the checks and the sniper's shot. Read by the review page and the export, in a fixed
number of queries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Prefetch

from games.families.resistance.models import Check, Mission, Proposal, Shot, Vote
from games.kit import seat_model

if TYPE_CHECKING:
    from games.kit import Game, Seat


@dataclass(frozen=True)
class ProposalRecord:
    mission: int
    attempt: int
    leader: int
    team: list[int]
    votes: dict[int, bool]
    approved: bool


@dataclass(frozen=True)
class MissionRecord:
    number: int
    size: int
    two_fails: bool
    team: list[int]
    result: str
    fails: int | None


@dataclass(frozen=True)
class CheckRecord:
    after_mission: int
    holder: int
    target: int
    result: str
    claim: str


@dataclass(frozen=True)
class ShotRecord:
    sniper: int
    target: int
    hit: bool


@dataclass
class ResistanceRecord:
    """A finished game's records, by seat position."""

    proposals: list[ProposalRecord] = field(default_factory=list)
    missions: list[MissionRecord] = field(default_factory=list)
    checks: list[CheckRecord] = field(default_factory=list)
    shot: ShotRecord | None = None


def _positions(seats: Sequence[Seat]) -> dict[int, int]:
    return {seat.pk: seat.position for seat in seats if seat.position is not None}


def game_record(game: Game, seats: Sequence[Seat]) -> ResistanceRecord:
    """The family's rows of ``game``, in table order (``seats``: the game's seats)."""
    at = _positions(seats)
    proposals = (
        Proposal.objects.filter(game=game, approved__isnull=False)
        .prefetch_related(
            Prefetch("team", queryset=seat_model().objects.only("pk")),
            Prefetch(
                "votes", queryset=Vote.objects.only("seat_id", "approve", "proposal_id")
            ),
        )
        .order_by("mission_number", "attempt")
    )
    missions = (
        Mission.objects.filter(game=game)
        .prefetch_related(Prefetch("team", queryset=seat_model().objects.only("pk")))
        .order_by("number")
    )
    record = ResistanceRecord()
    record.proposals = [
        ProposalRecord(
            mission=p.mission_number,
            attempt=p.attempt,
            leader=at[p.leader_id],
            team=sorted(at[s.pk] for s in p.team.all()),
            votes={at[v.seat_id]: v.approve for v in p.votes.all()},
            approved=bool(p.approved),
        )
        for p in proposals
    ]
    record.missions = [
        MissionRecord(
            number=m.number,
            size=m.size,
            two_fails=m.two_fails,
            team=sorted(at[s.pk] for s in m.team.all()),
            result=m.result,
            fails=m.fails,
        )
        for m in missions
    ]
    record.checks = [
        CheckRecord(
            after_mission=c.after_mission,
            holder=at[c.holder_id],
            target=at[c.target_id],
            result=c.result,
            claim=c.claim,
        )
        for c in Check.objects.filter(game=game).order_by("after_mission", "pk")
    ]
    shot = Shot.objects.filter(game=game).first()
    if shot is not None:
        record.shot = ShotRecord(
            sniper=at[shot.sniper_id], target=at[shot.target_id], hit=shot.hit
        )
    return record
