"""Five people, five browsers, one table: a whole game played through the real pages
in Debian's Chromium against daphne, every screen updating by itself.

Each player's page is read by the engine's leak oracle after every move (the DOM as
the socket's pushes left it), and the game ends on the post-game review."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games import engine
from games.engine import oracle
from games.models import Game
from games.state import load_state
from tests.factories import UserFactory
from tests.games.test_leaks import secret_words

pytestmark = pytest.mark.browser

MAX_MOVES = 250


def live(page: Page):
    """The table's state: its status, version and turn (``#table-state``, which
    every push carries)."""
    return page.locator("#table-state")


NO_JS: set[Page] = set()
"""Pages of players who browse without JavaScript: nothing is pushed to them, they
reload (as the page tells them to)."""


def wait_version(pages: list[Page], version: int) -> None:
    """Every screen shows the new state: pushed over its socket without a reload, or,
    without JavaScript, after the player reloads."""
    for page in pages:
        if page in NO_JS:
            for _ in range(50):
                page.reload()
                if live(page).get_attribute("data-version") == str(version):
                    break
        expect(live(page)).to_have_attribute(
            "data-version", str(version), timeout=10_000
        )


SAME_AS_RELOAD = r"""() => {
  const clean = (root) => {
    const copy = root.cloneNode(true);
    copy.querySelectorAll("details").forEach((d) => d.removeAttribute("open"));
    copy.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((i) => i.remove());
    copy.querySelectorAll("[class]").forEach((e) => {
      e.classList.remove("picked", "pending");
      if (!e.className) e.removeAttribute("class");
    });
    copy.querySelectorAll("button[disabled]")
      .forEach((b) => b.removeAttribute("disabled"));
    copy.querySelectorAll("[hx-swap-oob]")
      .forEach((e) => e.removeAttribute("hx-swap-oob"));
    // Who is away is a matter of time, not of the game's version: a player can go
    // away between the two reads (tests/games/test_presence.py covers the notice).
    // Its notice is shown or hidden by the same fact, so both are left out.
    copy.querySelectorAll("#table-presence").forEach((e) => {
      e.replaceChildren();
      e.removeAttribute("hidden");
    });
    return copy.innerHTML.replace(/\s+/g, " ").trim();
  };
  return [clean(document.getElementById("table-live")),
          clean(document.getElementById("chat-table-messages") || document.body)];
}"""


def assert_same_as_reload(page: Page) -> None:
    """What the pushes made of this page equals what a fresh load of it shows."""
    pushed = page.evaluate(SAME_AS_RELOAD)
    fresh = page.context.new_page()
    fresh.goto(page.url)
    expect(live(fresh)).to_have_attribute(
        "data-version", live(page).get_attribute("data-version") or ""
    )
    reloaded = fresh.evaluate(SAME_AS_RELOAD)
    fresh.close()
    assert pushed == reloaded


def fits_the_phone(page: Page) -> bool:
    """No horizontal scroll: the page is no wider than the phone's screen."""
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth"
    )


def make_move(page: Page, rng: random.Random) -> bool:
    """Play the move this page offers, the way a player would; False if none."""
    secret = page.locator("#role-card form.secret-action")
    if secret.count():
        # What only a role may do (the sniper's shot) is done from inside the card.
        page.locator("#role-card > summary").click()
        radios = secret.locator("input[type=radio]")
        radios.nth(rng.randrange(radios.count())).check()
        secret.locator("button[type=submit]").click()
        return True
    area = page.locator("section.action-area")
    if area.count() == 0 or area.locator("form").count() == 0:
        return False
    picker = area.locator("form.team-picker")
    if picker.count():
        size = int(picker.get_attribute("data-team-size") or "0")
        boxes = picker.locator("input[name=team]")
        for index in rng.sample(range(boxes.count()), size):
            boxes.nth(index).check()
        picker.locator("button[type=submit]").click()
        return True
    radios = area.locator("input[type=radio]")
    if radios.count():
        radios.nth(rng.randrange(radios.count())).check()
        area.locator("button[type=submit]").click()
        return True
    buttons = area.locator("button[type=submit]")
    labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
    # Approve most teams and play mostly success, so games reach the late phases
    # (checks after missions 2-4, the sniper's shot) instead of five rejections.
    weights = [8 if "✓" in label else 2 for label in labels]
    choice = rng.choices(range(len(labels)), weights=weights)[0]
    buttons.nth(choice).click()
    return True


