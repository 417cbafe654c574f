"""The snapshot a push is drawn from is never older than the push.

Sockets that miss the same version at once share one read of the table. Before the
start the version stays 0 while seats are taken: a push then names its change, and
the sockets that get it share one read made after it came (a read already under way
for another change may have started before this push's seat was taken: the host's
screen would then show one seat too few until the next change); a push without a
name reads afresh."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import services, snapshots
from games.models import Game
from tests.factories import UserFactory
from tests.games.conftest import start_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _open_table() -> Game:
    host, guest = UserFactory.create_batch(2)
    game = services.game_create(host=host, ruleset="partisans", seat_count=5)
    services.seat_join(game=game, user=guest)
    return game


async def _reads(
    game: Game,
    push: tuple[int, str],
    monkeypatch: Any,
    changes: list[str | None] | None = None,
) -> int:
    reads: list[tuple[Any, ...]] = []
    real = snapshots.for_push

    def counted(*args: Any) -> Any:
        reads.append(args)
        return real(*args)

    monkeypatch.setattr(snapshots, "for_push", counted)
    snapshots.forget_all()
    changes = changes if changes is not None else [None, None, None]
    found = await asyncio.gather(
        *(snapshots.fetch(game.pk, game.code, push, change) for change in changes)
    )
    assert all(s is not None and s.game.pk == game.pk for s in found)
    return len(reads)


async def test_each_unnamed_push_before_the_start_reads_the_table(
    monkeypatch: Any,
) -> None:
    game = await database_sync_to_async(_open_table)()
    assert await _reads(game, (0, Game.Status.OPEN), monkeypatch) == 3


async def test_sockets_share_one_read_for_a_named_change_before_the_start(
    monkeypatch: Any,
) -> None:
    game = await database_sync_to_async(_open_table)()
    push = (0, Game.Status.OPEN)
    # Three sockets get one change's push at once, two another's: one read each.
    changes: list[str | None] = ["a-1", "a-1", "a-1", "a-2", "a-2"]
    assert await _reads(game, push, monkeypatch, changes) == 2


async def test_a_socket_late_for_a_change_gets_the_read_made_for_it() -> None:
    game = await database_sync_to_async(_open_table)()
    snapshots.forget_all()
    push = (0, Game.Status.OPEN)
    first = await snapshots.fetch(game.pk, game.code, push, "b-1")
    late = await snapshots.fetch(game.pk, game.code, push, "b-1")
    assert first is not None and late is first
    assert [p.user_id for p in first.players] == [
        seat.user_id
        for seat in await database_sync_to_async(
            lambda: list(game.seats.order_by("joined_at", "pk"))
        )()
    ]


async def test_a_join_pushed_to_waiting_screens_shows_on_every_one() -> None:
    """A socket of the host and of a guest are pushed a third player's seat:
    both screens show it, from the one read the two pushes shared."""
    from tests.games.test_consumers import connect, drain

    game = await database_sync_to_async(_open_table)()
    host, guest = await database_sync_to_async(
        lambda: [seat.user for seat in game.seats.select_related("user")]
    )()
    screens = [await connect(host, game.code), await connect(guest, game.code)]
    for screen in screens:
        await drain(screen)
    third = await database_sync_to_async(UserFactory)()
    await database_sync_to_async(services.seat_join)(game=game, user=third)
    for screen in screens:
        areas = [f for f in await drain(screen) if 'id="table-live"' in f]
        assert areas and third.display_name in areas[-1]
        await screen.disconnect()


async def test_pushes_of_one_version_share_one_read(monkeypatch: Any) -> None:
    game = await database_sync_to_async(start_table)("partisans", 5)
    push = (game.version, Game.Status.PLAYING)
    assert await _reads(game, push, monkeypatch) == 1


async def test_a_committed_move_hands_every_push_the_spectator_view_it_made() -> None:
    """The move reads its phase from the spectator's view of its new state; the
    snapshot it leaves gives every push that same view, equal to a fresh one."""
    from games import engine
    from games.state import load_state
    from tests.games.conftest import seated_users

    def move() -> Game:
        game = start_table("partisans", 5)
        snapshots.of(game)  # a socket of this process has pushed the table
        leader = seated_users(game)[engine.view(load_state(game), None)["leader"]]
        return services.game_act(
            game=game, user=leader, action={"type": "propose", "team": [0, 1]}, turn=0
        )

    game = await database_sync_to_async(move)()
    snapshot = snapshots.cached(game.pk, game.code)
    assert snapshot is not None and snapshot.game.version == game.version
    shown = snapshot.public_view()
    assert shown is snapshots.public_view_of(snapshot.state)
    assert shown["phase"] == game.phase == "vote"
    fresh = await database_sync_to_async(lambda: engine.view(load_state(game), None))()
    assert shown == fresh
