"""Ten players vote at the same moment through the API: the row lock on the table
serialises them, so every vote counts exactly once and the vote resolves once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import engine
from games.families.resistance.models import Mission, Proposal, Vote
from games.models import GameAction
from tests.api.support import Answer, act, by_seat, game, open_table, state_of
from tests.conftest import uses_postgres

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not uses_postgres(), reason="row locks need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def test_ten_simultaneous_votes_each_count_once_and_resolve_once() -> None:
    code, players = open_table("partisans", 10)
    seats = by_seat(code, players)
    leader = engine.view(state_of(code), None)["leader"]
    proposed = act(seats[leader], code, {"type": "propose", "team": [0, 1, 2]})
    assert proposed.status == 200
    turn = proposed.body["turn"]
    start = threading.Barrier(len(seats))
    answers: dict[int, Answer] = {}

    def vote(position: int) -> None:
        try:
            start.wait(timeout=10)
            answers[position] = seats[position].post(
                f"tables/{code}/actions",
                {"action": {"type": "vote", "approve": True}, "turn": turn},
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=vote, args=(p,)) for p in seats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert {p: a.status for p, a in answers.items()} == dict.fromkeys(seats, 200)
    versions = sorted(answer.body["version"] for answer in answers.values())
    assert versions == list(range(2, 12))
    assert game(code).version == 11
    assert list(GameAction.objects.values_list("number", flat=True)) == list(
        range(1, 12)
    )
    proposal = Proposal.objects.get()
    assert proposal.approved is True
    assert sorted(Vote.objects.values_list("seat__position", flat=True)) == sorted(
        seats
    )
    mission = Mission.objects.get(number=1)
    assert sorted(mission.team.values_list("position", flat=True)) == [0, 1, 2]
    public = engine.view(state_of(code), None)
    assert len(public["history"]) == 1
    assert public["history"][0]["votes"] == {str(p): True for p in seats}
    assert public["phase"] == "mission"
