"""The admin lists every game record, and shows a staff member who is also a player
nothing their seat could not see."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import engine, services
from games.families.resistance.models import Vote
from games.models import GameAction
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import play_until, seated_users, start_table

pytestmark = pytest.mark.django_db

PAGES = [
    "games/game",
    "games/gameaction",
    "resistance/mission",
    "resistance/missioncard",
    "resistance/proposal",
    "resistance/vote",
    "resistance/check",
    "resistance/shot",
    "games/chatmessage",
]


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_every_admin_page_renders(staff: Client) -> None:
    game = start_table("partisans", 7, {"scout": True, "check": True})
    play_until(game, random.Random(2), lambda g: False)
    for page in PAGES:
        response = staff.get(f"/admin/{page}/")
        assert response.status_code == 200, page
    assert staff.get(f"/admin/games/game/{game.pk}/change/").status_code == 200


def test_a_vote_in_progress_and_every_card_stay_hidden(staff: Client) -> None:
    game = start_table("partisans", 5)
    play_until(game, random.Random(4), lambda g: g.phase == "vote")
    users = seated_users(game)
    voter = next(iter(engine.waiting_for(load_state(game))))
    services.game_act(
        game=game,
        user=users[voter],
        action={"type": "vote", "approve": False},
        turn=game.turn,
    )
    vote = Vote.objects.get(proposal__approved__isnull=True, seat__position=voter)
    body = staff.get(f"/admin/resistance/vote/{vote.pk}/change/").content.decode()
    assert "False" not in body
    action = GameAction.objects.filter(game=game).latest("number")
    body = staff.get("/admin/games/gameaction/").content.decode()
    assert "&#x27;approve&#x27;: False" not in body and "'approve': False" not in body
    play_until(game, random.Random(5), lambda g: False)
    body = staff.get("/admin/games/gameaction/").content.decode()
    assert "&#x27;card&#x27;: &#x27;fail&#x27;" not in body
    assert "&#x27;card&#x27;: &#x27;success&#x27;" not in body
    assert action.pk


def test_the_evil_channel_of_a_game_in_play_is_closed_in_the_admin(
    staff: Client,
) -> None:
    from games.models import ChatMessage

    game = start_table("partisans", 5, {"scout": True})
    author = seated_users(game)[0]
    ChatMessage.objects.create(
        game=game, author=author, channel="evil", text="секретный план"
    )
    body = staff.get("/admin/games/chatmessage/").content.decode()
    assert "секретный план" not in body
