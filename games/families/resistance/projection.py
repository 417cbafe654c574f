"""The Resistance family's records, written from the engine's events.

Each move's events say everything its records need (``proposed``, ``vote_cast``,
``votes_revealed``, ``mission_done``, ``check_result``, ``claimed``, ``shot``; the
deal's ``game_started`` carries the mission track). Nothing here compares views or
reads the engine's state: a record is what an event said. Secret facts written here
(a vote in progress, a check's true result) are never read by the live pages.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch, Subquery

from games import engine
from games.families.resistance import deduction
from games.families.resistance.models import (
    Check,
    Mission,
    MissionCard,
    Proposal,
    Shot,
    Vote,
)
from games.kit import seat_model

if TYPE_CHECKING:
    from games.kit import Game, Seat


def project(
    *, game: Game, seats: Mapping[int, Seat], events: Sequence[engine.Event]
) -> None:
    """Write the records of one move's (or the deal's) events, in order."""
    for event in events:
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(game, seats, event.data)


def _started(game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]) -> None:
    Mission.objects.bulk_create(
        Mission(
            game=game,
            number=mission["number"],
            size=mission["size"],
            two_fails=mission["two_fails"],
        )
        for mission in data["missions"]
    )


def _open_proposal(game: Game) -> Subquery:
    """The proposal being voted on, as a subquery: a vote refers to it without a
    read of its own."""
    return Subquery(
        Proposal.objects.filter(game=game, approved__isnull=True)
        .order_by("-pk")
        .values("pk")[:1]
    )


def _played(game: Game, seats: Mapping[int, Seat]) -> list[tuple[list[int], int]]:
    """The team and fail count of each mission of ``game`` with a fail card so far
    (the public facts behind the odds), from its records."""
    position = {seat.pk: at for at, seat in seats.items()}
    missions = Mission.objects.filter(game=game, fails__gt=0).prefetch_related(
        Prefetch("team", queryset=seat_model().objects.only("pk"))
    )
    return [
        ([position[member.pk] for member in mission.team.all()], mission.fails or 0)
        for mission in missions
    ]


def _proposed(game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]) -> None:
    proposal = Proposal.objects.create(
        game=game,
        mission_number=data["mission"],
        attempt=data["attempt"],
        leader=seats[data["leader"]],
        public_lean=deduction.lean(
            game.ruleset, game.seat_count, _played(game, seats), data["team"]
        ),
    )
    proposal.team.add(*(seats[position] for position in data["team"]))


def _vote_cast(game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]) -> None:
    Vote.objects.create(
        proposal_id=_open_proposal(game),
        seat=seats[data["seat"]],
        approve=data["approve"],
    )


def _votes_revealed(
    game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]
) -> None:
    Proposal.objects.filter(game=game, approved__isnull=True).update(
        approved=data["approved"]
    )
    if data["approved"]:
        team = data["team"]
        mission = Mission.objects.get(game=game, number=data["mission"])
        mission.size = len(team)
        mission.save(update_fields=["size"])
        mission.team.add(*(seats[position] for position in team))


def _mission_done(
    game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]
) -> None:
    """The result, the fail count, and the cards themselves in shuffled order and
    without authors, as the table sees them turned up."""
    mission = Mission.objects.get(game=game, number=data["mission"])
    mission.result = Mission.Result.SUCCESS if data["success"] else Mission.Result.FAIL
    mission.fails = data["fails"]
    mission.save(update_fields=["result", "fails"])
    cards = [False] * data["fails"] + [True] * (data["size"] - data["fails"])
    random.SystemRandom().shuffle(cards)
    MissionCard.objects.bulk_create(
        MissionCard(mission=mission, success=card) for card in cards
    )


def _check_result(
    game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]
) -> None:
    Check.objects.create(
        game=game,
        after_mission=data["after_mission"],
        holder=seats[data["holder"]],
        target=seats[data["target"]],
        result=data["side"],
    )


def _claimed(game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]) -> None:
    check = Check.objects.filter(game=game, holder=seats[data["holder"]]).latest("pk")
    check.claim = data["claim"]
    check.save(update_fields=["claim"])


def _shot(game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]) -> None:
    Shot.objects.create(
        game=game,
        sniper=seats[data["sniper"]],
        target=seats[data["target"]],
        hit=data["hit"],
    )


_HANDLERS = {
    "game_started": _started,
    "proposed": _proposed,
    "vote_cast": _vote_cast,
    "votes_revealed": _votes_revealed,
    "mission_done": _mission_done,
    "check_result": _check_result,
    "claimed": _claimed,
    "shot": _shot,
}
