"""Pages and plain POSTs: every move also works without the socket, bad input gets a
clear message and changes nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.models import Game, GameAction, Seat
from tests.factories import UserFactory
from tests.games.conftest import public_view, seated_users, start_table

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_lobby_lists_open_public_tables_only() -> None:
    host = UserFactory()
    public = services.game_create(
        host=host, ruleset="partisans", seat_count=5, name="Пятница"
    )
    private = services.game_create(
        host=host, ruleset="werewolves", seat_count=6, is_private=True, name="Секретный"
    )
    body = Client().get("/games/").content.decode()
    assert public.code in body and "Пятница" in body
    assert private.code not in body and "Секретный" not in body
    # The host sees both under "my tables".
    mine = client_for(host).get("/games/").content.decode()
    assert private.code in mine


def test_create_a_table_through_the_form() -> None:
    user = UserFactory()
    client = client_for(user)
    assert client.get("/games/new/").status_code == 200
    response = client.post(
        "/games/new/",
        {
            "ruleset": "partisans",
            "seat_count": "7",
            "name": "Пятница",
            "opt_partisans_scout": "on",
            "opt_werewolves_growing_patrol": "on",
        },
    )
    game = Game.objects.get()
    assert (
        response.status_code == 302 and response["Location"] == game.get_absolute_url()
    )
    assert game.options["scout"] is True and game.options["check"] is False
    assert "growing_patrol" not in game.options
    assert game.seats.get().user == user


@pytest.mark.parametrize(
    "data",
    [
        {"ruleset": "chess", "seat_count": "5"},
        {"ruleset": "partisans", "seat_count": "11"},
        {"ruleset": "partisans", "seat_count": "five"},
        {"ruleset": "partisans", "seat_count": "5", "name": "x" * 61},
    ],
)
def test_bad_create_form_shows_errors_and_creates_nothing(data: dict) -> None:
    response = client_for(UserFactory()).post("/games/new/", data)
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert not Game.objects.exists()


def test_create_needs_a_login() -> None:
    response = Client().get("/games/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_join_leave_start_by_plain_post() -> None:
    users = UserFactory.create_batch(5)
    game = services.game_create(host=users[0], ruleset="partisans", seat_count=5)
    for user in users[1:]:
        response = client_for(user).post(f"/games/t/{game.code}/join/")
        assert response.status_code == 302
    assert game.seats.count() == 5
    response = client_for(users[1]).post(
        f"/games/t/{game.code}/start/", follow=True, headers={"accept-language": "en"}
    )
    assert "Only the host can do that." in response.content.decode()
    response = client_for(users[0]).post(f"/games/t/{game.code}/start/")
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


def test_a_move_by_plain_post_and_its_refusal() -> None:
    game = start_table("partisans", 5)
    view = public_view(game)
    users = seated_users(game)
    leader = users[view["leader"]]
    other = users[(view["leader"] + 1) % 5]
    url = f"/games/t/{game.code}/act/"
    response = client_for(other).post(
        url,
        {"action": "propose", "team": ["0", "1"], "turn": "0"},
        follow=True,
        headers={"accept-language": "en"},
    )
    assert "You are not the leader" in response.content.decode()
    assert GameAction.objects.count() == 0
    response = client_for(leader).post(
        url, {"action": "propose", "team": ["0", "1"], "turn": "0"}
    )
    assert response.status_code == 302
    assert GameAction.objects.count() == 1
    # A forged form field: nothing happens, a clear message.
    response = client_for(leader).post(
        url,
        {"action": "vote", "approve": "maybe", "turn": "1"},
        follow=True,
        headers={"accept-language": "en"},
    )
    assert "That move is not understood." in response.content.decode()
    assert GameAction.objects.count() == 1


def _unmasked(page: str) -> str:
    """A page without its CSRF tokens (masked afresh for every response)."""
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", page)


def test_a_move_by_htmx_returns_the_fresh_board_or_the_error() -> None:
    game = start_table("partisans", 5)
    view = public_view(game)
    leader = seated_users(game)[view["leader"]]
    response = client_for(leader).post(
        f"/games/t/{game.code}/act/",
        {"action": "propose", "team": ["0", "1"], "turn": "7"},
        headers={"hx-request": "true", "accept-language": "en"},
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert 'id="table-live"' in body and "The table moved on" in body


def test_get_on_a_move_is_not_allowed_and_csrf_is_enforced() -> None:
    game = start_table("partisans", 5)
    user = seated_users(game)[0]
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.get(f"/games/t/{game.code}/act/").status_code == 405
    response = client.post(
        f"/games/t/{game.code}/act/", {"action": "vote", "approve": "yes", "turn": "0"}
    )
    assert response.status_code == 403
    assert GameAction.objects.count() == 0


def test_unknown_table_is_404() -> None:
    assert Client().get("/games/t/nosuchtable/").status_code == 404
    response = client_for(UserFactory()).post("/games/t/nosuchtable/join/")
    assert response.status_code == 404


def test_anonymous_cannot_post() -> None:
    game = services.game_create(host=UserFactory(), ruleset="partisans", seat_count=5)
    response = Client().post(f"/games/t/{game.code}/join/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Seat.objects.count() == 1


def test_chat_over_post_is_escaped() -> None:
    game = start_table("partisans", 5)
    user = seated_users(game)[0]
    client = client_for(user)
    client.post(f"/games/t/{game.code}/chat/", {"text": "<script>alert(1)</script>"})
    body = client.get(f"/games/t/{game.code}/").content.decode()
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_over_long_chat_is_refused_with_a_message() -> None:
    game = start_table("partisans", 5)
    client = client_for(seated_users(game)[0])
    response = client.post(
        f"/games/t/{game.code}/chat/",
        {"text": "a" * 301},
        follow=True,
        headers={"accept-language": "en"},
    )
    assert "at most 300 characters" in response.content.decode()


def test_rules_page_shows_the_seed_tables() -> None:
    body = (
        Client()
        .get("/games/rules/", headers={"accept-language": "en"})
        .content.decode()
    )
    assert "Partisans" in body and "Werewolves" in body and "Trust No One" in body
    assert "5*" in body  # the two-fail fourth mission with 8-10 players


def test_table_page_for_a_spectator_and_the_russian_interface() -> None:
    game = start_table("werewolves", 6)
    body = client_for(UserFactory()).get(game.get_absolute_url()).content.decode()
    assert "ws-connect" in body
    assert "data-role-card" not in body  # a spectator has no card


def test_a_plain_post_from_the_page_carries_its_csrf_token() -> None:
    """Without JavaScript a move is the page's own form, posted: each form the page
    draws (the seat's regions are rendered apart from the page) carries the token."""
    game = start_table("partisans", 5)
    leader = seated_users(game)[public_view(game)["leader"]]
    client = Client(enforce_csrf_checks=True)
    client.force_login(leader)
    page = client.get(f"/games/t/{game.code}/").content.decode()
    form = re.search(
        r'<form method="post" action="/games/t/\S+/act/".*?</form>', page, re.S
    )
    assert form is not None
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.group(0))
    assert token is not None
    team = [0, 1]
    answer = client.post(
        f"/games/t/{game.code}/act/",
        {
            "csrfmiddlewaretoken": token.group(1),
            "action": "propose",
            "turn": str(game.turn),
            "team": [str(seat) for seat in team],
        },
    )
    assert answer.status_code == 302
    game.refresh_from_db()
    assert game.version == 1
