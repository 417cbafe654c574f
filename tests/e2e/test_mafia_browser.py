"""A moderator and ten players, each in their own Chromium at phone width and in
Persian, play Partisan (Mafia) through the real pages against daphne from the create
form to the second night: the host creates the table and moderates it without a seat,
the ten join, the waiting room shows the table's settings, every player taps through
the introduction night on screens of one shape, the moderator confirms the dawn from
his console, the day's votes are cast on the ballots, night falls and is played to
its dawn. After every move the engine's leak oracle reads every page's DOM as the
socket's pushes left it, and no page scrolls sideways."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games import engine
from games.engine import oracle
from games.models import Game
from games.state import load_state
from tests.e2e.test_game_browser import fits_the_phone, live
from tests.factories import UserFactory
from tests.games.families.mafia.support import secret_words

pytestmark = pytest.mark.browser

RULESET = "mafia_partisan"
MODERATOR_ORDER = ("confirm_night", "midday", "close_vote", "start_vote", "end_day")


def _check_some(page: Page, selector: str, rng: random.Random, count: int = 1) -> None:
    boxes = page.locator(f"{selector}:not([disabled])")
    if boxes.count():
        for index in rng.sample(range(boxes.count()), min(count, boxes.count())):
            boxes.nth(index).check()


def player_move(page: Page, rng: random.Random) -> bool:
    night = page.locator("section.mafia-night form")
    if night.count():
        form = page.locator("section.mafia-night").get_attribute("data-form")
        for name in ("number", "mode", "target"):
            _check_some(page, f"section.mafia-night input[name={name}]", rng)
        if form == "pair":
            _check_some(page, "section.mafia-night input[name=targets]", rng, 2)
        _check_some(page, "section.mafia-night input[name=guess]", rng)
        night.locator("button[type=submit]").click()
        return True
    ballot = page.locator("section.mafia-ballot form")
    if ballot.count():
        boxes = ballot.locator("input[name=candidates]")
        if boxes.count() and rng.random() < 0.5:
            boxes.nth(rng.randrange(boxes.count())).check()
        ballot.locator("button[type=submit]").click()
        return True
    return False


def too_wide(page: Page) -> list[str]:
    """The innermost elements sticking out of the screen (for the failure message)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => { const r = e.getBoundingClientRect();
                return r.width && (r.right > innerWidth + 1 || r.left < -1); })
            .filter(e => ![...e.children].some(c => {
                const r = c.getBoundingClientRect();
                return r.width && (r.right > innerWidth + 1 || r.left < -1); }))
            .slice(0, 5)
            .map(e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40))
        """
    )


def moderator_move(page: Page) -> bool:
    for move in MODERATOR_ORDER:
        form = page.locator(f"form.mafia-move[data-move={move}]")
        if form.count():
            form.first.locator("button[type=submit]").click()
            return True
    return False


def test_a_moderated_game_in_persian_at_phone_width(
    new_player: Callable[..., Page],
) -> None:
    host_user = UserFactory()
    users = UserFactory.create_batch(10)
    host = new_player(host_user, locale="fa-IR")
    host.goto("/games/new/")
    host.locator(f"input[name=ruleset][value={RULESET}]").check()
    host.locator("select[name=seat_count]").select_option("10")
    host.locator("form.create-table button[type=submit]").click()
    expect(live(host)).to_have_attribute("data-status", "open")
    code = Game.objects.get().code
    pages = {}
    for user in users:
        page = new_player(user, locale="fa-IR")
        page.goto(f"/games/t/{code}/")
        expect(page.locator("[data-table-settings]")).to_be_visible()
        page.locator("form[action$='/join/'] button").click()
        pages[user.pk] = page
    assert host.locator("html").get_attribute("dir") == "rtl"
    start = host.locator("form[action$='/start/'] button")
    expect(start).to_be_enabled(timeout=10_000)
    start.click()
    everyone = [host, *pages.values()]
    for page in everyone:
        expect(live(page)).to_have_attribute("data-status", "playing", timeout=10_000)
    game = Game.objects.get(code=code)
    seats = {seat.position: pages[seat.user_id] for seat in game.seats.all()}
    seats[engine.MODERATOR] = host
    expect(host.locator("[data-console]")).to_be_visible()
    words = secret_words()
    rng = random.Random(11)
    for _ in range(200):
        game = Game.objects.get(code=code)
        state = load_state(game)
        for seat, page in seats.items():
            leaks = oracle.find_leaks(state, seat, page.content(), words)
            assert not leaks, (seat, game.version, leaks)
            assert fits_the_phone(page), (seat, game.phase, too_wide(page))
        view = engine.view(state, None)
        if view["phase"] == "dawn" and view["night"]["number"] == 1:
            break
        waiting = [s for s in engine.waiting_for(state) if s != engine.MODERATOR]
        players_move = view["phase"] in ("night", "midday", "vote") and bool(waiting)
        mover = seats[rng.choice(waiting)] if players_move else host
        for _attempt in range(4):
            moved = player_move(mover, rng) if players_move else moderator_move(host)
            assert moved, (view["phase"], waiting)
            try:
                expect(live(mover)).not_to_have_attribute(
                    "data-version", str(game.version), timeout=5_000
                )
                break
            except AssertionError:
                continue  # a refused random pick (a rule it broke): pick again
        else:
            raise AssertionError(f"no move taken in {view['phase']}")
        version = Game.objects.get(code=code).version
        for page in everyone:
            expect(live(page)).to_have_attribute(
                "data-version", str(version), timeout=10_000
            )
    else:
        raise AssertionError("the second dawn never came")
    # The moderator's console holds the night's resolution to confirm.
    expect(host.locator("form.mafia-move[data-move=confirm_night]")).to_be_visible()
    assert host.locator("[data-console] tr[data-role]").count() == 10
