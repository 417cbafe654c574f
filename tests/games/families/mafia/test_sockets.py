"""A Partisan (Mafia) table over the HTML socket: the moderator, every seat and a
spectator each get their own rendering after every move of the introduction night and
the first day; the moderator's is his console, nobody else's is; the leak oracle finds
nothing on any; a move sent over the moderator's socket is taken as seat -1, and a
player's move from him is refused with the engine's message, changing nothing."""

from __future__ import annotations

import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from games import engine, services
from games.engine import oracle
from games.models import Game, GameAction
from games.state import load_state
from tests.factories import UserFactory
from tests.games.families.mafia.support import (
    secret_words,
    start_table,
    users_by_seat,
)
from tests.games.test_consumers import TIMEOUT, connect

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_every_push_is_each_viewers_own_and_clean() -> None:
    game, _moderator = await sync_to_async(start_table)()
    users = await sync_to_async(users_by_seat)(game)
    spectator = await sync_to_async(UserFactory)()
    sockets = {seat: await connect(user, game.code) for seat, user in users.items()}
    sockets[None] = await connect(spectator, game.code)
    try:
        words = await sync_to_async(secret_words)()
        state = await sync_to_async(load_state)(game)
        for seat, socket in sockets.items():
            snapshot = await socket.receive_from(timeout=TIMEOUT)
            assert ("data-console" in snapshot) is (seat == engine.MODERATOR)
            assert not oracle.find_leaks(state, seat, snapshot, words)
        # A player's move from the moderator's socket: refused, nothing changes.
        version = game.version
        await sockets[engine.MODERATOR].send_to(
            text_data=json.dumps(
                {"action": "tap", "form": "ok", "turn": str(game.turn)}
            )
        )
        # The table as it stands (the pending form drawn anew), then the refusal
        # over it, in the engine's words.
        fresh = await sockets[engine.MODERATOR].receive_from(timeout=TIMEOUT)
        assert "data-console" in fresh
        refused = await sockets[engine.MODERATOR].receive_from(timeout=TIMEOUT)
        assert "table-error" in refused and "Ведущий" in refused
        await sync_to_async(game.refresh_from_db)()
        assert game.version == version
        rng = random.Random(71)
        for _ in range(60):
            await sync_to_async(game.refresh_from_db)()
            state = await sync_to_async(load_state)(game)
            if engine.view(state, None)["phase"] == "night" and game.version > 40:
                break
            seat, action = engine.random_action(state, rng)
            await sync_to_async(services.game_act)(
                game=game, user=users[seat], action=action, turn=game.turn
            )
            await sync_to_async(game.refresh_from_db)()
            state = await sync_to_async(load_state)(game)
            for viewer, socket in sockets.items():
                message = await socket.receive_from(timeout=TIMEOUT)
                assert f'data-version="{game.version}"' in message
                assert not oracle.find_leaks(state, viewer, message, words), (
                    viewer,
                    seat,
                )
        assert game.status == Game.Status.PLAYING
        moderated = await sync_to_async(
            GameAction.objects.filter(game=game, position=engine.MODERATOR).count
        )()
        assert moderated >= 1
    finally:
        # Even after a failed assertion: a socket left open keeps its consumer's
        # task alive, and the test's event loop would wait for it forever.
        for socket in sockets.values():
            await socket.disconnect()


async def test_a_refused_night_choice_is_said_on_the_card_only() -> None:
    """Over the socket too: the chooser's refused choice lands in his card's
    ``#card-error`` and the page's error line is emptied; a sleeper's tap on his own
    seat (never the chooser's to pick) is taken."""
    from games.families.mafia.engine import Step
    from tests.games.families.mafia.test_glance import _to_night_one

    game, table = await sync_to_async(_to_night_one)({})
    users = await sync_to_async(users_by_seat)(game)
    state = await sync_to_async(load_state)(game)
    assert state.sleep is Step.DEMOLISHER
    chooser = await connect(users[table.demolisher], game.code)
    sleeper = await connect(users[table.nurse], game.code)
    try:
        await chooser.receive_from(timeout=TIMEOUT)
        await sleeper.receive_from(timeout=TIMEOUT)
        fields = {"action": "night", "form": "seat", "turn": str(game.turn)}
        await chooser.send_to(
            text_data=json.dumps({**fields, "target": str(table.general)})
        )
        fresh = await chooser.receive_from(timeout=TIMEOUT)
        assert "message error" not in fresh  # the refusal comes after it
        refused = await chooser.receive_from(timeout=TIMEOUT)
        assert '<div id="table-error" class="" role="alert" hx-swap-oob="true">' in (
            refused
        )
        assert '<p id="card-error" class="message error" hx-swap-oob="true">' in (
            refused
        )
        await sleeper.send_to(
            text_data=json.dumps({**fields, "target": str(table.nurse)})
        )
        taken = await sleeper.receive_from(timeout=TIMEOUT)
        assert "message error" not in taken
        await sync_to_async(game.refresh_from_db)()
        state = await sync_to_async(load_state)(game)
        assert table.nurse in state.tapped and table.demolisher not in state.tapped
    finally:
        await chooser.disconnect()
        await sleeper.disconnect()


async def test_a_second_tap_at_one_step_is_refused_alike_for_every_seat() -> None:
    """A double click at a night step: the seat that has acted (the demolisher's
    real choice, the nurse's tap) is told it has already acted, on its card only, in
    the same words and the same frame for both, and nothing changes."""
    from games.families.mafia.engine import Step
    from tests.games.families.mafia.test_glance import _to_night_one

    game, table = await sync_to_async(_to_night_one)({})
    users = await sync_to_async(users_by_seat)(game)
    state = await sync_to_async(load_state)(game)
    assert state.sleep is Step.DEMOLISHER
    chooser = await connect(users[table.demolisher], game.code)
    sleeper = await connect(users[table.nurse], game.code)
    try:
        await chooser.receive_from(timeout=TIMEOUT)
        await sleeper.receive_from(timeout=TIMEOUT)
        fields = {
            "action": "night",
            "form": "seat",
            "target": str(table.soldiers[0]),
            "turn": str(game.turn),
        }
        with translation.override(settings.LANGUAGE_CODE):
            already = gettext("You have already acted at this step.")
        assert already != "You have already acted at this step."  # translated
        refusals = []
        for socket, other in ((chooser, sleeper), (sleeper, chooser)):
            await socket.send_to(text_data=json.dumps(fields))
            taken = await socket.receive_from(timeout=TIMEOUT)
            assert "message error" not in taken
            await other.receive_from(timeout=TIMEOUT)  # the same move, pushed
            await sync_to_async(game.refresh_from_db)()
            version = game.version
            await socket.send_to(text_data=json.dumps(fields))  # the second tap
            fresh = await socket.receive_from(timeout=TIMEOUT)
            assert "message error" not in fresh  # the refusal comes after it
            refused = await socket.receive_from(timeout=TIMEOUT)
            assert already in refused
            assert '<p id="card-error" class="message error" hx-swap-oob="true">' in (
                refused
            )
            assert (
                '<div id="table-error" class="" role="alert" hx-swap-oob="true">'
                in refused
            )
            await sync_to_async(game.refresh_from_db)()
            assert game.version == version
            refusals.append(refused)
        assert refusals[0] == refusals[1]
        state = await sync_to_async(load_state)(game)
        assert {table.demolisher, table.nurse} <= state.tapped
    finally:
        await chooser.disconnect()
        await sleeper.disconnect()
