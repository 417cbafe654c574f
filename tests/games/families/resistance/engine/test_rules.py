"""The course of a game (docs/rules.md §1): votes, leaders, missions, presets, the
end."""

from __future__ import annotations

import pytest

from games.engine import apply, legal_actions, outcome, view, waiting_for
from games.families.resistance.engine import GameState, Phase, Side
from tests.games.families.resistance.engine.support import (
    act,
    check,
    evil_seats,
    find_game,
    good_seats,
    mission,
    new_game,
    play_all,
    play_through,
    propose,
    reject,
    size_now,
    team_with,
    vote_all,
    voters_now,
)

# --- votes ----------------------------------------------------------------------------


def _votes(approvals: int, voters: list[int]) -> dict[int, bool]:
    """The first ``approvals`` voters approve, the rest reject."""
    return {seat: index < approvals for index, seat in enumerate(voters)}


@pytest.mark.parametrize(
    ("code", "players", "approvals", "approved"),
    [
        ("partisans", 5, 3, True),
        ("partisans", 5, 2, False),
        ("partisans", 6, 3, False),  # a tie rejects
        ("partisans", 6, 4, True),
        ("trust_no_one", 7, 4, True),
        ("trust_no_one", 7, 3, False),
        ("trust_no_one", 8, 4, False),  # half is not enough: «половина плюс один»
        ("trust_no_one", 8, 5, True),
        ("partisans", 10, 5, False),
        ("partisans", 10, 6, True),
        ("werewolves", 5, 2, False),  # four voters, a tie rejects (house decision)
        ("werewolves", 5, 3, True),
        ("werewolves", 6, 3, True),  # five voters
        ("werewolves", 6, 2, False),
        ("werewolves", 9, 4, False),
        ("werewolves", 9, 5, True),
    ],
)
def test_strict_majority_of_voters_approves(
    code: str, players: int, approvals: int, approved: bool
) -> None:
    state = propose(new_game(code, players), range(size_now(new_game(code, players))))
    voters = voters_now(state)
    assert len(voters) == (players - 1 if code == "werewolves" else players)
    state = vote_all(state, _votes(approvals, voters))
    assert state.history[-1].approved is approved
    assert state.phase is (Phase.MISSION if approved else Phase.PROPOSAL)


def test_votes_are_hidden_until_the_last_is_in_then_shown_to_everyone() -> None:
    state = propose(new_game("partisans", 5, seed=3), [0, 1])
    state = act(state, 2, {"type": "vote", "approve": False})
    state = act(state, 4, {"type": "vote", "approve": True})
    for seat in [None, 0, 1, 3]:
        seen = view(state, seat)
        assert seen["proposal"]["voted"] == [2, 4]
        assert seen["proposal"]["votes"] is None
        assert seen["me"] is None or seen["me"]["vote"] is None
    assert view(state, 2)["me"]["vote"] is False
    assert view(state, 4)["me"]["vote"] is True
    for seat in (0, 1, 3):
        state = act(state, seat, {"type": "vote", "approve": seat != 3})
    votes = {"0": True, "1": True, "2": False, "3": False, "4": True}
    for seat in [None, 0, 1, 2, 3, 4]:
        seen = view(state, seat)
        assert seen["history"][-1]["votes"] == votes
        assert seen["history"][-1]["approved"] is True
        assert seen["proposal"]["votes"] == votes  # the team now on its mission


def test_vote_events_are_private_until_revealed() -> None:
    state = propose(new_game("partisans", 5, seed=3), [0, 1])
    for seat in range(4):
        state, events = apply(state, seat, {"type": "vote", "approve": True})
        public = [e for e in events if e.visible_to is None]
        private = [e for e in events if e.visible_to is not None]
        assert [(e.kind, dict(e.data)) for e in public] == [("voted", {"seat": seat})]
        assert [(e.kind, e.visible_to) for e in private] == [
            ("vote_cast", frozenset({seat}))
        ]
    state, events = apply(state, 4, {"type": "vote", "approve": False})
    revealed = [e for e in events if e.kind == "votes_revealed"]
    assert revealed[0].visible_to is None
    assert revealed[0].data["votes"] == {
        "0": True,
        "1": True,
        "2": True,
        "3": True,
        "4": False,
    }
    assert revealed[0].data["approved"] is True


