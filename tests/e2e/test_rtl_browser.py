"""Persian, right to left, on a 390 px phone in Debian's Chromium: every main page is
mirrored, not broken.

Each page is checked the same way (:func:`check_page`): <html lang="fa" dir="rtl">;
no horizontal scroll and nothing sticking out of the screen; no two siblings
overlapping in the header, the navigation, the table's header, a seat row, the
mission track, an action row, the replay controls or a lobby or history row;
numbers people read in Persian digits, while form values, links and data-
attributes keep ASCII digits. Page by page it then checks what is mirrored: the
brand on the right, mission 1 rightmost, "previous" on the right and pointing
right (and the → key going back), time running right to left in the charts, and a
Latin or Cyrillic name ("Оля!") still written left to right inside the Persian page.

PODPOLYE_SCREENSHOTS=<folder> saves a full-page PNG of every page checked.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import FloatRect, Locator, Page, expect

from games import engine, services
from history.figures import games_url
from tests.factories import UserFactory
from tests.history.builders import Table, deal

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("PODPOLYE_SCREENSHOTS", "")
PERSIAN_DIGIT = re.compile("[۰-۹]")
ASCII_DIGIT = re.compile("[0-9]")

# Names as players type them: Cyrillic with punctuation at the end, Latin with a
# number of its own, Persian, and one long enough to wrap a seat row.
NAMES = {
    "ann": "Оля!",
    "bob": "Max 2",
    "cat": "علی",
    "dan": "Александра Константиновна",
    "eve": "Zoë (Z)",
}

SIBLINGS = [
    ".site-header",
    ".site-nav",
    ".lang-switch",
    ".table-header",
    ".board-seats li",
    ".seats li",
    ".track",
    ".pips",
    ".actions",
    ".replay-controls",
    ".list-rows > li > .row",
    ".history-rows .row",
    ".share",
    ".chat-form",
    ".pagination",
]

JS = Path(__file__).with_name("js")
LAYOUT = (JS / "layout.js").read_text(encoding="utf-8")


def shot(page: Page, label: str) -> None:
    if SHOTS:
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        # caret="initial": hiding the caret would inject a style the CSP refuses.
        page.screenshot(
            path=str(folder / f"{label}.png"), full_page=True, caret="initial"
        )


def check_page(page: Page, label: str) -> None:
    """The checks every Persian page passes (see the module notes)."""
    html = page.locator("html")
    expect(html).to_have_attribute("lang", "fa")
    expect(html).to_have_attribute("dir", "rtl")
    problems = page.evaluate(LAYOUT, SIBLINGS)
    shot(page, label)
    assert not problems, f"{label}: " + "\n".join(problems[:12])
    # The brand opens the header at the right, the side a Persian line starts.
    brand = page.locator(".brand").bounding_box()
    assert brand is not None
    assert brand["x"] + brand["width"] > 390 - 40, f"{label}: brand not on the right"


def box_of(locator: Locator) -> FloatRect:
    """The element's box once it is shown (a push may be redrawing it)."""
    expect(locator).to_be_visible()
    for _ in range(20):
        box = locator.bounding_box()
        if box is not None:
            return box
        locator.page.wait_for_timeout(50)
    raise AssertionError(f"{locator} is not shown")


def persian_number(page: Page, selector: str, *, names: Iterable[str] = ()) -> str:
    """The element's text has a number in Persian digits and none in ASCII once
    the players' names (which keep their own digits) are taken out."""
    text = page.locator(selector).first.inner_text()
    rest = text
    for name in names:
        rest = rest.replace(name, "")
    assert PERSIAN_DIGIT.search(rest), f"{selector}: no Persian digit in {text!r}"
    assert not ASCII_DIGIT.search(rest), f"{selector}: ASCII digit in {text!r}"
    return text


