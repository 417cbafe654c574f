"""Reading finished games: who may see which, the filtered history list, one game's
record for its review page, and a player's stats.

Everything here is a database query over the rows ``games.services`` wrote when each
game was played (seats with their revealed role and side; each family's own records
through its family's hooks). Stats are aggregates computed by the database, grouped
into a handful of rows, so a page costs the same few queries whether a player has ten
games or ten thousand. Every stat is computed over exactly the games the viewer may
see, so each figure equals the length of the list it links to.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Case, Count, Exists, OuterRef, Q, QuerySet, Value, When
from django.utils import timezone

from accounts.models import User
from games import engine, hooks
from games.kit.family import Family, families
from games.models import ChatMessage, Game, Seat
from history import hooks as history_hooks

Viewer = User | AnonymousUser | None
"""Whoever is looking: a player, an anonymous visitor, or nobody in particular."""

OVER = (Game.Status.FINISHED, Game.Status.ABANDONED)

RESULTS = ("finished", "abandoned")
"""The list's result filter besides a winning side's code: any finished game, or an
abandoned one."""


def fact_owners() -> dict[str, Family]:
    """Every family's ``fact`` filters (the games behind one of its figures)."""
    return {fact: family for family in families() for fact in family.stats.facts}


def alignment(ruleset: str, side: str) -> str:
    """``good`` for a game's first side (the uninformed majority: partisans,
    citizens), ``evil`` for the others, so that charts can add games up across
    families whose sides have other names."""
    try:
        sides = engine.get_ruleset(ruleset).sides
    except engine.UnknownRuleset:
        return side
    return "good" if sides and side == sides[0] else "evil"


# --- who may see what -------------------------------------------------------------


def _viewer_id(viewer: Viewer) -> int | None:
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    return int(viewer.pk)


def _visible(viewer: Viewer, game_path: str = "") -> Q:
    """Games of public tables, and the viewer's own games of private ones.

    ``game_path`` leads from the queried model to the game (``"game__"``,
    ``"seat__game__"``); the viewer's seat is found with an ``Exists`` so the query
    stays one row per game.
    """
    public = Q(**{f"{game_path}is_private": False})
    if hooks.hidden_tables:
        hidden = Game.objects.filter(hooks.hidden_for(viewer)).values("pk")
        public &= ~Q(**{f"{game_path}pk__in": hidden})
    viewer_id = _viewer_id(viewer)
    if viewer_id is None:
        return public
    seated = Seat.objects.filter(game_id=OuterRef(f"{game_path}pk"), user_id=viewer_id)
    return public | Q(Exists(seated))


def visible_games(viewer: Viewer) -> QuerySet[Game]:
    """Finished and abandoned games ``viewer`` may see: a private table's game is
    visible to its players only, and to nobody else it exists at all."""
    return Game.objects.filter(_visible(viewer), status__in=OVER)


def seat_of(game: Game, viewer: Viewer) -> int | None:
    """The viewer's seat position at ``game``, if they played it."""
    viewer_id = _viewer_id(viewer)
    if viewer_id is None:
        return None
    seats = Seat.objects.filter(game=game, user_id=viewer_id)
    return seats.values_list("position", flat=True).first()


def seat_names(game: Game) -> dict[int, str]:
    """Display names by seat position."""
    seats = Seat.objects.filter(game=game).exclude(position=None)
    return dict(seats.values_list("position", "user__display_name"))


def reviewable_game(code: str, viewer: Viewer) -> Game | None:
    """The game behind a review page, or None (the page answers 404 either way, so
    nobody learns that a private game exists)."""
    return visible_games(viewer).select_related("host").filter(code=code).first()


# --- the history list -------------------------------------------------------------


@dataclass(frozen=True)
class GameFilter:
    """What the history list is narrowed to. ``player`` is the player whose seat the
    seat filters (``side``, ``role``, ``won``, ``fact``) apply to."""

    ruleset: str = ""
    players: int | None = None
    result: str = ""
    since: dt.date | None = None
    until: dt.date | None = None
    mine: bool = False
    player: User | None = None
    unknown_player: bool = False
    side: str = ""
    role: str = ""
    won: bool | None = None
    fact: str = ""


