"""The voice rooms' signalling on the table's socket: relayed only to a seat of the
same table and room, ``from`` written by the server, bad frames answered and
relayed nowhere, the team room invisible to everyone outside it, a spectator
without voice, a second tab replacing the first, the rights in every push.

Absence is shown with a sentinel: what must not arrive is sent first, then
something that must, and the receiver's voice frames up to the sentinel are
checked (one sender's messages to one seat keep their order)."""

from __future__ import annotations

import html
import json
import logging
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import engine
from games.models import Game
from games.state import load_state
from tests.config.sockets import ClosedUnderneath, browser_socket
from tests.factories import UserFactory
from tests.games.conftest import seated_users, start_table
from tests.games.test_consumers import connect
from voice.rights import voice_rights

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30  # a bound on waiting for an event, not a timing: a loaded machine is slow
SDP = (
    "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
    "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"
)
CANDIDATE = {
    "candidate": "candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host",
    "sdpMid": "0",
    "sdpMLineIndex": 0,
    "usernameFragment": "abcd",
}
RIGHTS = re.compile(r'<div id="voice-rights"[^>]*data-rights="([^"]*)"')
Sockets = dict[int, WebsocketCommunicator]


async def next_voice(socket: WebsocketCommunicator) -> dict[str, Any]:
    """The next voice frame on ``socket`` (the table's HTML frames skipped)."""
    while True:
        text = await socket.receive_from(timeout=TIMEOUT)
        if text.startswith('{"voice"'):
            found: dict[str, Any] = json.loads(text)["voice"]
            return found


async def voice_until(
    socket: WebsocketCommunicator, **last: Any
) -> list[dict[str, Any]]:
    """Every voice frame on ``socket`` up to and with the first that holds all of
    ``last``'s items."""
    seen = []
    while True:
        frame = await next_voice(socket)
        seen.append(frame)
        if all(frame.get(key) == value for key, value in last.items()):
            return seen


async def say(socket: WebsocketCommunicator, **body: Any) -> None:
    await socket.send_to(text_data=json.dumps({"voice": body}))


async def join(socket: WebsocketCommunicator, room: str = "table") -> dict[str, Any]:
    await say(socket, type="join", room=room)
    joined = await next_voice(socket)
    assert joined["type"] == "joined", joined
    assert joined["room"] == room
    return joined


async def join_in_turn(
    sockets: Sockets,
    order: list[int],
    room: str = "table",
    *,
    table_sessions: dict[int, str] | None = None,
) -> dict[int, str]:
    """``order``'s seats join ``room`` one after another; each newcomer is told of
    every seat present (to offer to), each present seat of the newcomer. Their
    sessions, by seat.

    Seats already in another voice room hear a join even before they join this
    room themselves; with ``table_sessions`` (all of ``order`` in the table room)
    each newcomer's join is made to reach the seats still to come before they
    join: a table signal sent after it is awaited at each (one sender's messages
    to one seat keep their order)."""
    sessions: dict[int, str] = {}
    present: list[int] = []
    for seat in order:
        sessions[seat] = (await join(sockets[seat], room))["session"]
        for other in present:
            frame = await next_voice(sockets[other])
            assert frame == {
                "type": "join",
                "room": room,
                "from": seat,
                "session": sessions[seat],
            }
        peers = [await next_voice(sockets[seat]) for _ in present]
        assert sorted(peer["from"] for peer in peers) == sorted(present)
        for peer in peers:
            assert peer["type"] == "peer" and peer["room"] == room and peer["offer"], (
                seat,
                peers,
            )
            assert peer["session"] == sessions[peer["from"]]
        present.append(seat)
        for later in order[len(present) :] if table_sessions else ():
            assert table_sessions is not None
            await say(
                sockets[seat],
                type="candidate",
                room="table",
                to=later,
                session=table_sessions[later],
                candidate=CANDIDATE,
            )
            assert (await next_voice(sockets[later]))["from"] == seat
    return sessions


async def sockets_of(game: Game) -> Sockets:
    users = await sync_to_async(seated_users)(game)
    found = {seat: await connect(user, game.code) for seat, user in users.items()}
    if game.moderator_id is not None:
        moderator = await sync_to_async(lambda: game.moderator)()
        found[engine.MODERATOR] = await connect(moderator, game.code)
    return found


