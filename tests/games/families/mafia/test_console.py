"""The moderator's page says "your move" (the console's forms as the page's action
area, which the tab title and the vibration follow, and the banner) only while the
game waits on him: at the dawn and by day, not while the players tap through a night
or cast their ballots, though his optional moves (a timer, closing a vote, a warning)
stay on his console."""

from __future__ import annotations

import pytest
from django.test import Client

from games import engine, services
from games.state import load_state
from tests.games.families.mafia.support import start_table, users_by_seat
from tests.games.families.mafia.test_glance import _moderator, _state, _step

pytestmark = pytest.mark.django_db

AWAITED = 'class="action-area mafia-moves" data-awaited'
YOUR_MOVE = '<div class="banner you"'  # "Your move, moderator: see the console."


def _page(game, client: Client) -> str:
    game.refresh_from_db()
    return client.get(game.get_absolute_url()).content.decode()


def _assert_awaited(page: str, awaited: bool) -> None:
    assert (AWAITED in page) is awaited
    assert (YOUR_MOVE in page) is awaited
    assert 'class="mafia-moves"' in page or AWAITED in page  # his forms are there
    if not awaited:
        # No form of his sits in an action area (static/js/table.js's selector).
        assert "action-area mafia-moves" not in page


def test_the_moderator_is_told_it_is_his_move_only_when_the_game_waits() -> None:
    game, moderator = start_table()
    client = Client()
    client.force_login(moderator)
    # The introduction night: the players tap, nothing is his to do.
    page = _page(game, client)
    assert 'class="action-area' not in page and YOUR_MOVE not in page
    for _ in range(3):
        _step(game)
    _assert_awaited(_page(game, client), True)  # the dawn: confirm it
    _moderator(game, "confirm_night")
    _assert_awaited(_page(game, client), True)  # the day: he leads it
    state = _state(game)
    kinds = {spec["type"] for spec in engine.legal_actions(state, engine.MODERATOR)}
    assert "start_vote" in kinds  # votes on the first day (the default)
    spec = next(
        s
        for s in engine.legal_actions(state, engine.MODERATOR)
        if s["type"] == "start_vote"
    )
    _moderator_vote(game, spec["vote"])
    # The ballots are out: he may close the vote early, but it is theirs.
    page = _page(game, client)
    assert 'data-move="close_vote"' in page
    _assert_awaited(page, False)
    _step_ballots(game)
    _assert_awaited(_page(game, client), True)
    if _state(game).phase.value == "day":
        _moderator(game, "end_day")
    # The confer step: he may start the mafia's minute, but the players act.
    state = _state(game)
    assert state.sleep is not None and state.sleep.value == "confer"
    page = _page(game, client)
    assert 'data-move="timer"' in page
    _assert_awaited(page, False)


def _moderator_vote(game, kind: str) -> None:
    game.refresh_from_db()
    services.game_act(
        game=game,
        user=users_by_seat(game)[engine.MODERATOR],
        action={"type": "start_vote", "vote": kind},
        turn=game.turn,
    )


def _step_ballots(game) -> None:
    users = users_by_seat(game)
    for seat in range(10):
        game.refresh_from_db()
        if engine.legal_actions(load_state(game), seat):
            services.game_act(
                game=game,
                user=users[seat],
                action={"type": "vote", "candidates": []},
                turn=game.turn,
            )


@pytest.mark.parametrize("language", ["en", "ru", "fa"])
@pytest.mark.parametrize("sniper", ["no_effect", "hit", "saved", "missed", "blocked"])
@pytest.mark.parametrize("demolition", ["none", "suspended", "radio_operator"])
def test_the_consoles_resolution_speaks_words_not_codes(
    language: str, sniper: str, demolition: str
) -> None:
    """The night's resolution on the console says each effect in the moderator's
    language: no engine code (``missed``, ``none``...) reaches the screen."""
    from django.utils import translation

    from games.families.mafia import presenters
    from games.families.mafia.words import words_for

    with translation.override(language):
        rows = presenters._resolution(
            {"sniper": sniper, "demolition": demolition},
            {},
            words_for("mafia_partisan"),
        )
    assert len(rows) == 2
    for _label, value in rows:
        assert str(value) not in {sniper, demolition}
        assert "_" not in str(value)


def test_the_consoles_resolution_names_seat_zero() -> None:
    """Seat 0 is a seat like any other (it once compared equal to False and the
    colonel hit in seat 0 was left off the console)."""
    from django.utils import translation

    from games.families.mafia import presenters
    from games.families.mafia.words import words_for

    names = {0: "Vera", 1: "Ivan"}
    with translation.override("en"):
        rows = presenters._resolution(
            {"colonel_hit": 0, "saved": [0], "exits": []},
            names,
            words_for("mafia_partisan"),
        )
    assert [label for label, _value in rows] == ["Colonel hit", "Saved by the nurse"]
    assert all("Vera" in str(value) for _label, value in rows)


def test_no_console_move_that_decides_a_fate_is_one_tap_away() -> None:
    """Kick, warn, end the day and closing a vote ask first (data-confirm, which
    static/js/table.js turns into a question); a kick or a warning names nobody until
    the moderator picks, and one sent with nobody picked changes nothing."""
    game, moderator = start_table()
    client = Client()
    client.force_login(moderator)
    for _ in range(3):
        _step(game)
    _moderator(game, "confirm_night")
    page = _page(game, client)
    for move in ("kick", "warn", "end_day"):
        form = page.split(f'data-move="{move}"', 1)[1].split("</form>", 1)[0]
        assert form.startswith(" data-confirm="), move
    for move in ("kick", "warn"):
        form = page.split(f'data-move="{move}"', 1)[1].split("</form>", 1)[0]
        select = form.split('<select name="target"', 1)[1]
        assert select.split(">", 1)[0].endswith("required")
        first = select.split("<option", 2)[1]
        assert first.startswith(' value="">'), first
        assert "selected" not in select.split("</select>", 1)[0]
    game.refresh_from_db()
    version = game.version
    answer = client.post(
        f"/games/t/{game.code}/act/",
        {"action": "kick", "target": "", "turn": game.turn},
    )
    assert answer.status_code in (200, 302, 400)
    game.refresh_from_db()
    assert game.version == version
