"""The analysis board on a 390 px phone in Debian's Chromium, in Russian, English and
Persian: the heat-map and the moments on a finished game's review, the highlighted
stage following the replay, "see as" switching the board to one player's odds, and
the ten-player board fitting the screen without a sideways scroll."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_game_browser import fits_the_phone
from tests.history.builders import random_game
from tests.history.records import g1_evil_win

pytestmark = pytest.mark.browser


def _current_stage(page: Page) -> str:
    return (
        page.locator("[data-analysis] thead th[aria-current=step]").get_attribute(
            "data-stage"
        )
        or ""
    )


def _board_fits(page: Page) -> bool:
    """The heat-map needs no sideways scroll inside its card either."""
    return page.evaluate(
        "() => { const w = document.querySelector('[data-analysis] .table-wrap');"
        " return w.scrollWidth <= w.clientWidth + 1; }"
    )


@pytest.mark.parametrize("locale", ["ru-RU", "en-US", "fa-IR"])
def test_the_board_follows_the_replay(
    new_player: Callable[..., Page], locale: str
) -> None:
    table = g1_evil_win()
    page = new_player(locale=locale)
    page.goto(f"/history/g/{table.game.code}/")
    board = page.locator("[data-analysis]")
    expect(board).to_be_visible()
    expect(page.locator("[data-moments] li")).to_have_count(3)
    assert fits_the_phone(page) and _board_fits(page)
    rows = board.locator("tbody tr")
    expect(rows).to_have_count(5)
    cells = board.locator("tbody tr").first.locator("td")
    expect(cells).to_have_count(5)
    if locale == "fa-IR":
        expect(cells.nth(1)).to_have_text("۵۷")
        assert page.evaluate("() => document.documentElement.dir") == "rtl"
    else:
        expect(cells.nth(1)).to_have_text("57")
    assert _current_stage(page) == "0"
    # Step through the replay: the highlighted stage moves with it.
    stages = [
        value or ""
        for value in board.locator("thead th[data-stage]").evaluate_all(
            "ths => ths.map(th => th.dataset.stage)"
        )
    ]
    target = int(stages[1])
    page.locator("[data-analysis] .heat-stages a").nth(1).click()
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", str(target))
    assert _current_stage(page) == str(target)
    page.locator("#replay-next").click()
    expect(page.locator("[data-replay]")).to_have_attribute(
        "data-step", str(target + 1)
    )
    assert _current_stage(page) == str(target)
    # htmx makes swapped-in content live once it settles (20 ms): a person cannot
    # change the list sooner, a test can, and its change would go unheard.
    expect(page.locator("#replay")).not_to_have_class(re.compile(r"\bhtmx-added\b"))
    # See as Ann (seat 0, evil): she knew both traitors from the deal.
    page.locator("#replay-as").select_option("0")
    expect(page.locator("[data-analysis]")).to_have_attribute("data-analysis-as", "0")
    first = page.locator("[data-analysis] tbody tr").first.locator("td")
    expect(first.first).to_have_text("۱۰۰" if locale == "fa-IR" else "100")
    assert fits_the_phone(page) and _board_fits(page)


def test_ten_players_fit_the_phone(new_player: Callable[..., Page]) -> None:
    table = random_game("partisans", 10, 2, options={"scout": True, "check": True})
    page = new_player()
    page.goto(f"/history/g/{table.game.code}/?as=3#replay")
    board = page.locator("[data-analysis]")
    expect(board.locator("tbody tr")).to_have_count(10)
    assert fits_the_phone(page) and _board_fits(page)
