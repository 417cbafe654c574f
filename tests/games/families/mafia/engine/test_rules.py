"""Every rule of docs/rules.md §3 and seed 004, each on a hand-built night or day whose
outcome the seed fixes.  The cards sit at the seats of ``support.SEATS``: General 0,
demolisher 1, traitor soldier 2, Partisan 3, radio operator 4, colonel 5, nurse 6,
sniper 7, plain soldiers 8 and 9."""

from __future__ import annotations

import pytest

from games.engine import legal_actions, view
from games.families.mafia.engine import GameState, Phase, Side, Step
from games.families.mafia.engine.day import threshold
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
    awake,
    intro,
    moderator,
    night,
    step,
    table,
    vote,
    vote_out,
)


def readings(state: GameState) -> list[tuple[int, int, str]]:
    """The radio operator's answers, as he sees them: (night, target, reading)."""
    me = view(state, RADIO)["me"]
    return [
        (pick["night"], pick["target"], pick["reading"])
        for pick in me["picks"]
        if pick["step"] == "radio"
    ]


def left(state: GameState) -> list[int]:
    return [seat for seat in range(10) if not state.in_game[seat]]


def resolution(state: GameState, number: int) -> dict:
    """The moderator's record of night ``number``'s resolution."""
    ledger = view(state, -1)["ledger"]
    record = next(r for r in ledger["nights"] if r["night"] == number)
    return record["resolution"]


def day1(**options: object) -> GameState:
    return intro(table(**options), guess=1, code=2)


# --- the introduction night -----------------------------------------------------------


def test_introduction_night_steps_and_what_each_learns() -> None:
    state = table()
    assert (state.phase, state.night, state.sleep) == (Phase.NIGHT, 0, Step.MEET)
    assert awake(state) == [GENERAL, DEMOLISHER, TRAITOR]
    for seat in (GENERAL, DEMOLISHER, TRAITOR):
        known = {k["seat"]: k["role"] for k in view(state, seat)["me"]["known"]}
        assert set(known) == {GENERAL, DEMOLISHER, TRAITOR} - {seat}
    state = step(state)
    assert state.sleep is Step.CODE and awake(state) == [GENERAL, RADIO]
    state = step(state, {GENERAL: {"number": 4}, RADIO: {"number": 2}})
    assert state.sleep is Step.PARTISAN and awake(state) == [PARTISAN]
    assert view(state, PARTISAN)["me"]["partisan_sees"] == [TRAITOR, 8, 9]
    assert view(state, SOLDIER_A)["me"]["partisan_sees"] is None
    assert view(state, GENERAL)["me"]["general_guess"] == 4
    assert view(state, RADIO)["me"]["radio_code"] == 2
    for seat in (DEMOLISHER, TRAITOR, PARTISAN, NURSE):
        me = view(state, seat)["me"]
        assert me["general_guess"] is None and me["radio_code"] is None
    state = step(state)
    assert state.phase is Phase.DAWN
    state = moderator(state, "confirm_night")
    assert state.phase is Phase.DAY and state.day is not None
    assert state.day.number == 1 and not left(state)


# --- the radio operator's code --------------------------------------------------------


def test_code_differs_from_the_guess_every_mafia_reads_positive() -> None:
    state = day1()  # guess 1, code 2
    state = night(state, radio=GENERAL)
    state = night(state, radio=TRAITOR)
    state = night(state, radio=NURSE)
    assert readings(state) == [
        (1, GENERAL, "positive"),
        (2, TRAITOR, "positive"),
        (3, NURSE, "negative"),
    ]


def test_code_equal_to_the_guess_every_mafia_reads_negative_all_game() -> None:
    state = intro(table(), guess=3, code=3)
    state = night(state, radio=GENERAL)
    state = night(state, radio=DEMOLISHER)
    state = night(state, radio=TRAITOR)
    assert [r[2] for r in readings(state)] == ["negative"] * 3


