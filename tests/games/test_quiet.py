"""A seat the move left quiet (``Family.quiet_seats``: a Resistance vote or mission
card that leaves the decision open, for every seat but the mover's) gets its push
without its view or page being drawn (``games.rendering.render_quiet``). That push
must be, frame for frame and part for part, the one drawing the seat would make:
here every socket has a twin that always draws, and both get every push of random
games."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from bench.moves import seat_socket
from games import consumers, engine, push, rendering, services, snapshots
from games.consumers import HtmlSeatConsumer
from games.families.registry import family_of
from games.models import Game
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import seated_users, start_table

GAMES = [
    ("partisans", 7, {"scout": True, "check": True}, 31),
    ("partisans", 10, {}, 32),
    ("trust_no_one", 6, {}, 33),
    ("werewolves", 8, {}, 34),
    ("cells", 4, {}, 35),
    ("mafia_partisan", 10, {}, 36),
]
_NOW = re.compile(r' data-now="\d+"')
LANGUAGES = ("ru", "en", "fa")


class _Drawing(HtmlSeatConsumer):
    """A socket that always draws its seat's push from its view."""

    def quiet_frame(self, snapshot: snapshots.Snapshot) -> str | None:
        return None


def _socket(kind: type[HtmlSeatConsumer], user: Any, game: Game, n: int) -> Any:
    """The ``n``th viewer's socket, without a connection, in one of three languages."""
    return seat_socket(user, game, f"{n:064x}", kind=kind, language=LANGUAGES[n % 3])


def _act(game: Game, user: Any, action: dict[str, Any], capture: Any) -> Game:
    """``user``'s move, committed: the snapshot it leaves is kept (on commit)."""
    with capture(execute=True):
        return services.game_act(game=game, user=user, action=action, turn=game.turn)


def _moderator(game: Game) -> list[Any]:
    return [game.moderator] if game.moderator is not None else []


def _push(socket: Any, game: Game) -> str | None:
    """The socket's push for ``game``'s version, on the event loop where it can be
    drawn there (as the consumer does), else off it."""
    snapshot = snapshots.cached(game.pk, game.code)
    assert snapshot is not None and snapshot.game.version == game.version
    frame = socket._seat_frame(snapshot, on_loop=True, full=False)
    if frame is None:
        snapshot = snapshots.for_push(game.pk, game.code, (game.version, game.status))
        frame = socket._seat_frame(snapshot, on_loop=False, full=False)
    return frame


