"""Every move the rules refuse: its own error class, a readable message, no change."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine import (
    BadTarget,
    GameIsOver,
    GameSetup,
    IllegalAction,
    MalformedAction,
    NotSeated,
    WrongPhase,
    apply,
    parse_action,
    replay,
)
from games.families.resistance.engine import (
    AlreadyPlayed,
    AlreadyVoted,
    DuplicateMember,
    FormerHolder,
    GameState,
    GoodCannotFail,
    NotAVoter,
    NotHolder,
    NotLeader,
    NotOnTeam,
    NotSniper,
    Phase,
    Propose,
    SelfCheck,
    SelfShot,
    Vote,
    WrongTeamSize,
)
from tests.games.families.resistance.engine.support import (
    act,
    mission,
    new_game,
    play_through,
    propose,
    reject,
    team_with,
    vote_all,
)

ALL_ERRORS: dict[str, type[IllegalAction]] = {
    "wrong_team_size": WrongTeamSize,
    "not_leader": NotLeader,
    "not_on_team": NotOnTeam,
    "good_cannot_fail": GoodCannotFail,
    "already_voted": AlreadyVoted,
    "already_played": AlreadyPlayed,
    "wrong_phase": WrongPhase,
    "not_a_voter": NotAVoter,
    "former_holder": FormerHolder,
    "self_check": SelfCheck,
    "self_shot": SelfShot,
    "game_over": GameIsOver,
    "not_sniper": NotSniper,
    "not_holder": NotHolder,
    "malformed": MalformedAction,
    "bad_target": BadTarget,
    "duplicate_member": DuplicateMember,
    "not_seated": NotSeated,
}


def refused(
    state: GameState, seat: Any, action: Any, error: type[IllegalAction]
) -> IllegalAction:
    """Apply a move that must be refused with exactly ``error``; check that nothing
    changed and the message is a readable sentence built from its template."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, seat, action)
    exc = caught.value
    assert type(exc) is error, f"{type(exc).__name__}: {exc}"
    assert exc.code == error.code
    assert str(exc) == exc.template % exc.params
    message = str(exc)
    assert message[:1].isupper() and message.endswith("."), message
    assert exc.to_dict()["code"] == error.code
    assert state == before
    return exc


def test_each_code_is_its_own_class() -> None:
    assert len(set(ALL_ERRORS.values())) == len(ALL_ERRORS)
    for code, cls in ALL_ERRORS.items():
        assert cls.code == code
        assert issubclass(cls, IllegalAction)
    for cls in (BadTarget, DuplicateMember):
        assert issubclass(cls, MalformedAction)


# --- proposals and votes --------------------------------------------------------------


def test_wrong_team_size() -> None:
    state = new_game("partisans", 8)
    for team in ([], [0, 1], [0, 1, 2, 3], list(range(8))):
        exc = refused(
            state, state.leader, {"type": "propose", "team": team}, WrongTeamSize
        )
        assert exc.params == {"size": 3, "given": len(team)}
        expected = f"This mission needs a team of exactly 3 players, not {len(team)}."
        assert str(exc) == expected


def test_not_the_leader() -> None:
    state = new_game("partisans", 6)
    for seat in range(6):
        if seat != state.leader:
            refused(state, seat, {"type": "propose", "team": [0, 1]}, NotLeader)


def test_vote_twice() -> None:
    state = propose(new_game("partisans", 6), [0, 1])
    state = act(state, 3, {"type": "vote", "approve": True})
    for again in (True, False):
        refused(state, 3, {"type": "vote", "approve": again}, AlreadyVoted)


def test_werewolf_leader_may_not_vote() -> None:
    state = propose(new_game("werewolves", 6), [0, 1])
    exc = refused(state, state.leader, {"type": "vote", "approve": True}, NotAVoter)
    assert str(exc) == "The leader does not vote in this game."


def test_actions_in_the_wrong_phase() -> None:
    state = new_game("partisans", 5, seed=2)
    leader = state.leader
    vote = {"type": "vote", "approve": True}
    play = {"type": "play", "card": "success"}
    check = {"type": "check", "target": 1}
    claim = {"type": "claim", "side": "good"}
    shoot = {"type": "shoot", "target": 1}
    for action in (vote, play, check, claim, shoot):
        exc = refused(state, leader, action, WrongPhase)
        assert exc.params == {"action": action["type"], "phase": "proposal"}
    voting = propose(state, [0, 1])
    for action in ({"type": "propose", "team": [0, 1]}, play, check, shoot):
        refused(voting, leader, action, WrongPhase)
    playing = vote_all(voting, True)
    assert playing.phase is Phase.MISSION
    for action in ({"type": "propose", "team": [0, 1]}, vote, check, claim):
        refused(playing, 0, action, WrongPhase)


