"""Every move the rules refuse: its own error class with a stable code, a readable
message, and no change to the state."""

from __future__ import annotations

import copy
import inspect
from typing import Any

import pytest

from games.engine import (
    MODERATOR,
    BadTarget,
    GameIsOver,
    IllegalAction,
    MalformedAction,
    NotSeated,
    apply,
    legal_actions,
    parse_action,
    replay,
    setup,
)
from games.engine.core import GameSetup
from games.families.mafia.engine import (
    AlreadyActed,
    AlreadyKicked,
    AlreadyVoted,
    ChoiceRequired,
    DayOnly,
    DefenceVoteDone,
    DuplicateTarget,
    ExitVoteDone,
    ExitVoteFirst,
    GameState,
    GuessMismatch,
    HasLeft,
    InquiryAlreadyToday,
    InquiryTooLate,
    MiddayFirst,
    ModeratorOnly,
    MustChoose,
    NobodyHasLeft,
    NoExitVote,
    NoInquiriesLeft,
    NoMidday,
    NoSleepNow,
    NotACandidate,
    NotACitizen,
    NotATarget,
    NotAwake,
    NotDawn,
    NotDay,
    NotNamed,
    NoVoteFirstDay,
    NoVoteOpen,
    NurseRepeat,
    NurseSelf,
    OneCandidateOnly,
    PassNotAllowed,
    Phase,
    PlayersOnly,
    RecruitmentNotAllowed,
    SelfTarget,
    SlaughterNotAllowed,
    Step,
    TargetLeft,
    TimerNotNow,
    TimerSubject,
    WrongCount,
    WrongForm,
)
from games.families.mafia.engine import errors as mafia_errors
from tests.games.families.mafia.engine.support import (
    COLONEL,
    DEMOLISHER,
    GENERAL,
    NURSE,
    PARTISAN,
    RADIO,
    SNIPER,
    SOLDIER_A,
    SOLDIER_B,
    TRAITOR,
    act,
    intro,
    moderator,
    night,
    step,
    table,
    vote,
    vote_out,
)


