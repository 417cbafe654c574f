"""Three and four people, each in their own Chromium at phone width, play cells to the
end through the real pages against daphne: every screen updates by itself, none
scrolls sideways, and the engine's leak oracle reads every player's page (the DOM as
the socket's pushes left it) after every move: a player's own cards are on their
screen only at the first look, during their own swap and just after a look."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games import engine
from games.engine import oracle
from games.models import Game
from games.state import load_state
from tests.e2e.test_game_browser import fits_the_phone, live, wait_version
from tests.factories import UserFactory
from tests.games.families.cells.support import secret_words

pytestmark = pytest.mark.browser

MAX_MOVES = 300


def open_card(page: Page) -> None:
    card = page.locator("#role-card")
    if not card.evaluate("details => details.open"):
        card.locator("summary").click()


def make_move(page: Page, rng: random.Random) -> str:
    """Play the move this page offers, the way a player would; "" if none."""
    secret = page.locator("#role-card form")
    if secret.count():
        # Confirming the first look, exchanging or not, discarding: on the card.
        open_card(page)
        buttons = page.locator("#role-card form button[type=submit]")
        buttons.nth(rng.randrange(buttons.count())).click()
        return "card"
    forms = page.locator("section.action-area form.cells-move")
    if forms.count() == 0:
        return ""
    form = forms.nth(rng.randrange(forms.count()))
    move = form.get_attribute("data-move") or ""
    for name in ("mine", "theirs", "partner", "slot"):
        radios = form.locator(f"input[type=radio][name={name}]")
        if radios.count():
            radios.nth(rng.randrange(radios.count())).check()
    form.locator("button[type=submit]").click()
    return move


def seat_table(
    new_player: Callable[..., Page], players: int
) -> tuple[dict[int, Page], str]:
    users = UserFactory.create_batch(players)
    pages = [new_player(user) for user in users]
    host = pages[0]
    host.goto("/games/new/")
    host.locator("input[name=ruleset][value=cells]").check()
    host.locator("select[name=seat_count]").select_option(str(players))
    host.locator("form.create-table button[type=submit]").click()
    expect(live(host)).to_have_attribute("data-status", "open")
    code = Game.objects.get().code
    for page in pages[1:]:
        page.goto(f"/games/t/{code}/")
        page.get_by_role("button", name="Сесть за стол").click()
    start = host.get_by_role("button", name="Начать игру")
    expect(start).to_be_enabled(timeout=10_000)
    start.click()
    for page in pages:
        expect(live(page)).to_have_attribute("data-status", "playing", timeout=10_000)
    game = Game.objects.get(code=code)
    by_user = {seat.user_id: seat.position for seat in game.seats.all()}
    return {
        by_user[user.pk]: page for user, page in zip(users, pages, strict=True)
    }, code


def play_through(pages: dict[int, Page], code: str, rng: random.Random) -> Game:
    everyone = list(pages.values())
    words = secret_words()
    made: set[str] = set()
    for _ in range(MAX_MOVES):
        game = Game.objects.get(code=code)
        state = load_state(game)
        for position, page in pages.items():
            leaks = oracle.find_leaks(state, position, page.content(), words)
            assert not leaks, (position, game.version, leaks)
            assert fits_the_phone(page), f"horizontal scroll at {game.phase}"
        if game.status != Game.Status.PLAYING:
            assert {"card", "swap", "mission"} <= made
            return game
        waiting = sorted(engine.waiting_for(state))
        mover = pages[rng.choice(waiting)]
        move = make_move(mover, rng)
        assert move, (
            f"seats {waiting} awaited in {game.phase} at version {game.version}, but "
            f"the page offers no move: {mover.locator('.banner').first.inner_text()}"
        )
        made.add(move)
        wait_version(everyone, game.version + 1)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (4, 6)])
def test_cells_to_the_end_at_phone_width(
    new_player: Callable[..., Page], players: int, seed: int
) -> None:
    pages, code = seat_table(new_player, players)
    # The first look: the three cards are on the face-down card, closed until tapped.
    first = pages[0]
    card = first.locator("[data-role-card]")
    expect(card.locator(".front")).to_be_hidden()
    card.locator("summary").click()
    expect(card.locator(".front [data-card]")).to_have_count(3)
    card.locator("summary").click()
    expect(card.locator(".front")).to_be_hidden()

    game = play_through(pages, code, random.Random(seed))
    assert game.status == Game.Status.FINISHED
    for page in pages.values():
        expect(page.locator(".banner").first).to_have_class(
            f"banner over-{game.winner}"
        )
        # Every card is turned up on every screen.
        expect(page.locator(".board-seats [data-card]")).to_have_count(3 * players)
    pages[0].get_by_role("link", name="Полный разбор игры").click()
    expect(pages[0]).to_have_url(f"/history/g/{code}/")
    expect(pages[0].locator("[data-dealt]")).to_have_count(3 * players)
    assert fits_the_phone(pages[0])