async def close_all(*groups: Sockets) -> None:
    for group in groups:
        for socket in group.values():
            await socket.disconnect()


async def test_a_signal_reaches_the_named_seat_of_this_table_from_its_sender() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    other = await sync_to_async(start_table)("partisans", 5)
    seats = await sockets_of(game)
    elsewhere = await sockets_of(other)
    other_sessions = await join_in_turn(elsewhere, [1, 2])
    sessions = await join_in_turn(seats, [1, 2, 0])

    # An offer to seat 1 that claims to come from seat 2.
    forged = {
        "type": "offer",
        "room": "table",
        "to": 1,
        "from": 2,
        "session": sessions[1],
        "sdp": SDP,
    }
    await seats[0].send_to(text_data=json.dumps({"voice": forged}))
    assert await next_voice(seats[1]) == {
        "type": "offer",
        "room": "table",
        "from": 0,
        "session": sessions[0],
        "sdp": SDP,
    }
    # A candidate for seat 2, then one for seat 1 of the other table's... which a
    # page cannot even name: seat numbers are this table's.
    await say(
        seats[0],
        type="candidate",
        room="table",
        to=2,
        session=sessions[2],
        candidate=CANDIDATE,
    )
    assert await next_voice(seats[2]) == {
        "type": "candidate",
        "room": "table",
        "from": 0,
        "session": sessions[0],
        "candidate": CANDIDATE,
    }
    # The other table heard nothing: its seat 1's next voice frame is one its own
    # table sent after all that.
    await say(
        elsewhere[2],
        type="candidate",
        room="table",
        to=1,
        session=other_sessions[1],
        candidate=CANDIDATE,
    )
    assert (await next_voice(elsewhere[1]))["from"] == 2
    await close_all(seats, elsewhere)


BAD = [
    pytest.param({"type": "offer", "room": "table", "to": 0, "sdp": SDP}, id="self"),
    pytest.param(
        {"type": "offer", "room": "table", "to": 99, "sdp": SDP}, id="no-seat"
    ),
    pytest.param(
        {"type": "offer", "room": "table", "to": "1", "sdp": SDP}, id="text-seat"
    ),
    pytest.param(
        {"type": "offer", "room": "table", "to": True, "sdp": SDP}, id="bool-seat"
    ),
    pytest.param({"type": "offer", "room": "table", "to": 1}, id="no-sdp"),
    pytest.param(
        {"type": "offer", "room": "table", "to": 1, "sdp": SDP + "a=x" * 3000},
        id="big-sdp",
    ),
    pytest.param(
        {
            "type": "offer",
            "room": "table",
            "to": 1,
            "sdp": SDP + "m=video 9 UDP/TLS/RTP/SAVPF 96\r\n",
        },
        id="video",
    ),
    pytest.param(
        {"type": "offer", "room": "table", "to": 1, "sdp": "hello"}, id="not-sdp"
    ),
    pytest.param({"type": "bye", "room": "table", "to": 1}, id="type"),
    pytest.param({"type": "offer", "room": "lobby", "to": 1, "sdp": SDP}, id="room"),
    pytest.param(
        {"type": "candidate", "room": "table", "to": 1, "candidate": "x"},
        id="candidate-text",
    ),
    pytest.param(
        {
            "type": "candidate",
            "room": "table",
            "to": 1,
            "candidate": {**CANDIDATE, "candidate": "c" * 600},
        },
        id="candidate-big",
    ),
    pytest.param(
        {
            "type": "candidate",
            "room": "table",
            "to": 1,
            "candidate": {**CANDIDATE, "extra": 1},
        },
        id="candidate-key",
    ),
    pytest.param(
        {"type": "offer", "room": "team", "to": 1, "sdp": SDP}, id="team-closed"
    ),
    pytest.param("offer", id="not-an-object"),
]


@pytest.mark.parametrize("body", BAD)
async def test_a_bad_voice_frame_is_answered_and_relays_nothing(body: Any) -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    seats = await sockets_of(game)
    sessions = await join_in_turn(seats, [1, 0])
    if isinstance(body, dict):
        body = {**body, "session": sessions[1]}
    await seats[0].send_to(text_data=json.dumps({"voice": body}))
    refused = await next_voice(seats[0])
    assert refused["type"] == "error" and refused["message"]
    # Seat 1's next voice frame is the sentinel after it.
    await say(seats[0], type="answer", room="table", to=1, session=sessions[1], sdp=SDP)
    assert (await next_voice(seats[1]))["type"] == "answer"
    await close_all(seats)