def _day_start(day: dt.date) -> dt.datetime:
    """Midnight at the start of ``day`` in the site's time zone, so a date filter is
    an index range on ``finished_at``, not a per-row date conversion."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def _seat_condition(filters: GameFilter, player_id: int) -> Q:
    """The games where ``player_id`` sat, narrowed by the seat filters.

    Written as ``pk IN (the player's seats' games)``: the database starts from the
    player's few seats (an index on the user) instead of testing every game.
    """
    seats = Seat.objects.filter(user_id=player_id)
    if filters.side:
        seats = seats.filter(side=filters.side)
    if filters.role:
        seats = seats.filter(role=filters.role)
    if filters.won is not None:
        seats = seats.filter(won=filters.won)
    condition = Q(pk__in=seats.values("game_id"))
    owner = fact_owners().get(filters.fact)
    if owner is not None:
        condition &= owner.stats.condition(filters.fact, player_id)
    return condition


def game_list(viewer: Viewer, filters: GameFilter) -> QuerySet[Game]:
    """The history list: the games ``viewer`` may see, narrowed, newest first."""
    if filters.unknown_player:
        return Game.objects.none()
    games = visible_games(viewer)
    if filters.ruleset:
        games = games.filter(ruleset=filters.ruleset)
    if filters.players:
        games = games.filter(seat_count=filters.players)
    if filters.result == "abandoned":
        games = games.filter(status=Game.Status.ABANDONED)
    elif filters.result == "finished":
        games = games.filter(status=Game.Status.FINISHED)
    elif filters.result:
        games = games.filter(status=Game.Status.FINISHED, winner=filters.result)
    if filters.result or filters.fact:
        # The record's filters (the links behind a profile's figures): practice
        # games with bots are not part of anyone's record (docs/stats.md).
        games = games.filter(with_bots=False)
    if filters.since:
        games = games.filter(finished_at__gte=_day_start(filters.since))
    if filters.until:
        next_day = filters.until + dt.timedelta(days=1)
        games = games.filter(finished_at__lt=_day_start(next_day))
    viewer_id = _viewer_id(viewer)
    if filters.mine:
        if viewer_id is None:
            return Game.objects.none()
        games = games.filter(
            pk__in=Seat.objects.filter(user_id=viewer_id).values("game_id")
        )
    subject = (
        filters.player.pk if filters.player else (viewer_id if filters.mine else None)
    )
    if subject is not None:
        games = games.filter(_seat_condition(filters, subject))
    return games.only(*LIST_FIELDS).order_by("-finished_at", "-pk")


@dataclass(frozen=True)
class RowSeat:
    position: int | None
    username: str
    name: str
    role: str
    side: str
    won: bool | None


@dataclass(frozen=True)
class GameRow:
    """One line of a history list: game, date, players, winner, and (on a player's
    list) that player's role and result."""

    game: Game
    seats: list[RowSeat]
    subject: RowSeat | None
    notes: tuple[str, ...] = ()
    """Lines other apps add (``history.hooks.game_notes``)."""


LIST_FIELDS = (
    "code",
    "name",
    "ruleset",
    "seat_count",
    "options",
    "is_private",
    "status",
    "winner",
    "finished_at",
    "with_bots",
    "bot_played",
)
"""The columns a history row shows: lists load only these."""


def _row_seats(games: Sequence[Game]) -> dict[int, list[RowSeat]]:
    """Every seat of a page of games in one query, as plain values.

    A seat's role and side are kept only for finished games: an abandoned game
    never ended, so its roles stay secret.
    """
    finished = {game.pk for game in games if game.status == Game.Status.FINISHED}
    rows = (
        Seat.objects.filter(game_id__in=[game.pk for game in games])
        .order_by("game_id", "position", "pk")
        .values_list(
            "game_id", "position", "role", "side", "won", "user__username",
            "user__display_name",
        )
    )  # fmt: skip
    seats: dict[int, list[RowSeat]] = {game.pk: [] for game in games}
    for game_id, position, role, side, won, username, name in rows:
        shown = game_id in finished
        seats[game_id].append(
            RowSeat(
                position=position,
                username=username,
                name=name,
                role=role if shown else "",
                side=side if shown else "",
                won=won if shown else None,
            )
        )
    return seats


def game_rows(games: Iterable[Game], subject: User | None = None) -> list[GameRow]:
    """Rows for a page of games: one query for all their seats."""
    page = list(games)
    if not page:
        return []
    seats = _row_seats(page)
    notes = history_hooks.notes_for(page)
    rows = []
    for game in page:
        mine = None
        if subject is not None:
            mine = next(
                (s for s in seats[game.pk] if s.username == subject.username), None
            )
        rows.append(
            GameRow(
                game=game,
                seats=seats[game.pk],
                subject=mine,
                notes=tuple(notes.get(game.pk, ())),
            )
        )
    return rows


# --- one game's record ------------------------------------------------------------


@dataclass
class GameRecord:
    """What the platform kept of a finished game: the seats with their revealed roles
    and the chat; each family's own records come from its ``review`` hook."""

    game: Game
    seats: list[Seat]
    side_chats: list[tuple[str, list[ChatMessage]]] = field(default_factory=list)
    table_chat: list[ChatMessage] = field(default_factory=list)

    @property
    def names(self) -> dict[int, str]:
        return {
            seat.position: seat.user.display_name
            for seat in self.seats
            if seat.position is not None
        }


def game_record(game: Game) -> GameRecord:
    """The finished game's seats and chat, in table order: two queries."""
    seats = list(game.seats.select_related("user").order_by("position", "pk"))
    record = GameRecord(game=game, seats=seats)
    chat = list(
        ChatMessage.objects.filter(game=game)
        .select_related("author")
        .order_by("created_at", "pk")
    )
    private = sorted({m.channel for m in chat} - {ChatMessage.Channel.TABLE})
    record.side_chats = [
        (channel, [m for m in chat if m.channel == channel]) for channel in private
    ]
    if game.chat_enabled:
        record.table_chat = [m for m in chat if m.channel == ChatMessage.Channel.TABLE]
    return record