def name_reads_left_to_right(page: Page, name: str) -> None:
    """A Latin or Cyrillic name inside the Persian page is drawn left to right: its
    first letter left of its last character (without isolation "Оля!" would show
    its "!" on the left)."""
    first_left, last_left = page.evaluate(
        """(name) => {
          const bdi = [...document.querySelectorAll("bdi")].find(
            (el) => el.textContent === name && el.getBoundingClientRect().width > 0);
          const text = bdi.firstChild;
          const at = (i) => {
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            return range.getBoundingClientRect().left;
          };
          return [at(0), at(name.length - 1)];
        }""",
        name,
    )
    assert first_left < last_left, f"{name!r} is drawn right to left"


POINTS = (JS / "arrow.js").read_text(encoding="utf-8")


def points(page: Page, selector: str) -> str:
    """Which way the arrow drawn in ``selector`` points, read from its pixels (the
    glyph a font draws, mirrored by the bidi algorithm or by CSS, not the markup)."""
    arrow = page.locator(selector)
    # Drawn big enough to read its shape (the CSSOM, which the CSP allows).
    arrow.evaluate("(el) => { el.style.fontSize = '64px'; }")
    image = arrow.screenshot(caret="initial")
    url = "data:image/png;base64," + base64.b64encode(image).decode()
    return str(page.evaluate(POINTS, url))


def persian_players() -> dict[str, Any]:
    return {
        username: UserFactory(username=username, display_name=name, language="fa")
        for username, name in NAMES.items()
    }


def test_pages_a_visitor_sees(new_player: Callable[..., Page]) -> None:
    page = new_player(locale="fa-IR")  # the browser asks for Persian
    for url, label in [
        ("/", "home"),
        ("/games/", "lobby-visitor"),
        ("/games/rules/", "rules"),
        ("/accounts/login/", "login"),
        ("/accounts/signup/", "signup"),
        ("/accounts/password/reset/", "password-reset"),
        ("/history/", "history-empty"),
        ("/games/t/NOSUCH/", "error-404"),
    ]:
        page.goto(url)
        check_page(page, label)
    page.goto("/")
    persian_number(page, "main .muted")  # "۵ تا ۱۰ بازیکن"
    page.goto("/games/rules/")
    persian_number(page, "table.data thead")
    # The error page's code is a number people read.
    page.goto("/games/t/NOSUCH/")
    assert page.locator(".error-page .code").inner_text() == "۴۰۴"
    # An expired form: the CSRF page, mirrored too.
    page.goto("/accounts/login/")
    page.context.clear_cookies()
    page.locator("#id_username").fill("nobody")
    page.locator("#id_password").fill("wrong-password")
    page.locator("form.account-form button[type=submit]").click()
    assert page.locator(".error-page .code").inner_text() == "۴۰۳"
    check_page(page, "error-csrf")


def _team(table: Table, size: int) -> list[str]:
    order = sorted(table.position, key=table.position.__getitem__)
    return order[:size]


def _size(table: Table) -> int:
    view = table.public()
    return next(m["size"] for m in view["missions"] if m["number"] == view["mission"])


def _seat_of(table: Table, role: str) -> str:
    state = table.state()
    for name, position in table.position.items():
        me = engine.view(state, position)["me"]
        if role in (me["role"], me["side"]):
            return name
    raise AssertionError(role)


