"""The only code that writes game state.

Every function is keyword-only and does one player action in one transaction: lock
the table row, check, apply through the engine, write the rows, bump the version, and
push "table changed" to the table's group after commit. Bad input raises a
``games.errors.GameError`` with nothing written.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import hashlib
import json
import logging
import random
import re
import secrets
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from accounts.models import User
from games import engine, errors, hooks, presence, push
from games.kit.family import family_of
from games.models import (
    BOT_SHARE_MARK,
    CHAT_MAX_LENGTH,
    TURN_CLOCK_CHOICES,
    ChatMessage,
    Game,
    GameAction,
    MoveReceipt,
    Seat,
)
from games.state import load_state

CHAT_RATE_MESSAGES = 5
_sqlite_writer = threading.RLock()


@contextmanager
def _table_transaction() -> Iterator[None]:
    """One transaction per move. On SQLite the whole database has one writer: moves
    queue on a lock in this process, which wakes the next one the moment the last
    commits, instead of SQLite's own busy-wait that sleeps in growing steps (measured
    by bench.live: seconds of tail latency when ten players move at once). On
    PostgreSQL the row lock taken in ``_locked`` is the queue."""
    if connection.vendor == "sqlite":
        with _sqlite_writer, transaction.atomic():
            yield
    else:
        with transaction.atomic():
            yield


table_transaction = _table_transaction
"""The transaction these services run in, for an app whose own action wraps some of
them with rows of its own (a club opening a table and its ``ClubTable`` at once): on
SQLite it queues on the same writer lock first, where a bare ``atomic()`` would hold
the database while waiting for that lock."""

CHAT_RATE_SECONDS = 10


# --- Tables before the game --------------------------------------------------------


def game_create(
    *,
    host: User,
    ruleset: str,
    seat_count: int,
    options: Mapping[str, Any] | None = None,
    is_private: bool = False,
    name: str = "",
    turn_seconds: int = 0,
) -> Game:
    """Open a table; the host takes the first seat, or, in a game with a moderator
    (``Ruleset.has_moderator``), becomes the table's moderator and takes no seat.
    ``turn_seconds``: the turn clock (0, the default, is none; see docs/clocks.md)."""
    normalised = _normalised_options(ruleset, seat_count, options or {})
    if turn_seconds not in TURN_CLOCK_CHOICES:
        raise errors.BadSetup(reason=str(turn_seconds))
    moderated = engine.get_ruleset(ruleset).has_moderator
    with _table_transaction():
        game = Game.objects.create(
            name=name.strip(),
            ruleset=ruleset,
            host=host,
            moderator=host if moderated else None,
            seat_count=seat_count,
            options=normalised,
            is_private=is_private,
            chat_enabled=bool(normalised.get("chat", True)),
            turn_seconds=turn_seconds,
        )
        if not moderated:
            Seat.objects.create(game=game, user=host)
        push.table_changed_on_commit(game)
    return game


def _normalised_options(
    ruleset: str, seat_count: int, options: Mapping[str, Any]
) -> dict[str, Any]:
    """Let the engine validate and complete the options, as it will at the start."""
    try:
        ruleset_obj = engine.get_ruleset(ruleset)
    except (KeyError, LookupError, ValueError) as exc:
        raise errors.BadSetup(reason=str(exc)) from exc
    if not ruleset_obj.min_players <= seat_count <= ruleset_obj.max_players:
        raise errors.BadSetup(
            reason=f"{ruleset_obj.min_players}–{ruleset_obj.max_players}",
        )
    try:
        setup = engine.GameSetup(
            ruleset=ruleset, players=seat_count, options=dict(options), seed=0
        )
    except engine.SetupError as exc:
        raise errors.BadSetup(reason=str(exc)) from exc
    return dict(setup.options)


def _locked(game: Game) -> Game:
    """Re-read the table with a row lock held until the transaction ends."""
    try:
        return Game.objects.select_for_update().get(pk=game.pk)
    except Game.DoesNotExist as exc:
        raise errors.TableNotFound from exc


def seat_join(*, game: Game, user: User) -> Seat:
    with _table_transaction():
        game = _locked(game)
        if game.status != Game.Status.OPEN:
            raise errors.NotOpen
        if hooks.access(game, user) < hooks.Access.PLAY:
            raise errors.SeatNotAllowed
        if game.seats.filter(user=user).exists():
            raise errors.AlreadySeated
        if game.moderator_id is not None and game.moderator_id == user.pk:
            raise errors.ModeratorCannotSit
        if game.seats.count() >= game.seat_count:
            raise errors.TableFull
        try:
            with transaction.atomic():
                seat = Seat.objects.create(game=game, user=user)
        except IntegrityError as exc:
            raise errors.AlreadySeated from exc
        push.table_changed_on_commit(game)
    return seat


def seat_leave(*, game: Game, user: User) -> None:
    with _table_transaction():
        game = _locked(game)
        if game.status != Game.Status.OPEN:
            raise errors.NotOpen
        if game.host_id == user.pk:
            raise errors.HostCannotLeave
        deleted, _ = game.seats.filter(user=user).delete()
        if not deleted:
            raise errors.NotSeated
        push.table_changed_on_commit(game)


def _locked_open_for_host(game: Game, host: User) -> Game:
    """The locked row of a table still open, for its host only."""
    game = _locked(game)
    if game.host_id != host.pk:
        raise errors.NotHost
    if game.status != Game.Status.OPEN:
        raise errors.NotOpen
    return game


def seat_remove(*, game: Game, host: User, seat_id: int) -> None:
    """The host clears a seat before the start (not their own)."""
    with _table_transaction():
        game = _locked_open_for_host(game, host)
        seat = game.seats.filter(pk=seat_id).exclude(user=host).first()
        if seat is None:
            raise errors.NotSeated
        seat.delete()
        push.table_changed_on_commit(game)


def table_close(*, game: Game, host: User) -> None:
    """The host closes a table that has not started: it disappears."""
    with _table_transaction():
        game = _locked_open_for_host(game, host)
        push.table_changed_on_commit(game)
        game.delete()


def game_start(*, game: Game, user: User) -> Game:
    """Deal: a fresh seed, seats in random order, the engine's setup."""
    with _table_transaction():
        game = _locked(game)
        if game.host_id != user.pk:
            raise errors.NotHost
        if game.status != Game.Status.OPEN:
            raise errors.NotOpen
        seats = list(game.seats.order_by("joined_at", "pk"))
        if len(seats) != game.seat_count:
            raise errors.TableNotFull(taken=len(seats), total=game.seat_count)
        game.seed = secrets.randbits(62)
        random.Random(game.seed ^ 0x5EA75).shuffle(seats)
        for position, seat in enumerate(seats):
            seat.position = position
        Seat.objects.bulk_update(seats, ["position"])
        state, events = engine.start(
            engine.GameSetup(
                ruleset=game.ruleset,
                players=game.seat_count,
                options=dict(game.options),
                seed=game.seed,
            )
        )
        family_of(game.ruleset).records.project(
            game=game,
            seats={seat.position: seat for seat in seats if seat.position is not None},
            events=events,
            state=state,
        )
        now = timezone.now()
        game.status = Game.Status.PLAYING
        game.version = 0
        game.turn = engine.turn(state)
        game.phase = engine.view(state, None)["phase"]
        game.started_at = now
        game.last_action_at = now
        _set_deadline(game, state, changed=True)
        game.change_id += 1
        game.save(
            update_fields=[
                "change_id",
                "deadline",
                "seed",
                "status",
                "version",
                "turn",
                "phase",
                "started_at",
                "last_action_at",
            ]
        )
        hooks.committed_on_commit(game, state)
        push.table_changed_on_commit(game, written=True)
    return game


