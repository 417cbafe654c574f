"""A newcomer's first games, on exactly the processes ``make run`` starts
(``manage.py serve``: the development server with its code reloader, and the clocks'
runner beside it, each with its own channel layer on the default run): the bots' and
the runner's moves reach the open screens with no reload."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import Page, expect

from games import engine, services
from games.models import Game
from games.state import load_state
from tests.e2e.conftest import BASE_DIR, _free_port, _healthy
from tests.e2e.test_game_browser import live, make_move
from tests.factories import UserFactory
from tests.games.conftest import seated_users

pytestmark = pytest.mark.browser

GRACE_SECONDS = 2
"""The serving processes' grace for an away player, short for the test."""
WAIT_MS = 60_000
"""How long a screen is waited for: a safety net on a loaded machine only."""


@pytest.fixture(scope="module")
def make_run_site(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """``manage.py serve`` on a free port, on the test database: ``make run``'s
    command, reloader and runner included."""
    port = _free_port()
    log_path: Path = tmp_path_factory.mktemp("serve") / "serve.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DJANGO_TEST_DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "PRESENCE_GRACE_SECONDS": str(GRACE_SECONDS),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.pop("PYTEST_XDIST_WORKER", None)  # REDIS_URL already names its database
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not _healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"manage.py serve did not start:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield url
    finally:
        # The reloader's child and the runner are in the command's session.
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)


def version(page: Page) -> str:
    return live(page).get_attribute("data-version") or ""


def test_a_practice_game_with_four_bots_plays_to_its_end_on_one_page(
    new_player: Callable[..., Page], make_run_site: str
) -> None:
    host = UserFactory()
    page = new_player(host, server=make_run_site)
    page.goto("/games/new/")
    page.locator("input[name=ruleset][value=partisans]").check()
    page.locator("select[name=seat_count]").select_option("5")
    page.locator("form.create-table button[type=submit]").click()
    expect(live(page)).to_have_attribute("data-status", "open")
    page.locator("form[data-fill-bots] button[type=submit]").click()
    start = page.get_by_role("button", name="Начать игру")
    expect(start).to_be_enabled(timeout=WAIT_MS)
    start.click()
    expect(live(page)).to_have_attribute("data-status", "playing", timeout=WAIT_MS)
    # From here on the page is never loaded again: a reload would lose this mark.
    page.evaluate("() => { window.sameDocument = true; }")
    rng = random.Random(3)
    deadline = time.monotonic() + 900
    while live(page).get_attribute("data-status") == "playing":
        assert time.monotonic() < deadline, "the practice game did not end"
        before = version(page)
        if make_move(page, rng):
            # The move, or a refusal (the table moved on meanwhile) and its fresh
            # seat: either way the page is drawn again before the next try.
            expect(page.locator("form.pending")).to_have_count(0, timeout=WAIT_MS)
            continue
        # The bots' turn: their moves come by themselves.
        expect(live(page)).not_to_have_attribute(
            "data-version", before, timeout=WAIT_MS
        )
    expect(live(page)).to_have_attribute("data-status", "finished")
    assert page.evaluate("() => window.sameDocument === true"), "the page reloaded"
    game = Game.objects.get(code=page.url.rstrip("/").rsplit("/", 1)[-1])
    assert game.status == Game.Status.FINISHED and game.with_bots


def test_the_bot_playing_for_a_player_who_left_shows_on_every_other_screen(
    new_player: Callable[..., Page], make_run_site: str
) -> None:
    users = UserFactory.create_batch(5)
    game = services.game_create(
        host=users[0], ruleset="partisans", seat_count=5, turn_seconds=300
    )
    for user in users[1:]:
        services.seat_join(game=game, user=user)
    game = services.game_start(game=game, user=users[0])
    seats = seated_users(game)
    pages = {
        position: new_player(user, server=make_run_site)
        for position, user in seats.items()
    }
    for page in pages.values():
        # The socket's first frame swaps the whole live area in again: a team
        # ticked before it comes would be unticked by it.
        page.add_init_script(
            "window.__frames = 0; document.addEventListener('htmx:wsAfterMessage',"
            " () => { window.__frames += 1; });"
        )
        page.goto(game.get_absolute_url())
        expect(live(page)).to_have_attribute("data-status", "playing")
        page.wait_for_function("() => window.__frames > 0", timeout=WAIT_MS)
    # The leader proposes; everyone but Зоя (the last seat) votes.
    rng = random.Random(5)
    (leader,) = engine.waiting_for(load_state(game))
    assert make_move(pages[leader], rng)
    for page in pages.values():
        expect(live(page)).to_have_attribute("data-version", "1", timeout=WAIT_MS)
    zoya = 4
    for position, page in pages.items():
        if position != zoya:
            page.locator("form:has(input[name=approve][value=yes]) button").click()
            expect(page.locator("form.pending")).to_have_count(0, timeout=WAIT_MS)
    # She closes her browser: after the grace, the runner's bot votes for her, and
    # every other screen shows the vote decided and the bot's mark.
    pages.pop(zoya).context.close()
    for page in pages.values():
        expect(live(page)).to_have_attribute("data-version", "6", timeout=WAIT_MS)
        expect(page.locator("#bot-moves [data-bot-mark='6']")).to_have_count(1)
    game.refresh_from_db()
    assert game.bot_marks == [[6, zoya]]
