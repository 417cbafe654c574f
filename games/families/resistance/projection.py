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
from typing import Any

from django.db import transaction

from games import engine, writes
from games.cache import LRU
from games.families.resistance.models import (
    Check,
    Mission,
    MissionCard,
    Proposal,
    Shot,
    Vote,
)
from games.models import Game, Seat


def project(
    *, game: Game, seats: Mapping[int, Seat], events: Sequence[engine.Event]
) -> None:
    """Write the records of one move's (or the deal's) events, in order."""
    for event in events:
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(game, seats, event.data)


_mission_ids: LRU[tuple[int, str], dict[int, int]] = LRU(4096)
"""A table's missions' ids by number: written at the deal and never changed after,
so each process learns them once per table (from the deal it wrote, or one read)."""


def _started(game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]) -> None:
    made = Mission.objects.bulk_create(
        Mission(
            game=game,
            number=mission["number"],
            size=mission["size"],
            two_fails=mission["two_fails"],
        )
        for mission in data["missions"]
    )
    ids = {mission.number: mission.pk for mission in made}
    if all(ids.values()):
        key = (game.pk, game.code)
        transaction.on_commit(lambda: _mission_ids.put(key, ids))


def _mission_id(game: Game, number: int) -> int:
    key = (game.pk, game.code)
    ids = _mission_ids.get(key)
    if ids is None or number not in ids:
        ids = dict(
            Mission.objects.filter(game=game).values_list("number", "pk").order_by()
        )
        _mission_ids.put(key, ids)
    return ids[number]


_open: LRU[tuple[int, str], tuple[int, int]] = LRU(4096)
"""The proposal being voted on at a table, as this process wrote it, and the table's
version after the move that wrote it: each vote refers to it. It holds only for the
very next move: on a site of several processes another one may have taken the moves
in between (revealed this proposal's votes, written the next proposal), so a move on
any later version, like a process that never wrote it, asks the database."""


def _remember_open(game: Game, proposal_id: int) -> None:
    """After the commit only: a rolled-back move must leave no stale id behind."""
    key, entry = (game.pk, game.code), (proposal_id, game.version)
    transaction.on_commit(lambda: _open.put(key, entry))


def _proposed(game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]) -> None:
    proposal = Proposal.objects.create(
        game=game,
        mission_number=data["mission"],
        attempt=data["attempt"],
        leader=seats[data["leader"]],
    )
    proposal.team.add(*(seats[position] for position in data["team"]))
    _remember_open(game, proposal.pk)


def _open_proposal_id(game: Game) -> int:
    # ``game`` is the locked row, its version already that of the move being
    # written: the entry holds if it was written by the move just before.
    known = _open.get((game.pk, game.code))
    if known is not None and known[1] == game.version - 1:
        return known[0]
    found: int = (
        Proposal.objects.filter(game=game, approved__isnull=True)
        .values_list("pk", flat=True)
        .latest("pk")
    )
    return found


def _vote_cast(game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]) -> None:
    proposal_id = _open_proposal_id(game)
    writes.insert(
        Vote(proposal_id=proposal_id, seat=seats[data["seat"]], approve=data["approve"])
    )
    _remember_open(game, proposal_id)


def _votes_revealed(
    game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]
) -> None:
    # Each record is written by its id, without reading it first: the proposal is
    # the open one, the mission's id is known, the team is the event's.
    Proposal.objects.filter(pk=_open_proposal_id(game)).update(
        approved=data["approved"]
    )
    key = (game.pk, game.code)
    # After the vote's own entry (on_commit keeps the order they were asked in).
    transaction.on_commit(lambda: _open.pop(key))
    if data["approved"]:
        team = data["team"]
        mission_id = _mission_id(game, data["mission"])
        Mission.objects.filter(pk=mission_id).update(size=len(team))
        through = Mission.team.through
        through.objects.bulk_create(
            through(mission_id=mission_id, seat_id=seats[position].pk)
            for position in team
        )


def _mission_done(
    game: Game, seats: Mapping[int, Seat], data: Mapping[str, Any]
) -> None:
    """The result, the fail count, and the cards themselves in shuffled order and
    without authors, as the table sees them turned up."""
    mission_id = _mission_id(game, data["mission"])
    Mission.objects.filter(pk=mission_id).update(
        result=Mission.Result.SUCCESS if data["success"] else Mission.Result.FAIL,
        fails=data["fails"],
    )
    cards = [False] * data["fails"] + [True] * (data["size"] - data["fails"])
    random.SystemRandom().shuffle(cards)
    MissionCard.objects.bulk_create(
        MissionCard(mission_id=mission_id, success=card) for card in cards
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
