"""The voice's full mesh at its largest tables: ten seats of The Resistance (45
pairs), and a finished Mafia game's ten players with its moderator (55 pairs: after
the game everyone, the moderator too, talks to the table). Each seat is a context of
one Chromium with a fake microphone; every page joins, every pair of them connects,
and every seat's sound reaches every other page.

Eleven pages all talking at once need more than two shared cores (see
full_mesh): they join muted and speak in turn, and every wait is for a state of the
pages, with generous limits, never a sleep. Runs in the SQLite pass only (the TURN
tests, as heavy, run in the PostgreSQL pass): one pass is proof enough.
``python -m bench.voice --seats 10`` and ``--mafia`` give the times
(docs/voice.md)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pytest

from games import engine, services
from games.models import Game
from games.state import load_state
from tests.conftest import uses_postgres

# The Chromium with a fake microphone, the voice tests' own.
from tests.e2e.test_voice_browser import (
    CONNECTED,
    chromium,  # noqa: F401 - a fixture
    until_stats,
)
from tests.games.conftest import seated_users, start_table

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(uses_postgres(), reason="the full mesh runs in the SQLite pass"),
]

# Limits only: each wait ends as soon as the pages get there.
PAGE_MS = 120_000
MESH_MS = 180_000


def open_and_join(new_player: Any, users: list[Any], url: str) -> list[Page]:
    """Each user's page joins the voice and mutes at once (see full_mesh)."""
    pages = []
    for user in users:
        page = new_player(user, locale="en-US")
        page.goto(url, timeout=PAGE_MS)
        pages.append(page)
    for page in pages:
        page.wait_for_selector("body[data-socket=on]", timeout=PAGE_MS)
        page.wait_for_selector(
            "#voice-bar:not([hidden]) [data-voice-join]:enabled", timeout=PAGE_MS
        )
    for page in pages:
        page.click("[data-voice-join]")
    for page in pages:
        page.click("[data-voice-mute]:enabled", timeout=PAGE_MS)
    return pages


def connections(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(
        "() => window.podpolyeVoice.connections()"
    )
    return found


def heard_from(page: Page, seat: int) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        "(seat) => window.podpolyeVoice.stats().then(all => "
        "all.find(p => p.room === 'table' && p.seat === seat))",
        seat,
    )
    return found


def full_mesh(pages: list[Page], seats: list[int]) -> None:
    """Every page holds a connected link to every other in the table room at once,
    and every seat's sound reaches every other page over it.

    Ten browsers each encoding and decoding nine streams need more than two
    cores: with everyone talking at once, packets are lost faster than ICE's
    consent checks forgive, and pairs go ``disconnected``. So everyone joins muted
    (no packets, only ICE's checks), the mesh is checked whole, and then the seats
    speak one after another: each one's sound must arrive on every other page, and
    the mesh must still be whole at the end."""
    peers = len(pages) - 1
    for page in pages:
        page.wait_for_function(
            "() => window.podpolyeVoice.connections().every(c => !c.sending)",
            timeout=PAGE_MS,
        )
    for page in pages:
        page.wait_for_function(CONNECTED, arg=["table", peers], timeout=MESH_MS)
    for speaker, seat in zip(pages, seats, strict=True):
        listeners = [page for page in pages if page is not speaker]
        before = [heard_from(page, seat) for page in listeners]
        speaker.click("[data-voice-mute]")
        for page, was in zip(listeners, before, strict=True):
            until_stats(
                page,
                """(all, [seat, was]) => all.some(p => p.room === 'table' &&
                    p.seat === seat && p.state === 'connected' &&
                    p.packetsReceived > was.packetsReceived + 50 &&
                    p.totalAudioEnergy > was.totalAudioEnergy)""",
                [seat, was],
                MESH_MS,
            )
        speaker.click("[data-voice-mute]")
        speaker.wait_for_function(
            "() => window.podpolyeVoice.connections().every(c => !c.sending)",
            timeout=PAGE_MS,
        )
    for page, seat in zip(pages, seats, strict=True):
        held = connections(page)
        assert sorted(c["seat"] for c in held) == sorted(
            other for other in seats if other != seat
        ), held
        assert all(c["state"] == "connected" for c in held), held


def test_ten_seats_of_the_resistance_all_talk_to_each_other(new_player: Any) -> None:
    game = start_table("partisans", 10)
    users = seated_users(game)
    pages = open_and_join(
        new_player, [users[seat] for seat in range(10)], game.get_absolute_url()
    )
    full_mesh(pages, list(range(10)))


def finished(game: Game, rng: random.Random) -> Game:
    """Play ``game`` to its end by random legal moves (the moderator's too)."""
    users = seated_users(game)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        seat, action = engine.random_action(load_state(game), rng)
        user = game.moderator if seat == engine.MODERATOR else users[seat]
        services.game_act(game=game, user=user, action=action, turn=game.turn)
    raise AssertionError("the game did not end")


def test_ten_mafia_players_and_the_moderator_all_talk_after_the_game(
    new_player: Any,
) -> None:
    game = finished(start_table("mafia_partisan", 10), random.Random(3))
    assert engine.view(load_state(game), None)["phase"] == "over"
    users = seated_users(game)
    pages = open_and_join(
        new_player,
        [users[seat] for seat in range(10)] + [game.moderator],
        game.get_absolute_url(),
    )
    full_mesh(pages, [*range(10), engine.MODERATOR])