@pytest.mark.django_db
@pytest.mark.parametrize(("ruleset", "players", "options", "seed"), GAMES)
def test_a_quiet_seats_push_is_the_one_its_drawing_would_make(
    ruleset: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    rendering.forget_all()
    with django_capture_on_commit_callbacks(execute=True):
        game = start_table(ruleset, players, options)
    # Every seat, the moderator of a moderated game, and a spectator.
    viewers = [*seated_users(game).values(), *_moderator(game), UserFactory()]
    pairs = [
        (_socket(HtmlSeatConsumer, user, game, n), _socket(_Drawing, user, game, n))
        for n, user in enumerate(viewers)
    ]
    snapshot = snapshots.for_push(game.pk, game.code, None)
    for quiet, drawing in pairs:
        for socket in (quiet, drawing):
            socket._seat_frame(snapshot, on_loop=False, full=True)

    taken = 0
    real = consumers.render_quiet

    def counted(*args: Any) -> Any:
        nonlocal taken
        found = real(*args)
        taken += found is not None
        return found

    monkeypatch.setattr(consumers, "render_quiet", counted)
    rng = random.Random(seed)
    steps = quiet_moves = caught_up = 0
    seats = seated_users(game)
    while game.status == Game.Status.PLAYING:
        position, action = engine.random_action(load_state(game), rng)
        mover = seats.get(position, game.moderator)
        game = _act(game, mover, action, django_capture_on_commit_callbacks)
        steps += 1
        quiet_moves += bool(snapshots.cached(game.pk, game.code).quiet)  # type: ignore[union-attr]
        for number, (quiet, drawing) in enumerate(pairs):
            if number == 4 and steps % 7 == 0:
                # A socket that misses a push (not the first of its language to
                # get one, which draws the shared regions).
                continue
            behind = quiet.sent is not None and quiet.sent[0] < game.version - 1
            before = taken
            made = _push(quiet, game)
            caught_up += behind and taken > before
            expected = _push(drawing, game)
            assert made is not None and expected is not None
            assert _NOW.sub("", made) == _NOW.sub("", expected), (number, steps)
            assert quiet.parts_sent == drawing.parts_sent, (number, steps)
            assert quiet.sent == drawing.sent
    assert steps > 10
    if family_of(ruleset).code == "resistance":
        # Most of a Resistance game's moves left seats quiet, and every seat but
        # the mover's went the quiet way, except the first of each language to get
        # the push (it draws the shared regions) and a socket that missed one.
        assert quiet_moves > steps / 2
        assert taken >= quiet_moves * (players - 5)
        # The socket that missed a push caught up the quiet way where its seat was
        # left quiet by every move since it was last sent.
        assert caught_up > 0
    else:
        # The other families name no quiet seats.
        assert quiet_moves == taken == 0


@pytest.mark.django_db
def test_only_the_process_that_took_the_move_knows_its_quiet_seats(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = start_table("partisans", 5)
    snapshots.for_push(game.pk, game.code, None)  # as a socket's connect reads it
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(push, "_send", lambda group, message: sent.append(message))
    rng = random.Random(5)
    while True:
        sent.clear()
        position, action = engine.random_action(load_state(game), rng)
        mover = game.seats.get(position=position).user
        game = _act(game, mover, action, django_capture_on_commit_callbacks)
        snapshot = snapshots.cached(game.pk, game.code)
        assert snapshot is not None
        if snapshot.quiet:
            break
    assert set(snapshot.quiet) == set(range(5)) - {position}
    # The group message names the table's version and nothing of who moved or
    # which seats the move left alone (games.push).
    assert [set(message) for message in sent] == [
        {"type", "version", "status", "change"}
    ]
    # A snapshot read afresh (what another process holds) knows no quiet seats.
    snapshots.forget(game.pk, game.code)
    fresh = snapshots.for_push(game.pk, game.code, None)
    assert fresh is not None and not fresh.quiet


@pytest.mark.django_db
def test_a_side_channels_line_makes_the_next_push_drawn(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    # A side's private channel shows in the seat's card: after a line of it, the
    # card is drawn again at the next push even if the move left the seat quiet.
    # (A line of the table's channel is outside the live area.)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_table("partisans", 5)
    users = list(seated_users(game).values())
    sockets = [_socket(HtmlSeatConsumer, user, game, 0) for user in users]
    snapshot = snapshots.for_push(game.pk, game.code, None)
    for socket in sockets:
        socket._seat_frame(snapshot, on_loop=False, full=True)

    def move(position: int, action: dict[str, Any]) -> None:
        nonlocal game
        mover = game.seats.get(position=position).user
        game = _act(game, mover, action, django_capture_on_commit_callbacks)
        drew.clear()
        for socket in sockets:
            _push(socket, game)

    drew: list[int] = []
    real = HtmlSeatConsumer.seat_frame

    def drawing(self: Any, *args: Any, **kwargs: Any) -> Any:
        drew.append(sockets.index(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(HtmlSeatConsumer, "seat_frame", drawing)
    rng = random.Random(8)
    kind = ""
    while kind != "propose":  # to the first vote, every screen drawn
        position, action = engine.random_action(load_state(game), rng)
        kind = action["type"]
        move(position, action)
    assert len(drew) == 5

    async def nothing_to_read(message_id: int, channel: str) -> None:
        return None

    for socket in sockets:
        socket._readable_chat = nothing_to_read
        asyncio.run(socket.chat_posted({"message_id": 0, "channel": "table"}))
    assert not any(socket.side_chat_heard for socket in sockets)
    at = {socket.position: n for n, socket in enumerate(sockets)}  # seats dealt
    asyncio.run(sockets[at[2]].chat_posted({"message_id": 0, "channel": "evil"}))
    assert sockets[at[2]].side_chat_heard

    move(1, {"type": "vote", "approve": True})
    snapshot = snapshots.cached(game.pk, game.code)
    assert snapshot is not None and set(snapshot.quiet) == {0, 2, 3, 4}
    # The first socket drew the shared regions, the voter drew its card, the one
    # that heard its side's line drew its seat and is clear again; the other quiet
    # seats did not draw.
    assert drew == sorted({0, at[1], at[2]})
    assert not sockets[at[2]].side_chat_heard