def game_rematch(*, game: Game, user: User) -> Game:
    """Play again with the same seats: the host opens a new table like this one (game,
    seats, options, privacy), taking its first seat; the players of the finished game
    see it on their screens and join it in one tap, which is their "ready"; the host
    starts once every seat is taken. A second call gives the same table."""
    with _table_transaction():
        game = _locked(game)
        if game.host_id != user.pk:
            raise errors.NotHost
        if game.status != Game.Status.FINISHED:
            raise errors.NotFinished
        if game.next_game_id is not None:
            return Game.objects.get(pk=game.next_game_id)
        moderated = engine.get_ruleset(game.ruleset).has_moderator
        new = Game.objects.create(
            name=game.name,
            ruleset=game.ruleset,
            host=user,
            moderator=user if moderated else None,
            seat_count=game.seat_count,
            options=dict(game.options),
            is_private=game.is_private,
            chat_enabled=game.chat_enabled,
            turn_seconds=game.turn_seconds,
        )
        if not moderated:
            Seat.objects.create(game=new, user=user)
        game.next_game = new
        game.change_id += 1
        game.save(update_fields=["next_game", "change_id"])
        hooks.rematch_opened(game, new)
        push.table_changed_on_commit(game, lobby=False, written=True)
        push.table_changed_on_commit(new)
    return new