def test_the_reading_is_the_radio_operators_alone() -> None:
    state = night(day1(), radio=GENERAL, confirm=False)
    for seat in (GENERAL, NURSE, None):
        shown = view(state, seat)
        assert "positive" not in str(shown), seat


# --- the demolisher -------------------------------------------------------------------


def test_demolished_nurse_saves_nobody() -> None:
    saved = night(day1(), general=("shoot", SOLDIER_A, None), nurse=SOLDIER_A)
    assert SOLDIER_A not in left(saved)
    assert resolution(saved, 1)["saved"] == [SOLDIER_A]
    disrupted = night(
        day1(), demolisher=NURSE, general=("shoot", SOLDIER_A, None), nurse=SOLDIER_A
    )
    assert left(disrupted) == [SOLDIER_A]
    assert resolution(disrupted, 1)["demolition"] == "nurse"


def test_demolished_radio_operator_reads_negative_for_anyone() -> None:
    state = night(day1(), demolisher=RADIO, radio=GENERAL)
    state = night(state, radio=GENERAL)
    assert readings(state) == [(1, GENERAL, "negative"), (2, GENERAL, "positive")]


def test_demolished_sniper_cannot_shoot_and_keeps_his_bullet() -> None:
    state = night(day1(), demolisher=SNIPER, sniper=TRAITOR)
    assert state.in_game[TRAITOR]
    assert resolution(state, 1)["sniper"] == "blocked"
    assert view(state, SNIPER)["me"]["bullet"] is True
    state = night(state, sniper=TRAITOR)
    assert not state.in_game[TRAITOR]
    assert view(state, SNIPER)["me"]["bullet"] is False


def test_a_disrupted_nurse_or_sniper_is_woken_as_usual_unless_the_house_says_not() -> (
    None
):
    for blocked_woken in (True, False):
        state = moderator(day1(blocked_woken=blocked_woken), "end_day")
        state = step(state)  # confer
        state = step(state, {DEMOLISHER: {"target": SNIPER}})
        state = step(state)  # the mafia shoot
        state = step(state)  # nurse
        state = step(state)  # radio
        assert state.sleep is Step.SNIPER
        assert (SNIPER in awake(state)) is blocked_woken


def test_demolisher_on_the_colonel_is_suspended_until_the_colonel_has_left() -> None:
    state = night(day1(), demolisher=COLONEL)
    assert resolution(state, 1)["suspension_began"]
    assert view(state, -1)["ledger"]["suspended"] is True
    state = night(
        state, demolisher=NURSE, general=("shoot", SOLDIER_A, None), nurse=SOLDIER_A
    )
    assert SOLDIER_A not in left(state)  # the pick on the nurse did nothing
    assert resolution(state, 2)["demolition"] == "suspended"
    state = vote_out(state, COLONEL)
    assert view(state, -1)["ledger"]["suspended"] is False
    state = night(
        state, demolisher=NURSE, general=("shoot", SOLDIER_A, None), nurse=SOLDIER_A
    )
    assert not state.in_game[SOLDIER_A]


def test_a_suspended_demolisher_is_not_woken_when_the_house_says_so() -> None:
    state = night(day1(blocked_woken=False), demolisher=COLONEL)
    state = step(moderator(state, "end_day"))
    assert state.sleep is Step.DEMOLISHER and awake(state) == []


def test_demolisher_on_a_plain_soldier_or_the_partisan_has_no_effect() -> None:
    for target in (SOLDIER_A, PARTISAN):
        state = night(day1(), demolisher=target)
        assert resolution(state, 1)["demolition"] == "none"
        assert not view(state, -1)["ledger"]["suspended"]


def test_the_demolisher_picks_only_a_citizen() -> None:
    state = step(moderator(day1(), "end_day"))
    (spec,) = legal_actions(state, DEMOLISHER)
    assert spec["type"] == "choose"
    assert set(spec["targets"]) == {3, 4, 5, 6, 7, 8, 9}
    assert spec["skip"] is True


