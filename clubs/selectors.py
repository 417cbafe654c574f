"""Reading clubs: who may see what, a club's page, a season's standings, the rating
leaderboard and a player's ratings, the figures a match day's seating uses.

Each page is a fixed number of queries whatever the club's size: standings read the
season's tallies (a row per player and side), the leaderboard one indexed query, the
club page a handful.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from accounts.models import User
from clubs.families import hidden_side
from clubs.models import (
    Club,
    ClubTable,
    Invite,
    JoinRequest,
    MatchDay,
    MatchDaySignup,
    Membership,
    Notice,
    PlayerRating,
    RatingChange,
    Season,
    SeasonTally,
)
from games.models import Game, Seat
from history.presenters import profile_url_maker

LEADERBOARD_MIN_GAMES = 5
"""A player is on a family's leaderboard after this many rated games: before that
openskill's uncertainty (sigma) still dominates their rating."""
LEADERBOARD_SIZE = 100
CLUB_PAGE_GAMES = 10
CLUB_PAGE_NOTICES = 5
RATING_HISTORY_POINTS = 60
OVER = (Game.Status.FINISHED, Game.Status.ABANDONED)
LIVE = (Game.Status.OPEN, Game.Status.PLAYING)


def _user_id(viewer: Any) -> int | None:
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    return int(viewer.pk)


# --- clubs and who sees them -------------------------------------------------------


def club_by_slug(slug: str) -> Club | None:
    return Club.objects.filter(slug=slug).first()


def membership(club: Club, viewer: Any) -> Membership | None:
    user_id = _user_id(viewer)
    if user_id is None:
        return None
    return Membership.objects.filter(club=club, user_id=user_id).first()


def can_see(club: Club, member: Membership | None) -> bool:
    """A private club's tables, games, standings and seasons are its members'."""
    return not club.is_private or member is not None


def can_see_club(club: Club, viewer: Any) -> bool:
    return can_see(club, membership(club, viewer))


@dataclass(frozen=True)
class ClubListing:
    club: Club
    members: int
    role: str


def club_directory(viewer: Any) -> tuple[list[ClubListing], list[ClubListing]]:
    """(the viewer's clubs, the public clubs they are not in), each with its member
    count: two queries."""
    user_id = _user_id(viewer)
    roles: dict[int, str] = {}
    if user_id is not None:
        roles = dict(
            Membership.objects.filter(user_id=user_id).values_list("club_id", "role")
        )
    clubs = (
        Club.objects.filter(Q(is_private=False) | Q(pk__in=list(roles)))
        .annotate(member_count=Count("members"))
        .order_by("name", "pk")
    )
    mine, others = [], []
    for club in clubs:
        listing = ClubListing(club, club.member_count, roles.get(club.pk, ""))  # type: ignore[attr-defined]
        (mine if club.pk in roles else others).append(listing)
    return mine, others


# --- the club page -----------------------------------------------------------------


@dataclass(frozen=True)
class LiveTable:
    game: Game
    taken: int
    season: str
    members_only: bool


def live_tables(club: Club) -> list[LiveTable]:
    tables = (
        ClubTable.objects.filter(club=club, game__status__in=LIVE)
        .select_related("game", "game__host", "season")
        .annotate(taken=Count("game__seats"))
        .order_by("-game__created_at")
    )
    return [
        LiveTable(
            game=table.game,
            taken=table.taken,  # type: ignore[attr-defined]
            season=table.season.name if table.season else "",
            members_only=table.is_members_only,
        )
        for table in tables
    ]


def finished_games(club: Club, limit: int = CLUB_PAGE_GAMES) -> QuerySet[Game]:
    """The club's latest finished (and abandoned) games, in the history list's
    shape (``history.selectors.game_rows`` turns them into rows)."""
    from history.selectors import LIST_FIELDS

    return (
        Game.objects.filter(club_table__club=club, status__in=OVER)
        .only(*LIST_FIELDS)
        .order_by("-finished_at", "-pk")[:limit]
    )


def latest_notices(club: Club, limit: int = CLUB_PAGE_NOTICES) -> list[Notice]:
    return list(
        Notice.objects.filter(club=club)
        .select_related("author")
        .order_by("-created_at", "-pk")[:limit]
    )


def seasons_of(club: Club) -> list[Season]:
    return list(
        Season.objects.filter(club=club)
        .select_related("club")
        .order_by("-starts_on", "-pk")
    )


def open_seasons(club: Club, today: dt.date | None = None) -> list[Season]:
    today = today or timezone.localdate()
    return [s for s in seasons_of(club) if s.starts_on <= today <= s.ends_on]


def upcoming_days(club: Club) -> list[MatchDay]:
    since = timezone.now() - dt.timedelta(days=1)
    return list(
        MatchDay.objects.filter(club=club, starts_at__gte=since)
        .select_related("club", "season")
        .annotate(signed=Count("signups"))
        .order_by("starts_at", "pk")
    )


