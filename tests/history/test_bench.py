"""The benchmark's generator writes the rows the services write: for games played
through ``games.services`` (finished and abandoned, every ruleset), the bench's
projection of the same setup and log equals what is in the database. And the
benchmark itself runs and ends with its four figures."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench import history as bench
from games.families.resistance.models import Check, Mission, Proposal, Shot
from games.models import Seat
from games.state import action_log, game_setup
from tests.benchruns import bench_env, run_bench
from tests.history.builders import Table, deal, random_game

pytestmark = pytest.mark.django_db


def _from_db(table: Table) -> bench.Projection:
    game = table.refresh()
    where = {seat.pk: seat.position for seat in game.seats.all()}
    proposals = [
        bench.ProposalRow(
            mission=p.mission_number,
            attempt=p.attempt,
            leader=where[p.leader_id],
            team=sorted(where[s.pk] for s in p.team.all()),
            approved=p.approved,
            votes={where[v.seat_id]: v.approve for v in p.votes.all()},
            public_lean=p.public_lean,
        )
        for p in Proposal.objects.filter(game=game).order_by("pk")
    ]
    missions = [
        bench.MissionRow(
            number=m.number,
            size=m.size,
            two_fails=m.two_fails,
            team=sorted(where[s.pk] for s in m.team.all()),
            result=m.result,
            fails=m.fails,
        )
        for m in Mission.objects.filter(game=game).order_by("number")
    ]
    checks = [
        bench.CheckRow(
            after_mission=c.after_mission,
            holder=where[c.holder_id],
            target=where[c.target_id],
            result=c.result,
            claim=c.claim,
        )
        for c in Check.objects.filter(game=game).order_by("pk")
    ]
    shot = Shot.objects.filter(game=game).first()
    seats = Seat.objects.filter(game=game).order_by("position")
    roles = [{"seat": s.position, "side": s.side, "role": s.role} for s in seats]
    return bench.Projection(
        phase=game.phase,
        outcome={"winner": game.winner, "reason": game.end_reason}
        if game.winner
        else None,
        roles=roles if game.status == "finished" else None,
        proposals=proposals,
        missions=missions,
        checks=checks,
        shot=None
        if shot is None
        else (where[shot.sniper_id], where[shot.target_id], shot.hit),
    )


def _projected(table: Table) -> bench.Projection:
    from games import engine

    game = table.refresh()
    setup = game_setup(game)
    start = engine.setup(setup)
    log = action_log(game)
    final = engine.replay(setup, log)
    played = bench.Played(setup, log, start, final, abandoned=game.status != "finished")
    return bench.project(played)


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("partisans", {"scout": True, "check": True}),
        ("trust_no_one", {}),
        ("werewolves", {"growing_patrol": True}),
    ],
)
def test_bench_rows_equal_the_services_rows(ruleset: str, options: dict) -> None:
    rng = random.Random(ruleset)
    for _ in range(3):
        table = random_game(ruleset, rng.randint(5, 10), rng.randint(0, 10**6),
                            options=options)  # fmt: skip
        assert _projected(table) == _from_db(table)


@pytest.mark.parametrize("moves", [1, 3, 7, 12, 20, 31])
def test_bench_rows_of_abandoned_games_equal_the_services_rows(moves: int) -> None:
    rng = random.Random(moves)
    names = [f"a{moves}_{i}" for i in range(7)]
    table = deal("partisans", names, options={"scout": True, "check": True})
    from games import engine

    for _ in range(moves):
        state = table.state()
        if engine.outcome(state) is not None:
            break
        seat, action = engine.random_action(state, rng)
        table.act(table.name_at(seat), action)
    table.abandon()
    assert _projected(table) == _from_db(table)


def test_the_benchmark_prints_its_four_figures_last(tmp_path: Path) -> None:
    """A tiny run of the real script in its own process and its own database."""
    env = bench_env(tmp_path)
    database = (
        "bench_history_test"
        if env.get("DATABASE_URL")
        else str(tmp_path / "bench.sqlite3")
    )
    tiny = ["--games", "40", "--players", "12", "--runs", "2"]
    stdout = run_bench("bench.history", ["--db", database, *tiny], env)
    last = stdout.strip().splitlines()[-4:]
    assert [line.split(":")[0] for line in last] == [
        "history_ms",
        "profile_ms",
        "replay_ms",
        "profile_queries",
    ]
    assert all(line.split(": ")[1].isdigit() for line in last)
