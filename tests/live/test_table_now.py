"""A page or an API answer drawn right after a move shows that move, even while the
table's room is still taking it in (it counted the change, its table is the one
before)."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import sync_to_async

from games import engine
from games.models import Game
from games.state import load_state
from live import room as rooms
from live import table as tables
from live.views import table_now
from tests.games.conftest import play_one, start_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_room_midway_through_a_change_is_not_taken_for_it() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    before = await sync_to_async(tables.read)(game.pk, game.code, None)
    assert before is not None
    await sync_to_async(play_one)(game, random.Random(1))
    row = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert row.version == before.game.version + 1
    room = rooms.Room(game.pk, game.code)
    room.table = before
    room.change_id = row.change_id  # heard the change, still drawing it
    rooms._rooms[game.pk] = room
    try:
        shown = await sync_to_async(table_now)(row)
        assert shown is not None and shown.game.version == row.version
        room.table = shown  # once it shows the change, it is taken as it is
        assert await sync_to_async(table_now)(row) is shown
    finally:
        rooms._rooms.pop(game.pk, None)


async def test_an_answer_shows_its_own_moves_version_whatever_came_since() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    rng = random.Random(2)
    await sync_to_async(play_one)(game, rng)
    row = await sync_to_async(Game.objects.get)(pk=game.pk)
    await sync_to_async(play_one)(game, rng)  # another player's move, just after
    shown = await sync_to_async(table_now)(row)
    assert shown is not None and shown.game.version == row.version
    at_row = await sync_to_async(load_state)(row)
    assert engine.view(shown.state, None) == engine.view(at_row, None)