# --- a player's stats -------------------------------------------------------------


@dataclass
class Tally:
    """Games played and won in one slice of a player's record."""

    played: int = 0
    won: int = 0

    def add(self, played: int, won: int) -> None:
        self.played += played
        self.won += won

    @property
    def rate(self) -> float | None:
        return self.won / self.played if self.played else None


@dataclass(frozen=True)
class MonthTally:
    month: dt.date
    side: str
    """``good`` or ``evil``: the side's place in its game (see ``alignment``)."""
    played: int
    won: int


@dataclass
class PlayerStats:
    """A player's record over the finished games a viewer may see.

    ``by_side`` and ``by_role`` are keyed by ``(game, side or role code)``: a side or a
    role is named in its own game's words. ``seats`` is the player's seats in those
    games (a lazy query), from which each family draws its own figures.
    """

    overall: Tally = field(default_factory=Tally)
    by_ruleset: dict[str, Tally] = field(default_factory=dict)
    by_side: dict[tuple[str, str], Tally] = field(default_factory=dict)
    by_role: dict[tuple[str, str], Tally] = field(default_factory=dict)
    by_players: dict[int, Tally] = field(default_factory=dict)
    abandoned: int = 0
    months: list[MonthTally] = field(default_factory=list)
    seats: QuerySet[Seat] | None = None


def _tally(table: dict[Any, Tally], key: Any, played: int, won: int) -> None:
    table.setdefault(key, Tally()).add(played, won)


def _player_seats(player: User, viewer: Viewer) -> QuerySet[Seat]:
    """The player's seats the stats count: games played with bots are practice and
    never count (docs/stats.md)."""
    seats = Seat.objects.filter(user=player, game__with_bots=False)
    if _viewer_id(viewer) != player.pk:
        seats = seats.filter(_visible(viewer, "game__"))
    return seats


def _record_counts(stats: PlayerStats, seats: QuerySet[Seat]) -> None:
    """Played and won, grouped by game, side, role and table size in one query;
    the slices are summed from the (at most a hundred or so) grouped rows. Abandoned
    games are only counted as such: never a win or a loss."""
    rows = (
        seats.filter(game__status__in=OVER)
        .values("game__status", "game__ruleset", "side", "role", "game__seat_count")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(won=True)))
        .order_by()
    )
    for row in rows:
        played, won = row["played"], row["won"]
        if row["game__status"] == Game.Status.ABANDONED:
            stats.abandoned += played
            continue
        ruleset = row["game__ruleset"]
        stats.overall.add(played, won)
        _tally(stats.by_ruleset, ruleset, played, won)
        _tally(stats.by_side, (ruleset, row["side"]), played, won)
        _tally(stats.by_role, (ruleset, row["role"]), played, won)
        _tally(stats.by_players, row["game__seat_count"], played, won)


CHART_MONTHS = 24
"""The win-rate chart covers the last two years, month by month."""


def month_starts(today: dt.date, count: int = CHART_MONTHS) -> list[dt.date]:
    """The first days of the last ``count`` months, oldest first, this one last."""
    year, month = today.year, today.month
    starts = []
    for _ in range(count):
        starts.append(dt.date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return starts[::-1]


def _next_month(day: dt.date) -> dt.date:
    return dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)


def _months(stats: PlayerStats, seats: QuerySet[Seat]) -> None:
    """Played and won per month and side over the last two years, grouped by the
    database. The month is found with plain range comparisons on ``finished_at``
    (a ``CASE``), not a date function run on every row."""
    starts = month_starts(timezone.localdate())
    bounds = [_day_start(day) for day in [*starts, _next_month(starts[-1])]]
    month = Case(
        *(
            When(game__finished_at__lt=bounds[index + 1], then=Value(index))
            for index in range(len(starts))
        ),
        default=Value(-1),
    )
    rows = (
        seats.filter(
            game__status=Game.Status.FINISHED, game__finished_at__gte=bounds[0]
        )
        .annotate(month=month)
        .values("month", "game__ruleset", "side")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(won=True)))
        .order_by("month", "game__ruleset", "side")
    )
    stats.months = [
        MonthTally(
            month=starts[row["month"]],
            side=alignment(row["game__ruleset"], row["side"]),
            played=row["played"],
            won=row["won"],
        )
        for row in rows
        if 0 <= row["month"] < len(starts)
    ]


def player_stats(player: User, viewer: Viewer) -> PlayerStats:
    """Every stat of ``player`` over the games ``viewer`` may see: two queries (each
    family's own figures are drawn from ``stats.seats`` by the profile)."""
    seats = _player_seats(player, viewer)
    stats = PlayerStats(seats=seats)
    _record_counts(stats, seats)
    _months(stats, seats)
    return stats


def recent_games(player: User, viewer: Viewer, limit: int) -> list[GameRow]:
    """The player's latest games for their profile, in the history list's shape."""
    games = game_list(viewer, GameFilter(player=player))[:limit]
    return game_rows(games, subject=player)


def user_by_username(username: str) -> User | None:
    return User.objects.filter(username=username, is_active=True).first()