def game_abandon(*, game: Game, user: User | None) -> Game:
    """The host ends a game that cannot go on (``user=None``: the site does, for a
    game left idle). It is kept, marked abandoned, and never counts as anyone's win or
    loss."""
    with _table_transaction():
        game = _locked(game)
        if user is not None and game.host_id != user.pk:
            raise errors.NotHost
        if game.status != Game.Status.PLAYING:
            raise errors.NotPlaying
        game.status = Game.Status.ABANDONED
        game.finished_at = timezone.now()
        game.deadline = None
        game.change_id += 1
        game.save(update_fields=["status", "finished_at", "deadline", "change_id"])
        push.table_changed_on_commit(game, lobby=True, written=True)
    return game


# --- Play -------------------------------------------------------------------------


@dataclass(frozen=True)
class Known:
    """What a caller (a live room) knows of a started table, so that a move need
    not read it: the row as last committed, its engine state, and its seats as
    (seat id, position, user id)."""

    game: Game
    state: Any
    seats: tuple[tuple[int, int, int], ...]


_MOVE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


@dataclass(frozen=True)
class Acted:
    """What a named move answers: the table after it (read now, for a repeat), and
    the version and turn the move itself left, the same for every repeat."""

    game: Game
    version: int
    turn: int
    replayed: bool = False


class _Replayed(Exception):
    """The move's id has a receipt already: nothing more is applied."""

    def __init__(self, game: Game, receipt: MoveReceipt) -> None:
        self.game = game
        self.receipt = receipt