async def test_no_signal_before_joining_or_after_leaving() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    seats = await sockets_of(game)
    sessions = await join_in_turn(seats, [1])
    offer = {
        "type": "offer",
        "room": "table",
        "to": 1,
        "sdp": SDP,
        "session": sessions[1],
    }
    await say(seats[0], **offer)
    assert (await next_voice(seats[0]))["type"] == "error"
    await join(seats[0])
    assert (await next_voice(seats[1]))["type"] == "join"
    assert (await next_voice(seats[0]))["type"] == "peer"
    await say(seats[0], type="leave", room="table")
    left = await next_voice(seats[1])
    assert left["type"] == "leave" and left["from"] == 0
    await say(seats[0], **offer)
    assert (await next_voice(seats[0]))["type"] == "error"
    await close_all(seats)


async def test_a_seat_that_leaves_and_joins_again_offers_to_those_present() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    seats = await sockets_of(game)
    # Seat 1 first: it answers seat 0's join, then leaves and comes back.
    await join_in_turn(seats, [1, 0, 2])
    await say(seats[1], type="leave", room="table")
    for seat in (0, 2):
        assert (await next_voice(seats[seat]))["type"] == "leave"
    # The same socket joins again: a newcomer, whatever it heard before.
    renewed = (await join(seats[1]))["session"]
    for seat in (0, 2):
        assert await next_voice(seats[seat]) == {
            "type": "join",
            "room": "table",
            "from": 1,
            "session": renewed,
        }
    peers = [await next_voice(seats[1]), await next_voice(seats[1])]
    assert sorted(peer["from"] for peer in peers) == [0, 2]
    assert all(peer["type"] == "peer" and peer["offer"] for peer in peers), peers
    await close_all(seats)


async def test_a_spectator_has_no_voice_and_hears_none() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    seats = await sockets_of(game)
    stranger = await sync_to_async(UserFactory)()
    spectator = await connect(stranger, game.code)
    await join_in_turn(seats, [0, 1])
    await say(spectator, type="join", room="table")
    await say(spectator, type="offer", room="table", to=0, sdp=SDP, session="x")
    frames = [await next_voice(spectator), await next_voice(spectator)]
    assert [frame["type"] for frame in frames] == ["error", "error"]
    # Nor is anything of the voice in its pushes: no rights element.
    assert all(frame.keys() == {"type", "message"} for frame in frames)
    await spectator.disconnect()
    await close_all(seats)


async def test_at_a_full_moderated_table_no_twelfth_voice_gets_in() -> None:
    """Ten players and the moderator fill a Mafia table's voice (eleven: the most
    there is). A twelfth person, a spectator, can neither join a room nor signal to
    a seat or to the moderator, and a seat cannot signal to an eleventh seat: each
    is refused, and no voice present hears anything of it."""
    game = await sync_to_async(start_table)("mafia_partisan", 10)
    seats = await sockets_of(game)
    assert sorted(seats) == [engine.MODERATOR, *range(10)]
    sessions = await join_in_turn(seats, [*range(10), engine.MODERATOR])
    stranger = await sync_to_async(UserFactory)()
    spectator = await connect(stranger, game.code)
    tries: list[dict[str, Any]] = [
        {"type": "join", "room": "table"},
        {"type": "join", "room": "team"},
        {"type": "offer", "room": "table", "to": 0, "sdp": SDP, "session": sessions[0]},
        {
            "type": "candidate",
            "room": "table",
            "to": engine.MODERATOR,
            "session": sessions[engine.MODERATOR],
            "candidate": CANDIDATE,
        },
    ]
    for body in tries:
        await say(spectator, **body)
    refused = [await next_voice(spectator) for _ in tries]
    assert all(frame.keys() == {"type", "message"} for frame in refused), refused
    assert {frame["type"] for frame in refused} == {"error"}
    # Seat 0 names an eleventh seat (there are ten: 0 to 9).
    await say(seats[0], type="offer", room="table", to=10, sdp=SDP, session="x")
    assert (await next_voice(seats[0]))["type"] == "error"
    # The sentinel: seat 0 leaves; every other voice's next frame is that.
    await say(seats[0], type="leave", room="table")
    for key, socket in seats.items():
        if key != 0:
            assert await next_voice(socket) == {
                "type": "leave",
                "room": "table",
                "from": 0,
                "session": sessions[0],
            }, key
    await spectator.disconnect()
    await close_all(seats)


