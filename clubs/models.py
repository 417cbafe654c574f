"""Clubs, their members, notices, seasons, match days, and the ratings their league
games feed.

A club's table is an ordinary ``games.Game`` with a :class:`ClubTable` beside it,
created in the same transaction; the platform learns what that changes (who may see
and join it, what its end counts for) through ``games.hooks``. A season's standings
are kept per player and side (:class:`SeasonTally`), added to as each counted game
ends and taken from when one is voided; tests/clubs hold them equal to the seats.

Ratings are openskill's (see ``docs/ratings.md``): one :class:`PlayerRating` per
player and game family, one :class:`SideRating` per side of a game at a table size,
and for every rated game a :class:`RatedGame` (unique per game: a game is rated
once) with a :class:`RatingChange` per player, which is the rating's history and what
a recomputation rewinds to.
"""

from __future__ import annotations

import datetime as dt
import secrets as _secrets

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Game

SLUG_PATTERN = r"^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$"
RESERVED_SLUGS = frozenset({"new", "ratings", "invite", "mine"})
"""Addresses under /clubs/ that are pages of their own, not clubs."""

NOTICE_MAX_LENGTH = 4000
DESCRIPTION_MAX_LENGTH = 1000
INVITE_DAYS = 7


def new_invite_token() -> str:
    """An unguessable invite token: the link is the only key."""
    return _secrets.token_urlsafe(18)