# --- the mafia's action: shot, slaughter, shield --------------------------------------


def test_an_ordinary_shot_kills_unless_saved() -> None:
    state = night(day1(), general=("shoot", NURSE, None), nurse=GENERAL)
    assert left(state) == [NURSE]
    morning = view(state, None)["mornings"][-1]
    assert morning["left"] == [NURSE] and morning["kicked"] == []


def test_the_partisans_shield_stands_until_both_plain_soldiers_have_left() -> None:
    state = night(day1(), general=("shoot", PARTISAN, None))
    assert state.in_game[PARTISAN] and resolution(state, 1)["shielded"]
    state = vote_out(state, SOLDIER_A)
    state = night(state, general=("shoot", PARTISAN, None))
    assert state.in_game[PARTISAN]  # one soldier is still in
    state = vote_out(state, SOLDIER_B)
    state = night(state, general=("shoot", PARTISAN, None))
    assert not state.in_game[PARTISAN]


def test_slaughter_with_the_right_role_ignores_the_shield_and_the_nurse() -> None:
    state = moderator(day1(), "end_day")
    state = step(step(state))  # confer, demolisher
    state = step(
        state, {GENERAL: {"mode": "slaughter", "target": PARTISAN, "guess": "partisan"}}
    )
    assert state.sleep is Step.NURSE
    assert awake(state) == []  # the nurse is not woken on a slaughter night
    (spec,) = legal_actions(state, NURSE)
    assert spec["type"] == "tap"
    state = step(step(step(state)))
    state = moderator(state, "confirm_night")
    assert left(state) == [PARTISAN]
    assert resolution(state, 1)["slaughter"] == {
        "target": PARTISAN,
        "guess": "partisan",
        "correct": True,
    }


def test_a_wrong_slaughter_guess_does_nothing_and_uses_the_slaughter() -> None:
    state = night(day1(), general=("slaughter", NURSE, "sniper"))
    assert not left(state)
    state = step(step(moderator(state, "end_day")))
    (spec,) = legal_actions(state, GENERAL)
    assert spec["modes"] == ["shoot"]


def test_slaughters_per_game_is_the_hosts_choice() -> None:
    state = night(day1(slaughters=2), general=("slaughter", NURSE, "sniper"))
    state = night(state, general=("slaughter", SNIPER, "sniper"))
    assert left(state) == [SNIPER]
    state = step(step(moderator(state, "end_day")))
    assert legal_actions(state, GENERAL)[0]["modes"] == ["shoot"]
    unlimited = night(day1(slaughters=0), general=("slaughter", NURSE, "sniper"))
    unlimited = night(unlimited, general=("slaughter", NURSE, "sniper"))
    unlimited = step(step(moderator(unlimited, "end_day")))
    assert "slaughter" in legal_actions(unlimited, GENERAL)[0]["modes"]


def test_the_mafia_may_shoot_a_teammate() -> None:
    state = night(day1(), general=("shoot", TRAITOR, None), nurse=NURSE)
    assert left(state) == [TRAITOR]


# --- the nurse ------------------------------------------------------------------------


def test_the_nurse_may_save_herself_and_the_same_player_twice_by_default() -> None:
    state = night(day1(), general=("shoot", NURSE, None), nurse=NURSE)
    state = night(state, general=("shoot", NURSE, None), nurse=NURSE)
    assert state.in_game[NURSE]


def test_nurse_restrictions_are_house_options() -> None:
    state = step(step(step(moderator(day1(nurse_self=False), "end_day"))))
    assert state.sleep is Step.NURSE
    assert NURSE not in legal_actions(state, NURSE)[0]["targets"]
    state = night(day1(nurse_repeat=False), nurse=SOLDIER_A)
    state = step(step(step(moderator(state, "end_day"))))
    assert SOLDIER_A not in legal_actions(state, NURSE)[0]["targets"]


