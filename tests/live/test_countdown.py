"""A move that starts a countdown (the Mafia moderator's speech timer) reaches the
open screens by the room's own push: the countdown's start is read in a worker
thread, never on the event loop."""

from __future__ import annotations

import json
import logging
import random

import pytest
from asgiref.sync import sync_to_async

from games import engine, services
from games.models import Game
from games.state import load_state
from tests.games.families.mafia.support import start_table, users_by_seat
from tests.games.test_consumers import TIMEOUT, connect

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _to_a_timer(game: Game) -> dict[str, object]:
    """Random moves other than a timer until the moderator may start one; his
    timer move."""
    rng = random.Random(3)
    users = users_by_seat(game)
    for _ in range(400):
        game.refresh_from_db()
        state = load_state(game)
        legal = engine.view(state, engine.MODERATOR).get("legal", [])
        timers = [spec for spec in legal if spec["type"] == "timer"]
        if timers:
            timer = timers[0]["timers"][0]
            return {"type": "timer", "kind": timer["kind"], "subject": timer["subject"]}
        seat, action = engine.random_action(state, rng)
        while action["type"] == "timer":
            seat, action = engine.random_action(state, rng)
        services.game_act(game=game, user=users[seat], action=action, turn=game.turn)
    raise AssertionError("no timer in 400 moves")


async def test_a_move_that_starts_a_countdown_is_pushed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game, moderator = await sync_to_async(start_table)()
    timer = await sync_to_async(_to_a_timer)(game)
    users = await sync_to_async(users_by_seat)(game)
    screens = [await connect(moderator, game.code), await connect(users[0], game.code)]
    try:
        for screen in screens:
            await screen.receive_from(timeout=TIMEOUT)
        await sync_to_async(game.refresh_from_db)()
        with caplog.at_level(logging.ERROR, logger="live.room"):
            await screens[0].send_to(
                text_data=json.dumps(
                    {
                        "action": "timer",
                        "timer": f"{timer['kind']}:{timer['subject'] or 'none'}",
                        "turn": str(game.turn),
                    }
                )
            )
            for screen in screens:
                frame = await screen.receive_from(timeout=TIMEOUT)
                assert "data-timer" in frame and " · " in frame  # the countdown
        assert not caplog.records
    finally:
        for screen in screens:
            await screen.disconnect()
