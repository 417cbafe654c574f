"""The parts of a view that every seat shares are made once per table state (the
views' ``memo``) and never changed by anyone who reads them."""

from __future__ import annotations

import copy
import random

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.families.resistance.engine import view as views
from games.models import Game
from live import parts
from live import table as tables
from tests.games.conftest import draw_push, seated_users, start_table


@pytest.mark.django_db
def test_every_seat_reads_the_same_track_and_history_and_nobody_changes_them() -> None:
    game = start_table("partisans", 7, {"scout": True, "check": True})
    users = seated_users(game)
    rng = random.Random(3)
    sent: dict[int, object] = {}
    drawings = parts.Drawings()
    client = Client()
    for _step in range(400):
        game.refresh_from_db()
        table = tables.read(game.pk, game.code)
        assert table is not None
        state = table.state
        one, other = table.view(0), table.view(1)
        assert one is not None and other is not None
        assert one["missions"] is other["missions"]
        assert one["history"] is other["history"]
        made = copy.deepcopy((one["missions"], one["history"]))
        for position, user in users.items():
            sent[position] = draw_push(table, user, sent.get(position), drawings)
        client.force_login(users[game.version % len(users)])
        assert client.get(reverse("games:table", args=[game.code])).status_code == 200
        # Every seat's drawing, a page and the bot's reading leave them as made.
        for waiting in engine.waiting_for(state):
            engine.bot_action(engine.view(state, waiting), random.Random(1))
        assert (one["missions"], one["history"]) == made
        assert (views._missions(state), views._history(state)) == made
        if game.status != Game.Status.PLAYING:
            break
        seat, action = engine.random_action(state, rng)
        services.game_act(game=game, user=users[seat], action=action, turn=game.turn)
    assert game.status == Game.Status.FINISHED