def play_through(
    pages: dict[int, Page], code: str, rng: random.Random, words: dict[str, list[str]]
) -> Game:
    everyone = list(pages.values())
    for _ in range(MAX_MOVES):
        game = Game.objects.get(code=code)
        if game.status != Game.Status.PLAYING:
            return game
        state = load_state(game)
        for position, page in pages.items():
            leaks = oracle.find_leaks(state, position, page.content(), words)
            assert not leaks, (position, leaks)
            assert fits_the_phone(page), f"horizontal scroll at {game.phase}"
        live_pages = [page for page in pages.values() if page not in NO_JS]
        if live_pages and game.version % 3 == 0:
            assert_same_as_reload(rng.choice(live_pages))
        waiting = sorted(engine.waiting_for(state))
        mover = pages[rng.choice(waiting)]
        assert make_move(mover, rng), (
            f"seats {waiting} awaited in {game.phase} at version {game.version}, but "
            f"the page offers no move: {mover.locator('.banner').first.inner_text()}"
        )
        wait_version(everyone, game.version + 1)
    raise AssertionError("the game did not end")


def seat_table(
    new_player: Callable[..., Page],
    ruleset: str,
    options: list[str],
    *,
    without_js: int | None = None,
) -> tuple[dict[int, Page], str]:
    """Five players at a new table; ``without_js``: the index of one who browses
    with JavaScript off."""
    users = UserFactory.create_batch(5)
    pages = [
        new_player(user, javascript=index != without_js)
        for index, user in enumerate(users)
    ]
    NO_JS.clear()
    if without_js is not None:
        NO_JS.add(pages[without_js])
    host = pages[0]
    host.goto("/games/new/")
    host.locator(f"input[name=ruleset][value={ruleset}]").check()
    host.locator("select[name=seat_count]").select_option("5")
    for option in options:
        host.locator(f"input[name=opt_{ruleset}_{option}]").check()
    host.locator("input[name=name]").fill("Пятница")
    host.locator("form.create-table button[type=submit]").click()
    expect(live(host)).to_have_attribute("data-status", "open")
    link = host.locator("#share-link").input_value()
    code = Game.objects.get().code
    assert link.endswith(f"/games/t/{code}/")
    for page in pages[1:]:
        page.goto(f"/games/t/{code}/")
        page.get_by_role("button", name="Сесть за стол").click()
    # The host's screen filled up by itself; the start button is live now.
    start = host.get_by_role("button", name="Начать игру")
    expect(start).to_be_enabled(timeout=10_000)
    start.click()
    for page in pages:
        if page in NO_JS:
            expect(live(host)).to_have_attribute(
                "data-status", "playing", timeout=10_000
            )
            page.reload()
        expect(live(page)).to_have_attribute("data-status", "playing", timeout=10_000)
    game = Game.objects.get(code=code)
    by_user = {seat.user_id: seat.position for seat in game.seats.all()}
    return {
        by_user[user.pk]: page for user, page in zip(users, pages, strict=True)
    }, code


def test_partisans_with_both_presets_to_the_review(
    new_player: Callable[..., Page],
) -> None:
    pages, code = seat_table(new_player, "partisans", ["scout", "check"], without_js=3)
    # The role card is face down until tapped, and turns back when tapped again.
    first = pages[0]
    card = first.locator("[data-role-card]")
    expect(card.locator(".front")).to_be_hidden()
    card.locator("summary").click()
    expect(card.locator(".front")).to_be_visible()
    card.locator("summary").click()
    expect(card.locator(".front")).to_be_hidden()

    game = play_through(pages, code, random.Random(7), secret_words("partisans"))
    assert game.status == Game.Status.FINISHED
    for page in pages.values():
        banner = page.locator(".banner").first
        expect(banner).to_have_class(f"banner over-{game.winner}")
        # Every card is turned up on every screen.
        for position in range(5):
            expect(
                page.locator(f".board-seats li[data-seat='{position}'][data-side]")
            ).to_have_count(1)
    review = pages[0].get_by_role("link", name="Полный разбор игры")
    review.click()
    expect(pages[0]).to_have_url(f"/history/g/{code}/")
    # The address changes when the new page starts: measure once it has its styles.
    pages[0].wait_for_load_state("load")
    assert fits_the_phone(pages[0])


def test_werewolves_to_the_end(new_player: Callable[..., Page]) -> None:
    pages, code = seat_table(new_player, "werewolves", [])
    expect(pages[0].locator(".tokens")).to_contain_text("3")
    game = play_through(pages, code, random.Random(11), secret_words("werewolves"))
    assert game.status == Game.Status.FINISHED
    # The pages named every move they sent (table.js's move_id), each once.
    from games.models import GameAction, MoveReceipt

    receipts = MoveReceipt.objects.filter(game=game)
    assert receipts.count() == GameAction.objects.filter(game=game).count()
    assert len(set(receipts.values_list("user_id", "key"))) == receipts.count()
    for page in pages.values():
        expect(page.locator(".banner").first).to_have_class(
            f"banner over-{game.winner}"
        )
