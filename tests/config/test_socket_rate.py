"""Frames are rate-limited per socket (a token bucket, before any database work)
and per user over all their sockets (in the cache); the excess gets one clear error
frame, a client that keeps flooding is closed, and other tables play on.

Time never passes by sleeping: the buckets' clock is stopped and moved by hand."""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from pytest_django.fixtures import Settings

from accounts.models import User
from games import engine
from games.state import load_state
from live import sockets as consumers
from live.sockets import AuthenticatedConsumer
from tests.config.sockets import browser_socket
from tests.factories import UserFactory
from tests.games.conftest import seated_users, start_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30  # a bound on waiting for an event, not a timing: a loaded machine is slow


@pytest_asyncio.fixture(autouse=True)
async def _close_database_thread() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


@pytest.fixture
def advance(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Stop the buckets' and the users' clocks; the returned function moves them
    on (a user's window can no longer end halfway through a test)."""
    now = [1_000.0]
    monkeypatch.setattr(consumers, "clock", lambda: now[0])
    monkeypatch.setattr(consumers, "wall_clock", lambda: 1_800_000_000.0 + now[0])

    def forward(seconds: float) -> None:
        now[0] += seconds

    return forward


class Probe(AuthenticatedConsumer):
    """Counts the frames that get past the base, and answers each."""

    json_mode = True
    language = "en"
    seen: list[Any] = []

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        Probe.seen.append(content)
        await self.send_json({"type": "ok"})


async def probe_socket(user: User) -> WebsocketCommunicator:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        scope = {**scope, "user": user, "url_route": {"args": (), "kwargs": {}}}
        await Probe.as_asgi()(scope, receive, send)

    communicator = WebsocketCommunicator(app, "/ws/probe/")
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    return communicator


async def answers(
    communicator: WebsocketCommunicator, count: int
) -> list[dict[str, Any]]:
    """The ``count`` answers the test expects, each waited for (a slow machine
    takes its time), and then none more."""
    found = [
        json.loads(await communicator.receive_from(timeout=TIMEOUT))
        for _ in range(count)
    ]
    assert await communicator.receive_nothing(timeout=0.1)
    return found


@pytest.fixture(autouse=True)
def _fresh_probe() -> None:
    Probe.seen = []


async def test_a_socket_gets_its_burst_then_its_rate(
    settings: Settings, advance: Callable[[float], None]
) -> None:
    settings.WEBSOCKET_FRAME_BURST = 5
    settings.WEBSOCKET_FRAME_RATE = 2
    user = await sync_to_async(UserFactory)()
    socket = await probe_socket(user)
    for number in range(20):
        await socket.send_json_to({"n": number})
    replies = await answers(socket, 6)  # five taken, one error for the rest
    assert len(Probe.seen) == 5
    errors = [reply for reply in replies if reply["type"] == "error"]
    assert [error["code"] for error in errors] == ["rate_limited"]  # once per run
    assert "slow down" in errors[0]["message"]
    advance(1.5)  # three more tokens
    for number in range(5):
        await socket.send_json_to({"n": number})
    replies = await answers(socket, 4)
    assert len(Probe.seen) == 8
    assert [r["code"] for r in replies if r["type"] == "error"] == ["rate_limited"]
    await socket.disconnect()


async def test_a_client_that_keeps_flooding_is_closed(
    settings: Settings,
    advance: Callable[[float], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.WEBSOCKET_FRAME_BURST = 3
    monkeypatch.setattr(consumers, "FLOOD_CLOSE_AFTER", 10)
    socket = await probe_socket(await sync_to_async(UserFactory)())
    for number in range(20):
        await socket.send_json_to({"n": number})
    output = []
    while True:
        message = await socket.receive_output(timeout=TIMEOUT)
        output.append(message)
        if message["type"] == "websocket.close":
            break
    assert output[-1]["code"] == consumers.CLOSE_FLOODING
    assert len(Probe.seen) == 3


async def test_a_user_has_one_allowance_over_all_sockets(
    settings: Settings, advance: Callable[[float], None]
) -> None:
    settings.WEBSOCKET_USER_FRAMES = 6
    user, other = await sync_to_async(UserFactory.create_batch)(2)
    first, second = await probe_socket(user), await probe_socket(user)
    replies = []
    for number in range(4):  # in turn, each answered before the next is sent
        for socket in (first, second):
            await socket.send_json_to({"n": number})
            replies.append(json.loads(await socket.receive_from(timeout=TIMEOUT)))
    replies += await answers(first, 0) + await answers(second, 0)
    assert len(Probe.seen) == 6
    assert [r.get("code") for r in replies[6:]] == ["rate_limited", "rate_limited"]
    assert all(r == {"type": "ok"} for r in replies[:6])
    stranger = await probe_socket(other)
    await stranger.send_json_to({"n": 0})
    assert await answers(stranger, 1) == [{"type": "ok"}]
    for socket in (first, second, stranger):
        await socket.disconnect()


async def test_a_flooding_seat_does_no_database_work_and_others_play_on(
    advance: Callable[[float], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    from live import consumers as table_consumers

    parsed = []
    real = table_consumers.move_from_fields

    def counting(ruleset: str, fields: Any) -> Any:
        parsed.append(fields)
        return real(ruleset, fields)

    monkeypatch.setattr(table_consumers, "move_from_fields", counting)
    noisy_table = await sync_to_async(start_table)("partisans", 5)
    quiet_table = await sync_to_async(start_table)("partisans", 5)
    noisy_user = (await sync_to_async(seated_users)(noisy_table))[0]
    quiet_users = await sync_to_async(seated_users)(quiet_table)
    leader = engine.view(await sync_to_async(load_state)(quiet_table), None)["leader"]
    noisy, _, _ = await browser_socket(noisy_user, f"/ws/table/{noisy_table.code}/")
    quiet, _, _ = await browser_socket(
        quiet_users[leader], f"/ws/table/{quiet_table.code}/"
    )
    await noisy.receive_from(timeout=TIMEOUT)
    await quiet.receive_from(timeout=TIMEOUT)
    for _ in range(500):
        await noisy.send_json_to({"action": "vote", "approve": "yes", "turn": "0"})
    team = [str(leader), str((leader + 1) % 5)]
    await quiet.send_json_to({"action": "propose", "team": team, "turn": "0"})
    assert 'data-version="1"' in await quiet.receive_from(timeout=TIMEOUT)
    burst = int(consumers.settings.WEBSOCKET_FRAME_BURST)
    assert len(parsed) <= burst + 1  # the flood's burst, and the quiet table's move
    await noisy.disconnect()
    await quiet.disconnect()


async def _three_frames_against_two(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, cache: dict[str, str]
) -> tuple[list[int], list[str | None]]:
    """Three frames from a user allowed two, with ``cache``: the threads their
    counts ran in and the error code of each answer."""
    settings.CACHES = {"default": cache}
    settings.WEBSOCKET_USER_FRAMES = 2
    threads: list[int] = []
    real = consumers._user_frame_allowed

    def counting(user_id: int) -> bool:
        threads.append(threading.get_ident())
        return real(user_id)

    monkeypatch.setattr(consumers, "_user_frame_allowed", counting)
    socket = await probe_socket(await sync_to_async(UserFactory)())
    for number in range(3):
        await socket.send_json_to({"n": number})
    replies = await answers(socket, 3)
    await socket.disconnect()
    return threads, [reply.get("code") for reply in replies]


async def test_an_in_process_cache_counts_a_frame_on_the_event_loop(
    settings: Settings,
    advance: Callable[[float], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads, codes = await _three_frames_against_two(
        settings,
        monkeypatch,
        {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    )
    # No hop to a worker thread for a dictionary in this process, and the allowance
    # still holds: the third frame is refused.
    assert threads == [threading.get_ident()] * 3
    assert codes == [None, None, "rate_limited"]
    assert len(Probe.seen) == 2


async def test_a_shared_cache_counts_a_frame_off_the_event_loop(
    settings: Settings,
    advance: Callable[[float], None],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    # A cache that does I/O (Redis in a real deployment; files here) must not hold
    # up the loop that serves every other socket.
    threads, codes = await _three_frames_against_two(
        settings,
        monkeypatch,
        {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path),
        },
    )
    assert len(threads) == 3
    assert threading.get_ident() not in threads
    assert codes == [None, None, "rate_limited"]


async def test_a_window_is_counted_from_its_first_frame_with_one_step_after() -> None:
    from django.core.cache import cache

    key = "ws-frames:test-window"
    cache.delete(key)
    assert [consumers._count_frame(key, 20) for _ in range(3)] == [1, 2, 3]
    assert cache.get(key) == 3
    cache.delete(key)


async def test_a_window_another_socket_opened_meanwhile_is_counted_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.core.cache import cache

    key = "ws-frames:test-race"
    cache.delete(key)

    class Racing:
        """The real cache, with another socket of the user's adding the window's
        count between this socket's incr and its add."""

        def incr(self, name: str) -> int:
            return int(cache.incr(name))

        def add(self, name: str, value: int, timeout: int) -> bool:
            cache.add(name, 5, timeout=timeout)  # the other socket's five frames
            return bool(cache.add(name, value, timeout=timeout))

    monkeypatch.setattr(consumers, "cache", Racing())
    assert consumers._count_frame(key, 20) == 6
    cache.delete(key)
