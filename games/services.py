"""The only code that writes game state.

Every function is keyword-only and does one player action in one transaction: lock
the table row, check, apply through the engine, write the rows, bump the version, and
push "table changed" to the table's group after commit. Bad input raises a
``games.errors.GameError`` with nothing written.
"""

from __future__ import annotations

import random
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from accounts.models import User
from games import engine, errors, push
from games.models import (
    CHAT_MAX_LENGTH,
    ChatMessage,
    Check,
    Game,
    GameAction,
    Mission,
    MissionCard,
    Proposal,
    Seat,
    Shot,
    Vote,
)
from games.state import load_state, remember

CHAT_RATE_MESSAGES = 5
_sqlite_writer = threading.RLock()


@contextmanager
def _table_transaction() -> Iterator[None]:
    """One transaction per move. On SQLite the whole database has one writer: moves
    queue on a lock in this process, which wakes the next one the moment the last
    commits, instead of SQLite's own busy-wait that sleeps in growing steps (measured
    by bench.live: seconds of tail latency when ten players vote at once). On
    PostgreSQL the row lock taken in ``_locked`` is the queue."""
    if connection.vendor == "sqlite":
        with _sqlite_writer, transaction.atomic():
            yield
    else:
        with transaction.atomic():
            yield


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
) -> Game:
    """Open a table; the host takes the first seat."""
    normalised = _normalised_options(ruleset, seat_count, options or {})
    with _table_transaction():
        game = Game.objects.create(
            name=name.strip(),
            ruleset=ruleset,
            host=host,
            seat_count=seat_count,
            options=normalised,
            is_private=is_private,
            chat_enabled=bool(normalised.get("chat", True)),
        )
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
        if game.seats.filter(user=user).exists():
            raise errors.AlreadySeated
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


def seat_remove(*, game: Game, host: User, seat_id: int) -> None:
    """The host clears a seat before the start (not their own)."""
    with _table_transaction():
        game = _locked(game)
        if game.host_id != host.pk:
            raise errors.NotHost
        if game.status != Game.Status.OPEN:
            raise errors.NotOpen
        seat = game.seats.filter(pk=seat_id).exclude(user=host).first()
        if seat is None:
            raise errors.NotSeated
        seat.delete()
        push.table_changed_on_commit(game)


def table_close(*, game: Game, host: User) -> None:
    """The host closes a table that has not started: it disappears."""
    with _table_transaction():
        game = _locked(game)
        if game.host_id != host.pk:
            raise errors.NotHost
        if game.status != Game.Status.OPEN:
            raise errors.NotOpen
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
        state = engine.setup(
            engine.GameSetup(
                ruleset=game.ruleset,
                players=game.seat_count,
                options=dict(game.options),
                seed=game.seed,
            )
        )
        public = engine.view(state, None)
        Mission.objects.bulk_create(
            Mission(
                game=game,
                number=mission["number"],
                size=mission["size"],
                two_fails=mission["two_fails"],
            )
            for mission in public["missions"]
        )
        now = timezone.now()
        game.status = Game.Status.PLAYING
        game.version = 0
        game.turn = 0
        game.phase = public["phase"]
        game.started_at = now
        game.last_action_at = now
        game.save(
            update_fields=[
                "seed",
                "status",
                "version",
                "turn",
                "phase",
                "started_at",
                "last_action_at",
            ]
        )
        transaction.on_commit(lambda: remember(game, state))
        push.table_changed_on_commit(game)
    return game


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
        game.save(update_fields=["status", "finished_at"])
        push.table_changed_on_commit(game, lobby=True)
    return game


# --- Play -------------------------------------------------------------------------