# --- the sniper -----------------------------------------------------------------------


def test_sniper_on_the_general_has_no_effect() -> None:
    state = night(day1(), sniper=GENERAL)
    assert not left(state)
    assert resolution(state, 1)["sniper"] == "no_effect"
    assert view(state, SNIPER)["me"]["bullet"] is False


@pytest.mark.parametrize("target", [DEMOLISHER, TRAITOR])
def test_sniper_on_the_demolisher_or_traitor_removes_them_unless_saved(
    target: int,
) -> None:
    state = night(day1(), sniper=target, nurse=GENERAL)
    assert left(state) == [target]
    saved = night(day1(), sniper=target, nurse=target)
    assert not left(saved) and resolution(saved, 1)["sniper"] == "saved"


def test_sniper_on_a_citizen_leaves_himself_and_the_nurse_cannot_save_him() -> None:
    state = night(day1(), sniper=NURSE, nurse=SNIPER)
    assert left(state) == [SNIPER]
    assert resolution(state, 1)["sniper"] == "missed"
    saveable = night(day1(sniper_saveable=True), sniper=NURSE, nurse=SNIPER)
    assert not left(saveable)


def test_the_sniper_has_one_bullet() -> None:
    state = night(day1(), sniper=GENERAL)
    state = step(step(step(step(step(moderator(state, "end_day"))))))
    assert state.sleep is Step.SNIPER and SNIPER not in awake(state)


# --- the colonel ----------------------------------------------------------------------


def hit_colonel() -> GameState:
    state = night(day1(), general=("shoot", COLONEL, None), nurse=NURSE)
    assert state.in_game[COLONEL] and resolution(state, 1)["colonel_hit"] == COLONEL
    return state


def test_a_hit_colonel_stays_and_holds_a_midday_before_the_vote() -> None:
    state = hit_colonel()
    morning = view(state, None)["mornings"][-1]
    assert morning == {
        "night": 1,
        "left": [],
        "kicked": [],
        "midday": True,
        "recruitment": None,
        "colonel_reading": None,
    }
    assert "start_vote" not in {a["type"] for a in legal_actions(state, -1)}
    state = moderator(state, "midday")
    assert state.phase is Phase.MIDDAY and awake(state) == [COLONEL]
    state = step(state, {COLONEL: {"targets": [TRAITOR, SOLDIER_A]}})
    public = view(state, None)["day"]["midday"]
    assert public["named"] == [TRAITOR, SOLDIER_A] and public["stage"] == "named"
    state = moderator(state, "timer", kind="colonel_speech", subject=TRAITOR)
    assert view(state, None)["timer"]["seconds"] == 30
    state = moderator(state, "timer", kind="colonel_speech", subject=SOLDIER_A)
    state = moderator(state, "midday")
    state = step(state, {COLONEL: {"target": TRAITOR}})
    assert state.phase is Phase.DAY and not state.in_game[TRAITOR]
    spectator = view(state, None)
    assert spectator["seats"][TRAITOR]["left"]["how"] == ["colonel"]
    assert "mafia" not in str(spectator["mornings"])  # not read out that day
    state = night(state)
    morning = view(state, None)["mornings"][-1]
    assert morning["colonel_reading"] == {"seat": TRAITOR, "side": "mafia"}
    assert COLONEL in morning["left"]  # he leaves with the next night's dead
    assert state.inquiries_left == 2  # the owed reading is not one of the two


def test_a_saved_colonel_has_no_midday() -> None:
    state = night(day1(), general=("shoot", COLONEL, None), nurse=COLONEL)
    assert state.midday is None
    assert view(state, None)["mornings"][-1]["midday"] is False


def test_a_correctly_slaughtered_colonel_leaves_at_once() -> None:
    state = night(day1(), general=("slaughter", COLONEL, "colonel"))
    assert left(state) == [COLONEL] and state.midday is None


