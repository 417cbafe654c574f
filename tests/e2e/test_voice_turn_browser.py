"""The voice through TURN, in browsers with no direct route between them.

Three network namespaces hang off the root namespace by veth links, with forwarding
off (tests/e2e/netns.py): each reaches the root namespace's addresses and nothing
else. In the root namespace run Debian's coturn (``use-auth-secret`` with a secret
of this run) and a daphne serving the site with that secret, the TURN server's URL
and ``VOICE_ICE_TRANSPORT_POLICY=relay``. One Chromium runs inside each namespace
with a fake microphone.

- Three seats talk: every pair connects over a selected candidate pair whose two
  ends are relay candidates, and audio keeps arriving from every peer; the
  namespaces cannot reach each other (the kernel has no route for it, and a
  datagram sent from one to another never arrives).
- The TURN server restarts (a new process: the old allocations are gone): every
  pair's connection fails, its offering side restarts ICE on the same connection,
  and it is connected again with audio flowing; the page never joined again.

Needs root, ``ip netns`` and coturn (``.ci/run`` installs it): skipped without them,
failed under CI=true. Runs in the PostgreSQL pass only (three browsers and a TURN
restart are slow on a shared machine, and one pass is proof enough).

Every wait is for a state of the pages or of a server, never a sleep."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import IN_CI, uses_postgres
from tests.e2e import netns
from tests.e2e.conftest import (
    CHROMIUM_ARGS,
    REPORT_CSP_VIOLATIONS,
    _sockets_gone,
    _Watch,
    session_cookie_for,
)
from tests.e2e.test_voice_browser import CONNECTED, FAKE_MEDIA, until_stats
from tests.games.conftest import seated_users, start_table

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from tests.e2e.conftest import DaphneServer

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.skipif(
        not uses_postgres(), reason="the TURN tests run in the PostgreSQL pass"
    ),
]

SEATS = 3
WAIT_MS = 120_000
# A connection whose relay vanished fails when its consent checks go unanswered
# (about 30 s in Chromium), then restarts and checks again: on a loaded machine,
# minutes.
RECOVER_MS = 150_000


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("voice-turn")


@pytest.fixture(scope="module")
def networks(folder: Path) -> Iterator[netns.Networks]:
    reason = netns.unavailable()
    if reason:
        if IN_CI:
            pytest.fail(f"CI=true and the TURN voice test {reason}")
        pytest.skip(reason)
    with netns.Networks(SEATS, folder) as made:
        yield made


@pytest.fixture(scope="module")
def turn(networks: netns.Networks, folder: Path) -> Iterator[netns.Turn]:
    with netns.turnserver(networks.host, folder) as server:
        yield server


@pytest.fixture(scope="module")
def relay_site(
    django_db_setup: None, networks: netns.Networks, turn: netns.Turn, folder: Path
) -> Iterator[DaphneServer]:
    """The site on the root namespace's address, handing out TURN accounts and
    relay-only ICE."""
    voice = {
        "VOICE_TURN_SECRET": turn.secret,
        "VOICE_TURN_URLS": turn.url,
        "VOICE_ICE_TRANSPORT_POLICY": "relay",
        "VOICE_ICE_SERVERS": "[]",
    }
    database = str(connection.settings_dict["NAME"])
    with netns.daphne_on(networks.host, database, folder, voice) as server:
        yield server


@pytest.fixture
def player_in(
    transactional_db: None,
    chromium: Browser,
    networks: netns.Networks,
    relay_site: DaphneServer,
) -> Iterator[Callable[[Any, netns.Namespace], Page]]:
    """``player_in(user, namespace) -> Page``: ``user``'s page on the site, in a
    Chromium running inside ``namespace``."""
    browsers: list[Browser] = []
    watch = _Watch()
    url = relay_site.url

    def open_player(user: Any, namespace: netns.Namespace) -> Page:
        browser = chromium.browser_type.launch(
            executable_path=str(namespace.chromium),
            args=[
                *CHROMIUM_ARGS,
                *FAKE_MEDIA,
                # The microphone needs a secure context; the site is plain HTTP on
                # a private address here.
                f"--unsafely-treat-insecure-origin-as-secure={url}",
            ],
        )
        browsers.append(browser)
        context = browser.new_context(base_url=url, locale="en-US")
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": session_cookie_for(user),
                    "url": url,
                }
            ]
        )
        page = context.new_page()
        page.on("console", watch.console)
        page.on("pageerror", watch.page_error)
        return page

    yield open_player
    for browser in browsers:
        browser.close()
    _sockets_gone()
    assert not watch.problems, "\n".join(watch.problems)


def seats_in_namespaces(
    player_in: Callable[[Any, netns.Namespace], Page], networks: netns.Networks
) -> list[Page]:
    """Seats 0, 1 and 2 of a started table, each in its own namespace, in the
    voice."""
    game = start_table("partisans", 5)
    users = seated_users(game)
    pages = []
    for seat, namespace in enumerate(networks.namespaces):
        page = player_in(users[seat], namespace)
        page.goto(game.get_absolute_url())
        pages.append(page)
    for page in pages:
        page.wait_for_selector("body[data-socket=on]", timeout=WAIT_MS)
        page.wait_for_selector("#voice-bar:not([hidden]) [data-voice-join]:enabled")
    for page in pages:
        page.click("[data-voice-join]")
    return pages


def wait_connected(page: Page, count: int, timeout: int = WAIT_MS) -> None:
    from playwright.sync_api import TimeoutError as Timeout

    try:
        page.wait_for_function(CONNECTED, arg=["table", count], timeout=timeout)
    except Timeout:
        held = page.evaluate("() => window.podpolyeVoice.stats()")
        pytest.fail(f"not {count} connected peers within {timeout} ms: {held}")


def stats(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.podpolyeVoice.stats()")
    return found


def wait_audio_grows(page: Page, timeout: int = WAIT_MS) -> None:
    """Packets and audio energy keep arriving from every peer of ``page``: each
    grows past what it was when this was called."""
    before = {str(peer["seat"]): peer for peer in stats(page)}
    until_stats(
        page,
        """(all, before) => all.length === Object.keys(before).length &&
            all.every(p => before[p.seat] !== undefined &&
                p.packetsReceived > before[p.seat].packetsReceived + 50 &&
                p.totalAudioEnergy > before[p.seat].totalAudioEnergy)""",
        before,
        timeout,
    )


def test_three_browsers_with_no_route_between_them_talk_through_turn(
    networks: netns.Networks, turn: netns.Turn, player_in: Any
) -> None:
    # No namespace reaches another: the root namespace has no route for it, and a
    # datagram sent from one to another never arrives (a control datagram from the
    # root namespace, sent after it, does).
    for source, target in itertools.permutations(networks.namespaces, 2):
        assert not networks.routed(source, target), (source.name, target.name)
    for source, target in itertools.permutations(networks.namespaces, 2):
        assert not networks.datagrams_reach(source, target), (source, target)
    # The probe itself works: sent within one namespace, it arrives.
    first = networks.namespaces[0]
    assert networks.datagrams_reach(first, first)

    pages = seats_in_namespaces(player_in, networks)
    for page in pages:
        wait_connected(page, SEATS - 1)
    for page in pages:
        wait_audio_grows(page)
    for page in pages:
        for peer in stats(page):
            assert peer["state"] == "connected", peer
            assert (peer["localType"], peer["remoteType"]) == ("relay", "relay"), peer
    # And it goes on: more packets and more sound from every peer.
    for page in pages:
        wait_audio_grows(page)


def test_a_pair_whose_relay_vanishes_recovers_by_ice_restart(
    networks: netns.Networks, turn: netns.Turn, player_in: Any
) -> None:
    pages = seats_in_namespaces(player_in, networks)
    for page in pages:
        wait_connected(page, SEATS - 1)
    for page in pages:
        wait_audio_grows(page)

    # A new TURN process on the same port: every allocation the pairs use is gone.
    turn.stop()
    turn.start()

    # Every pair fails and its offering side restarts ICE on the same connection
    # (the count lives on the connection: a page that joined again would hold new
    # ones at 0), and it connects again through the new server's relay.
    from playwright.sync_api import TimeoutError as Timeout

    # One bound for all the pages together: a run that does not recover must not
    # hold the suite for minutes a page.
    deadline = time.monotonic() + RECOVER_MS / 1000
    try:
        for page in pages:
            page.wait_for_function(
                """() => window.podpolyeVoice.connections().every(c =>
                    c.state === 'connected' && (!c.offerer || c.restarts > 0))""",
                timeout=max(1_000, (deadline - time.monotonic()) * 1000),
            )
    except Timeout:
        held = [
            page.evaluate("() => window.podpolyeVoice.connections()") for page in pages
        ]
        pytest.fail(f"not recovered by ICE restart: {held}")
    connections = [
        c
        for page in pages
        for c in page.evaluate("() => window.podpolyeVoice.connections()")
    ]
    assert len(connections) == SEATS * (SEATS - 1), connections
    restarted = [c for c in connections if c["offerer"]]
    assert len(restarted) == SEATS * (SEATS - 1) // 2, connections
    assert all(c["restarts"] > 0 and c["failures"] > 0 for c in restarted)
    for page in pages:
        wait_audio_grows(page, timeout=RECOVER_MS)
        for peer in stats(page):
            assert (peer["localType"], peer["remoteType"]) == ("relay", "relay"), peer