def test_fifth_rejection_in_a_row_wins_for_evil() -> None:
    state = new_game("partisans", 7, seed=8)
    first = state.leader
    for attempt in range(1, 5):
        state = reject(state)
        assert state.rejections == attempt
        assert state.leader == (first + attempt) % 7
        assert state.outcome is None
        assert view(state, None)["rejections"] == attempt
    state = reject(state)
    assert outcome(state) is not None
    assert (state.outcome.winner, state.outcome.reason) == (
        Side.EVIL,
        "five_rejections",
    )
    assert state.phase is Phase.OVER and state.mission == 1
    assert [(r.mission, r.attempt) for r in state.history] == [
        (1, n) for n in range(1, 6)
    ]


def test_rejections_count_per_mission_and_reset_on_approval() -> None:
    state = new_game("trust_no_one", 6, seed=8)
    for _ in range(4):
        state = reject(state)
    state = mission(state)
    assert state.rejections == 0 and state.mission == 2
    for _ in range(4):
        state = reject(state)
    assert state.outcome is None and state.rejections == 4
    state = mission(state)
    assert state.rejections == 0 and state.mission == 3 and state.outcome is None
    assert [r.attempt for r in state.history] == [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]


# --- leaders --------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["partisans", "trust_no_one"])
def test_leadership_passes_after_rejection_and_after_a_mission(code: str) -> None:
    state = find_game(code, 5, lambda s: s.leader == 4)
    state = reject(state)
    assert state.leader == 0  # wraps around the table
    state = mission(state)
    assert state.leader == 1
    state = mission(state, fails=1)
    assert state.leader == 2


def test_werewolf_leader_stays_after_a_patrol_and_passes_on_rejection() -> None:
    state = find_game("werewolves", 6, lambda s: s.leader == 5)
    state = mission(state)
    assert state.leader == 5
    state = mission(state, fails=1)
    assert state.leader == 5
    state = reject(state)
    assert state.leader == 0
    state = mission(state)
    assert state.leader == 0


def test_werewolf_leader_does_not_vote() -> None:
    state = propose(new_game("werewolves", 7, seed=2), range(2))
    leader = state.leader
    assert legal_actions(state, leader) == ()
    assert leader not in waiting_for(state)
    assert leader not in view(state, None)["voters"]
    assert len(view(state, None)["voters"]) == 6
    state = vote_all(state, True)
    assert str(leader) not in view(state, None)["history"][-1]["votes"]
    assert state.phase is Phase.MISSION


def test_partisans_leader_votes() -> None:
    state = propose(new_game("partisans", 7, seed=2), range(2))
    assert legal_actions(state, state.leader) == (
        {"type": "vote", "choices": [True, False]},
    )
    assert state.leader in waiting_for(state)


# --- missions -------------------------------------------------------------------------


def test_cards_are_secret_and_only_the_fail_count_is_shown() -> None:
    state = new_game("partisans", 8, seed=11)
    team = team_with(state, 2)
    state = vote_all(propose(state, team), True)
    evil = [seat for seat in team if seat in state.table.evil]
    state, events = apply(state, evil[0], {"type": "play", "card": "fail"})
    assert [(e.kind, dict(e.data), e.visible_to) for e in events] == [
        ("card_played", {"seat": evil[0]}, None)
    ]
    assert view(state, None)["play"] == {"team": team, "played": [evil[0]]}
    assert view(state, evil[0])["me"]["card"] == "fail"
    assert view(state, evil[1])["me"]["card"] is None
    state = play_all_remaining(state, failing=[evil[1]])
    assert state.missions[0].fails == 2
    seen = view(state, None)
    assert seen["missions"][0]["fails"] == 2 and seen["missions"][0]["result"] == "fail"
    assert seen["history"][-1]["fails"] == 2
    assert seen["history"][-1]["result"] == "fail"
    for seat in range(8):
        cards = view(state, seat)["me"]["cards"]
        expected = (
            {"1": "fail"} if seat in evil else {"1": "success"} if seat in team else {}
        )
        assert cards == expected