async def test_a_flood_of_voice_frames_is_refused(settings: Any) -> None:
    settings.VOICE_FRAME_BURST = 5
    settings.VOICE_FRAME_RATE = 0.001
    game = await sync_to_async(start_table)("partisans", 5)
    seats = await sockets_of(game)
    for _ in range(6):
        await say(seats[0], type="leave", room="table")
    refused = await next_voice(seats[0])
    assert refused["type"] == "error"
    await close_all(seats)


async def test_a_second_tab_of_a_seat_replaces_the_first() -> None:
    game = await sync_to_async(start_table)("partisans", 5)
    seats = await sockets_of(game)
    sessions = await join_in_turn(seats, [0, 1])
    user = (await sync_to_async(seated_users)(game))[1]
    second = await connect(user, game.code)
    renewed = (await join(second))["session"]
    assert renewed != sessions[1]
    assert await next_voice(seats[1]) == {"type": "replaced"}
    rejoined = await next_voice(seats[0])
    assert rejoined == {"type": "join", "room": "table", "from": 1, "session": renewed}
    assert (await next_voice(second))["from"] == 0
    # A signal for the old tab's session reaches nobody; one for the new one does.
    for session in (sessions[1], renewed):
        await say(seats[0], type="offer", room="table", to=1, session=session, sdp=SDP)
    assert (await next_voice(second))["type"] == "offer"
    # The old tab is out of the voice: its signals are refused.
    await say(seats[1], type="offer", room="table", to=0, session=sessions[0], sdp=SDP)
    assert (await next_voice(seats[1]))["type"] == "error"
    # Closing the old tab tells nobody that seat 1 left.
    await seats[1].disconnect()
    await say(second, type="answer", room="table", to=0, session=sessions[0], sdp=SDP)
    assert (await next_voice(seats[0]))["type"] == "answer"
    await second.disconnect()
    del seats[1]
    await close_all(seats)


async def _mafia_at_night() -> tuple[Game, list[int], list[int]]:
    game = await sync_to_async(start_table)("mafia_partisan", 10)
    state = await sync_to_async(load_state)(game)
    view = engine.view(state, None)
    assert view["phase"] == "night"
    team = [s for s in range(10) if "mafia" in engine.view(state, s)["me"]["channels"]]
    town = [s for s in range(10) if s not in team]
    return game, team, town


async def test_the_team_room_is_the_mafias_and_nobody_else_hears_of_it() -> None:
    game, team, town = await _mafia_at_night()
    assert len(team) >= 2 and len(town) >= 2
    seats = await sockets_of(game)
    watcher, sentinel = town[0], town[1]
    # Everybody is in the table room (the table is silent at night, not closed).
    table = await join_in_turn(seats, [watcher, *team, engine.MODERATOR])
    # The mafia and the moderator join their room and signal in it.
    sessions = await join_in_turn(
        seats, [*team, engine.MODERATOR], room="team", table_sessions=table
    )
    await say(
        seats[team[0]],
        type="offer",
        room="team",
        to=team[1],
        sdp=SDP,
        session=sessions[team[1]],
    )
    assert (await next_voice(seats[team[1]]))["type"] == "offer"
    # A town seat cannot join it, nor signal into it.
    await say(seats[watcher], type="join", room="team")
    await say(
        seats[watcher],
        type="offer",
        room="team",
        to=team[0],
        sdp=SDP,
        session=sessions[team[0]],
    )
    refusals = [await next_voice(seats[watcher]), await next_voice(seats[watcher])]
    assert [frame["type"] for frame in refusals] == ["error", "error"]
    assert refusals[0]["message"] == refusals[1]["message"]
    # The sentinel: another town seat joins the table room.
    await join(seats[sentinel])
    seen = await voice_until(seats[watcher], type="join", **{"from": sentinel})
    assert all(frame.get("room") != "team" for frame in seen), seen
    assert [frame["type"] for frame in seen] == ["join"]
    # The mafia heard the town's join too (table room), and no team frame leaked
    # into another room's.
    for seat in team:
        frames = await voice_until(seats[seat], type="join", **{"from": sentinel})
        assert all(frame["room"] == "table" for frame in frames)
    await close_all(seats)


