"""The glance rule at a Partisan (Mafia) night, on a game driven to the steps where the
chooser's own screen would differ most: the demolisher's step (his team is not his to
pick), the mafia's action on the night after a slaughter (neither slaughter nor
recruitment is open: the demolisher and the traitor are both in) and the nurse's step
when the house forbids saving the same player twice (her last save is barred).

At each of them every player still to tap gets a top region identical byte for byte
(but the csrf token) to every other's; what is barred is said on the chooser's card;
a sleeper may tap anything the screen offers, his own seat included; and a chooser's
refused choice is said inside his card, never in the page's error line."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engine, services
from games.families.mafia.engine import Step
from games.models import Game
from games.state import load_state
from tests.games.conftest import live_area
from tests.games.families.mafia.support import start_table, users_by_seat

pytestmark = pytest.mark.django_db

TOP = re.compile(
    r'<div id="region-top" class="region">(.*?)</div>\s*<div class="play-layout">', re.S
)
CARD = re.compile(r'<details id="role-card".*?</details>', re.S)
ERROR_LINE = re.compile(r'<div id="table-error"[^>]*>(.*?)</div>', re.S)


def _state(game: Game) -> Any:
    game.refresh_from_db()
    return load_state(game)


def _fill(spec: dict[str, Any], seat: int) -> dict[str, Any]:
    """The first thing ``seat``'s screen offers (a chooser: a real choice)."""
    move: dict[str, Any] = {"type": spec["type"]}
    form = spec["form"]
    targets = [t for t in spec.get("targets") or () if t != seat] or list(
        spec.get("targets") or ()
    )
    if form == "number":
        move["number"] = spec["numbers"][0]
    elif form == "seat":
        move["target"] = None if spec["skip"] else targets[0]
    elif form == "pair":
        move["targets"] = targets[:2]
    elif form == "general":
        move.update(mode="shoot", target=targets[0], guess=None)
    return move


def _step(game: Game, choices: dict[int, dict[str, Any]] | None = None) -> None:
    """Every player still in the game acts once at the current step."""
    choices = choices or {}
    users = users_by_seat(game)
    for seat in range(10):
        game.refresh_from_db()
        state = load_state(game)
        specs = engine.legal_actions(state, seat)
        if not specs:
            continue
        (spec,) = specs
        move = _fill(spec, seat)
        if seat in choices:
            assert spec["type"] == "choose", (seat, spec)
            move = {"type": "choose", **choices[seat]}
        services.game_act(game=game, user=users[seat], action=move, turn=game.turn)


def _moderator(game: Game, move: str) -> None:
    game.refresh_from_db()
    services.game_act(
        game=game,
        user=users_by_seat(game)[engine.MODERATOR],
        action={"type": move},
        turn=game.turn,
    )


def _tops(game: Game) -> dict[int, str]:
    """Each untapped player's top region, csrf token aside."""
    game.refresh_from_db()
    state = load_state(game)
    users = users_by_seat(game)
    tops = {}
    for seat in range(10):
        if not engine.legal_actions(state, seat):
            continue
        with translation.override("en"):
            live = live_area(game, users[seat])
        found = TOP.search(live)
        assert found, live[:300]
        tops[seat] = re.sub(
            r'name="csrfmiddlewaretoken" value="[^"]*"', "", found.group(1)
        )
    return tops


def _card(game: Game, seat: int) -> str:
    with translation.override("en"):
        live = live_area(game, users_by_seat(game)[seat])
    found = CARD.search(live)
    assert found
    return found.group(0)


def _assert_alike(game: Game, step: Step) -> dict[int, str]:
    state = _state(game)
    assert state.sleep is step, state.sleep
    tops = _tops(game)
    assert len(tops) == sum(state.in_game)
    first = next(iter(tops.values()))
    assert "mafia-night" in first
    # Greyed out: only those who have left, the same cells on every screen.
    assert first.count("pick off") == state.in_game.count(False)
    assert 'value="choose"' not in first and 'value="tap"' not in first
    different = [seat for seat, top in tops.items() if top != first]
    assert not different, f"{step}: seats {different} see another screen"
    return tops


def to_confer(options: dict[str, Any]) -> Game:
    """A table at the confer step of night 1 (the mafia's minute)."""
    game, _moderator_user = start_table(options)
    for _ in range(3):  # meet, code, partisan
        _step(game)
    _moderator(game, "confirm_night")
    _moderator(game, "end_day")
    return game


def _to_night_one(options: dict[str, Any]) -> tuple[Game, Any]:
    game = to_confer(options)
    _step(game)  # confer
    return game, _state(game).table


