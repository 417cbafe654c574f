"""Who is at the table: each seat's open screens, the grace a player gets when the
last one goes, and the notice the whole table sees (docs/clocks.md).

Presence lives in the database, so it holds across daphne processes and restarts:

* every open socket of a signed-in person at a table is a ``TableSocket`` row, made
  on connect, beaten every ``PRESENCE_HEARTBEAT_SECONDS`` by a small task of its
  consumer, and deleted on disconnect. Several tabs, or tabs served by several
  processes, are several rows; nothing is counted in memory;
* when a socket closes and no other fresh row of that person at that table is left,
  the seat's ``Seat.away_since`` is set: the grace (``PRESENCE_GRACE_SECONDS``)
  counts from there. A socket that opens (or beats) clears it: the player takes the
  seat back at once;
* a process killed without closing its sockets leaves rows that stop beating: after
  ``PRESENCE_STALE_SECONDS`` the clock's runner sweeps them (:func:`sweep`) and marks
  the seat away since its last beat. A stale row therefore keeps a seat "present"
  for at most that long, and nothing keeps a seat "away" once one of its sockets
  beats again.

A seat that never had a socket (a program playing over the HTTP API, a page without
JavaScript) is never away: only a player who was connected and left is covered.

Who is away is public (every screen shows the same notice, whatever its side), and
the grace starts at the disconnect, not at the seat's next decision: a countdown that
started only when the table waited for that seat would tell who the table waits for
when that is secret (the sniper, a night's actors). When the grace has run out the
clock's runner plays the seat's moves with the bot (``games.services.clock_tick``)
until the player returns.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from games import push
from games.models import Game, Seat, TableSocket
from numerals.digits import localize_text, numerals_for

log = logging.getLogger(__name__)

DEFAULT_GRACE_SECONDS = 60
DEFAULT_HEARTBEAT_SECONDS = 15
DEFAULT_STALE_SECONDS = 45


def grace() -> dt.timedelta:
    """How long an away seat is waited for before the bot plays its decisions."""
    return dt.timedelta(
        seconds=getattr(settings, "PRESENCE_GRACE_SECONDS", DEFAULT_GRACE_SECONDS)
    )


def heartbeat_seconds() -> float:
    return float(
        getattr(settings, "PRESENCE_HEARTBEAT_SECONDS", DEFAULT_HEARTBEAT_SECONDS)
    )


def stale() -> dt.timedelta:
    """A socket row that has not beaten for this long belongs to a dead process."""
    return dt.timedelta(
        seconds=getattr(settings, "PRESENCE_STALE_SECONDS", DEFAULT_STALE_SECONDS)
    )


@dataclass(frozen=True)
class Away:
    """A seat whose player (or the table's moderator) has no screen of the table
    open: public."""

    position: int | None
    """The seat; None for the moderator, who holds none."""
    name: str
    since: dt.datetime
    until: dt.datetime | None
    """When the grace runs out (``since`` + the grace) and the bot plays the seat's
    moves; None for the moderator, whom the bot never stands in for."""

    @property
    def moderator(self) -> bool:
        return self.position is None


# --- sockets: called from the consumers' connect and disconnect -------------------


async def socket_opened(consumer: Any) -> None:
    """A table socket opened: count it, take the seat back if it was away, and beat
    for it while it is open."""
    key = (consumer.game_id, consumer.scope["user"].pk, consumer.channel_name)
    try:
        await database_sync_to_async(_opened)(*key)
    except Exception:  # presence must never cost a player the table; the beat retries
        log.exception("table %s: a socket could not be counted", consumer.game_id)
    consumer.presence_beat = asyncio.create_task(_beat(*key))


async def socket_closed(consumer: Any) -> None:
    """A table socket closed: stop its beat; the seat is away if it was the last."""
    task = getattr(consumer, "presence_beat", None)
    if task is None:
        return
    task.cancel()
    try:
        await database_sync_to_async(_closed)(
            consumer.game_id, consumer.scope["user"].pk, consumer.channel_name
        )
    except Exception:  # its row stops beating: the runner's sweep finds it
        log.exception(
            "table %s: a closed socket could not be counted", consumer.game_id
        )


def away_json(away: tuple[Away, ...]) -> list[dict[str, Any]]:
    """Who is away, for programs: each seat (None: the moderator) with when its
    player left and when the bot starts playing for it (None for the moderator)."""
    return [
        {
            "seat": line.position,
            "moderator": line.moderator,
            "name": line.name,
            "since": line.since.isoformat(),
            "until": line.until.isoformat() if line.until is not None else None,
        }
        for line in away
    ]


async def _beat(game_id: int, user_id: int, channel: str) -> None:
    while True:
        await asyncio.sleep(heartbeat_seconds())
        try:
            await database_sync_to_async(_beaten)(game_id, user_id, channel)
        except Exception:  # a missed beat is retried at the next; never fatal
            log.exception("table %s: a socket's heartbeat failed", game_id)


def _transaction() -> Any:
    from games.services import table_transaction  # services imports this module

    return table_transaction()


def _lock_table(game_id: int) -> None:
    """Take the table's row first, as every move and the start do: a presence write
    that locked a seat or a socket row before the table's deadlocked with a start
    (which locks the table, then its seats) on PostgreSQL. A database without row
    locks (SQLite, whose writing transaction already holds the whole file) is sent
    nothing: the statement would lock nothing there."""
    if not connection.features.has_select_for_update:
        return
    list(Game.objects.select_for_update().filter(pk=game_id).values_list("pk"))


def _opened(game_id: int, user_id: int, channel: str) -> None:
    """A new socket's row: its channel's name is new (the channel layer names each
    socket afresh), so it is written without looking for one first."""
    now = timezone.now()
    with _transaction():
        _lock_table(game_id)
        TableSocket.objects.create(
            game_id=game_id, user_id=user_id, channel=channel, beat_at=now
        )
        _back(game_id, user_id)


def _beaten(game_id: int, user_id: int, channel: str) -> None:
    """A beat: the row is fresh again (made anew if a sweep took it during a long
    stall of this process), and the seat is not away."""
    now = timezone.now()
    with _transaction():
        _lock_table(game_id)
        if not TableSocket.objects.filter(channel=channel).update(beat_at=now):
            TableSocket.objects.create(
                game_id=game_id, user_id=user_id, channel=channel, beat_at=now
            )
        _back(game_id, user_id)


def _back(game_id: int, user_id: int) -> None:
    back = Seat.objects.filter(
        game_id=game_id, user_id=user_id, away_since__isnull=False
    ).update(away_since=None)
    back += Game.objects.filter(
        pk=game_id, moderator_id=user_id, moderator_away_since__isnull=False
    ).update(moderator_away_since=None)
    if back:
        push.presence_changed_on_commit(game_id)


def returned(game: Game, user_id: int) -> None:
    """The player (or the moderator) opened the table's page: they are back from
    now on, before their page's socket opens, so the clock's runner plays nothing
    more for them (its moves take the table's row lock, as this does)."""
    if game.status != Game.Status.PLAYING:
        return
    moderator_away = (
        game.moderator_id == user_id and game.moderator_away_since is not None
    )
    if (
        not moderator_away
        and not Seat.objects.filter(
            game_id=game.pk, user_id=user_id, away_since__isnull=False
        ).exists()
    ):
        return
    with _transaction():
        _lock_table(game.pk)
        _back(game.pk, user_id)


def _closed(game_id: int, user_id: int, channel: str) -> None:
    now = timezone.now()
    with _transaction():
        _lock_table(game_id)
        TableSocket.objects.filter(channel=channel).delete()
        others = TableSocket.objects.filter(
            game_id=game_id, user_id=user_id, beat_at__gte=now - stale()
        )
        if not others.exists():
            _left(game_id, user_id, now)


def _left(game_id: int, user_id: int, since: dt.datetime) -> None:
    left = Seat.objects.filter(
        game_id=game_id, user_id=user_id, away_since__isnull=True
    ).update(away_since=since)
    left += Game.objects.filter(
        pk=game_id, moderator_id=user_id, moderator_away_since__isnull=True
    ).update(moderator_away_since=since)
    if left:
        push.presence_changed_on_commit(game_id)


def sweep(now: dt.datetime | None = None) -> int:
    """The runner's pass over sockets that stopped beating (their process died):
    delete them, and mark each seat left without a fresh socket away since its last
    beat. Returns the rows swept."""
    now = now or timezone.now()
    fresh_after = now - stale()
    rows = list(
        TableSocket.objects.filter(beat_at__lt=fresh_after).values_list(
            "pk", "game_id", "user_id", "beat_at"
        )
    )
    if not rows:
        return 0
    rows.sort(key=lambda row: (row[1], row[2]))
    with _transaction():
        for (game_id, user_id), group in itertools.groupby(
            rows, key=lambda row: (row[1], row[2])
        ):
            mine = list(group)
            TableSocket.objects.filter(pk__in=[row[0] for row in mine]).delete()
            if not TableSocket.objects.filter(
                game_id=game_id, user_id=user_id, beat_at__gte=fresh_after
            ).exists():
                _left(game_id, user_id, max(row[3] for row in mine))
    return len(rows)


# --- who is away, for the clock's runner and the pages ----------------------------


def expired_positions(game_id: int, now: dt.datetime) -> set[int]:
    """The seats of a table whose grace has run out (the bot plays their moves)."""
    return set(
        Seat.objects.filter(
            game_id=game_id, away_since__lte=now - grace(), position__isnull=False
        ).values_list("position", flat=True)
    )


def tables_with_expired(now: dt.datetime) -> list[int]:
    """The started tables where some seat's grace has run out."""
    return list(
        Seat.objects.filter(
            game__status=Game.Status.PLAYING,
            away_since__lte=now - grace(),
            position__isnull=False,
        )
        .values_list("game_id", flat=True)
        .distinct()
    )


def read(game_id: int) -> tuple[Away, ...]:
    """Who is away at a started table now: the moderator first, then the seats in
    their order."""
    seats = (
        Seat.objects.filter(
            game_id=game_id,
            game__status=Game.Status.PLAYING,
            away_since__isnull=False,
            position__isnull=False,
        )
        .select_related("user")
        .order_by("position")
    )
    wait = grace()
    away = tuple(
        Away(
            position=seat.position,
            name=seat.user.display_name,
            since=seat.away_since,
            until=seat.away_since + wait,
        )
        for seat in seats
        if seat.position is not None and seat.away_since is not None
    )
    moderator = (
        Game.objects.filter(
            pk=game_id,
            status=Game.Status.PLAYING,
            moderator_away_since__isnull=False,
        )
        .select_related("moderator")
        .first()
    )
    if moderator is not None and moderator.moderator is not None:
        since = moderator.moderator_away_since
        assert since is not None
        away = (
            Away(
                position=None,
                name=moderator.moderator.display_name,
                since=since,
                until=None,
            ),
            *away,
        )
    return away


def render_notice(away: tuple[Away, ...], *, oob: bool = False) -> SafeString:
    """The notice above the board: each away seat with its grace counting down
    (static/js/table.js), then that the bot plays for it. The same on every
    screen."""
    now = timezone.now()
    numerals = numerals_for()
    lines = []
    for seat in away:
        line: dict[str, Any] = {
            "name": seat.name,
            "moderator": seat.moderator,
            "since": int(seat.since.timestamp() * 1000),
        }
        if seat.until is not None:
            left = max(0, int((seat.until - now).total_seconds() + 0.999))
            line |= {
                "until": int(seat.until.timestamp() * 1000),
                "expired": not left,
                "left": localize_text(f"{left // 60}:{left % 60:02d}"),
            }
        lines.append(line)
    html = render_to_string(
        "games/_presence.html",
        {
            "lines": lines,
            "now": int(now.timestamp() * 1000),
            "digits": numerals.digits if numerals else "",
            "oob": oob,
        },
    )
    return mark_safe(html)  # noqa: S308 - a template's output


# --- the moves the bot made for a person (Game.bot_marks) --------------------------


def bot_moves(game: Game, names: Mapping[int, str]) -> list[tuple[int, str]]:
    """(action number, name) of each move the bot made for a person whose decision
    the whole table saw awaited (``games.services.clock_tick`` keeps only those):
    what it played is as secret as the person's own move would be, and is not
    here. From the table's row alone: a push draws it without the database."""
    marks = game.bot_marks if isinstance(game.bot_marks, list) else []
    return [
        (int(number), names.get(int(position), ""))
        for number, position in marks
        if int(position) in names
    ]
