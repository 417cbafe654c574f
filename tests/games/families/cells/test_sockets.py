"""A cells table over the HTML socket: one communicator per seat and one spectator.
Each receives its own rendering after every move of random complete games of three
and four players, and the leak oracle finds nothing on any of them; a reconnect is
the same snapshot."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import sync_to_async

from games import engine, services
from games.engine import oracle
from games.models import Game
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import seated_users, start_table
from tests.games.families.cells.support import secret_words
from tests.games.test_consumers import TIMEOUT, connect
from tests.live.frames import parts_of

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("players", "seed"), [(3, 61), (4, 62)])
async def test_every_push_to_every_seat_is_clean(players: int, seed: int) -> None:
    game = await sync_to_async(start_table)("cells", players)
    users = await sync_to_async(seated_users)(game)
    spectator = await sync_to_async(UserFactory)()
    sockets = {
        position: await connect(user, game.code) for position, user in users.items()
    }
    sockets[None] = await connect(spectator, game.code)
    words = await sync_to_async(secret_words)()
    state = await sync_to_async(load_state)(game)
    for position, socket in sockets.items():
        snapshot = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="table-live"' in snapshot
        assert not oracle.find_leaks(state, position, snapshot, words)
        if position is not None:  # its three cards, at the first look
            assert snapshot.count(f'data-seat="{position}" data-slot=') >= 3
    rng = random.Random(seed)
    moves = 0
    last: dict[int | None, str] = {}
    while True:
        await sync_to_async(game.refresh_from_db)()
        if game.status != Game.Status.PLAYING:
            break
        state = await sync_to_async(load_state)(game)
        seat, action = engine.random_action(state, rng)
        await sync_to_async(services.game_act)(
            game=game, user=users[seat], action=action, turn=game.turn
        )
        moves += 1
        await sync_to_async(game.refresh_from_db)()
        state = await sync_to_async(load_state)(game)
        for position, socket in sockets.items():
            message = await socket.receive_from(timeout=TIMEOUT)
            assert f'data-version="{game.version}"' in message
            leaks = oracle.find_leaks(state, position, message, words)
            assert not leaks, (position, moves, leaks)
            last[position] = message
    assert game.status == Game.Status.FINISHED and moves > 10
    # A reconnect is the page the pushes built: the last push (the end of the
    # game, which sends the parts that changed) has each of its parts in it as sent.
    again = await connect(users[0], game.code)
    snapshot = await again.receive_from(timeout=TIMEOUT)
    pushed = parts_of(snapshot)
    sent = {ident for ident in parts_of(last[0]) if ident != "table-clock"}
    assert {"table-state", "table-presence"} <= sent
    assert any(ident.startswith("region-") for ident in sent)
    for ident in sent:
        assert parts_of(last[0])[ident] == pushed[ident], ident
    for socket in [*sockets.values(), again]:
        await socket.disconnect()