def test_the_colonels_shot_ends_the_game_when_it_takes_the_last_mafia() -> None:
    state = vote_out(day1(), GENERAL)
    state = night(
        state, general=("shoot", SOLDIER_A, None), sniper=DEMOLISHER, nurse=NURSE
    )
    state = vote_out(state, SOLDIER_B)
    state = night(state, general=("shoot", COLONEL, None))
    assert state.in_game[COLONEL] and left(state) == [0, 1, 8, 9]
    state = moderator(state, "midday")
    state = step(state, {COLONEL: {"targets": [TRAITOR, NURSE]}})
    state = moderator(state, "midday")
    state = step(state, {COLONEL: {"target": TRAITOR}})
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == ("citizens", "no_mafia_left")


# --- recruitment ----------------------------------------------------------------------


def test_recruitment_needs_the_demolisher_or_the_traitor_gone() -> None:
    state = step(step(moderator(day1(), "end_day")))
    assert legal_actions(state, GENERAL)[0]["modes"] == ["shoot", "slaughter"]
    state = vote_out(day1(), TRAITOR)
    state = step(step(moderator(state, "end_day")))
    assert "recruit" in legal_actions(state, GENERAL)[0]["modes"]


def recruited() -> GameState:
    """The traitor voted out on day 1; on night 1 the General recruits soldier A."""
    state = vote_out(day1(), TRAITOR)
    return night(state, general=("recruit", SOLDIER_A, None), confirm=False)


def test_a_plain_soldier_joins_and_is_told_at_once() -> None:
    state = recruited()
    me = view(state, SOLDIER_A)["me"]
    assert me["side"] == "mafia" and me["recruited"] == {"night": 1}
    assert me["known"] == []  # he learns the mafia when he first wakes with them
    general = view(state, GENERAL)["me"]
    assert {k["seat"] for k in general["known"]} == {DEMOLISHER, TRAITOR}
    state = moderator(state, "confirm_night")
    assert view(state, None)["mornings"][-1]["recruitment"] is None  # not announced
    state = moderator(state, "end_day")  # night 2: he wakes with them at confer
    assert state.night == 2 and state.sleep is Step.CONFER
    general = view(state, GENERAL)["me"]
    assert SOLDIER_A in {k["seat"] for k in general["known"]}
    known = {k["seat"] for k in view(state, SOLDIER_A)["me"]["known"]}
    assert known == {GENERAL, DEMOLISHER}  # the traitor had left before


def test_the_recruit_wakes_with_the_mafia_from_the_next_night() -> None:
    state = moderator(recruited(), "confirm_night")
    state = moderator(state, "end_day")
    assert state.sleep is Step.CONFER and SOLDIER_A in awake(state)
    assert "mafia" in view(state, SOLDIER_A)["me"]["channels"]


def test_the_recruit_reads_as_a_citizen_on_the_recruitment_night_then_as_mafia() -> (
    None
):
    state = vote_out(day1(), TRAITOR)
    state = night(state, general=("recruit", SOLDIER_A, None), radio=SOLDIER_A)
    state = night(state, radio=SOLDIER_A)
    assert [r[2] for r in readings(state)] == ["negative", "positive"]
    same = vote_out(day1(recruit_counts_from="same_night"), TRAITOR)
    same = night(same, general=("recruit", SOLDIER_A, None), radio=SOLDIER_A)
    assert readings(same)[-1][2] == "positive"


def test_the_sniper_sees_a_recruit_as_mafia_only_from_the_next_night() -> None:
    state = vote_out(day1(), TRAITOR)
    same_night = night(state, general=("recruit", SOLDIER_A, None), sniper=SOLDIER_A)
    assert left(same_night) == [TRAITOR, SNIPER]
    state = night(state, general=("recruit", SOLDIER_A, None))
    state = night(state, sniper=SOLDIER_A, nurse=GENERAL)
    assert not state.in_game[SOLDIER_A] and state.in_game[SNIPER]