async def test_a_seat_gets_its_own_rights_with_every_push_and_a_spectator_none() -> (
    None
):
    game, team, town = await _mafia_at_night()
    users = await sync_to_async(seated_users)(game)
    socket = await connect(users[team[0]], game.code)
    first = await socket.receive_from(timeout=TIMEOUT)
    found = RIGHTS.search(first)
    assert found is not None
    state = await sync_to_async(load_state)(game)
    assert json.loads(html.unescape(found.group(1))) == voice_rights(
        engine.view(state, team[0])
    )
    town_socket = await connect(users[town[0]], game.code)
    town_first = await town_socket.receive_from(timeout=TIMEOUT)
    town_rights = json.loads(html.unescape(RIGHTS.search(town_first).group(1)))  # type: ignore[union-attr]
    assert town_rights["team"] == {"talk": False, "hear": False}
    assert town_rights["table"] == json.loads(html.unescape(found.group(1)))["table"]
    spectator = await connect(await sync_to_async(UserFactory)(), game.code)
    assert "voice-rights" not in await spectator.receive_from(timeout=TIMEOUT)
    for each in (socket, town_socket, spectator):
        await each.disconnect()


def _play_to_day(game: Game) -> None:
    """Random legal moves (the moderator's too) until the Mafia table's first day."""
    import random

    from games import services

    rng = random.Random(5)
    users = {**seated_users(game), engine.MODERATOR: game.moderator}
    for _ in range(500):
        game.refresh_from_db()
        state = load_state(game)
        if engine.view(state, None)["phase"] == "day":
            return
        seat, action = engine.random_action(state, rng)
        services.game_act(game=game, user=users[seat], action=action, turn=game.turn)
    raise AssertionError("no day came")


async def test_the_day_shuts_the_team_room_and_tells_nobody_outside_it() -> None:
    game, team, town = await _mafia_at_night()
    seats = await sockets_of(game)
    order = [town[0], *team]
    table = await join_in_turn(seats, order)
    await join_in_turn(seats, team, room="team", table_sessions=table)
    await sync_to_async(_play_to_day)(game)
    # Each mafia page is pushed rights that close the team room; a team signal is
    # then refused.
    for seat in team:
        while True:
            text = await seats[seat].receive_from(timeout=TIMEOUT)
            found = RIGHTS.search(text)
            if found and not json.loads(html.unescape(found.group(1)))["team"]["talk"]:
                break
    await say(
        seats[team[0]],
        type="offer",
        room="team",
        to=team[1],
        sdp=SDP,
        session=table[team[1]],
    )
    assert (await next_voice(seats[team[0]]))["type"] == "error"
    # The town seat heard nothing of it: its next voice frame is the sentinel.
    await say(
        seats[team[0]],
        type="candidate",
        room="table",
        to=town[0],
        session=table[town[0]],
        candidate=CANDIDATE,
    )
    seen = await voice_until(seats[town[0]], type="candidate")
    assert [frame["room"] for frame in seen] == ["table"], seen
    await close_all(seats)


async def test_a_signal_to_a_seat_whose_page_has_gone_is_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A signal relayed to a seat whose page has just gone (the server refuses the
    socket's writes, its disconnect still on its way) is dropped, logged at debug:
    the relay comes from the channel layer, not from a frame of that page's, and
    once ended its socket's consumer with an error."""
    game = await sync_to_async(start_table)("partisans", 5)
    users = await sync_to_async(seated_users)(game)
    server = ClosedUnderneath()
    seats = {0: await connect(users[0], game.code)}
    seats[1], connected, _ = await browser_socket(
        users[1], f"/ws/table/{game.code}/", app=server
    )
    assert connected
    sessions = await join_in_turn(seats, [0, 1])
    caplog.set_level(logging.DEBUG, logger="live.sockets")
    server.gone.set()
    await say(seats[0], type="offer", room="table", to=1, session=sessions[1], sdp=SDP)
    await server.until_refused(1, TIMEOUT)
    # Had the relay raised, the consumer ended with it, and this raises it.
    await seats[1].disconnect()
    failed = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failed, [r.getMessage() for r in failed]
    dropped = [r for r in caplog.records if "socket has gone" in r.getMessage()]
    assert len(dropped) == 1
    await seats[0].disconnect()
