"""Seasons, the tables opened inside a club, and voiding a league game.

A club's table is opened through ``games.services.game_create`` with its
``ClubTable`` written in the same transaction, so there is never a club game the
club does not know, nor a ``ClubTable`` without its game.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from clubs import errors
from clubs.families import family_codes, family_of_ruleset, sides_of
from clubs.models import Club, ClubTable, MatchDay, RatingLedger, Season
from clubs.services.clubs import require_admin, require_member
from clubs.services.ratings import league_game_void
from games import services as game_services
from games.models import Game

POINTS_RANGE = range(-10, 11)
DEFAULT_POINTS = {"win": 1, "loss": 0}
VOID_REASON_MAX_LENGTH = 200


def default_points(family: str) -> dict[str, dict[str, int]]:
    return {side: dict(DEFAULT_POINTS) for side in sides_of(family)}


def _points(family: str, points: Mapping[str, Mapping[str, Any]] | None) -> dict:
    """Every side of the family with a whole number of points for a win and for a
    loss; a side left out gets the defaults (a win 1, a loss 0)."""
    chosen = default_points(family)
    for side, values in (points or {}).items():
        if side not in chosen:
            raise errors.BadSeason(reason=gettext("there is no such side."))
        for outcome in ("win", "loss"):
            value = values.get(outcome, chosen[side][outcome])
            if type(value) is not int or value not in POINTS_RANGE:
                raise errors.BadSeason(
                    reason=gettext("points are whole numbers from -10 to 10.")
                )
            chosen[side][outcome] = value
    return chosen


def season_create(
    *,
    club: Club,
    admin: User,
    name: str,
    family: str,
    starts_on: dt.date,
    ends_on: dt.date,
    points: Mapping[str, Mapping[str, Any]] | None = None,
) -> Season:
    name = (name or "").strip()
    if not name or len(name) > Season._meta.get_field("name").max_length:  # type: ignore[operator]
        raise errors.BadSeason(reason=gettext("the season needs a short name."))
    if family not in family_codes():
        raise errors.BadSeason(reason=gettext("there is no such game family."))
    if ends_on < starts_on:
        raise errors.BadSeason(reason=gettext("it ends before it starts."))
    scheme = _points(family, points)
    with transaction.atomic():
        require_admin(club, admin)
        RatingLedger.objects.get_or_create(family=family)
        return Season.objects.create(
            club=club,
            name=name,
            family=family,
            starts_on=starts_on,
            ends_on=ends_on,
            points=scheme,
        )


def _check_season(club: Club, season: Season, ruleset: str) -> None:
    if season.club_id != club.pk:
        raise errors.NotLeagueGame
    if family_of_ruleset(ruleset) != season.family:
        raise errors.WrongFamily


def club_table_create(
    *,
    club: Club,
    user: User,
    ruleset: str,
    seat_count: int,
    options: Mapping[str, Any] | None = None,
    name: str = "",
    season: Season | None = None,
    members_only: bool = True,
) -> Game:
    """Open a table inside the club (and a season, if given), ``user`` its host.
    Any member may open a members-only table; only an admin may open one to
    everyone."""
    membership = require_member(club, user)
    if not members_only and not membership.is_admin:
        raise errors.PublicTableNotAllowed
    if season is not None:
        _check_season(club, season, ruleset)
        if not season.is_open():
            raise errors.SeasonClosed
    with game_services.table_transaction():
        return _open_table(
            ClubTable(club=club, season=season, is_members_only=members_only),
            host=user,
            ruleset=ruleset,
            seat_count=seat_count,
            options=options,
            name=name,
        )


def open_match_table(
    *, club: Club, day: MatchDay, host: User, seat_count: int, name: str
) -> Game:
    """One of a match day's tables (inside the match day's own transaction)."""
    return _open_table(
        ClubTable(club=club, season=day.season, match_day=day, is_members_only=True),
        host=host,
        ruleset=day.ruleset,
        seat_count=seat_count,
        options=None,
        name=name,
    )


def _open_table(
    table: ClubTable,
    *,
    host: User,
    ruleset: str,
    seat_count: int,
    options: Mapping[str, Any] | None,
    name: str,
) -> Game:
    """The game through ``games.services`` and its ``table`` row beside it, in the
    caller's transaction. A club's game is never a private table: who sees it is
    the club's to say (``clubs.access``)."""
    table.game = game_services.game_create(
        host=host,
        ruleset=ruleset,
        seat_count=seat_count,
        options=options,
        is_private=False,
        name=name,
    )
    table.save(force_insert=True)
    return table.game


def game_void(*, club: Club, admin: User, game: Game, reason: str) -> ClubTable:
    """An admin takes a finished league game out of its season: it leaves the
    standings and the ratings (recomputed), and stays listed, marked voided with the
    reason."""
    reason = (reason or "").strip()
    with transaction.atomic():
        require_admin(club, admin)
        if not reason:
            raise errors.EmptyText
        if len(reason) > VOID_REASON_MAX_LENGTH:
            raise errors.BadClub(reason=gettext("the text is too long."))
        table = (
            ClubTable.objects.select_for_update()
            .filter(game_id=game.pk, club=club, season__isnull=False)
            .first()
        )
        if table is None:
            raise errors.NotLeagueGame
        status = Game.objects.filter(pk=game.pk).values_list("status", flat=True)
        if status.first() != Game.Status.FINISHED:
            raise errors.GameNotFinished
        if table.voided_at is not None:
            raise errors.AlreadyVoided
        table.voided_at = timezone.now()
        table.void_reason = reason
        table.voided_by = admin
        table.save(update_fields=["voided_at", "void_reason", "voided_by"])
        league_game_void(game=game, season_id=table.season_id)
    return table
