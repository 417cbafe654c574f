"""Fair play in real browsers: five players at a table with a short turn clock, one
closes the browser, the table sees that she is away, her time runs out and the bot
plays for her (the clock's runner, one pass at a time, run here against the same
test database the daphne process serves), the table sees that it did, she comes back
and her next decision is hers again, and the game is played to the end by clicking.
The review then lists the bot's moves, and the replay marks their step.

The runner is a separate process in production; its pushes reach the browsers
through the channel layer. Here the layer is in memory, per process, so the runner's
move is pushed only inside this test process: the other players reload once after
it (a presence change, made by daphne itself, still reaches them live)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games import engine, services
from games.engine import oracle
from games.models import Game, GameAction, Seat
from games.state import load_state
from tests.e2e.test_game_browser import live, make_move, wait_version
from tests.factories import UserFactory
from tests.games.test_leaks import secret_words

pytestmark = pytest.mark.browser

CLOCK_SECONDS = 3
MAX_MOVES = 250


def test_an_absent_player_is_covered_by_the_bot_and_takes_her_seat_back(
    new_player: Callable[..., Page],
) -> None:
    users = UserFactory.create_batch(5)
    pages = [new_player(user) for user in users]
    host = pages[0]
    host.goto("/games/new/")
    host.locator("input[name=ruleset][value=partisans]").check()
    host.locator("select[name=seat_count]").select_option("5")
    host.locator("select[name=turn_seconds]").select_option("30")
    host.locator("form.create-table button[type=submit]").click()
    expect(live(host)).to_have_attribute("data-status", "open")
    game = Game.objects.get()
    assert game.turn_seconds == 30
    # A clock of a few seconds, shorter than the form offers, for the test's sake.
    Game.objects.filter(pk=game.pk).update(turn_seconds=CLOCK_SECONDS)
    for page in pages[1:]:
        page.goto(f"/games/t/{game.code}/")
        page.get_by_role("button", name="Сесть за стол").click()
    start = host.get_by_role("button", name="Начать игру")
    expect(start).to_be_enabled(timeout=10_000)
    start.click()
    for page in pages:
        expect(live(page)).to_have_attribute("data-status", "playing", timeout=10_000)
        expect(page.locator("#table-clock")).to_have_attribute("role", "timer")
    game.refresh_from_db()
    seats = {seat.user_id: seat.position for seat in game.seats.all()}
    by_seat = {seats[user.pk]: page for user, page in zip(users, pages, strict=True)}
    user_of = {seats[user.pk]: user for user in users}

    # The first leader closes her browser before she proposes a team.
    vera = engine.view(load_state(game), None)["leader"]
    name = user_of[vera].display_name
    others = {seat: page for seat, page in by_seat.items() if seat != vera}
    by_seat[vera].context.close()
    for page in others.values():
        notice = page.locator("#table-presence")
        expect(notice).to_be_visible(timeout=10_000)
        expect(notice).to_contain_text(name)
        expect(notice.locator(".away-notice")).to_have_count(1)
    assert Seat.objects.get(game=game, position=vera).away_since is not None

    # Her time runs out; the runner's pass plays her decision, once.
    game.refresh_from_db()
    assert game.deadline is not None
    past = max(game.deadline, timezone.now()) + dt.timedelta(seconds=1)
    assert services.clocks_run_once(past) == 1
    assert services.clocks_run_once(past) == 0
    game.refresh_from_db()
    assert game.version == 1 and game.phase == "vote"
    bot_move = GameAction.objects.get(game=game, number=1)
    assert bot_move.by_bot and bot_move.position == vera
    for page in others.values():
        page.reload()
        expect(live(page)).to_have_attribute("data-version", "1")
        marks = page.locator("#bot-moves")
        expect(marks).to_contain_text(name)
        expect(marks.locator("[data-bot-mark='1']")).to_have_count(1)
        # Still away: the notice is drawn into a fresh page too.
        expect(page.locator("#table-presence")).to_contain_text(name)

    # The others vote; her grace runs out too, and the bot casts her ballot (what it
    # voted stays as secret as her own vote would).
    rng = random.Random(5)
    for page in others.values():
        assert make_move(page, rng)
        wait_version(list(others.values()), game.version + 1)
        game.refresh_from_db()
    Seat.objects.filter(game=game, position=vera).update(
        away_since=timezone.now() - dt.timedelta(minutes=5)
    )
    assert services.clocks_run_once() == 1
    vote = GameAction.objects.filter(game=game, position=vera).order_by("-number")[0]
    assert vote.by_bot and vote.payload["type"] == "vote"
    game.refresh_from_db()
    for page in others.values():
        page.reload()
        expect(live(page)).to_have_attribute("data-version", str(game.version))
        # Past the grace: the bot plays for her (a reload's own short absence may
        # show a moment too, until that page's socket is back).
        line = page.locator("#table-presence .away-notice", has_text=name)
        expect(line).to_have_class("away-notice expired")

    # She comes back: the notice goes from every screen by itself, and the seat is
    # hers again.
    returned = new_player(user_of[vera])
    returned.goto(f"/games/t/{game.code}/")
    expect(live(returned)).to_have_attribute("data-version", str(game.version))
    for page in others.values():
        expect(page.locator("#table-presence .away-notice")).to_have_count(
            0, timeout=10_000
        )
        expect(page.locator("#table-presence")).to_be_hidden()
    assert Seat.objects.get(game=game, position=vera).away_since is None
    back_at = game.version
    by_seat[vera] = returned

    # The rest of the game by clicking; no runner pass now, so every move is a
    # person's, and no screen learns anything it may not know.
    words = secret_words("partisans")
    everyone = list(by_seat.values())
    for _ in range(MAX_MOVES):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        state = load_state(game)
        for position, page in by_seat.items():
            leaks = oracle.find_leaks(state, position, page.content(), words)
            assert not leaks, (position, leaks)
        mover = rng.choice(sorted(engine.waiting_for(state)))
        assert make_move(by_seat[mover], rng)
        wait_version(everyone, game.version + 1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    hers = GameAction.objects.filter(game=game, position=vera, number__gt=back_at)
    assert hers.exists() and not hers.filter(by_bot=True).exists()
    assert not GameAction.objects.filter(number__gt=back_at, by_bot=True).exists()

    # The review lists the bot's moves; the replay marks their step.
    review = by_seat[vera]
    review.goto(f"/history/g/{game.code}/")
    listed = review.locator("[data-bot-moves]")
    expect(listed).to_contain_text(name)
    expect(listed.locator("[data-bot-mark]")).to_have_count(2)
    listed.locator("[data-bot-mark='1'] a").click()
    expect(review.locator(".replay-step [data-bot-mark]")).to_contain_text(name)