def test_check_and_shoot_without_their_preset_are_never_in_phase() -> None:
    state = play_through(new_game("trust_no_one", 5, seed=2), "SF")
    assert state.phase is Phase.PROPOSAL
    for seat in range(5):
        refused(state, seat, {"type": "check", "target": (seat + 1) % 5}, WrongPhase)
        refused(state, seat, {"type": "shoot", "target": (seat + 1) % 5}, WrongPhase)


# --- missions -------------------------------------------------------------------------


def _on_mission(seed: int = 3) -> GameState:
    state = new_game("partisans", 7, seed=seed)
    return vote_all(propose(state, team_with(state, 1, size=2)), True)


def test_not_on_the_team() -> None:
    state = _on_mission()
    for seat in range(7):
        if seat not in state.team:
            for card in ("success", "fail"):
                refused(state, seat, {"type": "play", "card": card}, NotOnTeam)


def test_play_twice() -> None:
    state = _on_mission()
    seat = state.team[0]
    state = act(state, seat, {"type": "play", "card": "success"})
    refused(state, seat, {"type": "play", "card": "success"}, AlreadyPlayed)


def test_good_cannot_fail() -> None:
    state = _on_mission()
    good = next(seat for seat in state.team if seat not in state.table.evil)
    exc = refused(state, good, {"type": "play", "card": "fail"}, GoodCannotFail)
    assert str(exc) == "Your side can only play success."


# --- the check token ------------------------------------------------------------------


def _checking() -> GameState:
    state = play_through(new_game("partisans", 7, seed=4, check=True), "SF")
    assert state.phase is Phase.CHECK
    return state


def test_only_the_holder_checks_and_claims() -> None:
    state = _checking()
    holder = state.token
    target = next(s for s in range(7) if s not in state.former_holders)
    for seat in range(7):
        if seat != holder:
            refused(state, seat, {"type": "check", "target": target}, NotHolder)
    claiming = act(state, holder, {"type": "check", "target": target})
    for seat in range(7):
        if seat != holder:
            refused(claiming, seat, {"type": "claim", "side": "evil"}, NotHolder)
    refused(claiming, holder, {"type": "check", "target": target}, WrongPhase)


def test_check_self() -> None:
    state = _checking()
    refused(state, state.token, {"type": "check", "target": state.token}, SelfCheck)


def test_check_a_former_holder() -> None:
    state = _checking()
    first = state.token
    target = next(s for s in range(7) if s not in state.former_holders)
    state = act(state, first, {"type": "check", "target": target})
    state = act(state, first, {"type": "claim", "side": "good"})
    state = mission(state)
    assert state.phase is Phase.CHECK and state.token == target
    exc = refused(state, target, {"type": "check", "target": first}, FormerHolder)
    assert exc.params == {"target": first}


# --- the sniper -----------------------------------------------------------------------


def _aiming() -> GameState:
    state = play_through(new_game("partisans", 7, seed=5, scout=True), "SFS")
    state = mission(state)
    assert state.phase is Phase.SNIPER
    return state


def test_only_the_sniper_shoots_and_every_other_seat_hears_the_same() -> None:
    state = _aiming()
    sniper = state.table.sniper
    messages = set()
    for seat in range(7):
        if seat != sniper:
            target = (seat + 1) % 7
            messages.add(
                str(
                    refused(state, seat, {"type": "shoot", "target": target}, NotSniper)
                )
            )
    assert messages == {"You are not the sniper."}  # nothing about anyone's role


def test_sniper_shoots_himself() -> None:
    state = _aiming()
    sniper = state.table.sniper
    refused(state, sniper, {"type": "shoot", "target": sniper}, SelfShot)


# --- after the end --------------------------------------------------------------------


def test_nothing_after_the_game_is_over() -> None:
    ended = [
        play_through(new_game("partisans", 5, seed=1), "FFF"),
        play_through(new_game("werewolves", 6, seed=1), "SSS"),
    ]
    five = new_game("trust_no_one", 5, seed=1)
    for _ in range(5):
        five = reject(five)
    ended.append(five)
    aimed = _aiming()
    ended.append(
        act(
            aimed,
            aimed.table.sniper,
            {"type": "shoot", "target": 0 if aimed.table.sniper else 1},
        )
    )
    actions: list[dict[str, Any]] = [
        {"type": "propose", "team": [0, 1]},
        {"type": "vote", "approve": True},
        {"type": "play", "card": "success"},
        {"type": "check", "target": 1},
        {"type": "claim", "side": "evil"},
        {"type": "shoot", "target": 1},
    ]
    for state in ended:
        assert state.phase is Phase.OVER
        for seat in range(state.players):
            for action in actions:
                refused(state, seat, action, GameIsOver)