def member_count(club: Club) -> int:
    return Membership.objects.filter(club=club).count()


def pending_request(club: Club, viewer: Any) -> bool:
    user_id = _user_id(viewer)
    return user_id is not None and (
        JoinRequest.objects.filter(club=club, user_id=user_id).exists()
    )


@dataclass(frozen=True)
class MembersPage:
    members: list[Membership]
    requests: list[JoinRequest]
    invites: list[Invite]


def members_page(club: Club, *, admin: bool) -> MembersPage:
    members = list(
        Membership.objects.filter(club=club)
        .select_related("user")
        .order_by("joined_at", "pk")
    )
    if not admin:
        return MembersPage(members=members, requests=[], invites=[])
    now = timezone.now()
    return MembersPage(
        members=members,
        requests=list(
            JoinRequest.objects.filter(club=club)
            .select_related("user")
            .order_by("created_at", "pk")
        ),
        invites=list(
            Invite.objects.filter(
                club=club, revoked_at__isnull=True, expires_at__gt=now
            ).order_by("-created_at", "-pk")
        ),
    )


# --- standings ---------------------------------------------------------------------


def history_url(**filters: Any) -> str:
    """The history list narrowed to ``filters`` (``season`` is this app's filter)."""
    return history_link_maker()(**filters)


def history_link_maker() -> Callable[..., str]:
    """``history_url`` with the list's address resolved once: a standings page
    links every figure of every player (some 1,400 links for 200 players)."""
    base = reverse("history:list")

    def link(**filters: Any) -> str:
        query = {key: value for key, value in filters.items() if value is not None}
        return f"{base}?{urlencode(query)}"

    return link


def percent(won: int, played: int) -> str:
    return f"{round(100 * won / played)}%" if played else "—"


class WinRate:
    """Games played and won, as a rate and as the percentage a page prints."""

    played: int
    won: int

    @property
    def rate(self) -> float | None:
        return self.won / self.played if self.played else None

    @property
    def percent(self) -> str:
        return percent(self.won, self.played)


@dataclass(frozen=True)
class SideRecord(WinRate):
    side: str
    played: int
    won: int
    played_url: str
    won_url: str


@dataclass
class Standing(WinRate):
    """One player's line: games, wins, points and the win rate on each side, each
    figure linked to the history list of exactly its games."""

    rank: int
    username: str
    name: str
    played: int
    won: int
    points: int
    by_side: list[SideRecord] = field(default_factory=list)
    played_url: str = ""
    won_url: str = ""
    profile_url: str = ""


def counted_seats(season: Season) -> QuerySet[Seat]:
    """The seats of the season's counted games (finished, not voided)."""
    return Seat.objects.filter(
        game_id__in=ClubTable.objects.filter(
            season=season, counted=True, voided_at__isnull=True
        ).values("game_id")
    )


def standings(season: Season, sides: Sequence[str]) -> list[Standing]:
    """The season's table: one query over its tallies (a row per player and side,
    kept as games end: ``SeasonTally``)."""
    rows = (
        SeasonTally.objects.filter(season=season)
        .order_by()
        .values_list(
            "user_id", "user__username", "user__display_name", "side", "played", "won"
        )
    )
    tallies: dict[int, dict[str, tuple[int, int]]] = {}
    names: dict[int, tuple[str, str]] = {}
    for user_id, username, name, side, played, won in rows:
        tallies.setdefault(user_id, {})[side] = (played, won)
        names[user_id] = (username, name)
    points = season.points or {}
    base = history_link_maker()(season=season.pk)
    profile_url = profile_url_maker()
    side_params = {side: f"&{urlencode({'side': side})}" for side in sides}
    lines = []
    for user_id, by_side in tallies.items():
        username, name = names[user_id]
        # The player's games in the season; each figure adds its own filters.
        games = f"{base}&{urlencode({'player': username})}"
        line = Standing(
            rank=0,
            username=username,
            name=name,
            played=sum(played for played, _won in by_side.values()),
            won=sum(won for _played, won in by_side.values()),
            points=0,
            played_url=games,
            won_url=f"{games}&won=1",
            profile_url=profile_url(username),
        )
        for side, (played, won) in by_side.items():
            scheme = points.get(side, {"win": 1, "loss": 0})
            line.points += won * scheme["win"] + (played - won) * scheme["loss"]
        for side in sides:
            played, won = by_side.get(side, (0, 0))
            line.by_side.append(
                SideRecord(
                    side=side,
                    played=played,
                    won=won,
                    played_url=f"{games}{side_params[side]}",
                    won_url=f"{games}{side_params[side]}&won=1",
                )
            )
        lines.append(line)
    lines.sort(key=lambda line: (-line.points, -line.won, line.played, line.name))
    for index, line in enumerate(lines):
        previous = lines[index - 1] if index else None
        tie = previous is not None and (
            (previous.points, previous.won, previous.played)
            == (line.points, line.won, line.played)
        )
        line.rank = previous.rank if tie and previous is not None else index + 1
    return lines