def test_only_a_plain_soldier_joins_and_one_recruitment_is_spent_either_way() -> None:
    state = vote_out(day1(), TRAITOR)
    state = night(state, general=("recruit", NURSE, None))
    assert state.recruit is None and state.sides[NURSE] is Side.CITIZENS
    state = step(step(moderator(state, "end_day")))
    assert "recruit" not in legal_actions(state, GENERAL)[0]["modes"]
    kept = vote_out(day1(failed_recruit_spends=False), TRAITOR)
    kept = night(kept, general=("recruit", NURSE, None))
    kept = step(step(moderator(kept, "end_day")))
    assert "recruit" in legal_actions(kept, GENERAL)[0]["modes"]


def test_recruitment_happens_once() -> None:
    state = moderator(recruited(), "confirm_night")
    state = step(step(moderator(state, "end_day")))
    assert "recruit" not in legal_actions(state, GENERAL)[0]["modes"]


def test_a_recruited_soldier_keeps_the_shield_up_unless_the_house_says_not() -> None:
    for counts, partisan_stays in ((True, True), (False, False)):
        state = vote_out(day1(shield_counts_recruit=counts), TRAITOR)
        state = night(state, general=("recruit", SOLDIER_A, None))
        state = vote_out(state, SOLDIER_B)
        state = night(state, general=("shoot", PARTISAN, None))
        assert state.in_game[PARTISAN] is partisan_stays


def test_the_recruit_counts_as_mafia_for_the_end_at_once() -> None:
    state = vote_out(day1(), TRAITOR)
    for seat in (RADIO, COLONEL, NURSE):
        state = moderator(state, "kick", target=seat)
    # Without the recruit: General and demolisher against four citizens.
    state = night(state, general=("recruit", SOLDIER_A, None))
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == ("mafia", "mafia_parity")


def test_announcing_a_recruitment_is_a_house_option() -> None:
    state = vote_out(day1(announce_recruitment=True), TRAITOR)
    state = night(state, general=("recruit", NURSE, None))
    assert view(state, None)["mornings"][-1]["recruitment"] is True


# --- the General's succession ---------------------------------------------------------


def test_when_the_general_has_left_the_next_mafia_member_shoots() -> None:
    state = vote_out(day1(), GENERAL)
    state = step(moderator(state, "end_day"))
    assert awake(state) == [DEMOLISHER]  # he still disrupts
    state = step(state)
    assert awake(state) == [DEMOLISHER]
    (spec,) = legal_actions(state, DEMOLISHER)
    assert spec["modes"] == ["shoot"]
    state = step(state, {DEMOLISHER: {"mode": "shoot", "target": NURSE, "guess": None}})
    state = moderator(step(step(step(state))), "confirm_night")
    assert left(state) == [GENERAL, NURSE]


def test_succession_order_and_the_house_options() -> None:
    state = vote_out(day1(), GENERAL)
    state = night(state, sniper=DEMOLISHER, nurse=NURSE)
    assert not state.in_game[DEMOLISHER]
    state = step(step(moderator(state, "end_day")))
    assert awake(state) == [TRAITOR]
    none = vote_out(day1(successor_shoots=False), GENERAL)
    none = step(step(moderator(none, "end_day")))
    assert none.sleep is Step.GENERAL and awake(none) == []
    own = vote_out(day1(successor_keeps_own_action=False), GENERAL)
    own = step(moderator(own, "end_day"))
    assert own.sleep is Step.DEMOLISHER and awake(own) == []


# --- votes ----------------------------------------------------------------------------


def test_vote_thresholds() -> None:
    state = day1()
    assert [threshold(state, alive) for alive in range(10, 0, -1)] == [
        4, 4, 4, 3, 3, 2, 2, 2, 2, 2,
    ]  # fmt: skip
    three = day1(threshold_below_four=3)
    assert [threshold(three, alive) for alive in (3, 2, 1)] == [3, 3, 3]


