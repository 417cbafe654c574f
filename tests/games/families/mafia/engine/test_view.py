"""The view: its keys for every viewer, what each role is told, the night screens,
the moderator's ledger, channels, the end and replays."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games.engine import MODERATOR, apply, legal_actions, random_action, view
from games.families.mafia.engine import GameState, Phase, Step
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
    new_game,
    night,
    step,
    table,
    tap_for,
    vote,
    vote_out,
)

KEYS = {
    "ruleset", "players", "options", "step", "phase", "night", "day", "seats",
    "inquiries_left", "mornings", "inquiries", "middays", "vote", "votes", "timer",
    "discipline", "me", "legal", "waiting_for", "outcome", "roles", "ledger",
}  # fmt: skip
ME_KEYS = {
    "seat", "side", "role", "channels", "in_game", "known", "partisan_sees",
    "radio_code", "general_guess", "recruited", "picks", "mafia_nights", "bullet",
    "tapped", "midday",
}  # fmt: skip


def day1(**options: Any) -> GameState:
    return intro(table(**options), guess=1, code=2)


def into_night(state: GameState, wanted: Step) -> GameState:
    state = moderator(state, "end_day")
    while state.sleep is not wanted:
        state = step(state)
    return state


def test_every_viewer_gets_every_key() -> None:
    state = table()
    for seat in (None, MODERATOR, *range(10)):
        shown = view(state, seat)
        assert set(shown) == KEYS
        assert shown["ruleset"] == "mafia_partisan" and shown["players"] == 10
    assert set(view(state, 3)["me"]) == ME_KEYS
    assert view(state, None)["me"] is None and view(state, None)["legal"] == []
    assert view(state, MODERATOR)["me"]["seat"] == MODERATOR
    assert view(state, 3)["ledger"] is None and view(state, None)["ledger"] is None


# --- the night screens ----------------------------------------------------------------


def test_every_living_player_has_one_screen_of_the_same_shape_at_every_step() -> None:
    state = moderator(day1(), "end_day")
    while state.phase is Phase.NIGHT:
        specs = [legal_actions(state, seat) for seat in range(10)]
        assert all(len(spec) == 1 for spec in specs)
        shapes = {frozenset(spec[0]) - {"type"} for spec in specs}
        assert len(shapes) == 1, (state.sleep, shapes)
        types = {spec[0]["type"] for spec in specs}
        assert types <= {"choose", "tap"}
        state = step(state)


def test_a_sleeper_sees_the_same_whatever_the_awake_role_chose() -> None:
    base = into_night(day1(), Step.GENERAL)
    shoot = act(
        base, GENERAL, {"type": "choose", "mode": "shoot", "target": 8, "guess": None}
    )
    slaughter = act(
        base,
        GENERAL,
        {"type": "choose", "mode": "slaughter", "target": 6, "guess": "nurse"},
    )
    for seat in (PARTISAN, RADIO, COLONEL, NURSE, SNIPER, SOLDIER_A, SOLDIER_B, None):
        assert view(shoot, seat) == view(slaughter, seat), seat
    assert view(shoot, TRAITOR) != view(slaughter, TRAITOR)  # awake with the mafia
    assert view(shoot, MODERATOR) != view(slaughter, MODERATOR)


def test_a_sleeper_sees_the_same_whether_or_not_anything_happened() -> None:
    busy = into_night(day1(), Step.DEMOLISHER)
    busy = step(busy, {DEMOLISHER: {"target": RADIO}})
    busy = step(busy)
    busy = step(busy, {NURSE: {"target": SOLDIER_A}})
    quiet_ = into_night(day1(), Step.DEMOLISHER)
    quiet_ = step(quiet_, {DEMOLISHER: {"target": None}})
    quiet_ = step(step(quiet_), {NURSE: {"target": SOLDIER_A}})
    assert quiet_.sleep is busy.sleep is Step.RADIO
    for seat in (PARTISAN, COLONEL, SNIPER, SOLDIER_A, SOLDIER_B, RADIO, None):
        assert view(busy, seat) == view(quiet_, seat), seat


def test_at_night_a_player_sees_only_himself_waiting() -> None:
    state = into_night(day1(), Step.NURSE)
    state = act(state, SOLDIER_A, tap_for(state, SOLDIER_A))
    assert view(state, SOLDIER_A)["waiting_for"] == []
    assert view(state, SOLDIER_B)["waiting_for"] == [SOLDIER_B]
    assert view(state, None)["waiting_for"] == []
    assert view(state, SOLDIER_B)["me"]["tapped"] is False
    assert view(state, SOLDIER_A)["me"]["tapped"] is True
    everyone = set(range(10)) - {SOLDIER_A}
    assert set(view(state, MODERATOR)["waiting_for"]) == everyone
    assert view(state, MODERATOR)["ledger"]["awake"] == [NURSE]
    assert view(state, MODERATOR)["ledger"]["tapped"] == [SOLDIER_A]


def test_the_night_block_names_the_step_and_its_form() -> None:
    state = into_night(day1(), Step.GENERAL)
    assert view(state, None)["night"] == {
        "number": 1, "intro": False, "step": "general", "form": "general",
    }  # fmt: skip
    (spec,) = legal_actions(state, SOLDIER_A)
    assert spec == {
        "type": "tap",
        "step": "general",
        "form": "general",
        "modes": ["shoot", "slaughter", "recruit"],
        "grid": list(range(10)),
        "targets": list(range(10)),
        "guesses": list(spec["guesses"]),
    }
    assert len(spec["guesses"]) == 9


# --- what each seat is told -----------------------------------------------------------


def test_the_mafia_see_each_others_choices_at_night() -> None:
    state = into_night(day1(), Step.DEMOLISHER)
    state = step(state, {DEMOLISHER: {"target": NURSE}})
    for seat in (GENERAL, TRAITOR):
        nights = view(state, seat)["me"]["mafia_nights"]
        assert nights[-1]["picks"][0]["target"] == NURSE
        assert "effective" not in nights[-1]["picks"][0]
    assert view(state, NURSE)["me"]["mafia_nights"] == []


def test_a_mafia_member_who_has_left_no_longer_wakes_with_the_team() -> None:
    state = vote_out(day1(), TRAITOR)
    state = moderator(state, "end_day")
    state = step(state)
    state, events = apply(state, DEMOLISHER, {"type": "choose", "target": NURSE})
    chose = next(event for event in events if event.kind == "chose")
    assert chose.visible(GENERAL) and not chose.visible(TRAITOR)
    assert view(state, TRAITOR)["me"]["mafia_nights"] == []
    assert [n["night"] for n in view(state, GENERAL)["me"]["mafia_nights"]] == [1]


def test_a_recruit_and_the_team_know_only_whom_they_woke_with() -> None:
    state = vote_out(day1(), TRAITOR)
    state = night(state, general=("recruit", SOLDIER_A, None))
    state = moderator(state, "end_day")  # night 2: the recruit meets the team
    recruit = {k["seat"] for k in view(state, SOLDIER_A)["me"]["known"]}
    assert recruit == {GENERAL, DEMOLISHER}  # not the traitor, who had left
    traitor = {k["seat"] for k in view(state, TRAITOR)["me"]["known"]}
    assert traitor == {GENERAL, DEMOLISHER}  # he never woke with the recruit
    general = {k["seat"] for k in view(state, GENERAL)["me"]["known"]}
    assert general == {DEMOLISHER, TRAITOR, SOLDIER_A}


def test_the_chooser_is_never_told_his_choice_did_nothing() -> None:
    state = night(day1(), demolisher=NURSE, nurse=SOLDIER_A, confirm=False)
    (pick,) = [p for p in view(state, NURSE)["me"]["picks"] if p["step"] == "nurse"]
    assert "effective" not in pick
    ledger_picks = view(state, MODERATOR)["ledger"]["night"]["picks"]
    nurse = next(p for p in ledger_picks if p["step"] == "nurse")
    assert nurse["effective"] is False


def test_the_dawn_shows_the_resolution_to_the_moderator_only() -> None:
    state = night(
        day1(), general=("shoot", NURSE, None), nurse=SOLDIER_A, confirm=False
    )
    assert state.phase is Phase.DAWN
    ledger = view(state, MODERATOR)["ledger"]
    assert ledger["night"]["resolution"]["exits"] == [
        {"seat": NURSE, "causes": ["shot"]}
    ]
    assert view(state, MODERATOR)["legal"] == [{"type": "confirm_night"}]
    for seat in (None, NURSE, GENERAL):
        shown = view(state, seat)
        assert (
            shown["ledger"] is None
            and shown["mornings"] == view(day1(), seat)["mornings"]
        )
        assert all(s["in_game"] for s in shown["seats"])


def test_the_moderators_ledger() -> None:
    state = night(day1(), demolisher=COLONEL, sniper=GENERAL)
    state = moderator(state, "warn", target=SOLDIER_B)
    state = moderator(state, "kick", target=SOLDIER_A)
    ledger = view(state, MODERATOR)["ledger"]
    assert ledger["roles"][GENERAL] == {
        "seat": GENERAL, "role": "general", "side": "mafia", "in_game": True,
        "recruit": False,
    }  # fmt: skip
    assert ledger["soldiers_in_game"] == 2 and ledger["shield_up"] is True
    assert ledger["recruitment_available"] is False and ledger["bullet"] is False
    assert ledger["suspended"] is True and ledger["suspended_since"] == 1
    assert ledger["radio_code"] == 2 and ledger["general_guess"] == 1
    assert ledger["code_matches"] is False
    assert ledger["inquiries_left"] == 2 and ledger["kicks"] == [SOLDIER_A]
    assert ledger["warnings"] == {str(SOLDIER_B): 1}
    assert [record["night"] for record in ledger["nights"]] == [0, 1]
    public = view(state, SOLDIER_B)
    assert public["seats"][SOLDIER_B]["warnings"] == 1
    assert public["seats"][SOLDIER_A]["kicked"] is True
    assert public["discipline"] == [
        {"day": 2, "seat": SOLDIER_B, "kind": "warning"},
        {"day": 2, "seat": SOLDIER_A, "kind": "kick"},
    ]


def test_the_colonel_sees_his_midday_choice() -> None:
    state = night(day1(), general=("shoot", COLONEL, None), nurse=NURSE)
    state = moderator(state, "midday")
    state = act(state, COLONEL, {"type": "choose", "targets": [TRAITOR, SOLDIER_A]})
    assert view(state, COLONEL)["me"]["midday"] == {
        "named": [TRAITOR, SOLDIER_A],
        "target": None,
    }
    assert view(state, SOLDIER_B)["me"]["midday"] is None
    assert view(state, SOLDIER_B)["day"]["midday"]["named"] == []


def test_votes_show_counts_against_the_threshold() -> None:
    state = moderator(day1(), "start_vote", vote="defence")
    state = act(state, 0, {"type": "vote", "candidates": [NURSE]})
    shown = view(state, SOLDIER_A)["vote"]
    assert shown["threshold"] == 4 and shown["counts"][str(NURSE)] == 1
    assert set(view(state, SOLDIER_A)["waiting_for"]) == set(range(1, 10)) | {MODERATOR}
    (spec,) = legal_actions(state, SOLDIER_A)
    assert spec == {
        "type": "vote", "kind": "defence", "candidates": list(range(10)), "most": 10,
    }  # fmt: skip


def test_timers_are_shown_with_their_length_subject_and_step() -> None:
    state = vote(day1(defence_seconds=45), "defence", {s: [NURSE] for s in range(4)})
    state = moderator(state, "timer", kind="defence", subject=NURSE)
    assert view(state, None)["timer"] == {
        "kind": "defence", "subject": NURSE, "seconds": 45, "step": state.step - 1,
    }  # fmt: skip
    confer = moderator(day1(), "end_day")
    assert MODERATOR in view(confer, MODERATOR)["waiting_for"]
    confer = moderator(confer, "timer", kind="confer", subject=None)
    assert view(confer, SOLDIER_A)["timer"]["seconds"] == 60


# --- channels -------------------------------------------------------------------------


def test_channels_by_day_and_night() -> None:
    state = day1()
    assert view(state, GENERAL)["me"]["channels"] == ["table"]
    assert view(state, NURSE)["me"]["channels"] == ["table"]
    dark = moderator(state, "end_day")
    assert view(dark, GENERAL)["me"]["channels"] == ["mafia"]
    assert view(dark, NURSE)["me"]["channels"] == []
    assert view(dark, MODERATOR)["me"]["channels"] == ["mafia"]
    quiet = day1(chat=False)
    assert view(quiet, NURSE)["me"]["channels"] == []
    assert view(table(), TRAITOR)["me"]["channels"] == ["mafia"]  # introduction night


def test_a_recruit_joins_the_mafia_channel_when_he_first_wakes_with_them() -> None:
    state = vote_out(day1(), TRAITOR)
    state = night(state, general=("recruit", SOLDIER_A, None), confirm=False)
    assert view(state, SOLDIER_A)["me"]["channels"] == []
    state = moderator(moderator(state, "confirm_night"), "end_day")
    assert view(state, SOLDIER_A)["me"]["channels"] == ["mafia"]


def test_no_channel_at_a_midday_sleep_or_after_leaving() -> None:
    state = night(day1(), general=("shoot", COLONEL, None), nurse=NURSE)
    state = moderator(state, "midday")
    assert view(state, GENERAL)["me"]["channels"] == []
    gone = vote_out(day1(), SOLDIER_A)
    assert view(gone, SOLDIER_A)["me"]["channels"] == []


# --- the end and replays --------------------------------------------------------------


def finished(seed: int = 3) -> tuple[list[GameState], GameState]:
    state = new_game(seed)
    rng = Random(seed)
    states = [state]
    while state.outcome is None:
        seat, action = random_action(state, rng)
        state, _ = apply(state, seat, action)
        states.append(state)
    return states, state


def test_after_the_game_everyone_sees_everything() -> None:
    _, final = finished()
    for seat in (None, MODERATOR, *range(10)):
        shown = view(final, seat)
        assert shown["phase"] == "over" and shown["outcome"] is not None
        assert len(shown["roles"]) == 10 and shown["ledger"] is not None
        assert shown["legal"] == [] and shown["waiting_for"] == []


@pytest.mark.parametrize("own", [True, False])
def test_replay_perspectives(own: bool) -> None:
    states, final = finished(5)
    for state in states[:: max(1, len(states) // 12)]:
        seen = view(state, None, after=final, own=own)
        assert seen["roles"] == view(final, None)["roles"]
        assert seen["ledger"] == view(state, MODERATOR)["ledger"]
        for seat in (0, 4, 9):
            assert view(state, seat, after=final, own=own) == view(state, seat)