def move_fingerprint(action: Mapping[str, Any], turn: int | None) -> str:
    """A digest of a move as its client sent it, to tell a repeat from a reuse."""
    text = json.dumps(
        {"action": action, "turn": turn},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def game_act_named(
    *,
    game: Game,
    user: User,
    action: Mapping[str, Any],
    turn: int | None,
    move_id: str,
    known: Known | None = None,
) -> Acted:
    """``game_act`` for a move its client named (``move_id``): the first time it is
    applied as usual, with a receipt in the same transaction; a repeat (the same id
    from the same user at the same table, whenever, from any process) answers the
    first one's version and turn and applies nothing. The same id for another move
    is refused (``MoveIdReused``); a malformed id with ``BadMoveId``."""
    if not isinstance(move_id, str) or not _MOVE_ID.fullmatch(move_id):
        raise errors.BadMoveId
    if not isinstance(action, Mapping):
        raise errors.BadAction
    named = (move_id, move_fingerprint(action, turn))
    try:
        if known is not None and known.game.status == Game.Status.PLAYING:
            try:
                done = _act(
                    _copy_row(known.game), user, action, turn, known=known, named=named
                )
                return Acted(done, done.version, done.turn)
            except (_Stale, errors.GameError, IntegrityError):
                pass
        done = _act(
            game, user, action, turn, known=known, optimistic=False, named=named
        )
        return Acted(done, done.version, done.turn)
    except _Replayed as repeat:
        if repeat.receipt.fingerprint != named[1]:
            raise errors.MoveIdReused from None
        receipt = repeat.receipt
        return Acted(repeat.game, receipt.version, receipt.turn, replayed=True)


def game_act(
    *,
    game: Game,
    user: User,
    action: Mapping[str, Any],
    turn: int | None,
    known: Known | None = None,
) -> Game:
    """Apply one player's move. ``turn`` is the decision the player saw (the table's
    ``turn`` when the page was drawn: the engine's step at which that decision began);
    a move on a decision that has passed is refused with ``TableMovedOn``, changing
    nothing. The family completes a page's move from the seat's legal moves
    (``MoveCodec.complete``) and says whether the engine's refusal is the seat's
    secret (``MoveCodec.private_refusal``: ``IllegalMove.private``).

    ``known``: the table as the caller last saw it committed. The move is then
    tried on that row without reading it: the row is written only where its
    version, status, deadline and change number are still those of ``known``, and
    the action's number is unique per table, so a move another process took in
    between makes the try write nothing, and the move goes the usual way (read
    under the row lock). So does anything the try refuses: only the row as it is
    now may refuse a move."""
    if not isinstance(action, Mapping):
        raise errors.BadAction
    if known is not None and known.game.status == Game.Status.PLAYING:
        try:
            return _act(_copy_row(known.game), user, action, turn, known=known)
        except (_Stale, errors.GameError, IntegrityError):
            pass
    return _act(game, user, action, turn, known=known, optimistic=False)


def _copy_row(game: Game) -> Game:
    """A copy of ``game`` to try a move on, what ``copy.copy`` makes (its own state
    and related-object cache, the same field values) in less than half the time:
    the copy protocol goes by way of the model's pickling."""
    made = Game.__new__(Game)
    made.__dict__.update(game.__dict__)
    state = copy.copy(game._state)
    state.fields_cache = dict(game._state.fields_cache)
    made._state = state
    return made


class _Stale(Exception):
    """The row changed since the one a move was tried on."""


def _act(
    game: Game,
    user: User,
    action: Mapping[str, Any],
    turn: int | None,
    *,
    known: Known | None,
    optimistic: bool = True,
    named: tuple[str, str] | None = None,
) -> Game:
    with _table_transaction():
        if named is not None and not optimistic:
            # Under the row lock: a repeat that raced its first try waits for it
            # here and then finds its receipt.
            game = _locked(game)
            receipt = MoveReceipt.objects.filter(
                game=game, user=user, key=named[0]
            ).first()
            if receipt is not None:
                raise _Replayed(game, receipt)
        if optimistic:
            assert known is not None
            before = {
                "pk": game.pk,
                "version": game.version,
                "status": game.status,
                "deadline": game.deadline,
                "change_id": game.change_id,
            }
        elif named is None:
            game = _locked(game)
        if game.status in (Game.Status.FINISHED, Game.Status.ABANDONED):
            raise errors.GameOver
        if game.status != Game.Status.PLAYING:
            raise errors.NotPlaying
        seats = _Seats(game.pk, known.seats) if known else _seats_by_position(game)
        mine = seats.position_of(user.pk)
        if mine is not None:
            position = mine
        elif game.moderator_id is not None and game.moderator_id == user.pk:
            # The moderator acts as the engine's MODERATOR seat; the engine refuses a
            # player's move from him (and his moves from a player) itself.
            position = engine.MODERATOR
        else:
            raise errors.NotSeated
        if turn is None or turn != game.turn:
            raise errors.TableMovedOn
        state = load_state(
            game, known=(known.game.version, known.state) if known else None
        )
        family = family_of(game.ruleset)
        move = family.moves.complete(
            dict(action), engine.legal_actions(state, position)
        )
        claim = None
        if optimistic:

            def claim(fields: list[str]) -> None:
                # The row is written before anything else, so the move takes the
                # table's row lock first, as a move read under the lock does: the
                # other way round, a move here and one under the lock in another
                # process each held what the other waited for (PostgreSQL's
                # deadlock, on the action's number and the row). A move another
                # process took since makes it write nothing.
                written = Game.objects.filter(**before).update(
                    **{name: getattr(game, name) for name in sorted(set(fields))}
                )
                if written != 1:
                    raise _Stale

        game.change_id += 1
        try:
            new_state, fields = _apply_move(
                game, seats, state, position, move, claim=claim
            )
        except engine.IllegalAction as exc:
            raise errors.IllegalMove(
                exc, private=family.moves.private_refusal(move)
            ) from exc
        if named is not None:
            # Unique per (table, user, id): an earlier try that committed meanwhile
            # makes this one fail whole, and the move goes the locked way.
            MoveReceipt.objects.create(
                game=game,
                user=user,
                key=named[0],
                fingerprint=named[1],
                version=game.version,
                turn=game.turn,
            )
        if optimistic:
            _after_save(game, new_state)
        else:
            _save_move(game, new_state, fields)
    return game


def _apply_move(
    game: Game,
    seats: _Seats,
    state: Any,
    position: int,
    action: dict[str, Any],
    *,
    by_bot: bool = False,
    claim: Callable[[list[str]], None] | None = None,
    now: dt.datetime | None = None,
) -> tuple[Any, list[str]]:
    """One move on the locked row ``game`` at ``state``: the action row, the family's
    records, the new turn and deadline, the end of the game. Returns the new state
    and the fields of ``game`` to save; raises ``engine.IllegalAction`` with nothing
    written. ``claim``, given, writes the row's new fields before anything else is
    written (a move tried on a snapshot, not read under the lock: ``_act``)."""
    new_state, events = engine.apply(state, position, action)
    # What the engine accepted is exactly what is stored and replayed.
    game.version += 1
    before = game.turn
    game.turn = engine.turn(new_state)
    game.phase = engine.view(new_state, None)["phase"]
    game.last_action_at = timezone.now()
    fields = ["version", "turn", "phase", "last_action_at", "deadline", "change_id"]
    if by_bot:
        game.bot_move_count += 1
        fields.append("bot_move_count")
    over = engine.outcome(new_state)
    if over is not None:
        fields += _finish(game, over)
    _set_deadline(game, new_state, changed=game.turn != before, now=now)
    if claim is not None:
        claim(fields)
    GameAction.objects.create(
        game=game,
        number=game.version,
        position=position,
        payload=action,
        by_bot=by_bot,
    )
    family_of(game.ruleset).records.project(
        game=game, seats=seats, events=events, state=new_state
    )
    if over is not None:
        _cards_up(seats, over, engine.final_roles(new_state))
        # Read once the move's own action is written, so that it counts.
        game.bot_played = _bot_played(game, seats)  # among _finish's fields
        if claim is not None and game.bot_played:
            Game.objects.filter(pk=game.pk).update(bot_played=True)
    return new_state, fields


def _save_move(game: Game, new_state: Any, fields: list[str]) -> None:
    """Write the row after one or more moves and push once the transaction commits."""
    game.save(update_fields=sorted(set(fields)))
    _after_save(game, new_state)


def _after_save(game: Game, new_state: Any) -> None:
    """What follows a move's row being written: the end of a game's hooks, and
    after the commit the live rooms' new state and the push."""
    over = game.status != Game.Status.PLAYING
    if over:
        hooks.game_finished(game)
    hooks.committed_on_commit(game, new_state)
    push.table_changed_on_commit(game, lobby=over, written=True)


def _set_deadline(
    game: Game, state: Any, *, changed: bool, now: dt.datetime | None = None
) -> None:
    """A new decision starts its clock; the same decision (more seats to decide)
    keeps its deadline; a finished game, a table without a clock, or a decision that
    waits only for the moderator (always a person, never played by the bot) has
    none. ``now``: when the decision starts (the clocks' pass that played the one
    before it); the present if not given."""
    if (
        game.status != Game.Status.PLAYING
        or not game.turn_seconds
        or not (engine.waiting_for(state) - {engine.MODERATOR})
    ):
        game.deadline = None
    elif changed or game.deadline is None:
        start = now or timezone.now()
        game.deadline = start + dt.timedelta(seconds=game.turn_seconds)


# --- The turn clock and the bots (docs/clocks.md) -----------------------------------

log = logging.getLogger(__name__)
BOT_NAMES_TRIED = 200


def clock_tick(*, game_id: int, now: dt.datetime | None = None) -> int:
    """Play, with the family's bot, every move the table waits for that is due: each
    seat of a bot user; each seat whose player is away past the grace
    (``games.presence``), clock or no clock; and, once the deadline has passed,
    every seat still to decide. Under the row lock the moves take: the deadline, the
    away seats and the waiting seats are read again there, so a second runner
    (another process, or a second pass) finds nothing left to play. Each bot decides
    from its own seat's view alone. The moves go the normal way (the log, the
    family's records, the push) marked ``by_bot``; a person's move the whole table
    saw awaited is also listed in ``Game.bot_marks``, for the table and the replay
    to say the bot played it. Only the decision that was due is played; the next one
    waits for the next pass. Returns the number of moves played."""
    with _table_transaction():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.PLAYING:
            return 0
        now = now or timezone.now()
        timed_out = game.deadline is not None and game.deadline <= now
        away = presence.expired_positions(game.pk, now)
        if not timed_out and not game.with_bots and not away:
            return 0
        seats = _seats_by_position(game)
        bots = _bot_positions(seats) if game.with_bots else set()
        state = load_state(game)
        turn, rng = game.turn, random.Random(secrets.randbits(64))
        fields: list[str] = []
        played, counted = 0, False
        for position in sorted(engine.waiting_for(state)):
            if position not in seats or not (
                timed_out or position in bots or position in away
            ):
                continue
            if game.turn != turn or game.status != Game.Status.PLAYING:
                break
            view = engine.view(state, position)
            if not view.get("legal"):
                continue
            # Said only when the spectator sees the table wait for this seat: a
            # mark where that is secret (a seat acting unseen) would tell.
            public = position not in bots and position in (
                engine.view(state, None).get("waiting_for") or ()
            )
            try:
                action = engine.bot_action(view, rng)
                if not counted:
                    game.change_id += 1  # one change for the whole pass
                    counted = True
                state, more = _apply_move(
                    game, seats, state, position, action, by_bot=True, now=now
                )
            except engine.IllegalAction:
                # Only the kind of failure: the move itself is the seat's secret.
                log.exception("table %s: the bot could not move", game.pk)
                continue
            if public:
                game.bot_marks = [*game.bot_marks, [game.version, position]]
                more.append("bot_marks")
            fields += more
            played += 1
        if played:
            _save_move(game, state, fields)
        elif timed_out:
            # Nothing the bot can play (the moderator's decision): stop the clock.
            game.deadline = None
            game.save(update_fields=["deadline"])
            push.table_changed_on_commit(game, lobby=False)
    return played


def clocks_due(now: dt.datetime | None = None) -> list[int]:
    """The started tables with a move for the bot: deadline passed, bots seated, or
    a seat away past its grace."""
    now = now or timezone.now()
    due = list(
        Game.objects.filter(status=Game.Status.PLAYING)
        .filter(Q(deadline__lte=now) | Q(with_bots=True))
        .order_by("deadline", "pk")
        .values_list("pk", flat=True)
    )
    seen = set(due)
    return due + [pk for pk in presence.tables_with_expired(now) if pk not in seen]


def clocks_run_once(now: dt.datetime | None = None) -> int:
    """One pass of ``manage.py run_clocks``: the sockets of dead processes swept
    (``games.presence.sweep``), then every due table once. Returns moves."""
    try:
        presence.sweep(now)
    except Exception:  # presence must never stop the clocks
        log.exception("the presence sweep failed")
    played = 0
    for game_id in clocks_due(now):
        try:
            played += clock_tick(game_id=game_id, now=now)
        except Exception:  # one broken table must not stop every other clock
            log.exception("table %s: the clock could not play", game_id)
    return played


def _bot_positions(seats: _Seats) -> set[int]:
    bots = set(
        User.objects.filter(pk__in=seats.user_ids(), is_bot=True).values_list(
            "pk", flat=True
        )
    )
    return {p for p in seats if seats.user_of(p) in bots}


def seats_fill_with_bots(*, game: Game, host: User) -> int:
    """The host fills the empty seats with bots to practise: the game is marked as
    played with bots and never counts in ratings, standings or anyone's stats.
    Returns the number of bots seated."""
    with _table_transaction():
        game = _locked_open_for_host(game, host)
        free = game.seat_count - game.seats.count()
        if free <= 0:
            raise errors.TableFull
        seated = set(game.seats.values_list("user_id", flat=True))
        added = 0
        for user in _bot_users():
            if added == free:
                break
            if user.pk in seated:
                continue
            Seat.objects.create(game=game, user=user)
            added += 1
        game.with_bots = True
        game.save(update_fields=["with_bots"])
        push.table_changed_on_commit(game)
    return added


def _bot_users() -> Iterator[User]:
    """The site's bot users, made the first time they are needed."""
    yield from User.objects.filter(is_bot=True).order_by("pk")
    for number in range(1, BOT_NAMES_TRIED + 1):
        username = f"bot-{number}"
        if User.objects.filter(username=username).exists():
            continue
        try:
            with transaction.atomic():
                user = User(
                    username=username, display_name=f"Bot {number}", is_bot=True
                )
                user.set_unusable_password()
                user.save()
        except IntegrityError:
            continue  # a person took the name
        yield user


class _Seats(Mapping[int, Seat]):
    """A started table's seats by position, each made as an instance the first time
    it is asked for: a move's records refer to one or two of them (a vote names its
    voter), and making all ten for every move was a tenth of the move's own work.
    Who sits where, and which user holds which seat, is read off the rows."""

    __slots__ = ("_game_id", "_made", "_rows")

    def __init__(self, game_id: int, rows: tuple[tuple[int, int, int], ...]) -> None:
        self._game_id = game_id
        self._rows = {position: (pk, user) for pk, position, user in rows}
        self._made: dict[int, Seat] = {}

    def __getitem__(self, position: int) -> Seat:
        seat = self._made.get(position)
        if seat is None:
            pk, user = self._rows[position]
            seat = self._made[position] = _seat(pk, self._game_id, position, user)
        return seat

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, position: object) -> bool:
        return position in self._rows

    def position_of(self, user_id: int) -> int | None:
        """The position of ``user_id``'s seat, None when they hold none."""
        return next(
            (p for p, (_pk, user) in self._rows.items() if user == user_id), None
        )

    def user_of(self, position: int) -> int:
        return self._rows[position][1]

    def user_ids(self) -> set[int]:
        return {user for _pk, user in self._rows.values()}


