"""The leak oracle itself: it must catch planted leaks of each kind in dicts, JSON and
HTML, and pass legitimate payloads (one's own card and results, the mafia's team
shown to the mafia, sides read out to the table, the moderator's ledger for the
moderator, the post-game reveal)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.engine import MODERATOR, apply, view
from games.engine.oracle import find_leaks, secrets
from games.families.mafia.engine import GameState, Leak, Phase, Secret, Step
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
    intro,
    moderator,
    night,
    step,
    table,
    vote_out,
)


def _table() -> GameState:
    """Guess 1, code 2.  Night 1: the demolisher disrupts the nurse, the mafia shoot
    soldier A, the nurse picks soldier B, the radio operator asks about the General
    (positive).  Night 2 is under way: the demolisher has picked the radio operator,
    the General's step is next."""
    state = intro(table(), guess=1, code=2)
    state = night(
        state,
        demolisher=NURSE,
        general=("shoot", SOLDIER_A, None),
        nurse=SOLDIER_B,
        radio=GENERAL,
    )
    state = step(moderator(state, "end_day"))  # confer
    state = step(state, {DEMOLISHER: {"target": RADIO}})
    assert state.sleep is Step.GENERAL
    return state


STATE = _table()


def kinds(leaks: list[Leak]) -> set[tuple[str, int]]:
    return {(leak.kind, leak.seat) for leak in leaks}


def as_dict_and_json(payload: Any) -> list[Any]:
    return [payload, json.dumps(payload)]


# --- secrets --------------------------------------------------------------------------


def test_secrets_of_a_plain_soldier() -> None:
    found = secrets(STATE, SOLDIER_B)
    assert all(isinstance(secret, Secret) for secret in found)
    living = {s for s in range(10) if s not in (SOLDIER_B,)}
    assert {s.seat for s in found if s.kind == "side"} == living
    assert {s.seat for s in found if s.kind == "role"} == living
    picks = {(s.value, s.seat, s.note) for s in found if s.kind == "pick"}
    assert ("nurse", SOLDIER_B, "night 1") in picks  # he was saved: he is not told
    assert ("demolisher", RADIO, "night 2") in picks
    assert ("reading", GENERAL, "positive") in {
        (s.kind, s.seat, s.value) for s in found
    }
    assert ("code", RADIO, 2) in {(s.kind, s.seat, s.value) for s in found}
    assert ("guess", GENERAL, 1) in {(s.kind, s.seat, s.value) for s in found}


def test_secrets_of_the_mafia_and_the_radio_operator() -> None:
    mafia = secrets(STATE, TRAITOR)
    assert not [s for s in mafia if s.kind == "side"]  # they know every side
    assert {s.seat for s in mafia if s.kind == "role"} == set(range(3, 10))
    assert not [
        s for s in mafia if s.kind == "pick" and s.value in ("demolisher", "general")
    ]
    assert [s for s in mafia if s.kind == "pick" and s.value == "nurse"]
    radio = secrets(STATE, RADIO)
    assert not [s for s in radio if s.kind in ("reading", "code")]
    assert [s for s in radio if s.kind == "guess"]


def test_no_secrets_for_the_moderator_or_after_the_game() -> None:
    assert secrets(STATE, MODERATOR) == []
    assert secrets(STATE, None, after=STATE) == []
    over = vote_out(intro(table()), GENERAL)
    over = night(over, sniper=DEMOLISHER, nurse=NURSE)
    over = vote_out(over, TRAITOR)
    assert over.phase is Phase.OVER
    for seat in [None, MODERATOR, *range(10)]:
        assert secrets(over, seat) == []
        assert find_leaks(over, seat, view(over, seat)) == []


def test_the_colonels_midday_choice_is_secret_until_announced() -> None:
    state = night(intro(table()), general=("shoot", COLONEL, None), nurse=NURSE)
    state = moderator(state, "midday")
    state, _ = apply(state, COLONEL, {"type": "choose", "targets": [TRAITOR, NURSE]})
    found = {(s.kind, s.seat, s.value) for s in secrets(state, SOLDIER_A)}
    assert ("pick", TRAITOR, "colonel_names") in found
    assert not [
        s for s in secrets(state, COLONEL) if s.kind == "pick" and s.note == "day 2"
    ]


# --- clean payloads pass --------------------------------------------------------------


def test_every_view_is_clean_for_its_own_seat() -> None:
    for seat in [None, MODERATOR, *range(10)]:
        for payload in as_dict_and_json(view(STATE, seat)):
            assert find_leaks(STATE, seat, payload) == [], seat