def play_all_remaining(state: GameState, failing: list[int]) -> GameState:
    for seat, card in zip(state.team, state.cards, strict=True):
        if card is None:
            choice = "fail" if seat in failing else "success"
            state = act(state, seat, {"type": "play", "card": choice})
    return state


def test_evil_may_play_success() -> None:
    state = new_game("werewolves", 5, seed=4)
    team = team_with(state, 2)
    state = play_all(vote_all(propose(state, team), True), failing=[])
    assert state.missions[0].success and state.missions[0].fails == 0


def test_legal_cards_depend_on_the_players_side() -> None:
    state = new_game("partisans", 7, seed=4)
    team = team_with(state, 1, size=2)
    state = vote_all(propose(state, team), True)
    for seat in team:
        (spec,) = legal_actions(state, seat)
        cards = ["success", "fail"] if seat in state.table.evil else ["success"]
        assert spec == {"type": "play", "cards": cards}
    outside = next(s for s in range(7) if s not in team)
    assert legal_actions(state, outside) == ()


@pytest.mark.parametrize("code", ["partisans", "trust_no_one", "werewolves"])
def test_three_successes_win_for_good(code: str) -> None:
    state = play_through(new_game(code, 6, seed=1), "SFS")
    assert state.outcome is None
    state = mission(state)
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == (
        Side.GOOD,
        "three_successes",
    )
    assert state.mission == 4 and len(state.missions) == 4


@pytest.mark.parametrize("code", ["partisans", "trust_no_one", "werewolves"])
def test_three_failures_win_for_evil(code: str) -> None:
    state = play_through(new_game(code, 9, seed=1), "FSFS")
    assert state.outcome is None and state.mission == 5
    state = mission(state, fails=1)
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == (Side.EVIL, "three_failures")
    assert len(state.missions) == 5


def test_game_over_reveals_everything_but_cards() -> None:
    state = play_through(new_game("partisans", 5, seed=7, check=True), "FFF")
    assert state.phase is Phase.OVER
    seen = view(state, None)
    assert seen["outcome"] == {"winner": "evil", "reason": "three_failures"}
    assert seen["roles"] == [
        {"seat": seat, "side": state.table.sides[seat].value, "role": role}
        for seat, role in enumerate(state.table.roles)
    ]
    assert seen["checks"][0]["result"] == state.checks[0].result.value
    assert seen["legal"] == [] and seen["waiting_for"] == []
    assert "cards" not in str(seen)


# --- «С проверкой» --------------------------------------------------------------------


