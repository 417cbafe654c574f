"""A side's private channel is drawn inside its members' cards while it is open (the
partisans' evil side confers before the sniper's shot), and on no other screen: the
lines, the form and the very place the channel's pushed lines go
(``#chat-evil-messages``)."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games import engine, services
from games.models import Game
from games.state import load_state
from live import parts
from live import table as tables
from tests.factories import UserFactory
from tests.games.conftest import play_until, seated_users, start_table

pytestmark = pytest.mark.django_db


def _area(game_pk: int, code: str, user: object) -> str:
    table = tables.read(game_pk, code)
    assert table is not None
    with translation.override("en"):
        html, _shown = parts.area(
            table, table.viewer(user), parts.Drawings(), token="t", user=user
        )
    return html


def _at_the_sniper() -> Game:
    for seed in range(60):
        game = start_table("partisans", 5, {"scout": True})
        game = play_until(game, random.Random(seed), lambda g: g.phase == "sniper")
        if game.phase == "sniper":
            return game
    pytest.fail("no random game reached the sniper phase")


def test_the_private_channel_is_in_its_members_cards_only() -> None:
    game = _at_the_sniper()
    users = seated_users(game)
    state = load_state(game)
    sides = {p: engine.view(state, p)["me"]["side"] for p in users}
    evil = next(p for p, side in sides.items() if side == "evil")
    services.chat_post(game=game, user=users[evil], text="aim at three", channel="evil")
    viewers = [(sides[p] == "evil", user) for p, user in users.items()]
    viewers.append((False, UserFactory()))
    for member, user in viewers:
        html = _area(game.pk, game.code, user)
        card = html[html.index('id="role-card"') :] if member else ""
        if member:
            assert 'id="chat-evil-messages"' in card
            assert "aim at three" in card
            assert 'name="channel" value="evil"' in card
        else:
            assert "chat-evil" not in html
            assert "aim at three" not in html
            assert 'value="evil"' not in html
