"""The moderator's speech timers count down on every screen: the end comes from the
time of the move that started the timer in the log (the engine has no clock), so it
is the same on every seat's page, the moderator's and a spectator's, in the same
markup, and after a reload or a restart (the caches emptied)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from games import engine, services
from games.models import GameAction
from games.state import load_state
from tests.factories import UserFactory
from tests.games.families.mafia.support import users_by_seat
from tests.games.families.mafia.test_glance import to_confer

pytestmark = pytest.mark.django_db

COUNTDOWN = re.compile(r'<span class="table-countdown".*?</span>', re.S)
DEADLINE = re.compile(r'data-deadline="(\d+)"')


def _countdowns(game, clients) -> dict[object, str]:
    found = {}
    for who, client in clients.items():
        page = client.get(game.get_absolute_url()).content.decode()
        match = COUNTDOWN.search(page)
        assert match, f"no countdown on {who}'s page"
        found[who] = match.group(0)
    return found


def test_a_speech_timer_counts_down_from_its_move_on_every_screen() -> None:
    game = to_confer({})
    users = users_by_seat(game)
    clients = {}
    for seat, user in [*users.items(), (None, UserFactory())]:
        clients[seat] = Client()
        clients[seat].force_login(user)
    page = clients[0].get(game.get_absolute_url()).content.decode()
    assert "table-countdown" not in page  # no timer yet
    assert "data-now" not in page
    game.refresh_from_db()
    services.game_act(
        game=game,
        user=users[engine.MODERATOR],
        action={"type": "timer", "kind": "confer", "subject": None},
        turn=game.turn,
    )
    game.refresh_from_db()
    started = GameAction.objects.get(game=game, payload__type="timer").created_at
    end = started + dt.timedelta(seconds=60)
    shown = _countdowns(game, clients)
    assert len(set(shown.values())) == 1, "the countdown differs between screens"
    markup = next(iter(shown.values()))
    assert DEADLINE.search(markup).group(1) == str(int(end.timestamp() * 1000))
    assert "data-countdown" in markup and 'role="timer"' in markup
    assert f'<time datetime="{end.isoformat()}">' in markup  # without JavaScript
    # The page carries the server's time for the count, with or without a turn clock.
    page = clients[0].get(game.get_absolute_url()).content.decode()
    assert re.search(r'id="table-clock"[^>]*data-now="\d+"', page)
    # Another reload: the same end.
    assert _countdowns(game, {3: clients[3]})[3] == markup
    # The players' moves go on; the timer stays until it is replaced or the step ends.
    state = load_state(game)
    assert engine.view(state, None)["timer"]["seconds"] == 60