class Club(models.Model):
    """A group of players with its own tables, notice board and seasons. A private
    club shows its tables, games, standings and notices to its members only."""

    name = models.CharField(_("name"), max_length=60)
    slug = models.CharField(
        _("address"),
        max_length=40,
        unique=True,
        validators=[
            RegexValidator(
                SLUG_PATTERN,
                _(
                    "3 to 40 small Latin letters, digits and hyphens, "
                    "not starting or ending with a hyphen."
                ),
            )
        ],
    )
    description = models.TextField(
        _("description"), max_length=DESCRIPTION_MAX_LENGTH, blank=True
    )
    is_private = models.BooleanField(_("private club"), default=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("clubs:club", kwargs={"slug": self.slug})


class Membership(models.Model):
    """A player in a club, with their role: one owner, any number of admins."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ADMIN = "admin", _("admin")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_memberships",
    )
    role = models.CharField(
        _("role"), max_length=8, choices=Role.choices, default=Role.MEMBER
    )
    joined_at = models.DateTimeField(pgettext_lazy("club", "joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club_id", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_member_once"),
            models.UniqueConstraint(
                fields=["club"], condition=Q(role="owner"), name="club_one_owner"
            ),
        ]
        indexes = [models.Index(fields=["user", "club"], name="club_member_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.ADMIN)


class JoinRequest(models.Model):
    """A player asking to join; an admin approves (a membership) or declines."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="join_requests"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)

    class Meta:
        verbose_name = _("request to join")
        verbose_name_plural = _("requests to join")
        ordering = ["club_id", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_request_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.club}"


def _invite_expiry() -> dt.datetime:
    return timezone.now() + dt.timedelta(days=INVITE_DAYS)


class Invite(models.Model):
    """A link that lets whoever holds it join without asking, until it expires or an
    admin revokes it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(
        max_length=32, unique=True, default=new_invite_token, editable=False
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), default=_invite_expiry)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("invite link")
        verbose_name_plural = _("invite links")
        ordering = ["club_id", "-created_at", "-pk"]

    def __str__(self) -> str:
        return f"invite to {self.club}"

    def get_absolute_url(self) -> str:
        return reverse("clubs:invite", kwargs={"token": self.token})

    def is_usable(self, now: dt.datetime | None = None) -> bool:
        return self.revoked_at is None and (now or timezone.now()) < self.expires_at


class Notice(models.Model):
    """An announcement on the club's board: admins write, members read. The body is
    plain text; paragraphs and links are all it may turn into (``clubs.notices``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="notices")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    title = models.CharField(_("title"), max_length=120)
    body = models.TextField(_("text"), max_length=NOTICE_MAX_LENGTH)
    created_at = models.DateTimeField(_("posted"), auto_now_add=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["club_id", "-created_at", "-pk"]

    def __str__(self) -> str:
        return self.title


class Season(models.Model):
    """A league over one game family with dates and a points scheme.

    ``points`` maps each side code of the family to ``{"win": n, "loss": n}``, so an
    evil win in the Resistance can be worth more than a good one."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=60)
    family = models.CharField(_("game family"), max_length=32)
    starts_on = models.DateField(_("starts"))
    ends_on = models.DateField(_("ends"))
    points = models.JSONField(_("points"), default=dict)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["club_id", "-starts_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse(
            "clubs:season", kwargs={"slug": self.club.slug, "season": self.pk}
        )

    def is_open(self, today: dt.date | None = None) -> bool:
        """Whether a table may be opened in the season today."""
        today = today or timezone.localdate()
        return self.starts_on <= today <= self.ends_on


class MatchDay(models.Model):
    """An evening of league games: members sign up, then an admin seats them and the
    site opens the tables (``clubs.seating`` decides who sits where)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("open for sign-up")
        SEATED = "seated", _("tables opened")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="match_days")
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="match_days"
    )
    ruleset = models.CharField(_("game"), max_length=32)
    starts_at = models.DateTimeField(_("starts at"))
    seats = models.PositiveSmallIntegerField(
        _("seats"), help_text=_("How many players may sign up.")
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.SCHEDULED
    )
    seated_at = models.DateTimeField(_("seated"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("match day")
        verbose_name_plural = _("match days")
        ordering = ["club_id", "-starts_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=3) & Q(seats__lte=200),
                name="match_day_seats_range",
            )
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.starts_at:%Y-%m-%d %H:%M}"

    def get_absolute_url(self) -> str:
        return reverse("clubs:day", kwargs={"slug": self.club.slug, "day": self.pk})

    def has_started(self, now: dt.datetime | None = None) -> bool:
        """Sign-ups close when the tables open or the start time comes."""
        return (
            self.status != self.Status.SCHEDULED
            or (now or timezone.now()) >= self.starts_at
        )


class MatchDaySignup(models.Model):
    """A member signed up for a match day; once seated, their table and the figures
    the seating used (so anyone can see why they sit where they sit)."""

    match_day = models.ForeignKey(
        MatchDay, on_delete=models.CASCADE, related_name="signups"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(_("signed up"), auto_now_add=True)
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hidden_games = models.PositiveIntegerField(_("games on the hidden side"), default=0)
    hidden_expected = models.FloatField(_("expected on the hidden side"), default=0.0)

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["match_day_id", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match_day", "user"], name="match_day_signup_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} for {self.match_day}"


class ClubTable(models.Model):
    """A table opened inside a club (and maybe a season), created in the same
    transaction as its ``Game``. ``counted`` is set when a season game finishes; a
    voided game stays listed, marked, and leaves the standings and ratings."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="club_table"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tables")
    season = models.ForeignKey(
        Season,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="tables",
    )
    match_day = models.ForeignKey(
        MatchDay,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tables",
    )
    is_members_only = models.BooleanField(_("members only"), default=True)
    counted = models.BooleanField(_("counted"), default=False)
    voided_at = models.DateTimeField(_("voided"), null=True, blank=True)
    void_reason = models.CharField(_("reason"), max_length=200, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("club table")
        verbose_name_plural = _("club tables")
        indexes = [
            models.Index(fields=["club", "season"], name="club_table_club"),
            models.Index(
                fields=["season"],
                name="club_table_counted",
                condition=Q(counted=True, voided_at=None),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.game}"

    @property
    def is_voided(self) -> bool:
        return self.voided_at is not None


class SeasonTally(models.Model):
    """A player's games and wins on one side in one season: a row of the standings,
    kept as each counted game ends or is voided, so that the standings of a season
    of thousands of games read a few hundred rows rather than group every seat."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="tallies")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    side = models.CharField(_("side"), max_length=16)
    played = models.PositiveIntegerField(_("games"), default=0)
    won = models.PositiveIntegerField(_("wins"), default=0)

    class Meta:
        verbose_name = _("season tally")
        verbose_name_plural = _("season tallies")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "user", "side"], name="season_tally_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.season} as {self.side}: {self.won}/{self.played}"


# --- ratings -----------------------------------------------------------------------


class RatingLedger(models.Model):
    """One row per game family, locked while a game of the family is rated or the
    ratings are recomputed: ratings change one game at a time, in one order."""

    family = models.CharField(max_length=32, unique=True)
    rated = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("rating ledger")
        verbose_name_plural = _("rating ledgers")

    def __str__(self) -> str:
        return f"{self.family}: {self.rated} games"


class PlayerRating(models.Model):
    """A player's openskill rating in one game family; ``ordinal`` (mu − 3σ) is what
    the leaderboard sorts by and shows."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    family = models.CharField(_("game family"), max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("rated games"), default=0)

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "family"], name="player_rating_once"
            )
        ]
        indexes = [
            models.Index(fields=["family", "-ordinal"], name="player_rating_board")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.family}: {self.ordinal:.1f}"


class SideRating(models.Model):
    """How strong a side of one game at one table size has proved, learnt by
    openskill like a player who sits on that side in every game (docs/ratings.md)."""

    family = models.CharField(max_length=32)
    ruleset = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    side = models.CharField(max_length=16)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("side rating")
        verbose_name_plural = _("side ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["ruleset", "players", "side"], name="side_rating_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.ruleset}/{self.players}/{self.side}: {self.mu:.2f}"


class RatedGame(models.Model):
    """A counted game whose result is in the ratings: at most one row per game, which
    is what makes a retried finish rate it once. ``number`` is the order of rating;
    ``sides`` keeps each side rating before and after, for a recomputation."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=32)
    number = models.PositiveIntegerField()
    sides = models.JSONField(default=dict)
    rated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")
        ordering = ["family", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["family", "number"], name="rated_game_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.family} #{self.number}"


class RatingChange(models.Model):
    """One player's rating before and after one rated game: the profile's chart."""

    rated_game = models.ForeignKey(
        RatedGame, on_delete=models.CASCADE, related_name="changes"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    family = models.CharField(max_length=32)
    number = models.PositiveIntegerField()
    won = models.BooleanField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["family", "number", "user_id"]
        indexes = [
            models.Index(fields=["user", "family", "number"], name="rating_change_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} after {self.rated_game}: {self.ordinal:.1f}"
