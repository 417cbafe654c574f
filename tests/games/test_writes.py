"""games.writes writes exactly what the ORM would (on SQLite and on PostgreSQL: CI
runs both), through one ordinary query each, and leaves to the ORM whatever it
cannot write the same way."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.db.models import signals
from django.utils import timezone

from games import writes
from games.families.resistance.models import Proposal, Vote
from games.models import Game, GameAction, Seat
from tests.games.conftest import start_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_statements() -> Iterator[None]:
    writes.forget_all()
    yield
    writes.forget_all()


def _kept(kind: str, model: type[Any]) -> list[str]:
    return [
        sql
        for key, (sql, _params) in writes._statements.items()
        if key[0] == kind and key[2] is model
    ]


def _row(model: type[Any], pk: int) -> dict[str, Any]:
    found: dict[str, Any] = model.objects.filter(pk=pk).values().get()
    return found


def test_an_inserted_action_is_the_row_the_orm_writes() -> None:
    game = start_table()
    payload = {"type": "vote", "approve": True, "note": "«тест» ✓"}
    before = timezone.now()
    mine = GameAction(game=game, number=900, position=3, payload=payload)
    writes.insert(mine)
    theirs = GameAction.objects.create(
        game=game, number=901, position=3, payload=payload
    )
    assert mine.pk is not None and mine.pk != theirs.pk
    assert not mine._state.adding
    got, expected = _row(GameAction, mine.pk), _row(GameAction, theirs.pk)
    for row in (got, expected):
        row.pop("id"), row.pop("number")
    assert got.pop("created_at") >= before
    expected.pop("created_at")
    assert (
        got
        == expected
        == {
            "game_id": game.pk,
            "position": 3,
            "payload": payload,
            "by_bot": False,
        }
    )
    # The statement was kept, not handed back to the ORM.
    assert len(_kept("insert", GameAction)) == 1 and _kept("insert", GameAction)[0]


def test_a_kept_insert_is_one_query(django_assert_num_queries: Any) -> None:
    game = start_table()
    writes.insert(GameAction(game=game, number=900, position=1, payload={}))
    with django_assert_num_queries(1):
        writes.insert(GameAction(game=game, number=901, position=1, payload={}))
    assert GameAction.objects.filter(game=game, number__in=[900, 901]).count() == 2


def test_a_second_vote_is_refused_by_the_database_as_through_the_orm() -> None:
    game = start_table()
    proposal = Proposal.objects.create(
        game=game, mission_number=1, attempt=1, leader=game.seats.first()
    )
    seat = game.seats.last()
    writes.insert(Vote(proposal=proposal, seat=seat, approve=True))
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.insert(Vote(proposal=proposal, seat=seat, approve=False))
    assert list(proposal.votes.values_list("seat_id", "approve")) == [(seat.pk, True)]


def test_an_update_writes_only_where_every_condition_holds() -> None:
    game = start_table()
    game.refresh_from_db()
    version, status, deadline = game.version, game.status, game.deadline
    assert deadline is None
    when = timezone.now().replace(microsecond=123456)
    where = {"pk": game.pk, "version": version, "status": status, "deadline": None}
    stale = {**where, "version": version + 5}
    assert writes.update(Game, stale, {"version": version + 1}) == 0
    written = writes.update(
        Game, where, {"version": version + 1, "phase": "x", "deadline": when}
    )
    assert written == 1
    game.refresh_from_db()
    assert (game.version, game.phase, game.deadline) == (version + 1, "x", when)
    # A condition on a time that is set, and a value set to NULL.
    where = {**where, "version": version + 1, "deadline": when}
    later = when + dt.timedelta(seconds=1)
    assert writes.update(Game, {**where, "deadline": later}, {"phase": "y"}) == 0
    assert writes.update(Game, where, {"phase": "z", "deadline": None}) == 1
    game.refresh_from_db()
    assert (game.phase, game.deadline) == ("z", None)
    assert all(_kept("update", Game))


def test_an_update_of_several_rows_by_their_keys_writes_only_those() -> None:
    game = start_table("partisans", 5)
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    chosen = (seats[1].pk, seats[3].pk)
    values = {"role": "spy", "side": "evil", "won": True}
    assert writes.update(Seat, {"pk": chosen}, values) == 2
    # One statement kept per number of keys.
    assert writes.update(Seat, {"pk": (seats[0].pk,)}, {**values, "role": "x"}) == 1
    assert len(_kept("update", Seat)) == 2 and all(_kept("update", Seat))
    got = {
        seat.position: (seat.role, seat.side, seat.won)
        for seat in Seat.objects.filter(game=game)
    }
    assert got[1] == got[3] == ("spy", "evil", True)
    assert got[0] == ("x", "evil", True)
    assert got[2] == got[4] == (seats[2].role, seats[2].side, seats[2].won)


def test_one_key_in_a_tuple_is_not_taken_for_a_null_condition() -> None:
    # (True == 1 in Python: the shape of "IS NULL" and of "IN (one key)" must differ.)
    game = start_table()
    when = timezone.now().replace(microsecond=0)
    assert writes.update(Game, {"pk": game.pk, "deadline": None}, {"phase": "a"}) == 1
    assert (
        writes.update(Game, {"pk": game.pk, "deadline": (when,)}, {"phase": "b"}) == 0
    )
    Game.objects.filter(pk=game.pk).update(deadline=when)
    assert (
        writes.update(Game, {"pk": game.pk, "deadline": (when,)}, {"phase": "c"}) == 1
    )
    game.refresh_from_db()
    assert game.phase == "c"


def test_a_kept_update_is_one_query(django_assert_num_queries: Any) -> None:
    game = start_table()
    where = {"pk": game.pk, "status": game.status}
    writes.update(Game, where, {"phase": "a"})
    with django_assert_num_queries(1):
        assert writes.update(Game, where, {"phase": "b"}) == 1


def test_a_model_with_a_save_receiver_is_written_by_the_orm() -> None:
    game = start_table()
    heard: list[Any] = []

    def receiver(sender: Any, instance: Any, **kwargs: Any) -> None:
        heard.append(instance.number)

    signals.post_save.connect(receiver, sender=GameAction)
    try:
        writes.insert(GameAction(game=game, number=900, position=1, payload={}))
    finally:
        signals.post_save.disconnect(receiver, sender=GameAction)
    assert heard == [900]
    assert not _kept("insert", GameAction)


def test_a_statement_whose_values_differ_from_the_orms_is_left_to_the_orm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = start_table()
    field = GameAction._meta.get_field("position")
    real = type(field).get_db_prep_save

    def shifted(self: Any, value: Any, connection: Any) -> Any:
        found = real(self, value, connection)
        # Only this module's preparation (called with the value, not by the
        # compiler's prepare_value) is made to differ: called twice per insert.
        shifted.calls += 1  # type: ignore[attr-defined]
        return found + 1 if shifted.calls == 1 else found  # type: ignore[attr-defined]

    shifted.calls = 0  # type: ignore[attr-defined]
    monkeypatch.setattr(type(field), "get_db_prep_save", shifted)
    action = GameAction(game=game, number=900, position=2, payload={})
    writes.insert(action)
    assert _kept("insert", GameAction) == [""]  # refused: the ORM writes this shape
    assert GameAction.objects.get(game=game, number=900).position == 2