def _decision_key(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a player's move is about. While it stays the same (say, other players
    voting on the same team) a move made on an older version still means what the
    player meant; once it changes the table has moved on."""
    return (view["phase"], view["mission"], len(view["history"]), len(view["checks"]))


def game_act(
    *, game: Game, user: User, action: Mapping[str, Any], turn: int | None
) -> Game:
    """Apply one player's move. ``turn`` is the decision the player saw (the table's
    ``turn`` when the page was drawn); a move on a decision that has passed is refused
    with ``TableMovedOn``, changing nothing."""
    if not isinstance(action, Mapping):
        raise errors.BadAction
    with _table_transaction():
        game = _locked(game)
        if game.status != Game.Status.PLAYING:
            raise errors.NotPlaying
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise errors.NotSeated
        if turn is None or turn != game.turn:
            raise errors.TableMovedOn
        state = load_state(game)
        before = engine.view(state, None)
        try:
            new_state, _events = engine.apply(state, seat.position, dict(action))
        except engine.IllegalAction as exc:
            raise errors.IllegalMove(exc) from exc
        # What the engine accepted is exactly what is stored and replayed.
        stored = dict(action)
        game.version += 1
        GameAction.objects.create(
            game=game, number=game.version, position=seat.position, payload=stored
        )
        after = engine.view(new_state, None)
        _project(game, seat, stored, before, after, new_state)
        if _decision_key(after) != _decision_key(before):
            game.turn = game.version
        game.phase = after["phase"]
        game.last_action_at = timezone.now()
        fields = ["version", "turn", "phase", "last_action_at"]
        if after["outcome"] is not None:
            fields += _finish(game, after)
        game.save(update_fields=fields)
        transaction.on_commit(lambda: remember(game, new_state))
        push.table_changed_on_commit(game, lobby=after["outcome"] is not None)
    return game


def _seats_by_position(game: Game) -> dict[int, Seat]:
    return {
        seat.position: seat for seat in game.seats.all() if seat.position is not None
    }


def _project(
    game: Game,
    seat: Seat,
    action: Mapping[str, Any],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    new_state: Any,
) -> None:
    """Write the rows that history and stats query, from the move and the public
    views around it. Secret facts written here (a vote in progress, a check result)
    are never read by the live pages."""
    kind = action["type"]
    if kind == "propose":
        seats = _seats_by_position(game)
        proposal = Proposal.objects.create(
            game=game,
            mission_number=before["mission"],
            attempt=before["rejections"] + 1,
            leader=seat,
        )
        proposal.team.set([seats[position] for position in action["team"]])
    elif kind == "vote":
        proposal = Proposal.objects.filter(game=game, approved__isnull=True).latest(
            "pk"
        )
        Vote.objects.create(proposal=proposal, seat=seat, approve=action["approve"])
        if len(after["history"]) > len(before["history"]):
            finished = after["history"][-1]
            proposal.approved = finished["approved"]
            proposal.save(update_fields=["approved"])
            if finished["approved"]:
                seats = _seats_by_position(game)
                mission = Mission.objects.get(game=game, number=finished["mission"])
                mission.size = len(finished["team"])
                mission.save(update_fields=["size"])
                mission.team.set([seats[position] for position in finished["team"]])
    elif kind == "play":
        _record_mission_results(game, before, after)
    elif kind == "check":
        seats = _seats_by_position(game)
        holder_view = engine.view(new_state, seat.position)
        result = holder_view["checks"][-1]["result"]
        Check.objects.create(
            game=game,
            after_mission=holder_view["checks"][-1]["after_mission"],
            holder=seat,
            target=seats[action["target"]],
            result=result,
        )
    elif kind == "claim":
        check = Check.objects.filter(game=game, holder=seat).latest("pk")
        check.claim = action["side"]
        check.save(update_fields=["claim"])
    elif kind == "shoot":
        seats = _seats_by_position(game)
        Shot.objects.create(
            game=game,
            sniper=seat,
            target=seats[action["target"]],
            hit=bool(after["sniper"] and after["sniper"]["hit"]),
        )


def _record_mission_results(
    game: Game, before: Mapping[str, Any], after: Mapping[str, Any]
) -> None:
    """When the last card is in: the result, the fail count, and the cards themselves
    in shuffled order and without authors, as the table sees them turned up."""
    for old, new in zip(before["missions"], after["missions"], strict=True):
        if old["result"] is None and new["result"] is not None:
            Mission.objects.filter(game=game, number=new["number"]).update(
                result=new["result"], fails=new["fails"]
            )
            mission = Mission.objects.get(game=game, number=new["number"])
            size = mission.team.count() or new["size"]
            cards = [False] * new["fails"] + [True] * (size - new["fails"])
            random.SystemRandom().shuffle(cards)
            MissionCard.objects.bulk_create(
                MissionCard(mission=mission, success=card) for card in cards
            )


def _finish(game: Game, public: Mapping[str, Any]) -> list[str]:
    """The game is over: turn every card up into the seats, for history and stats."""
    outcome = public["outcome"]
    seats = _seats_by_position(game)
    for revealed in public["roles"]:
        seat = seats[revealed["seat"]]
        seat.role = revealed["role"]
        seat.side = revealed["side"]
        seat.won = revealed["side"] == outcome["winner"]
    Seat.objects.bulk_update(seats.values(), ["role", "side", "won"])
    game.status = Game.Status.FINISHED
    game.winner = outcome["winner"]
    game.end_reason = outcome["reason"]
    game.finished_at = timezone.now()
    return ["status", "winner", "end_reason", "finished_at"]


# --- Chat -------------------------------------------------------------------------


def chat_post(
    *, game: Game, user: User, text: str, channel: str = ChatMessage.Channel.TABLE
) -> ChatMessage:
    """Table talk, limited in length and rate. The evil side's channel opens to evil
    seats during the sniper phase only."""
    text = (text or "").strip()
    if not text:
        raise errors.ChatEmpty
    if len(text) > CHAT_MAX_LENGTH:
        raise errors.ChatTooLong(limit=CHAT_MAX_LENGTH)
    game = Game.objects.filter(pk=game.pk).first() or game
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise errors.NotSeated
    if channel == ChatMessage.Channel.TABLE:
        if not game.chat_enabled:
            raise errors.ChatDisabled
    elif channel == ChatMessage.Channel.EVIL:
        if game.status != Game.Status.PLAYING or seat.position is None:
            raise errors.ChatChannelClosed
        me = engine.view(load_state(game), seat.position)["me"]
        if not me or "evil" not in me["channels"]:
            raise errors.ChatChannelClosed
    else:
        raise errors.ChatChannelClosed
    _chat_rate_check(game, user)
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