def test_a_whole_table_in_persian(new_player: Callable[..., Page]) -> None:
    users = persian_players()
    pages = {username: new_player(user) for username, user in users.items()}
    ann = pages["ann"]

    # The lobby and the waiting room: seats in Persian digits.
    waiting = services.game_create(
        host=users["ann"], ruleset="partisans", seat_count=5, options={}, name="جمعه"
    )
    services.seat_join(game=waiting, user=users["bob"])
    ann.goto("/games/")
    check_page(ann, "lobby")
    assert "۲/۵" in persian_number(ann, "#lobby-tables .tag.team")
    ann.goto("/games/new/")
    check_page(ann, "create")
    # The fewest seats any game takes (3, for cells): shown in Persian, sent in ASCII.
    seats = ann.locator("select[name=seat_count] option").first
    expect(seats).to_have_text("۳")
    expect(seats).to_have_attribute("value", "3")
    ann.goto(waiting.get_absolute_url())
    check_page(ann, "waiting-room")
    persian_number(ann, ".banner small")
    name_reads_left_to_right(ann, "Оля!")
    services.table_close(game=waiting, host=users["ann"])

    table = deal(
        "partisans",
        list(NAMES),
        leader="ann",
        options={"scout": True, "check": True},
        name="Пятница 13",
    )
    code = table.game.code
    services.chat_post(game=table.game, user=users["bob"], text="سلام! 2 نفر مشکوکند")
    url = f"/games/t/{code}/"
    names = list(NAMES.values())

    def look(username: str, label: str) -> Page:
        page = pages[username]
        page.goto(url)
        expect(page.locator("#table-state")).to_have_attribute("data-status", "playing")
        # The socket's first frame redraws the live area: measure after it.
        expect(page.locator("body")).to_have_attribute("data-socket", "on")
        page.wait_for_load_state("networkidle")
        check_page(page, label)
        return page

    # Proposal: the leader's banner asks for a number of players; the track runs
    # from the right, its sizes in Persian digits.
    page = look("ann", "table-proposal")
    persian_number(page, ".banner")
    persian_number(page, ".track .m")
    circles = [box_of(page.locator(".track .m").nth(i)) for i in range(2)]
    assert circles[0] and circles[1] and circles[0]["x"] > circles[1]["x"]
    name_reads_left_to_right(page, "Оля!")
    name_reads_left_to_right(page, "Max 2")
    page.locator("#role-card > summary").click()
    check_page(page, "table-card-open")

    table.propose(_team(table, _size(table)))
    page = look("bob", "table-vote")
    persian_number(page, ".banner-detail", names=names)
    table.vote()
    first = table.name_at(table.public()["play"]["team"][0])
    page = look(first, "table-mission")
    persian_number(page, ".news")  # "the group is approved: ۵ for, ۰ against"
    table.play()
    table.mission(_team(table, _size(table)))
    # After the second operation the token holder checks, then announces.
    holder = table.name_at(table.public()["token"]["holder"])
    look(holder, "table-check")
    check = next(
        spec
        for spec in engine.view(table.state(), table.position[holder])["legal"]
        if spec["type"] == "check"
    )
    target = table.name_at(check["among"][0])
    table.act(holder, {"type": "check", "target": table.position[target]})
    look(holder, "table-claim")
    table.act(holder, {"type": "claim", "side": "good"})
    page = look("ann", "table-after-check")
    persian_number(page, ".log summary", names=names)  # the record, ۱ and ۲
    persian_number(page, ".vote-grid tbody th")
    table.mission(_team(table, _size(table)))
    # Three successes: the sniper's turn, from the card.
    sniper = _seat_of(table, "sniper")
    page = look(sniper, "table-sniper")
    page.locator("#role-card > summary").click()
    check_page(page, "table-sniper-card")
    table.shoot(sniper, _seat_of(table, "scout"))
    page = pages["ann"]
    page.goto(url)
    expect(page.locator("#table-state")).to_have_attribute("data-status", "finished")
    check_page(page, "table-over")

    # The review and its replay: "previous" on the right pointing right, and the
    # → key steps back.
    page.goto(f"/history/g/{code}/?step=6")
    check_page(page, "review")
    prev_box = page.locator("#replay-prev").bounding_box()
    next_box = page.locator("#replay-next").bounding_box()
    assert prev_box and next_box and prev_box["x"] > next_box["x"]
    assert points(page, "#replay-first > span") == "right"
    assert points(page, "#replay-prev > span") == "right"
    assert points(page, "#replay-next > span") == "left"
    assert points(page, "#replay-last > span") == "left"
    persian_number(page, ".replay-controls output")
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "6")
    page.locator("main h1").click()  # the keys are the page's, not a field's
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "5")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "6")
    check_page(page, "review-replay")

    # The history list and the profile with its charts.
    page.goto("/history/")
    check_page(page, "history")
    persian_number(page, ".history-rows time")
    page.goto(games_url("ann"))
    check_page(page, "history-of-a-player")
    page.goto("/u/ann/")
    check_page(page, "profile")
    persian_number(page, ".stat .value")
    _charts_mirrored_and_legible(page)
    for url, label in [
        ("/accounts/profile/", "profile-edit"),
        ("/accounts/password/", "password-change"),
    ]:
        page.goto(url)
        check_page(page, label)


