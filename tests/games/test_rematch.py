"""Play again with the same seats: the host opens a rematch in one tap after the game,
the players see it and join it (their ready), and the host starts it when full."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import errors, services
from games.models import Game
from tests.games.conftest import play_until, seated_users, start_table

pytestmark = pytest.mark.django_db


def _finished() -> Game:
    game = start_table("partisans", 5)
    play_until(game, random.Random(3), lambda g: False)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_the_host_opens_one_rematch_and_the_players_see_it() -> None:
    game = _finished()
    users = seated_users(game)
    host = game.host
    new = services.game_rematch(game=game, user=host)
    assert new.status == Game.Status.OPEN
    assert (new.ruleset, new.seat_count, new.options, new.is_private) == (
        game.ruleset,
        game.seat_count,
        game.options,
        game.is_private,
    )
    assert list(new.seats.values_list("user_id", flat=True)) == [host.pk]
    # A second tap gives the same table.
    assert services.game_rematch(game=game, user=host) == new
    # Every player of the finished game sees the way to it.
    client = Client()
    other = next(user for user in users.values() if user != host)
    client.force_login(other)
    page = client.get(game.get_absolute_url()).content.decode()
    assert new.get_absolute_url() in page
    for user in users.values():
        if user != host:
            services.seat_join(game=new, user=user)
    started = services.game_start(game=new, user=host)
    assert started.status == Game.Status.PLAYING


def test_only_the_host_and_only_after_the_end() -> None:
    game = _finished()
    other = next(u for u in seated_users(game).values() if u != game.host)
    with pytest.raises(errors.NotHost):
        services.game_rematch(game=game, user=other)
    playing = start_table("partisans", 5)
    with pytest.raises(errors.NotFinished):
        services.game_rematch(game=playing, user=playing.host)
    game.refresh_from_db()
    assert game.next_game is None
    assert Game.objects.count() == 2


def test_the_rematch_button_posts_and_goes_to_the_new_table() -> None:
    game = _finished()
    client = Client()
    client.force_login(game.host)
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"/games/t/{game.code}/rematch/" in page
    answer = client.post(f"/games/t/{game.code}/rematch/")
    game.refresh_from_db()
    assert answer.status_code == 302
    assert answer["Location"] == game.next_game.get_absolute_url()