def season_game_count(season: Season) -> int:
    return ClubTable.objects.filter(
        season=season, counted=True, voided_at__isnull=True
    ).count()


def season_recent(season: Season, limit: int = CLUB_PAGE_GAMES) -> list[Game]:
    """The season's latest counted games (where an admin may void one)."""
    return list(
        Game.objects.filter(
            club_table__season=season,
            club_table__counted=True,
            club_table__voided_at__isnull=True,
        )
        .only("code", "name", "ruleset", "finished_at")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("user").order_by("position"))
        )
        .order_by("-finished_at", "-pk")[:limit]
    )


def voided_games(season: Season) -> list[ClubTable]:
    return list(
        ClubTable.objects.filter(season=season, voided_at__isnull=False)
        .select_related("game")
        .order_by("-voided_at")
    )


# --- ratings -----------------------------------------------------------------------


@dataclass(frozen=True)
class BoardLine:
    rank: int
    username: str
    name: str
    rating: float
    mu: float
    sigma: float
    games: int


def leaderboard(family: str, limit: int = LEADERBOARD_SIZE) -> list[BoardLine]:
    """The family's best rated players with enough games: one query."""
    ratings = (
        PlayerRating.objects.filter(family=family, games__gte=LEADERBOARD_MIN_GAMES)
        .order_by("-ordinal", "pk")
        .values_list(
            "user__username", "user__display_name", "ordinal", "mu", "sigma", "games"
        )[:limit]
    )
    return [
        BoardLine(index + 1, username, name, ordinal, mu, sigma, games)
        for index, (username, name, ordinal, mu, sigma, games) in enumerate(ratings)
    ]


@dataclass(frozen=True)
class RatingPoint:
    at: dt.datetime
    rating: float
    won: bool


@dataclass(frozen=True)
class PlayerFamilyRating:
    family: str
    rating: float
    mu: float
    sigma: float
    games: int
    history: list[RatingPoint]
    rank: int | None


def player_ratings(user: User) -> list[PlayerFamilyRating]:
    """The player's rating in each family with its latest history: one query, plus
    two per family they are rated in (the history, their place on the board)."""
    found = []
    for rating in PlayerRating.objects.filter(user=user).order_by("family"):
        points = list(
            RatingChange.objects.filter(user=user, family=rating.family)
            .order_by("-number")
            .values_list("at", "ordinal", "won")[:RATING_HISTORY_POINTS]
        )
        rank = None
        if rating.games >= LEADERBOARD_MIN_GAMES:
            rank = (
                1
                + PlayerRating.objects.filter(
                    family=rating.family,
                    games__gte=LEADERBOARD_MIN_GAMES,
                    ordinal__gt=rating.ordinal,
                ).count()
            )
        found.append(
            PlayerFamilyRating(
                family=rating.family,
                rating=rating.ordinal,
                mu=rating.mu,
                sigma=rating.sigma,
                games=rating.games,
                history=[
                    RatingPoint(at, value, won) for at, value, won in reversed(points)
                ],
                rank=rank,
            )
        )
    return found


# --- match days --------------------------------------------------------------------


@dataclass(frozen=True)
class HiddenSideRecord:
    hidden_games: int
    expected: float


def hidden_side_records(
    season: Season, user_ids: Iterable[int]
) -> dict[int, HiddenSideRecord]:
    """How often each player was dealt their game's hidden side in the season's
    counted games, and how often their tables' sizes made that likely: one query."""
    user_ids = list(user_ids)
    rows = (
        counted_seats(season)
        .filter(user_id__in=user_ids)
        .values("user_id", "side", "game__ruleset", "game__seat_count")
        .annotate(games=Count("pk"))
        .order_by()
    )
    hidden: dict[int, int] = dict.fromkeys(user_ids, 0)
    expected: dict[int, float] = dict.fromkeys(user_ids, 0.0)
    for row in rows:
        share = hidden_side(row["game__ruleset"], row["game__seat_count"])
        expected[row["user_id"]] += row["games"] * share.share
        if row["side"] == share.side:
            hidden[row["user_id"]] += row["games"]
    return {
        user_id: HiddenSideRecord(hidden[user_id], expected[user_id])
        for user_id in user_ids
    }


def signups_of(day: MatchDay) -> list[MatchDaySignup]:
    return list(
        MatchDaySignup.objects.filter(match_day=day)
        .select_related("user", "game")
        .order_by("created_at", "pk")
    )