def _charts_mirrored_and_legible(page: Page) -> None:
    charts = page.locator("svg.chart")
    assert charts.count() == 2
    for index in range(charts.count()):
        chart = charts.nth(index)
        assert chart.get_attribute("direction") == "rtl"
        texts = chart.locator("text")
        boxes = []
        for i in range(texts.count()):
            text = texts.nth(i)
            assert not ASCII_DIGIT.search(text.text_content() or "")
            box = text.bounding_box()
            assert box is not None
            # A label is at least 11 px high on the phone.
            size = text.evaluate(
                "(el) => el.getBoundingClientRect().height"
                " / el.getBBox().height * parseFloat(getComputedStyle(el).fontSize)"
            )
            assert size >= 11, f"chart label {text.text_content()!r} is {size:.1f}px"
            boxes.append((text.text_content(), box))
        for i, (label_a, a) in enumerate(boxes):
            for label_b, b in boxes[i + 1 :]:
                apart = (
                    a["x"] + a["width"] <= b["x"] + 0.5
                    or b["x"] + b["width"] <= a["x"] + 0.5
                    or a["y"] + a["height"] <= b["y"] + 0.5
                    or b["y"] + b["height"] <= a["y"] + 0.5
                )
                assert apart, f"chart labels overlap: {label_a!r} / {label_b!r}"


def test_a_werewolf_table_and_an_abandoned_game(
    new_player: Callable[..., Page],
) -> None:
    users = persian_players()
    page = new_player(users["cat"])
    table = deal("werewolves", list(NAMES), leader="cat")
    page.goto(f"/games/t/{table.game.code}/")
    check_page(page, "werewolves-proposal")
    persian_number(page, ".tokens")
    table.abandon()
    page.goto(f"/history/g/{table.game.code}/")
    check_page(page, "review-abandoned")
    expect(page.locator(".banner.abandoned")).to_be_visible()


def test_the_longest_mission_labels_stay_apart(
    new_player: Callable[..., Page],
) -> None:
    """Seven players, the fourth operation succeeding with one sabotage: under its
    circle the longest label the track shows («۱ خرابکاری، ولی موفق»),
    between a failed operation's and a successful one's."""
    users = persian_players()
    users |= {
        username: UserFactory(username=username, display_name=name, language="fa")
        for username, name in (("fay", "فاطمه"), ("gus", "Gus"))
    }
    names = [*NAMES, "fay", "gus"]
    table = deal("partisans", names, leader="ann")
    evil = next(name for name in names if _seat_of_name(table, name) == "evil")
    table.mission(_team(table, _size(table)))
    table.mission(_with(table, evil), failing=[evil])
    table.mission(_team(table, _size(table)))
    table.mission(_with(table, evil), failing=[evil])
    page = new_player(users["ann"])
    page.goto(f"/games/t/{table.game.code}/")
    check_page(page, "track-long-labels")
    labels = page.locator(".track .m small")
    assert labels.nth(3).inner_text() == "۱ خرابکاری، ولی موفق"


def _seat_of_name(table: Table, name: str) -> str:
    return str(engine.view(table.state(), table.position[name])["me"]["side"])


def _with(table: Table, member: str) -> list[str]:
    """A team of the current size with ``member`` on it."""
    others = [name for name in _team(table, 10) if name != member]
    return [member, *others[: _size(table) - 1]]