def _seats_by_position(game: Game) -> _Seats:
    """The started table's seats by position, as fresh (unsaved-looking) instances:
    a move's records refer to them and the end of the game writes their roles."""
    rows = tuple(
        game.seats.exclude(position=None).values_list("pk", "position", "user_id")
    )
    return _Seats(game.pk, rows)


_SEAT_FIELDS = ("id", "game_id", "user_id", "position")


@functools.cache
def _seat_names() -> tuple[str, ...]:
    """The columns :func:`_seat` knows, in the model's order (read once: ten seats a
    move each walked the model's fields for them)."""
    fields = Seat._meta.concrete_fields
    return tuple(f.attname for f in fields if f.attname in _SEAT_FIELDS)


def _seat(pk: int, game_id: int, position: int, user_id: int) -> Seat:
    """A seat as the database holds it (the other columns are read only if asked
    for), without reading it."""
    known = {"id": pk, "game_id": game_id, "user_id": user_id, "position": position}
    names = _seat_names()
    return Seat.from_db(Seat.objects.db, names, [known[name] for name in names])


def _finish(game: Game, outcome: engine.Outcome) -> list[str]:
    """The game is over: its row's side of it (the seats' is :func:`_cards_up`)."""
    game.status = Game.Status.FINISHED
    game.winner = str(outcome.winner)
    game.end_reason = outcome.reason
    game.finished_at = timezone.now()
    game.bot_played = False  # until _bot_played has read the whole game
    return ["status", "winner", "end_reason", "finished_at", "bot_played"]