def test_check_token_runs_after_missions_two_three_and_four() -> None:
    state = new_game("partisans", 7, seed=21, check=True)
    first_holder = state.token
    state = mission(state)
    assert state.phase is Phase.PROPOSAL  # no check after mission 1
    state = mission(state, fails=1)
    assert state.phase is Phase.CHECK and state.token == first_holder
    assert waiting_for(state) == {first_holder}
    assert state.leader == (state.table.first_leader + 2) % 7  # passed before the check
    (spec,) = legal_actions(state, first_holder)
    assert spec["type"] == "check"
    assert first_holder not in spec["among"] and len(spec["among"]) == 6

    target = spec["among"][0]
    state, events = apply(state, first_holder, {"type": "check", "target": target})
    assert state.phase is Phase.CLAIM and state.token == first_holder
    truth = state.table.sides[target].value
    checked = {e.kind: e for e in events}
    assert checked["checked"].visible_to is None
    assert dict(checked["checked"].data) == {
        "holder": first_holder,
        "target": target,
        "after_mission": 2,
    }
    assert checked["check_result"].visible_to == {first_holder}
    assert checked["check_result"].data["side"] == truth
    assert view(state, first_holder)["checks"][0]["result"] == truth
    known = {
        fact["seat"]: fact["side"] for fact in view(state, first_holder)["me"]["known"]
    }
    assert known[target] == truth
    others = [s for s in range(7) if s != first_holder]
    assert all(view(state, s)["checks"][0]["result"] is None for s in others)
    assert legal_actions(state, first_holder) == (
        {"type": "claim", "sides": ["good", "evil"]},
    )

    lie = "evil" if truth == "good" else "good"
    state, events = apply(state, first_holder, {"type": "claim", "side": lie})
    assert state.phase is Phase.PROPOSAL
    assert state.token == target
    assert state.former_holders == (first_holder, target)
    claimed = next(e for e in events if e.kind == "claimed")
    assert claimed.visible_to is None and claimed.data["claim"] == lie
    assert view(state, None)["checks"] == [
        {
            "after_mission": 2,
            "holder": first_holder,
            "target": target,
            "claim": lie,
            "result": None,
        }
    ]
    assert view(state, None)["token"] == {
        "holder": target,
        "former": [first_holder, target],
        "eligible": [s for s in range(7) if s not in (first_holder, target)],
    }

    state = mission(state)  # mission 3
    assert state.phase is Phase.CHECK and state.token == target
    state = check(state)
    state = mission(state, fails=2)  # mission 4 needs two fails at seven: 2-2
    assert state.phase is Phase.CHECK
    state = check(state)
    assert [c.after_mission for c in state.checks] == [2, 3, 4]
    assert len(state.former_holders) == 4 == len(set(state.former_holders))
    state = mission(state)  # mission 5 ends the game: no more checks
    assert state.phase is Phase.OVER and len(state.checks) == 3


def test_check_result_is_the_true_side_scout_good_sniper_evil() -> None:
    for kind, side in (("scout", "good"), ("sniper", "evil")):

        def target_of(state: GameState, kind: str = kind) -> int | None:
            return state.table.scout if kind == "scout" else state.table.sniper

        state = find_game(
            "partisans",
            8,
            lambda s, target_of=target_of: target_of(s) != s.token,
            scout=True,
            check=True,
        )
        target = target_of(state)
        state = play_through(state, "SF")
        state = act(state, state.token, {"type": "check", "target": target})
        assert state.checks[-1].result.value == side
        assert view(state, state.token)["checks"][-1]["result"] == side


def test_no_check_once_the_game_is_decided_or_in_the_sniper_phase() -> None:
    state = play_through(new_game("partisans", 6, seed=3, check=True), "FSF")
    state = check(state)  # after mission 3
    state = mission(state, fails=1)  # third failure after mission 4
    assert state.phase is Phase.OVER and len(state.checks) == 2

    state = new_game("partisans", 6, seed=3, check=True, scout=True)
    state = check(play_through(state, "SSF"))  # checks after 2 and 3
    state = mission(state)  # third success after mission 4: the sniper, not a check
    assert state.phase is Phase.SNIPER and len(state.checks) == 2

    state = play_through(new_game("partisans", 6, seed=3, check=True), "SFFF")
    assert state.phase is Phase.OVER and len(state.checks) == 2


def test_five_players_still_have_two_seats_to_check_the_third_time() -> None:
    state = play_through(new_game("partisans", 5, seed=9, check=True), "SFSF")
    assert state.phase is Phase.CHECK and len(state.former_holders) == 3
    (spec,) = legal_actions(state, state.token)
    assert spec["among"] == [s for s in range(5) if s not in state.former_holders]
    assert len(spec["among"]) == 2


# --- «С разведчиком» ------------------------------------------------------------------


def test_scout_sees_evil_but_not_the_sniper() -> None:
    state = new_game("partisans", 10, seed=5, scout=True)
    table = state.table
    assert table.scout is not None
    known = view(state, table.scout)["me"]["known"]
    assert known == [{"seat": s, "side": "evil", "role": None} for s in table.evil]


