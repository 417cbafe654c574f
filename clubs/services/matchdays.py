"""Match days: an admin schedules one, members sign up until it starts, and an admin
seats them: the site splits them into tables (``clubs.seating``, which balances how
often each has been dealt the hidden side this season) and opens the tables, all in
one transaction.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from accounts.models import User
from clubs import errors, seating
from clubs.families import family_of_ruleset, hidden_side, seat_range
from clubs.models import Club, MatchDay, MatchDaySignup, Membership, Season
from clubs.selectors import hidden_side_records
from clubs.services.clubs import require_admin, require_member
from clubs.services.leagues import open_match_table
from games import engine
from games import services as game_services
from games.models import Game

MAX_SEATS = 200


def match_day_create(
    *,
    club: Club,
    admin: User,
    season: Season,
    ruleset: str,
    starts_at: dt.datetime,
    seats: int,
) -> MatchDay:
    require_admin(club, admin)
    if season.club_id != club.pk:
        raise errors.NotLeagueGame
    try:
        if family_of_ruleset(ruleset) != season.family:
            raise errors.WrongFamily
    except engine.UnknownRuleset as exc:
        raise errors.WrongFamily from exc
    if starts_at <= timezone.now():
        raise errors.BadMatchDay(reason=gettext("that time has passed."))
    if not season.starts_on <= timezone.localdate(starts_at) <= season.ends_on:
        raise errors.BadMatchDay(reason=gettext("the day is outside the season."))
    low, _high = seat_range(ruleset)
    if not low <= seats <= MAX_SEATS:
        raise errors.BadMatchDay(
            reason=gettext("it needs %(low)d to %(high)d seats.")
            % {"low": low, "high": MAX_SEATS}
        )
    with transaction.atomic():
        return MatchDay.objects.create(
            club=club, season=season, ruleset=ruleset, starts_at=starts_at, seats=seats
        )


def _locked(day: MatchDay) -> MatchDay:
    return (
        MatchDay.objects.select_for_update()
        .select_related("club", "season")
        .get(pk=day.pk)
    )


def match_day_signup(*, day: MatchDay, user: User) -> MatchDaySignup:
    with transaction.atomic():
        day = _locked(day)
        require_member(day.club, user)
        if day.has_started():
            raise errors.MatchDayStarted
        if MatchDaySignup.objects.filter(match_day=day, user=user).exists():
            raise errors.AlreadySignedUp
        if MatchDaySignup.objects.filter(match_day=day).count() >= day.seats:
            raise errors.MatchDayFull
        return MatchDaySignup.objects.create(match_day=day, user=user)


def match_day_withdraw(*, day: MatchDay, user: User) -> None:
    with transaction.atomic():
        day = _locked(day)
        if day.has_started():
            raise errors.MatchDayStarted
        deleted, _ = MatchDaySignup.objects.filter(match_day=day, user=user).delete()
        if not deleted:
            raise errors.NotSignedUp


def match_day_seat(*, day: MatchDay, admin: User) -> list[Game]:
    """Seat the signed-up members (those still in the club) and open their tables,
    each with its players already seated: the host of each is its earliest sign-up
    and starts the game. Sign-ups close."""
    with game_services.table_transaction():
        day = _locked(day)
        require_admin(day.club, admin)
        if day.status != MatchDay.Status.SCHEDULED:
            raise errors.MatchDayStarted
        members = set(
            Membership.objects.filter(club=day.club).values_list("user_id", flat=True)
        )
        signups = [
            signup
            for signup in MatchDaySignup.objects.filter(match_day=day)
            .select_related("user")
            .order_by("created_at", "pk")
            if signup.user_id in members
        ]
        records = hidden_side_records(day.season, [s.user_id for s in signups])
        low, high = seat_range(day.ruleset)
        players = [
            seating.Player(
                user_id=signup.user_id,
                hidden_games=records[signup.user_id].hidden_games,
                expected=records[signup.user_id].expected,
            )
            for signup in signups
        ]
        try:
            plan = seating.seat(
                players,
                low=low,
                high=high,
                share=lambda size: hidden_side(day.ruleset, size).share,
                seed=day.pk,
            )
        except seating.NotEnoughPlayers as exc:
            raise errors.TooFewSignups(low=low) from exc
        by_user = {signup.user_id: signup for signup in signups}
        order = {signup.user_id: index for index, signup in enumerate(signups)}
        when = date_format(timezone.localtime(day.starts_at), "d.m H:i")
        games = []
        for number, table in enumerate(plan.tables, start=1):
            seated = sorted(table, key=order.__getitem__)
            game = open_match_table(
                club=day.club,
                day=day,
                host=by_user[seated[0]].user,
                seat_count=len(seated),
                name=f"{when} · {number}",
            )
            for user_id in seated[1:]:
                game_services.seat_join(game=game, user=by_user[user_id].user)
            for user_id in seated:
                signup = by_user[user_id]
                signup.game = game
                signup.hidden_games = records[user_id].hidden_games
                signup.hidden_expected = records[user_id].expected
            games.append(game)
        MatchDaySignup.objects.bulk_update(
            signups, ["game", "hidden_games", "hidden_expected"]
        )
        day.status = MatchDay.Status.SEATED
        day.seated_at = timezone.now()
        day.save(update_fields=["status", "seated_at"])
    return games