def _cards_up(
    seats: Mapping[int, Seat],
    outcome: engine.Outcome,
    roles: tuple[tuple[str, str], ...],
) -> None:
    """Turn every card up into the seats, for history and stats: one UPDATE per
    distinct card (a handful: a game has few roles), not bulk_update's CASE per
    seat, whose expressions cost a finishing move more than all its other work."""
    cards: dict[tuple[str, str, bool], list[int]] = defaultdict(list)
    for position, (role, side) in enumerate(roles):
        seat = seats[position]
        seat.role = role
        seat.side = side
        seat.won = side == outcome.winner
        cards[(role, side, seat.won)].append(seat.pk)
    for (role, side, won), pks in cards.items():
        Seat.objects.filter(pk__in=pks).update(role=role, side=side, won=won)


def _bot_played(game: Game, seats: _Seats) -> bool:
    """Whether the clock's bot made more than ``BOT_SHARE_MARK`` of some person's
    decisions in this game (a bot's own seat does not count: such a game is marked
    as a practice game anyway). Read inside the finishing transaction, so the last
    move is counted."""
    # Only the clock's runner plays for the bot, and it counts each move it makes
    # (``Game.bot_move_count``): a game where it made none needs no look at its moves.
    if not game.bot_move_count:
        return False
    # Bots hold seats only at a table the host filled with them (``with_bots``, as
    # the clock's runner takes it): at any other the bots' query is not made.
    bots = _bot_positions(seats) if game.with_bots else set()
    people = [p for p in seats if p not in bots]
    rows = (
        GameAction.objects.filter(game_id=game.pk, position__in=people)
        .values("position")
        .annotate(total=Count("pk"), bot=Count("pk", filter=Q(by_bot=True)))
        .order_by()
    )
    return any(row["bot"] > BOT_SHARE_MARK * row["total"] for row in rows)