def test_legitimate_payloads_are_not_leaks() -> None:
    team = [
        {"seat": s, "side": "mafia", "role": STATE.table.roles[s].value}
        for s in (0, 1, 2)
    ]
    assert find_leaks(STATE, TRAITOR, {"known": team}) == []
    assert find_leaks(STATE, TRAITOR, {"demolisher": DEMOLISHER}) == []
    mafia_pick = {"night": 2, "step": "demolisher", "seat": DEMOLISHER, "target": RADIO}
    assert find_leaks(STATE, GENERAL, mafia_pick) == []
    own = {
        "night": 1,
        "step": "radio",
        "seat": RADIO,
        "target": GENERAL,
        "reading": "positive",
    }
    assert find_leaks(STATE, RADIO, own) == []
    assert find_leaks(STATE, RADIO, {"radio_code": 2}) == []
    assert find_leaks(STATE, GENERAL, {"general_guess": 1}) == []
    assert find_leaks(STATE, MODERATOR, view(STATE, MODERATOR)["ledger"]) == []
    said = {"seat": NURSE, "claim": "nurse"}  # what a player says is not a fact
    assert find_leaks(STATE, SOLDIER_B, said) == []


def test_a_side_read_out_to_the_table_is_public() -> None:
    state = moderator(vote_out(intro(table()), TRAITOR), "end_day")
    state = night(state)
    state = moderator(state, "inquiry")
    assert find_leaks(state, NURSE, {"seat": TRAITOR, "side": "mafia"}) == []
    leaks = find_leaks(state, NURSE, {"seat": TRAITOR, "role": "traitor_soldier"})
    assert kinds(leaks) == {("role", TRAITOR)}


def test_a_false_statement_gives_nothing_away() -> None:
    assert find_leaks(STATE, SOLDIER_B, {"seat": NURSE, "role": "sniper"}) == []
    assert find_leaks(STATE, SOLDIER_B, {"seat": NURSE, "side": "mafia"}) == []
    assert find_leaks(STATE, SOLDIER_B, {"radio_code": 5}) == []
    wrong = {"night": 1, "step": "nurse", "target": SOLDIER_A}
    assert find_leaks(STATE, SOLDIER_B, wrong) == []


# --- planted leaks are caught: dicts and JSON -----------------------------------------


def _planted(seat: int | None, plant: Any) -> dict[str, Any]:
    """The seat's own clean view with one extra entry planted in it."""
    seen = copy.deepcopy(view(STATE, seat))
    seen["votes"].append({"extra": plant})
    return seen


def _caught(seat: int | None, plant: Any, kind: str, about: int) -> None:
    for payload in as_dict_and_json(_planted(seat, plant)):
        leaks = find_leaks(STATE, seat, payload)
        assert (kind, about) in kinds(leaks), (plant, leaks)
        assert all(leak.where for leak in leaks)


@pytest.mark.parametrize("viewer", [None, SOLDIER_B, PARTISAN])
def test_planted_sides_and_roles(viewer: int | None) -> None:
    _caught(viewer, {"seat": GENERAL, "side": "mafia"}, "side", GENERAL)
    _caught(viewer, {"seat": str(NURSE), "side": "CITIZENS"}, "side", NURSE)
    _caught(viewer, {"seat": NURSE, "role": "nurse"}, "role", NURSE)
    _caught(viewer, {"nurse": NURSE}, "role", NURSE)
    _caught(viewer, {"sniper": {"seat": SNIPER}}, "role", SNIPER)
    _caught(viewer, {"mafia": [GENERAL, TRAITOR]}, "side", TRAITOR)
    _caught(viewer, {"roles": {str(COLONEL): "colonel"}}, "role", COLONEL)


def test_the_partisan_does_not_know_which_of_his_three_is_the_traitor() -> None:
    _caught(PARTISAN, {"seat": TRAITOR, "role": "traitor_soldier"}, "role", TRAITOR)
    _caught(PARTISAN, {"seat": SOLDIER_A, "role": "soldier"}, "role", SOLDIER_A)


def test_planted_roles_for_the_mafia() -> None:
    _caught(GENERAL, {"seat": NURSE, "role": "nurse"}, "role", NURSE)
    _caught(DEMOLISHER, {"colonel": COLONEL}, "role", COLONEL)


def test_planted_awake_step_names_the_role() -> None:
    _caught(SOLDIER_B, {"step": "nurse", "seat": NURSE}, "role", NURSE)
    _caught(SOLDIER_B, {"step": "confer", "seat": TRAITOR}, "side", TRAITOR)
    _caught(None, {"step": "radio", "seat": RADIO, "night": 1}, "role", RADIO)


def test_planted_picks() -> None:
    nurse_pick = {"night": 1, "step": "nurse", "seat": NURSE, "target": SOLDIER_B}
    _caught(SOLDIER_B, nurse_pick, "pick", SOLDIER_B)
    _caught(GENERAL, {"night": 1, "picks": [{"step": "nurse", "target": SOLDIER_B}]},
            "pick", SOLDIER_B)  # fmt: skip
    demolition = {"night": 2, "step": "demolisher", "target": RADIO}
    _caught(RADIO, demolition, "pick", RADIO)
    _caught(
        None, {"night": 1, "step": "general", "target": SOLDIER_A}, "pick", SOLDIER_A
    )
    leaked = copy.deepcopy(view(STATE, SOLDIER_B))
    leaked["me"]["mafia_nights"] = copy.deepcopy(
        view(STATE, GENERAL)["me"]["mafia_nights"]
    )
    assert ("pick", RADIO) in kinds(find_leaks(STATE, SOLDIER_B, leaked))


