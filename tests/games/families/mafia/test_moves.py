"""Bad input at a Partisan (Mafia) table: a player's move from the moderator and a
moderator's move from a player are refused with the engine's message in the sender's
language, by plain POST, htmx and the service, changing nothing; a spectator is not
seated; forged form fields are a ``BadAction`` before the engine sees them. Good
moves from the page's forms go through, the moderator's as seat -1."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games import engine, errors, services
from games.families.mafia import moves
from games.models import Game, GameAction
from games.state import load_state
from tests.factories import UserFactory
from tests.games.families.mafia.support import start_table, users_by_seat

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("fields", "action"),
    [
        ({"action": "tap", "form": "ok"}, {"type": "tap"}),
        (
            {"action": "choose", "form": "number", "number": "3"},
            {"type": "choose", "number": 3},
        ),
        (
            {"action": "tap", "form": "seat", "target": "none"},
            {"type": "tap", "target": None},
        ),
        (
            {"action": "choose", "form": "seat", "target": "7"},
            {"type": "choose", "target": 7},
        ),
        (
            {"action": "choose", "form": "pair", "targets": ["1", "4"]},
            {"type": "choose", "targets": [1, 4]},
        ),
        (
            {
                "action": "choose",
                "form": "general",
                "mode": "slaughter",
                "target": "2",
                "guess": "nurse",
            },
            {"type": "choose", "mode": "slaughter", "target": 2, "guess": "nurse"},
        ),
        (
            {
                "action": "tap",
                "form": "general",
                "mode": "shoot",
                "target": "2",
                "guess": "nurse",
            },
            {"type": "tap", "mode": "shoot", "target": 2, "guess": None},
        ),
        (
            {"action": "vote", "candidates": ["0", "9"]},
            {"type": "vote", "candidates": [0, 9]},
        ),
        ({"action": "vote"}, {"type": "vote", "candidates": []}),
        ({"action": "confirm_night"}, {"type": "confirm_night"}),
        (
            {"action": "timer", "timer": "confer:none"},
            {"type": "timer", "kind": "confer", "subject": None},
        ),
        (
            {"action": "timer", "timer": "defence:3"},
            {"type": "timer", "kind": "defence", "subject": 3},
        ),
        (
            {"action": "start_vote", "vote": "exit"},
            {"type": "start_vote", "vote": "exit"},
        ),
        ({"action": "kick", "target": "5"}, {"type": "kick", "target": 5}),
    ],
)
def test_form_fields_make_the_engines_actions(
    fields: dict[str, Any], action: dict[str, Any]
) -> None:
    assert moves.parse_move(fields) == action


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"action": "dance"},
        {"action": "choose"},
        {"action": "choose", "form": "number", "number": "٣"},
        {"action": "choose", "form": "seat", "target": "-1"},
        {"action": "choose", "form": "general", "mode": "bomb"},
        {"action": "timer", "timer": "nap:none"},
        {"action": "start_vote", "vote": "all"},
        {"action": "warn", "target": "x"},
    ],
)
def test_forged_fields_are_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(errors.BadAction):
        moves.parse_move(fields)


def test_a_night_move_without_a_night_step_for_the_seat_is_a_tap() -> None:
    night = {"type": moves.NIGHT, "target": 3}
    assert moves.complete_move(night, ()) == {"type": "tap", "target": 3}
    chooser = ({"type": "choose", "form": "seat"},)
    assert moves.complete_move(night, chooser) == {"type": "choose", "target": 3}
    assert moves.complete_move({"type": "vote"}, ()) == {"type": "vote"}


def test_every_seats_second_tap_at_a_step_is_refused_in_the_same_words() -> None:
    """Every seat taps through the introduction night's first step with the page's
    neutral ``night`` move, then again (a double click): every second tap, the
    awake seats' as the sleepers', is ``already_acted``, private, in one wording."""
    game, _moderator = start_table()
    users = users_by_seat(game)
    state = load_state(game)
    step = state.sleep
    seats = [seat for seat in range(10) if engine.legal_actions(state, seat)]
    assert len(seats) > 1  # the step waits for more than one seat
    said = set()
    for seat in seats[:-1]:  # the last tap would end the step
        game.refresh_from_db()
        spec = engine.legal_actions(load_state(game), seat)[0]
        action: dict[str, Any] = {"type": moves.NIGHT}
        if spec["form"] == "number":
            action["number"] = spec["numbers"][0]
        services.game_act(game=game, user=users[seat], action=action, turn=game.turn)
        game.refresh_from_db()
        before = _snapshot(game)
        with pytest.raises(errors.IllegalMove) as refused:
            services.game_act(
                game=game, user=users[seat], action=action, turn=game.turn
            )
        assert refused.value.code == "already_acted"
        assert refused.value.private
        assert _snapshot(game) == before
        with translation.override("en"):
            said.add(str(refused.value))
    assert load_state(game).sleep is step
    assert said == {"You have already acted at this step."}


def _snapshot(game: Game) -> tuple[int, int, int]:
    game.refresh_from_db()
    return game.version, game.turn, GameAction.objects.filter(game=game).count()


def test_the_moderator_cannot_tap_and_a_player_cannot_moderate() -> None:
    game, moderator = start_table()
    users = users_by_seat(game)
    before = _snapshot(game)
    # The introduction night: every player taps; the moderator may not.
    with pytest.raises(errors.IllegalMove) as refused:
        services.game_act(
            game=game, user=moderator, action={"type": "tap"}, turn=game.turn
        )
    assert refused.value.code == "players_only"
    with pytest.raises(errors.IllegalMove) as refused:
        services.game_act(
            game=game, user=users[0], action={"type": "confirm_night"}, turn=game.turn
        )
    assert refused.value.code == "moderator_only"
    assert _snapshot(game) == before
    # A spectator is not seated.
    with pytest.raises(errors.NotSeated):
        services.game_act(
            game=game, user=UserFactory(), action={"type": "tap"}, turn=game.turn
        )
    assert _snapshot(game) == before


@pytest.mark.parametrize("htmx", [False, True])
def test_refusals_by_post_speak_the_senders_language(htmx: bool) -> None:
    game, moderator = start_table()
    users = users_by_seat(game)
    before = _snapshot(game)
    headers = {"accept-language": "fa"}
    if htmx:
        headers["hx-request"] = "true"
    response = _client(users[2]).post(
        f"/games/t/{game.code}/act/",
        {"action": "end_day", "turn": str(game.turn)},
        headers=headers,
        follow=not htmx,
    )
    body = response.content.decode()
    assert _snapshot(game) == before
    assert "گرداننده" in body  # the engine's "only the moderator" in Persian
    response = _client(moderator).post(
        f"/games/t/{game.code}/act/",
        {"action": "tap", "form": "ok", "turn": str(game.turn)},
        headers=headers,
        follow=not htmx,
    )
    assert _snapshot(game) == before


def test_the_pages_forms_play_the_introduction_night_and_the_dawn() -> None:
    game, moderator = start_table()
    users = users_by_seat(game)
    for _ in range(40):
        game.refresh_from_db()
        state = load_state(game)
        view = engine.view(state, None)
        if view["phase"] != "night":
            break
        for seat in range(10):
            spec = next(iter(engine.legal_actions(state, seat)), None)
            if spec is None:
                continue
            fields: dict[str, Any] = {
                "action": spec["type"],
                "form": spec["form"],
                "turn": str(game.turn),
            }
            if spec["form"] == "number":
                fields["number"] = str(spec["numbers"][0])
            response = _client(users[seat]).post(f"/games/t/{game.code}/act/", fields)
            assert response.status_code == 302
            break
    assert engine.view(load_state(game), None)["phase"] == "dawn"
    version = game.version
    _client(moderator).post(
        f"/games/t/{game.code}/act/",
        {"action": "confirm_night", "turn": str(game.turn)},
    )
    game.refresh_from_db()
    assert game.version == version + 1
    assert GameAction.objects.filter(game=game).last().position == engine.MODERATOR
    assert engine.view(load_state(game), None)["phase"] == "day"