# --- malformed moves ------------------------------------------------------------------

MALFORMED = [
    None,
    42,
    "vote",
    ["vote", True],
    {},
    {"approve": True},
    {"type": None},
    {"type": 3, "approve": True},
    {"type": "VOTE", "approve": True},
    {"type": "dance"},
    {"type": "vote"},
    {"type": "vote", "approve": 1},
    {"type": "vote", "approve": "true"},
    {"type": "vote", "approve": None},
    {"type": "vote", "approve": True, "seat": 2},
    {"type": "propose"},
    {"type": "propose", "team": "0,1"},
    {"type": "propose", "team": {"0": 1}},
    {"type": "propose", "team": [0, "1"]},
    {"type": "propose", "team": [0, True]},
    {"type": "propose", "team": [0, 1.0]},
    {"type": "propose", "team": [0, None]},
    {"type": "propose", "team": [0, 1], "leader": 0},
    {"type": "play", "card": "maybe"},
    {"type": "play", "card": "FAIL"},
    {"type": "play", "card": True},
    {"type": "play"},
    {"type": "check", "target": "1"},
    {"type": "check", "target": True},
    {"type": "check", "target": 1.5},
    {"type": "claim", "side": "neutral"},
    {"type": "claim", "side": ["good"]},
    {"type": "claim", "side": "good", "target": 1},
    {"type": "shoot", "target": None},
    {"type": "shoot", "target": False},
    {"type": "shoot"},
]


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_malformed_actions(action: Any) -> None:
    state = new_game("partisans", 5, seed=2)
    refused(state, state.leader, action, MalformedAction)
    with pytest.raises(MalformedAction):
        parse_action(state, action)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "propose", "team": [0, 5]},
        {"type": "propose", "team": [-1, 2]},
        {"type": "check", "target": 5},
        {"type": "shoot", "target": 99},
        {"type": "shoot", "target": -1},
    ],
    ids=repr,
)
def test_seats_that_do_not_exist(action: dict[str, Any]) -> None:
    state = new_game("partisans", 5, seed=2)
    exc = refused(state, state.leader, action, BadTarget)
    assert isinstance(exc, MalformedAction)


def test_duplicate_team_members() -> None:
    state = new_game("partisans", 5, seed=2)
    refused(state, state.leader, {"type": "propose", "team": [1, 1]}, DuplicateMember)
    refused(state, state.leader, Propose((2, 2)), DuplicateMember)


def test_action_objects_are_checked_too() -> None:
    state = new_game("partisans", 5, seed=2)
    assert (
        act(state, state.leader, {"type": "propose", "team": [0, 1]})
        == apply(state, state.leader, Propose((0, 1)))[0]
    )
    refused(state, state.leader, Propose((0, 9)), BadTarget)
    voting = propose(state, [0, 1])
    refused(voting, 0, Vote(1), MalformedAction)


@pytest.mark.parametrize("seat", [None, -1, 5, 17, True, "0", 1.0])
def test_acting_seat_must_be_at_the_table(seat: Any) -> None:
    state = new_game("partisans", 5, seed=2)
    refused(state, seat, {"type": "propose", "team": [0, 1]}, NotSeated)


def test_messages_never_name_a_role() -> None:
    roles = ("traitor", "spy", "werewolf", "scout", "partisan", "agent", "villager")
    for cls in ALL_ERRORS.values():
        if cls is NotSniper:
            continue  # addressed to the player about themselves
        assert not any(role in cls.template.lower() for role in roles), cls


def test_replay_reports_the_offending_entry() -> None:
    game = GameSetup("partisans", 5, seed=2)
    state = new_game("partisans", 5, seed=2)
    log = [(state.leader, {"type": "propose", "team": [0, 1]})]
    log.append((0, {"type": "vote", "approve": True}))
    log.append((0, {"type": "vote", "approve": True}))
    with pytest.raises(AlreadyVoted) as caught:
        replay(game, log)
    assert caught.value.step == 2
    with pytest.raises(MalformedAction) as broken:
        replay(game, [(state.leader, {"type": "propose", "team": [0, 1]}), (0,)])
    assert broken.value.step == 1