def refused(
    state: GameState, seat: Any, action: Any, error: type[IllegalAction]
) -> IllegalAction:
    """Apply a move that must be refused with exactly ``error``; check that nothing
    changed and that the message is the template filled with its parameters."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, seat, action)
    exc = caught.value
    assert type(exc) is error, (type(exc), error, str(exc))
    assert exc.code == error.code
    assert str(exc) == exc.template % exc.params
    assert str(exc) and str(exc)[0].isupper() and str(exc).endswith(".")
    assert exc.to_dict()["code"] == error.code
    assert state == before
    return exc


def day1(**options: Any) -> GameState:
    return intro(table(**options), guess=1, code=2)


def at_step(state: GameState, wanted: Step) -> GameState:
    """From a day, into the next night up to ``wanted`` (the mafia shoot the
    Partisan, stopped by his shield)."""
    state = moderator(state, "end_day")
    while state.sleep is not wanted:
        state = step(state)
    return state


# --- the codes ------------------------------------------------------------------------


def test_every_refusal_has_its_own_stable_code() -> None:
    classes = [
        cls
        for _, cls in inspect.getmembers(mafia_errors, inspect.isclass)
        if issubclass(cls, IllegalAction) and cls.__module__ == mafia_errors.__name__
    ]
    codes = [cls.code for cls in classes]
    assert len(classes) >= 40 and len(set(codes)) == len(codes)
    core = {"illegal", "malformed", "bad_target", "not_seated", "wrong_phase"}
    assert not core & set(codes)
    for cls in classes:
        assert cls.code.replace("_", "").isalpha() and cls.code.islower()


# --- seats, shapes, the end -----------------------------------------------------------


@pytest.mark.parametrize("seat", [10, -2, "0", True, None, 1.0])
def test_a_seat_that_is_not_at_the_table(seat: Any) -> None:
    refused(table(), seat, {"type": "tap"}, NotSeated)


@pytest.mark.parametrize(
    ("action", "error"),
    [
        ("tap", MalformedAction),
        ({"type": "sing"}, MalformedAction),
        ({"type": "choose", "target": True}, MalformedAction),
        ({"type": "choose", "number": 6}, MalformedAction),
        ({"type": "choose", "number": "2"}, MalformedAction),
        ({"type": "choose", "target": 10}, BadTarget),
        ({"type": "choose", "targets": [1, 1]}, DuplicateTarget),
        (
            {"type": "choose", "mode": "poison", "target": 1, "guess": None},
            MalformedAction,
        ),
        (
            {"type": "choose", "mode": "slaughter", "target": 1, "guess": "king"},
            MalformedAction,
        ),
        (
            {"type": "choose", "mode": "shoot", "target": 1, "guess": "nurse"},
            GuessMismatch,
        ),
        (
            {"type": "choose", "mode": "slaughter", "target": 1, "guess": None},
            GuessMismatch,
        ),
        ({"type": "choose", "mode": "pass", "target": 1, "guess": None}, GuessMismatch),
        (
            {"type": "choose", "mode": "shoot", "target": None, "guess": None},
            GuessMismatch,
        ),
        ({"type": "choose", "colour": 1}, MalformedAction),
        ({"type": "vote", "candidates": [3, 3]}, DuplicateTarget),
        ({"type": "vote", "candidates": 3}, MalformedAction),
        ({"type": "vote"}, MalformedAction),
        ({"type": "kick", "target": 3, "why": "x"}, MalformedAction),
        ({"type": "timer", "kind": "lunch", "subject": None}, MalformedAction),
        ({"type": "start_vote", "vote": "hands"}, MalformedAction),
        ({"type": "end_day", "now": True}, MalformedAction),
    ],
)
def test_malformed_actions(action: Any, error: type[IllegalAction]) -> None:
    refused(table(), 0, action, error)
    with pytest.raises(error):
        parse_action(table(), action)


def test_nothing_is_played_after_the_end() -> None:
    state = vote_out(day1(), GENERAL)
    state = night(state, sniper=DEMOLISHER, nurse=NURSE)
    state = vote_out(state, TRAITOR)
    assert state.phase is Phase.OVER
    refused(state, MODERATOR, {"type": "end_day"}, GameIsOver)
    refused(state, SOLDIER_A, {"type": "vote", "candidates": []}, GameIsOver)
    assert legal_actions(state, MODERATOR) == () and legal_actions(state, 3) == ()


def test_replay_names_the_refused_entry() -> None:
    game = GameSetup("mafia_partisan", 10, {}, 4)
    general = setup(game).table.general
    log = [(general, {"type": "choose"}), (general, {"type": "choose"})]
    with pytest.raises(AlreadyActed) as caught:
        replay(game, log)
    assert caught.value.step == 1
    with pytest.raises(MalformedAction) as malformed:
        replay(game, [(0,)])
    assert malformed.value.step == 0


# --- who may act ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        {"type": "confirm_night"},
        {"type": "inquiry"},
        {"type": "midday"},
        {"type": "end_day"},
        {"type": "close_vote"},
        {"type": "kick", "target": 3},
        {"type": "warn", "target": 3},
        {"type": "start_vote", "vote": "defence"},
        {"type": "timer", "kind": "defence", "subject": 3},
    ],
)
def test_a_moderator_action_from_a_player(action: dict[str, Any]) -> None:
    refused(day1(), SOLDIER_A, action, ModeratorOnly)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "tap"},
        {"type": "choose"},
        {"type": "vote", "candidates": []},
    ],
)
def test_a_player_action_from_the_moderator(action: dict[str, Any]) -> None:
    refused(table(), MODERATOR, action, PlayersOnly)


def test_a_player_who_has_left_cannot_act() -> None:
    state = vote_out(day1(), SOLDIER_A)
    refused(at_step(state, Step.CONFER), SOLDIER_A, {"type": "tap"}, HasLeft)
    state = moderator(state, "end_day")
    assert legal_actions(state, SOLDIER_A) == ()


# --- night steps ----------------------------------------------------------------------


def test_a_night_action_outside_a_night_or_midday() -> None:
    state = day1()
    refused(state, NURSE, {"type": "choose", "target": 3}, NoSleepNow)
    refused(state, NURSE, {"type": "tap", "target": 3}, NoSleepNow)


def test_a_real_choice_by_a_sleeping_role() -> None:
    state = at_step(day1(), Step.DEMOLISHER)
    refused(state, NURSE, {"type": "choose", "target": SOLDIER_A}, NotAwake)
    refused(state, GENERAL, {"type": "choose", "target": SOLDIER_A}, NotAwake)
    spent = at_step(night(day1(), sniper=GENERAL), Step.SNIPER)
    refused(spent, SNIPER, {"type": "choose", "target": TRAITOR}, NotAwake)


def test_the_awake_role_must_choose_not_tap() -> None:
    state = at_step(day1(), Step.DEMOLISHER)
    refused(state, DEMOLISHER, {"type": "tap", "target": SOLDIER_A}, MustChoose)


def test_a_second_action_at_one_step() -> None:
    state = at_step(day1(), Step.DEMOLISHER)
    state = act(state, NURSE, {"type": "tap", "target": SOLDIER_A})
    refused(state, NURSE, {"type": "tap", "target": SOLDIER_A}, AlreadyActed)
    state = act(state, DEMOLISHER, {"type": "choose", "target": SOLDIER_A})
    refused(state, DEMOLISHER, {"type": "choose", "target": NURSE}, AlreadyActed)


def test_a_tap_or_choice_with_the_wrong_fields() -> None:
    state = at_step(day1(), Step.DEMOLISHER)
    refused(state, NURSE, {"type": "tap", "number": 2}, WrongForm)
    refused(state, DEMOLISHER, {"type": "choose"}, WrongForm)
    confer = at_step(day1(), Step.CONFER)
    refused(confer, NURSE, {"type": "tap", "target": 1}, WrongForm)


def test_a_target_who_has_left() -> None:
    state = at_step(vote_out(day1(), SOLDIER_A), Step.RADIO)
    refused(state, RADIO, {"type": "choose", "target": SOLDIER_A}, TargetLeft)
    refused(state, NURSE, {"type": "tap", "target": SOLDIER_A}, TargetLeft)


def test_targets_each_role_may_not_pick() -> None:
    radio = at_step(day1(), Step.RADIO)
    refused(radio, RADIO, {"type": "choose", "target": RADIO}, SelfTarget)
    refused(radio, RADIO, {"type": "choose", "target": None}, ChoiceRequired)
    refused(radio, NURSE, {"type": "tap", "target": None}, ChoiceRequired)
    # A sleeper may tap any seat of the public grid, his own included: a refusal
    # would tell a glancing neighbour that a refused player is awake.
    assert NURSE in act(radio, NURSE, {"type": "tap", "target": NURSE}).tapped
    demolisher = at_step(day1(), Step.DEMOLISHER)
    refused(demolisher, DEMOLISHER, {"type": "choose", "target": TRAITOR}, NotACitizen)
    must = at_step(day1(demolisher_must_pick=True), Step.DEMOLISHER)
    refused(must, DEMOLISHER, {"type": "choose", "target": None}, ChoiceRequired)
    sniper = at_step(day1(), Step.SNIPER)
    refused(sniper, SNIPER, {"type": "choose", "target": SNIPER}, SelfTarget)


def test_the_nurses_house_restrictions() -> None:
    state = at_step(day1(nurse_self=False), Step.NURSE)
    refused(state, NURSE, {"type": "choose", "target": NURSE}, NurseSelf)
    state = night(day1(nurse_repeat=False), nurse=SOLDIER_B)
    state = at_step(state, Step.NURSE)
    refused(state, NURSE, {"type": "choose", "target": SOLDIER_B}, NurseRepeat)


def general(mode: str, target: int | None, guess: str | None = None) -> dict[str, Any]:
    return {"type": "choose", "mode": mode, "target": target, "guess": guess}


def test_the_mafias_action_refused() -> None:
    state = at_step(day1(), Step.GENERAL)
    refused(state, GENERAL, general("recruit", SOLDIER_A), RecruitmentNotAllowed)
    refused(state, GENERAL, general("pass", None), PassNotAllowed)
    refused(state, GENERAL, general("shoot", GENERAL), SelfTarget)
    tap = {**general("pass", None), "type": "tap"}
    refused(state, NURSE, tap, PassNotAllowed)  # a tap too
    used = night(day1(), general=("slaughter", NURSE, "colonel"))
    used = at_step(used, Step.GENERAL)
    refused(used, GENERAL, general("slaughter", NURSE, "nurse"), SlaughterNotAllowed)
    successor = at_step(vote_out(day1(), GENERAL), Step.GENERAL)
    refused(
        successor, DEMOLISHER, general("slaughter", NURSE, "nurse"), SlaughterNotAllowed
    )
    refused(successor, DEMOLISHER, general("recruit", SOLDIER_A), RecruitmentNotAllowed)
    once = vote_out(day1(), TRAITOR)
    once = at_step(night(once, general=("recruit", NURSE, None)), Step.GENERAL)
    refused(once, GENERAL, general("recruit", SOLDIER_A), RecruitmentNotAllowed)


def colonel_midday() -> GameState:
    state = night(day1(), general=("shoot", COLONEL, None), nurse=NURSE)
    return moderator(state, "midday")


def test_the_colonels_midday_choices_refused() -> None:
    state = colonel_midday()
    refused(state, COLONEL, {"type": "choose", "targets": [1]}, WrongCount)
    refused(state, COLONEL, {"type": "choose", "targets": [1, 2, 3]}, WrongCount)
    refused(state, COLONEL, {"type": "choose", "targets": [1, COLONEL]}, SelfTarget)
    refused(state, NURSE, {"type": "choose", "targets": [1, 2]}, NotAwake)
    state = step(state, {COLONEL: {"targets": [TRAITOR, SOLDIER_A]}})
    state = moderator(state, "midday")
    refused(state, COLONEL, {"type": "choose", "target": NURSE}, NotNamed)
    refused(state, NURSE, {"type": "tap", "target": NURSE}, NotATarget)


# --- votes ----------------------------------------------------------------------------


def test_a_vote_outside_a_vote() -> None:
    refused(day1(), SOLDIER_A, {"type": "vote", "candidates": [3]}, NoVoteOpen)
    refused(table(), SOLDIER_A, {"type": "vote", "candidates": [3]}, NoVoteOpen)
    refused(day1(), MODERATOR, {"type": "close_vote"}, NoVoteOpen)


def test_ballots_refused() -> None:
    state = moderator(day1(), "start_vote", vote="defence")
    state = act(state, SOLDIER_A, {"type": "vote", "candidates": [3]})
    refused(state, SOLDIER_A, {"type": "vote", "candidates": [4]}, AlreadyVoted)
    defended = vote(day1(), "defence", {s: [NURSE] for s in range(4)})
    defended = moderator(defended, "start_vote", vote="exit")
    refused(defended, 0, {"type": "vote", "candidates": [SOLDIER_B]}, NotACandidate)
    one = moderator(day1(ballot="one"), "start_vote", vote="defence")
    refused(one, 0, {"type": "vote", "candidates": [3, 4]}, OneCandidateOnly)


# --- the moderator --------------------------------------------------------------------


def test_confirm_only_at_dawn() -> None:
    refused(day1(), MODERATOR, {"type": "confirm_night"}, NotDawn)
    refused(table(), MODERATOR, {"type": "confirm_night"}, NotDawn)


def test_day_moves_outside_the_day() -> None:
    night_ = at_step(day1(), Step.DEMOLISHER)
    for action in (
        {"type": "inquiry"},
        {"type": "midday"},
        {"type": "end_day"},
        {"type": "start_vote", "vote": "defence"},
    ):
        refused(night_, MODERATOR, action, NotDay)
    voting = moderator(day1(), "start_vote", vote="defence")
    refused(voting, MODERATOR, {"type": "end_day"}, NotDay)
    refused(night_, MODERATOR, {"type": "kick", "target": 3}, DayOnly)
    refused(night_, MODERATOR, {"type": "warn", "target": 3}, DayOnly)


def test_inquiries_refused() -> None:
    refused(day1(), MODERATOR, {"type": "inquiry"}, NobodyHasLeft)
    state = night(vote_out(day1(), TRAITOR))
    state = moderator(state, "inquiry")
    refused(state, MODERATOR, {"type": "inquiry"}, InquiryAlreadyToday)
    late = moderator(night(vote_out(day1(), TRAITOR)), "start_vote", vote="defence")
    late = moderator(late, "close_vote")
    refused(late, MODERATOR, {"type": "inquiry"}, InquiryTooLate)
    twice = moderator(night(state), "inquiry")
    refused(night(twice), MODERATOR, {"type": "inquiry"}, NoInquiriesLeft)


def test_midday_refused() -> None:
    refused(day1(), MODERATOR, {"type": "midday"}, NoMidday)
    owed = night(day1(), general=("shoot", COLONEL, None), nurse=NURSE)
    refused(owed, MODERATOR, {"type": "start_vote", "vote": "defence"}, MiddayFirst)
    refused(owed, MODERATOR, {"type": "end_day"}, MiddayFirst)
    refused(colonel_midday(), MODERATOR, {"type": "midday"}, NotDay)


def test_vote_order_refused() -> None:
    refused(day1(first_day_votes=False), MODERATOR,
            {"type": "start_vote", "vote": "defence"}, NoVoteFirstDay)  # fmt: skip
    refused(day1(), MODERATOR, {"type": "start_vote", "vote": "exit"}, NoExitVote)
    nobody = vote(day1(), "defence", {})
    refused(
        nobody, MODERATOR, {"type": "start_vote", "vote": "defence"}, DefenceVoteDone
    )
    refused(nobody, MODERATOR, {"type": "start_vote", "vote": "exit"}, NoExitVote)
    defended = vote(day1(), "defence", {s: [NURSE] for s in range(4)})
    refused(defended, MODERATOR, {"type": "end_day"}, ExitVoteFirst)
    done = vote(defended, "exit", {})
    refused(done, MODERATOR, {"type": "start_vote", "vote": "exit"}, ExitVoteDone)


def test_timers_refused() -> None:
    refused(day1(), MODERATOR, {"type": "timer", "kind": "defence", "subject": 3},
            TimerNotNow)  # fmt: skip
    refused(day1(), MODERATOR, {"type": "timer", "kind": "confer", "subject": None},
            TimerNotNow)  # fmt: skip
    defended = vote(day1(), "defence", {s: [NURSE] for s in range(4)})
    refused(defended, MODERATOR, {"type": "timer", "kind": "defence", "subject": 3},
            TimerSubject)  # fmt: skip
    confer = at_step(day1(), Step.CONFER)
    refused(confer, MODERATOR, {"type": "timer", "kind": "confer", "subject": 1},
            TimerSubject)  # fmt: skip
    demolisher = at_step(day1(), Step.DEMOLISHER)
    refused(demolisher, MODERATOR, {"type": "timer", "kind": "confer", "subject": None},
            TimerNotNow)  # fmt: skip


def test_kicks_refused() -> None:
    state = moderator(day1(), "kick", target=PARTISAN)
    refused(state, MODERATOR, {"type": "kick", "target": PARTISAN}, AlreadyKicked)
    gone = vote_out(day1(), SOLDIER_A)
    refused(gone, MODERATOR, {"type": "kick", "target": SOLDIER_A}, TargetLeft)
    refused(gone, MODERATOR, {"type": "warn", "target": SOLDIER_A}, TargetLeft)
