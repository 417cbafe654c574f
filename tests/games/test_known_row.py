"""A move tried on the row this process last knew (``services.game_act(known=…)``).

A socket's move is tried on the table's snapshot without reading the row. These
tests hold the promise that this changes nothing a player could tell: a stale row,
an abandoned table, a stopped clock or a move another process took in between send
the move the usual way (read under the lock), which accepts or refuses it exactly as
before; and a move tried on a fresh row runs fewer queries."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import errors, services
from games.models import Game, GameAction, Seat
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import public_view, seated_users, start_table

pytestmark = pytest.mark.django_db


def _row(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def _known(game: Game) -> services.Known:
    """What a live room holds of the table now: the row, its state and its seats."""
    row = _row(game)
    return services.Known(
        game=row,
        state=load_state(row),
        seats=tuple(
            Seat.objects.filter(game=row, position__isnull=False)
            .order_by("position")
            .values_list("pk", "position", "user_id")
        ),
    )


def _vote(game: Game, position: int, *, known: services.Known | None) -> Game:
    return services.game_act(
        game=Game(pk=game.pk),
        user=seated_users(game)[position],
        action={"type": "vote", "approve": True},
        turn=_row(game).turn,
        known=known,
    )


def _voter(
    game: Game, turn: int, failures: list[BaseException]
) -> Callable[[int, services.Known | None], None]:
    """A thread's vote at ``position`` (on the row ``known``, or read under the
    lock); what it raises goes to ``failures``."""
    users = seated_users(game)

    def vote(position: int, known: services.Known | None) -> None:
        try:
            services.game_act(
                game=Game(pk=game.pk),
                user=users[position],
                action={"type": "vote", "approve": True},
                turn=turn,
                known=known,
            )
        except BaseException as exc:  # reported by the test
            failures.append(exc)
        finally:
            connection.close()

    return vote


def _proposed(players: int = 5) -> Game:
    game = start_table("partisans", players)
    view = public_view(game)
    services.game_act(
        game=game,
        user=seated_users(game)[view["leader"]],
        action={"type": "propose", "team": [0, 1]},
        turn=game.turn,
    )
    return _row(game)


def _timed_vote(game: Game, position: int, known: services.Known | None) -> list[str]:
    """The queries of one vote, and nothing of the test's own."""
    user = seated_users(game)[position]
    turn = _row(game).turn
    with CaptureQueriesContext(connection) as queries:
        services.game_act(
            game=Game(pk=game.pk),
            user=user,
            action={"type": "vote", "approve": True},
            turn=turn,
            known=known,
        )
    return [q["sql"] for q in queries]


def test_a_move_on_the_known_row_reads_neither_row_nor_seats() -> None:
    game = _proposed()
    known = _known(game)
    tried = _timed_vote(game, 0, known)
    locked = _timed_vote(_proposed(), 0, None)
    assert len(tried) < len(locked)
    for table in ('FROM "games_game"', 'FROM "games_seat"'):
        assert not [sql for sql in tried if table in sql]
        assert [sql for sql in locked if table in sql]
    row = _row(game)
    assert row.version == known.game.version + 1
    assert row.turn == known.game.turn and row.phase == "vote"
    assert _row(game).version - 1 == known.game.version  # the snapshot is untouched


def test_a_stale_known_row_takes_the_usual_way() -> None:
    game = _proposed()
    stale = _known(game)
    _vote(game, 0, known=None)  # another process's move: the snapshot is behind
    after = _vote(game, 1, known=stale)
    row = _row(game)
    assert row.version == after.version == stale.game.version + 2
    numbers = list(
        GameAction.objects.filter(game=game).values_list("number", flat=True)
    )
    assert numbers == list(range(1, row.version + 1))


