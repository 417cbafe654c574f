"""Every socket inherits the base consumer's frame checks (live.sockets): a
malformed, binary, oversized, absurdly nested or NUL-holding frame is answered with
a clear error and the socket stays open; a NUL in the socket's address is refused at
the handshake. On the page's socket these used to close it with 1011."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from games import engine
from games.models import ChatMessage, Game
from games.state import load_state
from tests.api.sockets import next_message, open_socket
from tests.api.support import by_seat, open_table
from tests.config.sockets import ClosedUnderneath, browser_socket
from tests.fuzz.tables import fingerprint
from tests.games.conftest import seated_users, start_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30  # a bound on waiting for an event, not a timing: a loaded machine is slow


@pytest_asyncio.fixture(autouse=True)
async def _close_database_thread() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


async def page_socket() -> tuple[WebsocketCommunicator, Game]:
    """A seated player's page socket at a started table with chat, past its
    snapshot."""
    game = await sync_to_async(start_table)("partisans", 5, {"chat": True})
    users = await sync_to_async(seated_users)(game)
    communicator, connected, _ = await browser_socket(
        users[0], f"/ws/table/{game.code}/"
    )
    assert connected
    assert "data-version" in await communicator.receive_from(timeout=TIMEOUT)
    return communicator, game


async def still_answers(communicator: WebsocketCommunicator) -> None:
    """The socket is alive: a well-formed but meaningless frame gets its error."""
    await communicator.send_json_to({"nothing": "here"})
    assert 'id="table-error"' in await communicator.receive_from(timeout=TIMEOUT)


BAD_FRAMES = [
    ("{bad", "not valid JSON"),
    ("[" * 100_000, "too large"),
    ("[" * 5_000 + "]" * 5_000, "not valid JSON"),
    ("[" * 40 + "]" * 40, "nested too deeply"),
    ('{"a": ' * 30 + "1" + "}" * 30, "nested too deeply"),
    ('{"text": "hi \\u0000", "channel": "table"}', "NUL character"),
    ('{"text": "hi \x00", "channel": "table"}', "NUL character"),
]


@pytest.mark.parametrize(("frame", "says"), BAD_FRAMES)
async def test_the_page_socket_answers_a_bad_frame(frame: str, says: str) -> None:
    communicator, game = await page_socket()
    before = await sync_to_async(fingerprint)(game)
    await communicator.send_to(text_data=frame)
    answer = await communicator.receive_from(timeout=TIMEOUT)
    assert 'id="table-error"' in answer and says in answer, answer
    await still_answers(communicator)
    assert await sync_to_async(fingerprint)(game) == before
    await communicator.disconnect()


async def test_the_page_socket_refuses_a_binary_frame() -> None:
    communicator, _ = await page_socket()
    await communicator.send_to(bytes_data=b'{"text": "hi"}')
    answer = await communicator.receive_from(timeout=TIMEOUT)
    assert "binary frame" in answer
    await still_answers(communicator)
    await communicator.disconnect()


async def test_an_escaped_backslash_before_u0000_is_ordinary_text() -> None:
    communicator, game = await page_socket()
    await communicator.send_to(text_data='{"text": "a \\\\u0000", "channel": "table"}')
    await communicator.receive_from(timeout=TIMEOUT)
    texts = await sync_to_async(list)(
        ChatMessage.objects.filter(game=game).values_list("text", flat=True)
    )
    assert texts == ["a \\u0000"]
    await communicator.disconnect()


async def test_a_nul_in_the_sockets_address_is_refused() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    for path in ("/ws/table/%00/", f"/ws/table/{game.code}%00/", "/ws/ping/?a=%00"):
        _, connected, close_code = await browser_socket(users[0], path)
        assert not connected
        assert close_code == 4400, path


async def test_the_program_socket_answers_in_json() -> None:
    code, players = await sync_to_async(open_table)("partisans", 5, {"chat": True})
    seats = await sync_to_async(by_seat)(code, players)
    communicator, connected, _ = await open_socket(
        seats[0], code, headers=[(b"accept-language", b"en")]
    )
    assert connected
    assert (await next_message(communicator))["type"] == "view"
    for frame, expected in (
        ('{"type": "chat", "text": "a\\u0000"}', "forbidden_character"),
        ("[" * 40 + "]" * 40, "too_deep"),
        ('{"type": "chat", "text": "a", "text": "b"}', "invalid_json"),
        ("x" * 20_000, "body_too_large"),
    ):
        await communicator.send_to(text_data=frame)
        answer = await next_message(communicator)
        assert answer["type"] == "error" and answer["code"] == expected, answer
    await communicator.send_to(bytes_data=b'{"type": "chat", "text": "hi"}')
    answer = await next_message(communicator)
    assert answer == {
        "type": "error",
        "code": "binary_frame",
        "message": "Send JSON text frames only; a binary frame is not read.",
    }
    assert not await sync_to_async(ChatMessage.objects.exists)()
    await communicator.send_json_to({"type": "chat", "text": "hello"})
    assert (await next_message(communicator))["type"] == "chat"
    await communicator.disconnect()


async def test_a_crash_in_a_handler_is_answered_and_the_socket_lives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from live import consumers

    communicator, _ = await page_socket()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug, on purpose")

    monkeypatch.setattr(consumers, "move_from_fields", broken)
    await communicator.send_to(text_data=json.dumps({"action": "vote", "turn": "0"}))
    answer = await communicator.receive_from(timeout=TIMEOUT)
    assert 'id="table-error"' in answer and "on purpose" not in answer
    monkeypatch.undo()
    await still_answers(communicator)
    await communicator.disconnect()


# What each frame has the socket write after the client has gone: one answer, or,
# for a move the table refuses, the area drawn anew and the refusal over it.
WRITES = {"binary": 1, "refused": 1, "crash": 1, "refused_move": 2, "replayed": 1}


@pytest.mark.parametrize("frame", list(WRITES))
async def test_an_answer_to_a_socket_that_has_gone_is_dropped(
    frame: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A frame answered after the client has gone (refused by the base's checks, by
    the table's own reading, crashing the handler, a move the table refuses, or a
    named move's repeat, whose answer is the area drawn anew): each frame written is
    dropped, logged at debug, without cutting short the rest of the answer; the
    socket's consumer ends cleanly when the disconnect comes; a crash is still
    logged as the error it is."""
    from live import consumers

    server = ClosedUnderneath()
    game = await sync_to_async(start_table)("partisans", 5, {"chat": True})
    users = await sync_to_async(seated_users)(game)
    leader = await sync_to_async(_leader)(game)
    communicator, connected, _ = await browser_socket(
        users[leader], f"/ws/table/{game.code}/", app=server
    )
    assert connected
    assert "data-version" in await communicator.receive_from(timeout=TIMEOUT)
    named = {"action": "propose", "team": ["0", "1"], "turn": "0", "move_id": "m-1"}
    if frame == "replayed":
        # The move applied while the client is there, its push received.
        await communicator.send_json_to(named)
        while 'data-version="1"' not in await communicator.receive_from(TIMEOUT):
            pass

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug, on purpose")

    if frame == "crash":
        monkeypatch.setattr(consumers, "move_from_fields", broken)
    caplog.set_level(logging.DEBUG, logger="live.sockets")
    server.gone.set()
    if frame == "binary":
        await communicator.send_to(bytes_data=b'{"text": "hi"}')
    elif frame == "refused":
        await communicator.send_json_to({"text": 7})
    elif frame == "refused_move":
        # A decision long past: refused by the table, which redraws the area.
        await communicator.send_json_to({**named, "turn": "7", "move_id": "m-2"})
    elif frame == "replayed":
        await communicator.send_json_to(named)
    else:
        await communicator.send_json_to({"action": "vote", "turn": "0"})
    await server.until_refused(WRITES[frame], TIMEOUT)
    # Frames are handled one at a time: the disconnect is read once the frame's
    # handling is over, and the consumer then ends; had the handling raised, this
    # raises it.
    await communicator.disconnect()
    assert server.refused == WRITES[frame]
    records = [r for r in caplog.records if r.name == "live.sockets"]
    dropped = [r for r in records if r.levelno == logging.DEBUG and "gone" in r.msg]
    assert len(dropped) == WRITES[frame], [r.getMessage() for r in records]
    failed = [r for r in records if r.levelno >= logging.ERROR]
    if frame == "crash":
        assert len(failed) == 1 and failed[0].exc_info
        assert "on purpose" in str(failed[0].exc_info[1])
    else:
        assert not failed, [r.getMessage() for r in failed]


def _leader(game: Game) -> int:
    return int(engine.view(load_state(game), None)["leader"])


def _raised_while_handling(first: Exception, then: Exception) -> Exception:
    try:
        try:
            raise first
        except Exception:
            raise then  # noqa: B904 - the chain is the point
    except Exception as exc:
        return exc
    raise AssertionError("unreachable")


async def test_only_the_servers_goodbye_counts_as_a_socket_gone() -> None:
    from autobahn.exception import Disconnected

    from games.errors import BadAction
    from live.requests import BinaryFrame
    from live.sockets import fault_in, socket_gone

    def gone() -> Exception:
        return Disconnected("Attempt to send on a closed protocol")

    assert socket_gone(gone())
    for fault in (RuntimeError("a bug"), ValueError("not accepted"), OSError()):
        assert not socket_gone(fault)
        assert fault_in(fault) is fault
    # A goodbye met while answering a refusal is no fault...
    assert fault_in(gone()) is None
    assert fault_in(_raised_while_handling(BadAction(), gone())) is None
    assert fault_in(_raised_while_handling(BinaryFrame(), gone())) is None
    # ...but one met while handling a fault does not hide it.
    bug = RuntimeError("a bug")
    assert fault_in(_raised_while_handling(bug, gone())) is bug