def test_evil_know_each_other_and_the_sniper_from_the_start() -> None:
    state = new_game("partisans", 10, seed=5, scout=True)
    table = state.table
    for seat in table.evil:
        seen = view(state, seat)
        assert seen["me"]["known"] == [
            {"seat": s, "side": "evil", "role": table.roles[s]}
            for s in table.evil
            if s != seat
        ]
        assert seen["sniper"]["sniper"] == table.sniper
        assert "scout" not in str(seen["me"]["known"])
    for seat in good_seats(state):
        assert view(state, seat)["sniper"]["sniper"] is None
    assert view(state, None)["sniper"] == {
        "phase": False,
        "sniper": None,
        "target": None,
        "hit": None,
    }


def test_good_players_know_nobody() -> None:
    state = new_game("trust_no_one", 8, seed=5)
    for seat in good_seats(state):
        assert view(state, seat)["me"]["known"] == []


def _sniper_phase(seed: int = 5) -> GameState:
    state = new_game("partisans", 7, seed=seed, scout=True)
    state = play_through(state, "SFS")
    state = mission(state)
    assert state.phase is Phase.SNIPER
    return state


def test_three_successes_with_the_scout_open_the_sniper_phase() -> None:
    state = _sniper_phase()
    table = state.table
    assert state.outcome is None
    assert waiting_for(state) == {table.sniper}
    for seat in range(7):
        seen = view(state, seat)
        evil = seat in table.evil
        assert seen["me"]["channels"] == (["table", "evil"] if evil else ["table"])
        assert seen["waiting_for"] == ([table.sniper] if evil else [])
        assert seen["sniper"]["phase"] is True
        assert seen["phase"] == "sniper"
        shoot = [s for s in range(7) if s != seat]
        expected = ({"type": "shoot", "among": shoot},) if seat == table.sniper else ()
        assert legal_actions(state, seat) == expected


def test_sniper_hits_the_scout_evil_wins() -> None:
    state = _sniper_phase()
    table = state.table
    state, events = apply(state, table.sniper, {"type": "shoot", "target": table.scout})
    assert (state.outcome.winner, state.outcome.reason) == (Side.EVIL, "scout_shot")
    shot = next(e for e in events if e.kind == "shot")
    assert dict(shot.data) == {
        "sniper": table.sniper,
        "target": table.scout,
        "hit": True,
    }
    assert view(state, None)["sniper"] == {
        "phase": False,
        "sniper": table.sniper,
        "target": table.scout,
        "hit": True,
    }


@pytest.mark.parametrize("aim", ["good", "evil"])
def test_sniper_misses_good_wins(aim: str) -> None:
    state = _sniper_phase()
    table = state.table
    pool = good_seats(state) if aim == "good" else evil_seats(state)
    target = next(s for s in pool if s not in (table.scout, table.sniper))
    state, _ = apply(state, table.sniper, {"type": "shoot", "target": target})
    assert (state.outcome.winner, state.outcome.reason) == (Side.GOOD, "scout_missed")
    assert view(state, 0)["sniper"]["hit"] is False
    assert view(state, 0)["me"]["channels"] == ["table"]


def test_three_failures_with_the_scout_end_at_once() -> None:
    state = play_through(new_game("partisans", 7, seed=5, scout=True), "FFF")
    assert state.outcome is not None and state.outcome.reason == "three_failures"


def test_both_presets_together() -> None:
    state = new_game("partisans", 10, seed=77, scout=True, check=True)
    state = play_through(state, "SF")
    assert state.phase is Phase.CHECK
    state = check(state)
    state = mission(state)  # mission 3
    state = check(state)
    state = mission(state)  # third success at mission 4: no check, the sniper
    assert state.phase is Phase.SNIPER and len(state.checks) == 2
    table = state.table
    state = act(state, table.sniper, {"type": "shoot", "target": table.scout})
    assert state.outcome is not None and state.outcome.reason == "scout_shot"