def test_a_table_abandoned_since_is_refused() -> None:
    game = _proposed()
    known = _known(game)
    host = game.host
    services.game_abandon(game=game, user=host)
    before = GameAction.objects.filter(game=game).count()
    with pytest.raises(errors.NotPlaying):
        _vote(game, 0, known=known)
    assert GameAction.objects.filter(game=game).count() == before


def test_a_refusal_on_the_known_row_is_the_refusal_of_the_row() -> None:
    """A second vote is refused, as it is on the locked row, and writes nothing."""
    game = _proposed()
    _vote(game, 0, known=_known(game))
    before = _row(game).version
    with pytest.raises(errors.IllegalMove):
        _vote(game, 0, known=_known(game))
    assert _row(game).version == before


def test_a_deadline_moved_since_is_not_written_back() -> None:
    """The deadline changed without a new version (the clock's runner does that):
    the try on the old row writes nothing, and the move keeps the row's deadline,
    not the snapshot's."""
    users = UserFactory.create_batch(5)
    game = services.game_create(
        host=users[0], ruleset="partisans", seat_count=5, turn_seconds=300
    )
    for user in users[1:]:
        services.seat_join(game=game, user=user)
    game = services.game_start(game=game, user=users[0])
    view = public_view(game)
    services.game_act(
        game=game,
        user=seated_users(game)[view["leader"]],
        action={"type": "propose", "team": [0, 1]},
        turn=_row(game).turn,
    )
    known = _known(game)
    assert known.game.deadline is not None
    moved = known.game.deadline + dt.timedelta(seconds=77)
    Game.objects.filter(pk=game.pk).update(deadline=moved)
    queries = _timed_vote(game, 0, known)
    assert [sql for sql in queries if 'FROM "games_game"' in sql]  # the locked way
    row = _row(game)
    assert row.version == known.game.version + 1
    assert row.deadline == moved  # the same decision keeps the row's deadline


@pytest.mark.django_db(transaction=True)
def test_moves_racing_on_one_known_row_are_each_taken_once() -> None:
    """Five voters at once, each with the same snapshot: every vote is taken once,
    the versions have no gap and no duplicate."""
    game = _proposed()
    known = _known(game)
    failures: list[BaseException] = []
    vote = _voter(game, known.game.turn, failures)
    threads = [threading.Thread(target=vote, args=(p, known)) for p in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    row = _row(game)
    assert row.version == known.game.version + 5
    numbers = list(
        GameAction.objects.filter(game=game).values_list("number", flat=True)
    )
    assert numbers == list(range(1, row.version + 1))
    assert row.phase == "mission"


@pytest.mark.django_db(transaction=True)
def test_a_move_on_a_known_row_and_one_under_the_lock_do_not_deadlock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One process tries a vote on its snapshot while another takes a vote under the
    row lock. The first takes the row before it writes anything: once it wrote its
    action first, the second (holding the row, writing the same action number)
    waited for it while it waited for the row, and PostgreSQL broke the deadlock by
    failing one of the two moves."""
    from games.families.resistance import projection

    game = _proposed()
    known = _known(game)
    written = threading.Event()
    go_on = threading.Event()
    failures: list[BaseException] = []
    project = projection.project

    def held(**kwargs: object) -> None:
        # The first vote, paused between its first writes and its commit.
        if threading.current_thread().name == "known":
            written.set()
            go_on.wait(10)
        project(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(projection, "project", held)
    vote = _voter(game, known.game.turn, failures)
    first = threading.Thread(target=vote, args=(0, known), name="known")
    second = threading.Thread(target=vote, args=(1, None), name="locked")
    first.start()
    assert written.wait(10)
    second.start()
    second.join(0.5)  # it waits for the first (the row's lock, or SQLite's)
    go_on.set()
    first.join(20)
    second.join(20)
    assert not failures, failures
    row = _row(game)
    assert row.version == known.game.version + 2
    numbers = list(
        GameAction.objects.filter(game=game).values_list("number", flat=True)
    )
    assert numbers == list(range(1, row.version + 1))