def test_thresholds_are_counted_over_the_players_in_the_game() -> None:
    state = day1()
    for seat in (NURSE, SNIPER, COLONEL):
        state = moderator(state, "kick", target=seat)
    state = moderator(state, "start_vote", vote="defence")
    assert state.vote is not None and state.vote.threshold == 4  # kicked still count
    state = moderator(state, "close_vote")
    state = night(state)
    assert sum(state.in_game) == 7
    state = moderator(state, "start_vote", vote="defence")
    assert state.vote is not None and state.vote.threshold == 3
    state = moderator(state, "close_vote")
    for seat in (GENERAL, DEMOLISHER):
        state = moderator(state, "kick", target=seat)
    state = night(state)
    assert sum(state.in_game) == 5
    state = moderator(state, "start_vote", vote="defence")
    assert state.vote is not None and state.vote.threshold == 2
    state = moderator(state, "close_vote")
    for seat in (SOLDIER_A, SOLDIER_B):
        state = moderator(state, "kick", target=seat)
    state = night(state)  # the kicked soldiers still hold the shield up tonight
    assert state.in_game[PARTISAN] and sum(state.in_game) == 3
    state = moderator(state, "start_vote", vote="defence")
    assert state.vote is not None and state.vote.threshold == 2


def test_defence_then_exit_among_the_defended() -> None:
    state = day1()
    state = vote(
        state,
        "defence",
        {s: [NURSE, SOLDIER_A] for s in range(4)} | {4: [SNIPER], 5: [SNIPER]},
    )
    assert state.day is not None and state.day.defended == (NURSE, SOLDIER_A)
    assert "end_day" not in {a["type"] for a in legal_actions(state, -1)}
    state = moderator(state, "timer", kind="defence", subject=NURSE)
    assert view(state, None)["timer"]["seconds"] == 60
    state = vote(state, "exit", {s: [NURSE] for s in range(5)} | {5: [SOLDIER_A]})
    assert left(state) == [NURSE]
    last = view(state, None)["votes"][-1]
    assert last["counts"] == {str(NURSE): 5, str(SOLDIER_A): 1}
    assert last["chosen"] == [NURSE]


def test_several_over_the_exit_threshold_and_ties() -> None:
    ballots = {s: [NURSE, SOLDIER_A] for s in range(4)}
    state = vote(vote(day1(), "defence", ballots), "exit", ballots)
    assert not left(state)  # a tie for most: nobody leaves
    state = vote(day1(exit_tie="all"), "defence", ballots)
    state = vote(state, "exit", ballots)
    assert left(state) == [NURSE, SOLDIER_A]
    most = {s: [NURSE, SOLDIER_A] for s in range(4)} | {4: [NURSE]}
    state = vote(vote(day1(), "defence", most), "exit", most)
    assert left(state) == [NURSE]
    state = vote(day1(exit_several="all"), "defence", most)
    state = vote(state, "exit", most)
    assert left(state) == [NURSE, SOLDIER_A]


def test_a_defence_vote_that_sends_nobody_leaves_no_exit_vote() -> None:
    state = vote(day1(), "defence", {s: [NURSE] for s in range(3)})
    assert state.day is not None and state.day.defended == ()
    types = {a["type"]: a for a in legal_actions(state, -1)}
    assert "end_day" in types
    assert not any(a.get("vote") == "exit" for a in legal_actions(state, -1))


def test_votes_are_public_as_cast() -> None:
    state = moderator(day1(), "start_vote", vote="defence")
    state = act(state, GENERAL, {"type": "vote", "candidates": [NURSE, GENERAL]})
    for seat in (None, NURSE, SOLDIER_A):
        assert view(state, seat)["vote"]["ballots"] == {str(GENERAL): [GENERAL, NURSE]}


