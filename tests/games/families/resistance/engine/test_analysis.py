"""The analysis board (``analysis.analyse``/``analyse_steps``): exact odds that each
seat is evil, against hand-counted cases; its invariants over whole games of every
ruleset; and proof that the public board is made of public facts only."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from itertools import combinations
from random import Random
from typing import Any

import pytest

from games.engine import GameSetup, bot_action, view
from games.engine.oracle import find_leaks
from games.families.resistance.engine import GameState, Phase, Side
from games.families.resistance.engine.analysis import (
    Analysis,
    analyse,
    analyse_steps,
)
from games.families.resistance.engine.bots import random_move
from games.families.resistance.engine.rules import apply, deal
from tests.games.families.resistance.engine.support import (
    COMBOS,
    EVIL,
    check,
    evil_seats,
    find_game,
    good_seats,
    mission,
    new_game,
    play_game,
    play_through,
)

F = Fraction


def _odds(board: Analysis) -> list[Fraction]:
    return [board.fraction(seat) for seat in range(len(board.counts))]


# --- hand-counted cases ---------------------------------------------------------------


def test_before_anything_happens() -> None:
    """Five players, two evil: a spectator sees 2/5 everywhere; a good player is
    sure of itself and sees 2/4 on each other seat; an evil player knows all."""
    state = new_game("partisans", 5, seed=1)
    assert _odds(analyse(view(state, None))) == [F(2, 5)] * 5
    good = good_seats(state)[0]
    board = analyse(view(state, good))
    assert board.assignments == 6  # C(4, 2)
    assert _odds(board) == [F(0) if s == good else F(1, 2) for s in range(5)]
    evil = evil_seats(state)
    for seat in evil:
        assert _odds(analyse(view(state, seat))) == [
            F(1) if s in evil else F(0) for s in range(5)
        ]


def _one_fail_on_two(state: GameState) -> tuple[GameState, list[int]]:
    """A two-player mission with exactly one evil member and one fail."""
    team = sorted(evil_seats(state)[:1] + good_seats(state)[:1])
    return mission(state, fails=1, team=team), team


def test_five_players_a_mission_of_two_with_one_fail() -> None:
    """C(5,2) = 10 evil teams; 7 of them meet the team {a, b}.  a (or b) is in 4 of
    those 7; each of the other three seats is in 2 (with a or with b).  The good
    member of the team knows the other one is evil, and 1/3 on each other seat."""
    state, team = _one_fail_on_two(new_game("partisans", 5, seed=2))
    board = analyse(view(state, None))
    assert board.assignments == 7
    assert _odds(board) == [F(4, 7) if s in team else F(2, 7) for s in range(5)]
    assert sum(board.counts) == 2 * board.assignments
    (good,) = [s for s in team if s not in state.table.evil]
    (evil,) = [s for s in team if s in state.table.evil]
    mine = analyse(view(state, good))
    assert mine.assignments == 3
    assert _odds(mine) == [
        F(0) if s == good else F(1) if s == evil else F(1, 3) for s in range(5)
    ]


def test_two_fails_on_a_team_of_two_name_both() -> None:
    state = new_game("werewolves", 5, seed=4)
    evil = evil_seats(state)
    state = mission(state, fails=2, team=evil)
    board = analyse(view(state, None))
    assert board.assignments == 1
    assert board.probabilities == tuple(1.0 if s in evil else 0.0 for s in range(5))


def test_a_clean_mission_proves_nothing() -> None:
    """An evil player may play success: a mission without fails moves no odds."""
    state = play_through(new_game("trust_no_one", 6, seed=3), "S")
    assert _odds(analyse(view(state, None))) == [F(2, 6)] * 6


def test_the_two_fail_mission_with_one_fail_still_shows_an_evil_member() -> None:
    """Seven players, three evil.  Mission 2 (three players, T2) fails with one
    fail card; mission 4 (the other four players, T4, two fails needed) succeeds
    with one.  C(7,3) = 35 evil teams; 30 meet both T2 and T4 (not the 4 inside T4,
    not T2 itself).  A T2 seat is in C(6,2) - 1 = 14 of them (all but: with the
    other two T2 seats); a T4 seat in C(6,2) - C(3,2) = 12 (all but: with two more
    T4 seats)."""

    def split(state: GameState) -> bool:
        return state.table.two_fails_mission == 4

    state = find_game("partisans", 7, split)
    evil, good = evil_seats(state), good_seats(state)
    t2 = sorted(evil[:1] + good[:2])
    t4 = sorted(set(range(7)) - set(t2))
    state = mission(state, fails=0)
    state = mission(state, fails=1, team=t2)
    state = mission(state, fails=0)
    state = mission(state, fails=1, team=t4)
    assert state.missions[3].success and state.missions[3].fails == 1
    board = analyse(view(state, None))
    assert board.assignments == 30
    assert _odds(board) == [F(14, 30) if s in t2 else F(12, 30) for s in range(7)]


def test_a_check_result_is_a_fact_for_its_holder_only() -> None:
    """With «С проверкой»: the holder's board is sure of the checked seat; the
    spectator's is not moved by the (hidden) result, nor by the claim."""
    state = play_through(new_game("partisans", 5, seed=6, check=True), "SS")
    holder = state.token
    assert holder is not None and state.phase is Phase.CHECK
    before = analyse(view(state, None))
    state = check(state, claim="evil")
    target = state.checks[-1].target
    truth = state.table.sides[target] is Side.EVIL
    assert analyse(view(state, holder)).probabilities[target] == float(truth)
    assert analyse(view(state, None)).probabilities == before.probabilities