def test_planted_readings_code_and_guess() -> None:
    _caught(SOLDIER_B, {"target": GENERAL, "reading": "positive"}, "reading", GENERAL)
    _caught(
        None, {"night": 1, "target": GENERAL, "reading": "POSITIVE"}, "reading", GENERAL
    )
    _caught(GENERAL, {"radio_code": 2}, "code", RADIO)
    _caught(RADIO, {"general_guess": 1}, "guess", GENERAL)
    leaked = copy.deepcopy(view(STATE, SOLDIER_B))
    leaked["me"] = copy.deepcopy(view(STATE, RADIO)["me"])
    found = kinds(find_leaks(STATE, SOLDIER_B, leaked))
    assert {("reading", GENERAL), ("code", RADIO), ("role", RADIO)} <= found


def test_the_ledger_shown_to_a_player_is_caught() -> None:
    leaked = copy.deepcopy(view(STATE, SOLDIER_B))
    leaked["ledger"] = view(STATE, MODERATOR)["ledger"]
    found = kinds(find_leaks(STATE, SOLDIER_B, leaked))
    assert ("role", NURSE) in found and ("code", RADIO) in found
    assert ("pick", SOLDIER_B) in found


# --- HTML -----------------------------------------------------------------------------


def _html(*rows: str) -> str:
    return "<section><ul>" + "".join(rows) + "</ul><p>footer</p></section>"


def test_html_marks_are_caught() -> None:
    cases = [
        (
            SOLDIER_B,
            f'<li data-seat="{GENERAL}" data-side="mafia">x</li>',
            "side",
            GENERAL,
        ),
        (None, f'<li data-seat="{NURSE}" data-role="nurse">x</li>', "role", NURSE),
        (
            SOLDIER_B,
            f'<b data-seat="{GENERAL}" data-reading="positive">',
            "reading",
            GENERAL,
        ),
        (GENERAL, f'<img data-seat="{SNIPER}" data-role="sniper">', "role", SNIPER),
    ]
    for seat, row, kind, about in cases:
        leaks = find_leaks(STATE, seat, _html(row))
        assert (kind, about) in kinds(leaks), (row, leaks)


def test_html_words_in_the_text_of_a_seat() -> None:
    words = {"nurse": ["پرستار", "медсестра"], "mafia": ["мафия"]}
    page = _html(f'<li data-seat="{NURSE}"><span>Ира</span> — медсестра</li>')
    assert ("role", NURSE) in kinds(find_leaks(STATE, SOLDIER_B, page, words))
    page = _html(f'<li data-seat="{NURSE}">پرستار</li>')
    assert ("role", NURSE) in kinds(find_leaks(STATE, SOLDIER_B, page, words))
    page = _html(f'<li data-seat="{TRAITOR}">Макс, мафия<br>ok</li>')
    assert ("side", TRAITOR) in kinds(find_leaks(STATE, SOLDIER_B, page, words))


def test_what_players_say_is_not_searched_for_words() -> None:
    words = {"nurse": ["медсестра"]}
    said = f'<li data-seat="{NURSE}">Ира <q data-said>я медсестра</q></li>'
    claim = f'<li data-seat="{NURSE}">Ира <q data-claim="nurse">медсестра</q></li>'
    bare = f'<li data-seat="{NURSE}">Ира <q>медсестра</q></li>'
    assert find_leaks(STATE, SOLDIER_B, _html(said), words) == []
    assert find_leaks(STATE, SOLDIER_B, _html(claim), words) == []
    assert kinds(find_leaks(STATE, SOLDIER_B, _html(bare), words)) == {("role", NURSE)}


def test_clean_html_passes() -> None:
    words = {"general": ["генерал"], "mafia": ["мафия"], "soldier": ["солдат"]}
    roles = STATE.table.roles
    team = "".join(
        f'<li data-seat="{s}" data-side="mafia" data-role="{roles[s].value}">мафия</li>'
        for s in (GENERAL, DEMOLISHER, TRAITOR)
    )
    page = _html(team, "<li data-seat='x' data-side='mafia'>not a seat</li></b></div>")
    assert find_leaks(STATE, TRAITOR, page, words) == []
    own = _html(f'<li data-seat="{SOLDIER_B}" data-role="soldier">я солдат</li>')
    assert find_leaks(STATE, SOLDIER_B, own, words) == []
    assert find_leaks(STATE, TRAITOR, own, words) != []
