"""The snapshot a push is drawn from is never older than the push.

Sockets that miss the same version at once share one read of the table; before the
start the version stays 0 while seats are taken, so there each push reads afresh (a
read already under way may have started before the push's seat was taken: the
host's screen would then show one seat too few until the next change)."""

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


async def _reads(game: Game, push: tuple[int, str], monkeypatch: Any) -> int:
    reads: list[tuple[Any, ...]] = []
    real = snapshots.for_push

    def counted(*args: Any) -> Any:
        reads.append(args)
        return real(*args)

    monkeypatch.setattr(snapshots, "for_push", counted)
    snapshots.forget_all()
    found = await asyncio.gather(
        *(snapshots.fetch(game.pk, game.code, push) for _ in range(3))
    )
    assert all(s is not None and s.game.pk == game.pk for s in found)
    return len(reads)


async def test_each_push_before_the_start_reads_the_table(monkeypatch: Any) -> None:
    game = await database_sync_to_async(_open_table)()
    assert await _reads(game, (0, Game.Status.OPEN), monkeypatch) == 3


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