def test_the_scout_and_the_sniper_know_every_side() -> None:
    state = new_game("partisans", 8, seed=7, scout=True)
    table = state.table
    truth = tuple(1.0 if s in table.evil else 0.0 for s in range(8))
    assert table.scout is not None and table.sniper is not None
    assert analyse(view(state, table.scout)).probabilities == truth
    assert analyse(view(state, table.sniper)).probabilities == truth
    plain = next(s for s in good_seats(state) if s != table.scout)
    assert analyse(view(state, plain)).assignments == 35  # C(7, 3)


def test_the_board_as_json() -> None:
    state, team = _one_fail_on_two(new_game("partisans", 5, seed=2))
    shown = analyse(view(state, None)).to_dict()
    assert json.loads(json.dumps(shown)) == shown
    assert shown["viewer"] is None and shown["assignments"] == 7
    assert shown["counts"] == [4 if s in team else 2 for s in range(5)]
    assert shown["probabilities"] == [c / 7 for c in shown["counts"]]


def test_a_view_no_game_can_produce_is_refused() -> None:
    seen = view(new_game("partisans", 5, seed=2), None)
    seen["history"] = [
        {"approved": True, "team": [0], "fails": 1},
        {"approved": True, "team": [1], "fails": 1},
        {"approved": True, "team": [2], "fails": 1},
    ]
    with pytest.raises(ValueError, match="no evil team"):
        analyse(seen)


# --- whole games ----------------------------------------------------------------------


def _games(players: int) -> list[tuple[str, list[GameState]]]:
    games = []
    for number, (code, options) in enumerate(COMBOS):
        good, evil = (
            (bot_action, random_move) if number % 2 else (random_move, bot_action)
        )
        game = GameSetup(code, players, options, seed=number)
        games.append((code, play_game(game, good, evil, Random(number))))
    return games


@pytest.mark.parametrize("players", range(5, 11))
def test_the_board_at_every_step_for_every_viewer(players: int) -> None:
    """In [0, 1], summing to the number of evil seats, sure of the viewer's own seat,
    never ruling out the truth, and the whole-game function agrees step by step."""
    for _code, states in _games(players):
        table = states[0].table
        for seat in [None, *range(players)]:
            views = [view(state, seat) for state in states]
            boards = analyse_steps(views)
            assert boards == [analyse(seen) for seen in views]
            for board, state in zip(boards, states, strict=True):
                assert board.step == state.step and board.viewer == seat
                assert all(0.0 <= p <= 1.0 for p in board.probabilities)
                assert sum(board.counts) == EVIL[players] * board.assignments
                assert sum(board.probabilities) == pytest.approx(EVIL[players])
                for other in range(players):
                    odds = board.probabilities[other]
                    assert odds > 0.0 if other in table.evil else odds < 1.0
                if seat is None:
                    continue
                assert board.probabilities[seat] == float(seat in table.evil)
                if seat in table.evil or seat == table.scout:
                    assert board.assignments == 1


# --- an independent count -----------------------------------------------------------


def _counted_by_hand(state: GameState, seat: int | None) -> list[Fraction]:
    """The odds worked out afresh from the state (not from a view), with sets: every
    evil team of the right size that meets each mission's fail count and what the
    rules tell ``seat`` (docs/rules.md §1)."""
    table = state.table
    players = table.players
    must_evil: set[int] = set()
    must_good: set[int] = set()
    if seat is not None:
        if seat in table.evil or seat == table.scout:
            must_evil |= set(table.evil)
            must_good |= set(range(players)) - set(table.evil)
        must_good |= {seat} - set(table.evil)
        must_evil |= {seat} & set(table.evil)
        for record in state.checks:
            if record.holder == seat:
                target = record.target
                (must_evil if target in table.evil else must_good).add(target)
    fitting = [
        set(team)
        for team in combinations(range(players), len(table.evil))
        if must_evil <= set(team)
        and not must_good & set(team)
        and all(len(set(team) & set(m.team)) >= m.fails for m in state.missions)
    ]
    return [F(sum(s in team for team in fitting), len(fitting)) for s in range(players)]