def test_the_first_day_may_have_no_vote() -> None:
    state = day1(first_day_votes=False)
    assert not any(a["type"] == "start_vote" for a in legal_actions(state, -1))
    state = night(state)
    assert any(a["type"] == "start_vote" for a in legal_actions(state, -1))


# --- inquiries ------------------------------------------------------------------------


def test_an_inquiry_reads_the_side_of_everyone_who_has_left() -> None:
    state = vote_out(day1(), TRAITOR)
    state = night(state, general=("shoot", NURSE, None), nurse=GENERAL)
    state = moderator(state, "inquiry")
    reading = view(state, SOLDIER_A)["inquiries"][-1]
    assert reading["reading"] == [
        {"seat": TRAITOR, "side": "mafia"},
        {"seat": NURSE, "side": "citizens"},
    ]
    assert state.inquiries_left == 1
    counts = vote_out(day1(inquiry_reading="counts"), TRAITOR)
    counts = moderator(night(counts), "inquiry")
    assert view(counts, None)["inquiries"][-1]["counts"] == [
        {"side": "citizens", "count": 0},
        {"side": "mafia", "count": 1},
    ]


def test_a_recruit_who_left_reads_as_mafia_unless_the_house_says_citizen() -> None:
    for reads, side in (("mafia", "mafia"), ("citizens", "citizens")):
        state = vote_out(day1(left_recruit_reads=reads), TRAITOR)
        state = night(state, general=("recruit", SOLDIER_A, None))
        state = vote_out(state, SOLDIER_A)
        state = moderator(night(state), "inquiry")
        entries = view(state, None)["inquiries"][-1]["reading"]
        assert {"seat": SOLDIER_A, "side": side} in entries


# --- kicks and the end ----------------------------------------------------------------


def test_a_kicked_player_stays_in_every_respect_until_the_night_is_resolved() -> None:
    state = moderator(day1(), "kick", target=NURSE)
    assert state.in_game[NURSE] and view(state, None)["seats"][NURSE]["kicked"]
    state = moderator(state, "end_day")
    state = step(step(step(state)))  # confer, demolisher, the mafia
    assert state.sleep is Step.NURSE and awake(state) == [NURSE]
    state = step(step(step(state, {NURSE: {"target": NURSE}})))
    state = moderator(state, "confirm_night")
    morning = view(state, None)["mornings"][-1]
    assert morning["kicked"] == [NURSE] and morning["left"] == []
    assert view(state, None)["seats"][NURSE]["left"]["how"] == ["kick"]


def test_the_end_is_not_checked_at_a_kick() -> None:
    state = day1()
    for seat in (PARTISAN, RADIO, COLONEL, NURSE):
        state = moderator(state, "kick", target=seat)
    assert state.outcome is None and state.phase is Phase.DAY
    state = night(state, general=("shoot", SOLDIER_A, None), nurse=SOLDIER_A)
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == ("mafia", "mafia_parity")


def test_citizens_win_when_no_mafia_is_left_after_an_exit_vote() -> None:
    state = vote_out(day1(), GENERAL)
    state = night(state, sniper=DEMOLISHER, nurse=NURSE)
    assert state.outcome is None
    state = vote_out(state, TRAITOR)
    assert state.outcome is not None and state.outcome.winner == "citizens"
    over = view(state, SOLDIER_A)
    assert over["phase"] == "over" and over["roles"][GENERAL]["role"] == "general"
    assert over["ledger"] is not None


def test_mafia_win_at_parity_after_a_nights_resolution() -> None:
    state = day1()
    for target in (NURSE, SNIPER):
        state = night(state, general=("shoot", target, None), nurse=GENERAL)
    state = vote_out(state, COLONEL)
    assert state.outcome is None
    state = night(state, general=("shoot", RADIO, None), nurse=GENERAL)
    # left: nurse, sniper, colonel, radio operator: 3 mafia against 3 citizens.
    assert state.outcome is not None and state.outcome.reason == "mafia_parity"
