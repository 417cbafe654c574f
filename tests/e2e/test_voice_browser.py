"""The voice rooms in real browsers: seats of one table, each in its own Chromium
context with a fake microphone (a beep), join the voice and every pair of them
connects; audio flows both ways; a muted seat sends no packets until it unmutes;
at a Mafia night the mafia connect in their own room, the town does not, and the
voice bar reads the same on every seat's screen.

Every wait is for a state of the pages (``wait_for_function``, or
:func:`until_stats` for the pages' statistics), never a sleep."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from games import engine
from games.state import load_state
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.games.conftest import seated_users, start_table

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

FAKE_MEDIA = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def chromium(chromium: Browser) -> Iterator[Browser]:
    """The package's Chromium, launched again with a fake microphone that needs no
    permission prompt."""
    browser = chromium.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *FAKE_MEDIA]
    )
    yield browser
    browser.close()


def open_table(new_player: Any, users: list[Any], url: str) -> list[Page]:
    pages = []
    for user in users:
        page = new_player(user, locale="en-US")
        page.goto(url)
        pages.append(page)
    for page in pages:
        page.wait_for_selector("body[data-socket=on]", timeout=WAIT_MS)
        page.wait_for_selector("#voice-bar:not([hidden]) [data-voice-join]:enabled")
    return pages


def join_voice(pages: list[Page]) -> None:
    for page in pages:
        page.click("[data-voice-join]")


CONNECTED = """([room, count]) => window.podpolyeVoice.connections()
    .filter(c => c.room === room && c.state === 'connected').length === count"""


def wait_connected(page: Page, room: str, count: int) -> None:
    page.wait_for_function(CONNECTED, arg=[room, count], timeout=WAIT_MS)


def until_stats(
    page: Page, check: str, arg: Any = None, timeout: int = WAIT_MS
) -> list[dict[str, Any]]:
    """Wait until ``check`` (JavaScript: ``(all, arg) => bool``, ``all`` being
    ``podpolyeVoice.stats()``) holds on ``page``; its stats then. The wait runs in
    the page, which awaits each reading: ``wait_for_function`` would take the
    promise ``stats()`` returns for a true value at once."""
    script = f"""async ([arg, timeout]) => {{
        const check = {check};
        const deadline = performance.now() + timeout;
        for (;;) {{
            const all = await window.podpolyeVoice.stats();
            if (check(all, arg)) return {{ok: true, all: all}};
            if (performance.now() > deadline) return {{ok: false, all: all}};
            await new Promise((done) => setTimeout(done, 100));
        }}
    }}"""
    result: dict[str, Any] = page.evaluate(script, [arg, timeout])
    assert result["ok"], f"{check} never held within {timeout} ms: {result['all']}"
    found: list[dict[str, Any]] = result["all"]
    return found


def stats(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.podpolyeVoice.stats()")
    return found


def bar_text(page: Page) -> str:
    text: str = page.inner_text("#voice-bar")
    return text


def test_three_seats_talk_to_each_other_and_a_muted_seat_sends_nothing(
    new_player: Any,
) -> None:
    game = start_table("partisans", 5)
    users = seated_users(game)
    pages = open_table(
        new_player, [users[seat] for seat in (0, 1, 2)], game.get_absolute_url()
    )
    join_voice(pages)
    for page in pages:
        wait_connected(page, "table", 2)
    # Sound arrives from every peer on every page.
    for page in pages:
        until_stats(
            page,
            """(all) => all.length === 2 &&
                all.every(p => p.packetsReceived > 50 && p.totalAudioEnergy > 0)""",
        )
    texts = {bar_text(page) for page in pages}
    assert len(texts) == 1, texts

    # Seat 0 mutes: its senders carry no track, and its packets stop while the
    # others' keep arriving.
    muted = pages[0]
    muted.click("[data-voice-mute]")
    muted.wait_for_function(
        "() => window.podpolyeVoice.connections().every(c => !c.sending)",
        timeout=WAIT_MS,
    )
    sent = sum(peer["packetsSent"] for peer in stats(muted))
    received = sum(peer["packetsReceived"] for peer in stats(muted))
    until_stats(
        muted,
        """(all, before) =>
            all.reduce((n, p) => n + p.packetsReceived, 0) > before + 200""",
        received,
    )
    after = sum(peer["packetsSent"] for peer in stats(muted))
    assert after - sent <= 4, (sent, after)
    # Unmuted, it sends again.
    muted.click("[data-voice-mute]")
    until_stats(
        muted,
        "(all, before) => all.reduce((n, p) => n + p.packetsSent, 0) > before + 100",
        after,
    )


def test_a_mafia_night_connects_the_mafia_in_their_room_and_nobody_else(
    new_player: Any,
) -> None:
    game = start_table("mafia_partisan", 10)
    state = load_state(game)
    team = [s for s in range(10) if "mafia" in engine.view(state, s)["me"]["channels"]]
    town = [s for s in range(10) if s not in team][:2]
    users = seated_users(game)
    seats = [*team[:2], *town]
    pages = open_table(
        new_player, [users[seat] for seat in seats], game.get_absolute_url()
    )
    join_voice(pages)
    # Everyone is linked in the table room (silent at night), the two mafia also in
    # theirs; the town holds no connection to the mafia's room.
    for page in pages:
        wait_connected(page, "table", len(pages) - 1)
    for page in pages[:2]:
        wait_connected(page, "team", 1)
    for page in pages[2:]:
        assert not [
            c
            for c in page.evaluate("() => window.podpolyeVoice.connections()")
            if c["room"] == "team"
        ]
    # Nobody may talk to the table at night: no seat sends to the table room; the
    # mafia send to each other.
    for page in pages:
        page.wait_for_function(
            """() => window.podpolyeVoice.connections()
                .every(c => c.sending === (c.room === 'team'))""",
            timeout=WAIT_MS,
        )
    texts = {bar_text(page) for page in pages}
    assert len(texts) == 1, texts