@pytest.mark.parametrize(("code", "options"), COMBOS, ids=str)
def test_the_board_agrees_with_a_count_from_the_state(
    code: str, options: dict[str, bool]
) -> None:
    for players in (5, 8, 10):
        game = GameSetup(code, players, options, seed=players)
        states = play_game(game, random_move, random_move, Random(players))
        for state in states[:: max(1, len(states) // 12)] + states[-1:]:
            for seat in [None, *range(players)]:
                board = analyse(view(state, seat))
                assert _odds(board) == _counted_by_hand(state, seat)


# --- public facts only ----------------------------------------------------------------


def _other_deal(
    states: list[GameState], log: list[tuple[int, dict[str, Any]]]
) -> list[GameState] | None:
    """The same public history with another evil team: every mission's fail count
    still possible, the same proposals, votes, checks and claims, the cards played
    by whoever is evil in the new deal, the sniper (if any) hitting or missing as
    before.  ``None`` when no other evil team fits the public facts."""
    first, final = states[0], states[-1]
    table = first.table
    players = table.players
    shot = final.shot
    for evil in combinations(range(players), len(table.evil)):
        if evil == table.evil or any(
            len(set(evil) & set(m.team)) < m.fails for m in final.missions
        ):
            continue
        scout = sniper = None
        if table.scout is not None:
            good = [s for s in range(players) if s not in evil]
            if shot is not None and shot == table.scout:
                if shot not in good:
                    continue
                scout = shot
            else:
                scout = next(s for s in good if s != shot)
            sniper = next(s for s in evil if s != shot)
        fails = {m.number: m.fails for m in final.missions}
        return _replayed(first, log, fails, (evil, scout, sniper))
    return None


def _replayed(
    first: GameState,
    log: list[tuple[int, dict[str, Any]]],
    fails: dict[int, int],
    deal_: tuple[tuple[int, ...], int | None, int | None],
) -> list[GameState]:
    """``log`` played again on the same table dealt ``deal_`` (evil, scout, sniper):
    each mission's first ``fails`` evil members (by seat) fail, the others succeed."""
    evil, scout, sniper = deal_
    table = first.table
    ruleset = table.ruleset
    players = range(table.players)
    roles = [ruleset.evil_role if s in evil else ruleset.good_role for s in players]
    if scout is not None and sniper is not None:
        assert ruleset.scout_role is not None and ruleset.sniper_role is not None
        roles[scout], roles[sniper] = ruleset.scout_role, ruleset.sniper_role
    new_table = dataclasses.replace(
        table,
        sides=tuple(Side.EVIL if s in evil else Side.GOOD for s in players),
        roles=tuple(roles),
        evil=evil,
        scout=scout,
        sniper=sniper,
    )
    state = dataclasses.replace(deal(ruleset, table.setup), table=new_table)
    states = [state]
    for seat, action in log:
        if action["type"] == "play":
            failing = sorted(s for s in state.team if s in evil)[: fails[state.mission]]
            action = {"type": "play", "card": "fail" if seat in failing else "success"}
        elif action["type"] == "shoot":
            assert sniper is not None
            seat = sniper
        state, _ = apply(state, seat, action)
        states.append(state)
    return states


@pytest.mark.parametrize(("code", "options"), COMBOS, ids=str)
def test_the_public_board_is_the_same_in_games_a_spectator_cannot_tell_apart(
    code: str, options: dict[str, bool]
) -> None:
    """Two games with the same public history and different deals: the spectator's
    views are equal at every step before the end (the construction is right), and
    the public boards are equal at every step, the end included (where the roles
    are shown and differ) and as a replay (where they are laid over every step)."""
    compared = 0
    for players in (5, 6, 8, 10):
        for seed in range(3):
            log: list[tuple[int, dict[str, Any]]] = []
            game = GameSetup(code, players, options, seed=seed)
            states = play_game(game, bot_action, random_move, Random(seed), log)
            others = _other_deal(states, log)
            if others is None:
                continue
            assert others[0].table.evil != states[0].table.evil
            assert len(others) == len(states)
            for state, other in zip(states[:-1], others[:-1], strict=True):
                assert view(state, None) == view(other, None)
            boards = analyse_steps([view(state, None) for state in states])
            assert boards == analyse_steps([view(other, None) for other in others])
            replayed = analyse_steps(
                [view(state, None, after=states[-1]) for state in states]
            )
            assert replayed == boards
            compared += 1
    assert compared >= 6


@pytest.mark.parametrize(("code", "options"), COMBOS, ids=str)
def test_the_public_board_gives_away_no_secret(
    code: str, options: dict[str, bool]
) -> None:
    """The leak oracle finds nothing of any hidden fact in the public board, at
    every step (as data and as JSON), live and in a replay."""
    for players in (5, 7, 10):
        game = GameSetup(code, players, options, seed=players)
        states = play_game(game, bot_action, bot_action, Random(players))
        final = states[-1]
        for state in states:
            shown = analyse(view(state, None)).to_dict()
            assert find_leaks(state, None, shown) == []
            assert find_leaks(state, None, json.dumps(shown)) == []
            later = analyse(view(state, None, after=final)).to_dict()
            assert later == shown
            assert find_leaks(state, None, later, after=final) == []