def test_night_screens_are_identical_where_the_chooser_is_restricted() -> None:
    game, table = _to_night_one({"nurse_repeat": False})
    # The demolisher's step: his team would be greyed out on his screen.
    _assert_alike(game, Step.DEMOLISHER)
    card = _card(game, table.demolisher)
    assert "You may not pick:" in card
    _step(game, {table.demolisher: {"target": table.nurse}})
    # The mafia's action on night 1: recruitment is closed (both are in).
    _assert_alike(game, Step.GENERAL)
    assert "Not open to you tonight: Recruit" in _card(game, table.general)
    soldier = table.soldiers[0]
    _step(
        game,
        {table.general: {"mode": "slaughter", "target": soldier, "guess": "soldier"}},
    )
    saved = table.radio  # shot on night 2, saved by the nurse
    # The nurse sleeps on a slaughter night; the others tap through to the dawn.
    while _state(game).phase.value == "night":
        _step(game)
    _moderator(game, "confirm_night")
    _moderator(game, "end_day")
    _step(game)  # confer of night 2
    _step(game)  # demolisher
    # Night 2: neither the slaughter (used) nor the recruitment (both in) is open.
    _assert_alike(game, Step.GENERAL)
    card = _card(game, table.general)
    assert "Not open to you tonight: Slaughter, Recruit" in card
    _step(game, {table.general: {"mode": "shoot", "target": saved, "guess": None}})
    _assert_alike(game, Step.NURSE)
    _step(game, {table.nurse: {"target": saved}})
    while _state(game).phase.value == "night":
        _step(game)
    _moderator(game, "confirm_night")
    _moderator(game, "end_day")
    _step(game)  # confer of night 3
    _step(game)  # demolisher
    _step(game)  # the mafia's action
    # Night 3: the nurse may not save last night's player again (on her card only).
    _assert_alike(game, Step.NURSE)
    assert "You may not pick:" in _card(game, table.nurse)


def test_a_refused_choice_is_said_on_the_card_and_a_sleepers_tap_is_taken() -> None:
    game, table = _to_night_one({})
    users = users_by_seat(game)
    assert _state(game).sleep is Step.DEMOLISHER
    chooser, sleeper = Client(), Client()
    chooser.force_login(users[table.demolisher])
    sleeper.force_login(users[table.nurse])
    url = reverse("games:act", kwargs={"code": game.code})
    game.refresh_from_db()
    # The demolisher names his own General: refused, on his card only.
    fields = {"action": "night", "form": "seat", "turn": game.turn}
    refused = chooser.post(url, {**fields, "target": table.general}, follow=True)
    page = refused.content.decode()
    card = CARD.search(page)
    assert card and "message error" in card.group(0)
    assert 'class="messages"' not in page
    error_line = ERROR_LINE.search(page)
    assert error_line and not error_line.group(1).strip()
    assert table.demolisher not in _state(game).tapped
    # The same refusal over htmx: the error line stays empty.
    again = chooser.post(
        url, {**fields, "target": table.general}, headers={"hx-request": "true"}
    ).content.decode()
    error_line = ERROR_LINE.search(again)
    assert error_line and not error_line.group(1).strip()
    assert 'id="card-error" class="message error"' in again
    # A sleeper taps his own seat (which no chooser here may pick): taken.
    taken = sleeper.post(url, {**fields, "target": table.nurse}, follow=True)
    assert taken.status_code == 200
    assert table.nurse in _state(game).tapped
    assert "message error" not in taken.content.decode()
    # The demolisher's real choice is taken as a choice, though the page said "night".
    chooser.post(url, {**fields, "target": table.nurse})
    state = _state(game)
    assert table.demolisher in state.tapped
    pick = state.current.pick(Step.DEMOLISHER)
    assert pick is not None and pick.target == table.nurse


def _spare(game: Game, colonel: int) -> dict[int, dict[str, Any]]:
    """Every chooser at the current step names someone other than the colonel."""
    state = _state(game)
    choices = {}
    for seat in range(10):
        for spec in engine.legal_actions(state, seat):
            if spec["type"] != "choose":
                continue
            move = _fill(spec, seat)
            if spec["form"] == "seat" and move["target"] is not None:
                move["target"] = next(
                    t for t in spec["targets"] if t not in (seat, colonel)
                )
            move.pop("type")
            choices[seat] = move
    return choices


def test_the_colonels_two_seat_form_gives_its_count_to_the_picker() -> None:
    """The hit colonel's midday sleep: the two-seat form every player taps through
    carries the count (``data-team-size``) and its button the picker's mark, so the
    page's picker keeps it disabled until two seats are ticked: every screen the
    same, as every seat's tap names two seats too."""
    game, table = _to_night_one({})
    _step(game, _spare(game, table.colonel))  # demolisher
    _step(
        game,
        {table.general: {"mode": "shoot", "target": table.colonel, "guess": None}},
    )
    while _state(game).phase.value == "night":
        _step(game, _spare(game, table.colonel))
    _moderator(game, "confirm_night")
    _moderator(game, "midday")
    tops = _assert_alike(game, Step.COLONEL_NAMES)
    form = re.search(r"<form [^>]*>", next(iter(tops.values())))
    assert form and 'data-team-size="2"' in form.group(0)
    assert re.search(r"<button [^>]*data-submit-team[^>]*>", tops[table.colonel])
    # Only that form counts: a one-seat step's form has no count.
    _step(game, {table.colonel: {"targets": list(table.soldiers[:2])}})
    _moderator(game, "midday")
    assert _state(game).sleep is Step.COLONEL_SHOOTS
    tops = _tops(game)
    assert len(set(tops.values())) == 1
    assert "data-team-size" not in next(iter(tops.values()))
    assert "data-submit-team" not in next(iter(tops.values()))
