"""``view()``: the schema of the contract, and what each seat may and may not see."""

from __future__ import annotations

import json
from random import Random

import pytest

from games.engine import GameIsOver, NotSeated, apply, events_for, random_action, view
from games.families.resistance.engine import GameState, Phase, Side
from tests.games.families.resistance.engine.support import (
    act,
    check,
    mission,
    new_game,
    play_through,
    propose,
    team_with,
    vote_all,
)

TOP_KEYS = {
    "ruleset",
    "players",
    "options",
    "step",
    "phase",
    "leader",
    "mission",
    "missions",
    "rejections",
    "voters",
    "proposal",
    "play",
    "token",
    "checks",
    "sniper",
    "history",
    "me",
    "legal",
    "waiting_for",
    "outcome",
    "roles",
}
ME_KEYS = {"seat", "side", "role", "known", "vote", "card", "cards", "channels"}


def _plain_json(value: object) -> bool:
    """Only dict (str keys), list, str, int, bool and None, all the way down."""
    if value is None or type(value) in (str, int, bool):
        return True
    if type(value) is list:
        return all(_plain_json(item) for item in value)
    if type(value) is dict:
        return all(type(k) is str and _plain_json(v) for k, v in value.items())
    return False


def _states() -> list[GameState]:
    """A game with both presets through every phase, one state per phase."""
    state = new_game("partisans", 7, seed=5, scout=True, check=True)
    voting = propose(state, team_with(state, 1, size=2))
    on_mission = vote_all(voting, True)
    checking = play_through(state, "SF")
    target = next(s for s in range(7) if s not in checking.former_holders)
    claiming = act(checking, checking.token, {"type": "check", "target": target})
    state = act(claiming, checking.token, {"type": "claim", "side": "evil"})
    aiming = mission(check(mission(state)))
    over = act(aiming, aiming.table.sniper, {"type": "shoot", "target": 0})
    return [state, voting, on_mission, checking, claiming, aiming, over]


def test_every_phase_has_every_key_and_plain_json() -> None:
    phases = set()
    for state in _states():
        phases.add(state.phase)
        for seat in [None, *range(state.players)]:
            seen = view(state, seat)
            assert set(seen) == TOP_KEYS
            assert _plain_json(seen)
            assert json.loads(json.dumps(seen)) == seen
            assert seen["phase"] == state.phase.value
            assert len(seen["missions"]) == 5
            if seat is None:
                assert seen["me"] is None and seen["legal"] == []
            else:
                assert set(seen["me"]) == ME_KEYS
                assert seen["me"]["seat"] == seat
    assert phases == set(Phase)


def test_me_shows_the_seats_own_role_and_side() -> None:
    state = new_game("werewolves", 6, seed=3)
    for seat in range(6):
        me = view(state, seat)["me"]
        assert me["side"] == state.table.sides[seat].value
        assert me["role"] == state.table.roles[seat]
        assert me["role"] in ("villager", "werewolf")


def test_roles_are_hidden_until_the_end() -> None:
    state = new_game("partisans", 8, seed=3)
    for seat in [None, *range(8)]:
        assert view(state, seat)["roles"] is None
        assert view(state, seat)["outcome"] is None
    done = play_through(state, "FFF")
    for seat in [None, *range(8)]:
        seen = view(done, seat)
        assert [r["role"] for r in seen["roles"]] == list(done.table.roles)


def test_mission_in_progress_shows_who_played_not_what() -> None:
    state = new_game("trust_no_one", 9, seed=6)
    team = team_with(state, 1)
    state = vote_all(propose(state, team), True)
    evil = next(s for s in team if s in state.table.evil)
    state = act(state, evil, {"type": "play", "card": "fail"})
    for seat in [None, *range(9)]:
        seen = view(state, seat)
        assert seen["play"] == {"team": team, "played": [evil]}
        public = {k: v for k, v in seen.items() if k not in ("me", "legal")}
        assert '"fail"' not in json.dumps(public)
        if seat is not None:
            assert seen["me"]["card"] == ("fail" if seat == evil else None)


def test_own_cards_are_only_in_ones_own_view_even_after_the_game() -> None:
    state = play_through(new_game("partisans", 6, seed=2), "FFF")
    assert state.phase is Phase.OVER
    for seat in range(6):
        mine = {
            str(m.number): m.cards[m.team.index(seat)]
            for m in state.missions
            if seat in m.team
        }
        assert view(state, seat)["me"]["cards"] == mine
    spectator = json.dumps(view(state, None))
    assert '"cards"' not in spectator and '"card"' not in spectator


def test_known_lists_for_evil_good_and_check_holder() -> None:
    state = new_game("trust_no_one", 7, seed=9)
    table = state.table
    for seat in range(7):
        known = view(state, seat)["me"]["known"]
        if table.sides[seat] is Side.EVIL:
            assert known == [
                {"seat": s, "side": "evil", "role": "spy"}
                for s in table.evil
                if s != seat
            ]
        else:
            assert known == []


def test_views_of_a_spectator_hide_the_check_result() -> None:
    state = play_through(new_game("partisans", 6, seed=2, check=True), "SF")
    holder = state.token
    target = next(s for s in range(6) if s not in state.former_holders)
    state = act(state, holder, {"type": "check", "target": target})
    assert view(state, None)["checks"][0]["result"] is None
    assert view(state, holder)["checks"][0]["result"] == state.table.sides[target].value


def test_evil_channel_only_in_the_sniper_phase() -> None:
    state = play_through(new_game("partisans", 7, seed=5, scout=True), "SFS")
    evil = state.table.evil[0]
    assert view(state, evil)["me"]["channels"] == ["table"]
    state = mission(state)
    assert view(state, evil)["me"]["channels"] == ["table", "evil"]


def test_without_chat_there_is_no_table_channel() -> None:
    quiet = new_game("trust_no_one", 5, seed=1)
    assert view(quiet, 0)["me"]["channels"] == []
    assert view(quiet, 0)["options"] == {"chat": False}
    chatty = new_game("trust_no_one", 5, seed=1, chat=True)
    assert view(chatty, 0)["me"]["channels"] == ["table"]


@pytest.mark.parametrize("seat", [-1, 5, True, "1"])
def test_view_for_a_seat_that_is_not_at_the_table(seat: object) -> None:
    with pytest.raises(NotSeated):
        view(new_game("partisans", 5), seat)


def test_step_counts_actions() -> None:
    state = new_game("partisans", 5, seed=4)
    state = propose(state, [0, 1])
    assert view(state, None)["step"] == 1
    state = vote_all(state, True)
    assert view(state, None)["step"] == 6


def test_events_are_redacted_per_seat() -> None:
    state = propose(new_game("partisans", 5, seed=4), [0, 1])
    _, events = apply(state, 2, {"type": "vote", "approve": False})
    assert [e.kind for e in events_for(events, 2)] == ["voted", "vote_cast"]
    for seat in (None, 0, 1, 3, 4):
        assert [e.kind for e in events_for(events, seat)] == ["voted"]


def test_random_moves_are_reproducible_and_stop_at_the_end() -> None:
    def game(seed: int) -> list[tuple[int, dict[str, object]]]:
        state, rng, log = new_game("werewolves", 8, seed=seed), Random(seed), []
        while state.outcome is None:
            seat, action = random_action(state, rng)
            log.append((seat, action))
            state, _ = apply(state, seat, action)
        with pytest.raises(GameIsOver):
            random_action(state, rng)
        return log

    assert game(3) == game(3)
    assert game(3) != game(4)
