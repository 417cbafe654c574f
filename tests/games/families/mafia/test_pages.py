"""Partisan (Mafia) on the site's pages: registered and offered for exactly ten seats,
the host becomes the moderator without a seat, the table's settings (the house
decisions a host chooses, with their defaults) on the create form and shown to every
player in the waiting room, the start, the moderator's console and a player's page,
the Rules page."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import engine, errors, services
from games.engine import oracle
from games.families.mafia.engine import HOUSE_DECISIONS
from games.kit.family import family_of, playable_rulesets
from games.models import Game
from games.selectors import my_tables
from games.state import load_state
from tests.factories import UserFactory
from tests.games.families.mafia.support import (
    RULESET,
    open_table,
    play_one,
    secret_words,
    start_table,
    users_by_seat,
)

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _page(user, game: Game, language: str = "en") -> str:
    response = _client(user).get(
        game.get_absolute_url(), headers={"accept-language": language}
    )
    assert response.status_code == 200
    return response.content.decode()


def test_the_family_is_registered_and_offered_with_its_options() -> None:
    assert RULESET in playable_rulesets()
    assert family_of(RULESET).code == "mafia"
    body = (
        _client(UserFactory())
        .get("/games/new/", headers={"accept-language": "fa"})
        .content.decode()
    )
    assert f'name="ruleset" value="{RULESET}"' in body
    # Every option of the engine, with its default, on the create form.
    for option in engine.get_ruleset(RULESET).options:
        assert f'name="opt_{RULESET}_{option.name}"' in body


@pytest.mark.parametrize(("seats", "ok"), [(9, False), (10, True)])
def test_a_table_takes_exactly_ten_and_the_host_moderates(seats: int, ok: bool) -> None:
    user = UserFactory()
    response = _client(user).post(
        "/games/new/",
        {
            "ruleset": RULESET,
            "seat_count": str(seats),
            f"opt_{RULESET}_slaughters": "2",
            f"opt_{RULESET}_defence_seconds": "45",
        },
    )
    assert Game.objects.filter(ruleset=RULESET).exists() is ok
    if ok:
        game = Game.objects.get()
        assert response["Location"] == game.get_absolute_url()
        assert game.moderator == user and game.host == user
        assert not game.seats.exists()  # the moderator takes no seat
        assert game.options["slaughters"] == 2
        assert game.options["defence_seconds"] == 45
        assert game.options["inquiry_reading"] == "sides"  # a default kept


def test_every_player_sees_the_settings_and_the_moderator_before_the_start() -> None:
    game, moderator, players = open_table({"slaughters": 0, "exit_tie": "all"})
    body = _page(players[3], game)
    assert "data-table-settings" in body and "data-moderator" in body
    assert moderator.display_name in body
    assert "Slaughters per game" in body and "Unlimited" in body
    for decision in HOUSE_DECISIONS[:3]:
        assert decision.split("(")[0][:40] in body.replace("&#x27;", "'")
    fa = _page(players[4], game, "fa")
    assert "data-table-settings" in fa


def test_the_moderator_cannot_take_a_seat_and_starts_with_ten() -> None:
    game, moderator, _players = open_table()
    with pytest.raises(errors.ModeratorCannotSit):
        services.seat_join(game=game, user=moderator)
    assert game in my_tables(moderator)  # back to his table in one tap
    game = services.game_start(game=game, user=moderator)
    assert game.status == Game.Status.PLAYING
    assert game in my_tables(moderator)
    assert game.seats.exclude(position=None).count() == 10


def test_the_moderator_sees_the_console_and_a_player_only_their_card() -> None:
    game, moderator = start_table()
    console = _page(moderator, game)
    assert "data-console" in console
    for role in ("General", "Partisan", "Radio operator", "Demolisher"):
        assert role in console  # the ledger names every card
    users = users_by_seat(game)
    state = load_state(game)
    roles = engine.final_roles(state)
    for seat in range(10):
        page = _page(users[seat], game)
        assert "data-console" not in page
        assert 'id="role-card"' in page
        assert not oracle.find_leaks(state, seat, page, secret_words())
        if roles[seat][1] == "citizens":
            # a citizen knows no other card: none is marked on the page
            for other in range(10):
                if other != seat:
                    assert f'data-seat="{other}" data-side=' not in page


def test_the_rules_page_explains_the_game() -> None:
    body = (
        _client()
        .get("/games/rules/", headers={"accept-language": "fa"})
        .content.decode()
    )
    assert f'id="{RULESET}"' in body
    assert "تکتیرانداز" in body and "بیسیمچی" in body


def test_a_finished_game_has_its_review_and_replay() -> None:
    game, moderator = start_table()
    rng = random.Random(5)
    while game.status == Game.Status.PLAYING:
        play_one(game, rng)
    users = users_by_seat(game)
    review = _client(users[0]).get(
        f"/history/g/{game.code}/", headers={"accept-language": "en"}
    )
    assert review.status_code == 200
    body = review.content.decode()
    for seat, (role, side) in enumerate(engine.final_roles(load_state(game))):
        assert f'data-seat="{seat}" data-side="{side}" data-role="{role}"' in body
    # The review's banner names the winners and why, in the game's own words.
    outcome = load_state(game).outcome
    assert outcome is not None
    winners = {"citizens": "The citizens win.", "mafia": "The mafia win."}
    reasons = {
        "no_mafia_left": "No mafia member is left in the game",
        "mafia_parity": "The mafia are at least as many as the citizens",
    }
    banner = body.split('role="status"', 1)[1].split("</div>", 1)[0]
    assert winners[outcome.winner] in banner
    assert reasons[outcome.reason] in banner
    tone = "over-good" if outcome.winner == "citizens" else "over-evil"
    assert f'<div class="banner {tone}" role="status">' in body
    for step in (0, 5, game.version // 2, game.version):
        for viewer in (users[1], moderator, None):
            replay = _client(viewer).get(f"/history/g/{game.code}/replay/?step={step}")
            assert replay.status_code == 200, (step, viewer)