# --- Chat -------------------------------------------------------------------------


def chat_post(
    *, game: Game, user: User, text: str, channel: str = ChatMessage.Channel.TABLE
) -> ChatMessage:
    """Table talk, limited in length and rate. A side's private channel opens to the
    seats whose own view lists it (the family's engine says when)."""
    text = (text or "").strip()
    if not text:
        raise errors.ChatEmpty
    if len(text) > CHAT_MAX_LENGTH:
        raise errors.ChatTooLong(limit=CHAT_MAX_LENGTH)
    game = Game.objects.filter(pk=game.pk).first() or game
    seat = game.seats.filter(user=user).first()
    moderating = game.moderator_id is not None and game.moderator_id == user.pk
    if seat is None and not moderating:
        raise errors.NotSeated
    position = seat.position if seat is not None else engine.MODERATOR
    if channel == ChatMessage.Channel.TABLE:
        if not game.chat_enabled:
            raise errors.ChatDisabled
    else:
        # A side's private channel: open to the seats whose own view opens it now.
        if game.status != Game.Status.PLAYING or position is None:
            raise errors.ChatChannelClosed
        me = engine.view(load_state(game), position)["me"]
        if not isinstance(channel, str) or not me or channel not in me["channels"]:
            raise errors.ChatChannelClosed
    _chat_rate_check(game, user)
    with _table_transaction():
        # The change is counted first: its row lock orders a table's lines, so
        # their ids grow in the order they commit (games.push).
        push.count_change(game)
        message = ChatMessage.objects.create(
            game=game, author=user, channel=channel, text=text
        )
        push.chat_posted_on_commit(game, message)
    return message


def _chat_rate_check(game: Game, user: User) -> None:
    key = f"chat-rate:{game.pk}:{user.pk}"
    cache.add(key, 0, timeout=CHAT_RATE_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=CHAT_RATE_SECONDS)
        count = 1
    if count > CHAT_RATE_MESSAGES:
        raise errors.ChatTooFast
