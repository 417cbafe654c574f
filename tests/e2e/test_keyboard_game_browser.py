"""A blind player plays a whole five-player game of Partisans by keyboard alone.

Ann's seat is driven with Tab, Space and Enter only (never a click, never a focus
set by the test): she picks her team, votes on every team and plays her mission
cards; the other four play through the services. The page's live region
(#announcer, role="status") is recorded from the first frame on, and the test
asserts what a screen reader was told: "your move" whenever the table turned to
her, what just happened after every vote and mission, and the result at the end.
Her face-down card is never read out: its secret is not in any announcement. Every
control she reached showed a visible focus ring.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from games import engine
from games.families.resistance.words import role_name
from tests.history.builders import FIVE, Table, deal

pytestmark = pytest.mark.browser

RECORD_ANNOUNCEMENTS = r"""
window.__said = [];
window.__news = [];
new MutationObserver(() => {
  const region = document.getElementById("announcer");
  if (region && region.textContent && window.__said.at(-1) !== region.textContent) {
    window.__said.push(region.textContent);
  }
  const news = document.querySelector("#table [data-news]");
  const line = news ? news.textContent.replace(/\s+/g, " ").trim() : "";
  if (line && !window.__news.includes(line)) window.__news.push(line);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
"""Every text the page puts into its live region, in order, and every news line it
showed."""
TABS = 120


def tab_to(page: Page, selector: str) -> None:
    """Press Tab until the focused element matches ``selector``: the control is
    reachable by keyboard, and shows that it has the focus."""
    for _ in range(TABS):
        page.keyboard.press("Tab")
        if page.evaluate(
            "(s) => !!document.activeElement && document.activeElement.matches(s)",
            selector,
        ):
            ring = page.evaluate(
                "() => { const s = getComputedStyle(document.activeElement);"
                " return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0; }"
            )
            assert ring, f"{selector} has the focus but shows no focus ring"
            return
    raise AssertionError(f"{selector} is not reachable with Tab")


def said(page: Page) -> list[str]:
    return list(page.evaluate("() => window.__said"))


def wait_for_version(page: Page, table: Table) -> None:
    """The page shows the table as it now is (its socket's push has arrived)."""
    version = str(table.refresh().version)
    expect(page.locator("#table-state")).to_have_attribute(
        "data-version", version, timeout=15_000
    )


def keyboard_move(page: Page, table: Table) -> None:
    """Ann's move, whatever the table asks of her, by keyboard."""
    view = engine.view(table.state(), table.position["ann"])
    kinds = {spec["type"] for spec in view["legal"]}
    if "propose" in kinds:
        size = next(
            m["size"] for m in view["missions"] if m["number"] == view["mission"]
        )
        order = sorted(table.position, key=table.position.__getitem__)
        team = ["ann", *[name for name in order if name != "ann"][: size - 1]]
        for name in team:
            tab_to(
                page,
                f"form.team-picker input[name=team][value='{table.position[name]}']",
            )
            page.keyboard.press("Space")
        tab_to(page, "form.team-picker [data-submit-team]")
        page.keyboard.press("Enter")
    elif "vote" in kinds:
        tab_to(page, "form:has(input[name=approve][value=yes]) button")
        page.keyboard.press("Enter")
    elif "play" in kinds:
        tab_to(page, "form:has(input[name=card][value=success]) button")
        page.keyboard.press("Enter")
    else:
        raise AssertionError(f"no keyboard move for {kinds}")


def test_a_blind_player_plays_a_whole_game(new_player: Callable[..., Page]) -> None:
    table = deal("partisans", FIVE, leader="ann", roles={"ann": "good"}, in_order=True)
    page = new_player(table.users["ann"])
    page.add_init_script(RECORD_ANNOUNCEMENTS)
    page.goto(table.game.get_absolute_url())
    expect(page.locator("body")).to_have_attribute("data-socket", "on")
    with translation.override("ru"):
        your_move = gettext("Your move")
    ann = table.position["ann"]
    moves = 0
    for _ in range(80):
        state = table.state()
        if engine.outcome(state) is not None:
            break
        public = engine.view(state, None)
        if engine.view(state, ann)["legal"]:
            wait_for_version(page, table)
            expect(page.locator("#announcer")).to_contain_text(your_move)
            keyboard_move(page, table)
            before = table.game.version
            for _ in range(100):
                if table.refresh().version != before:
                    break
                page.wait_for_timeout(50)
            assert table.game.version != before, "the keyboard move did not arrive"
            moves += 1
            continue
        # The others: every team has Ann on it, everyone approves and succeeds.
        if public["phase"] == "proposal":
            size = next(
                m["size"]
                for m in public["missions"]
                if m["number"] == public["mission"]
            )
            others = [n for n in FIVE if n != "ann"]
            table.propose(["ann", *others[: size - 1]])
        elif public["phase"] == "vote":
            for position in public["voters"]:
                name = table.name_at(position)
                if name != "ann" and position not in public["proposal"]["voted"]:
                    table.act(name, {"type": "vote", "approve": True})
        elif public["phase"] == "mission":
            for position in public["play"]["team"]:
                name = table.name_at(position)
                if name != "ann" and position not in public["play"]["played"]:
                    table.act(name, {"type": "play", "card": "success"})
        else:
            raise AssertionError(public["phase"])
    assert engine.outcome(table.state()) is not None
    wait_for_version(page, table)
    banner = page.locator("[data-banner]").inner_text().strip()
    expect(page.locator("#announcer")).to_contain_text(banner.split("\n")[0])
    heard = said(page)
    # Her turns: a proposal, three votes, three missions at least.
    assert moves >= 7, moves
    assert sum(your_move in line for line in heard) >= 4, heard
    # What happened after each vote and each mission was said too.
    shown = list(page.evaluate("() => window.__news"))
    assert len(shown) >= 3, shown
    for line in shown:
        assert any(line in text for text in heard), (line, heard)
    # Her card's secret is never said aloud while the game is on.
    role = engine.view(table.state(), ann)["me"]["role"]
    with translation.override("ru"):
        secret = str(role_name("partisans", role))
    for line in heard[:-1]:
        assert not re.search(rf"(?<!\w){re.escape(secret)}(?!\w)", line), line
