"""The tables people play at, and the record every finished game leaves behind.

The action log (``GameAction``) together with the game's setup (ruleset, seat count,
options, seed) is the source of truth: the engine rebuilds any moment of any game from
it. The other tables (proposals, votes, missions, cards, checks) are projections written
by ``games.services`` in the same transaction as the action, so that history, replay
lists and stats are plain database queries.

Secrets in these tables (a seat's role, a vote in progress, a check result) are never
read by the live pages: those render only the engine's ``view()`` for the seat. Roles
are copied onto ``Seat`` only when the game is over, and mission cards are stored
without their author, shuffled, exactly as the table sees them.
"""

from __future__ import annotations

import secrets as _secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

TABLE_CODE_LENGTH = 10
CHAT_MAX_LENGTH = 300


def new_table_code() -> str:
    """An unguessable table code: a private table's link is its only key."""
    return _secrets.token_urlsafe(8)[:TABLE_CODE_LENGTH]


class Side(models.TextChoices):
    GOOD = "good", _("good")
    EVIL = "evil", _("evil")


class Game(models.Model):
    """A table and the one game played at it."""

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        PLAYING = "playing", _("in play")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    code = models.CharField(
        _("code"), max_length=16, unique=True, default=new_table_code, editable=False
    )
    name = models.CharField(_("table name"), max_length=60, blank=True)
    ruleset = models.CharField(_("game"), max_length=32)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("host"),
        on_delete=models.PROTECT,
        related_name="hosted_games",
    )
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    is_private = models.BooleanField(_("private"), default=False)
    chat_enabled = models.BooleanField(_("table chat"), default=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN
    )
    seed = models.BigIntegerField(_("seed"), null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(_("version"), default=0)
    turn = models.PositiveIntegerField(
        _("turn"),
        default=0,
        help_text=_("The version at which the current decision began."),
    )
    phase = models.CharField(_("phase"), max_length=16, blank=True)
    winner = models.CharField(
        _("winner"), max_length=8, choices=Side.choices, blank=True
    )
    end_reason = models.CharField(_("how it ended"), max_length=32, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(
        _("finished"), null=True, blank=True, db_index=True
    )
    last_action_at = models.DateTimeField(_("last move"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
            models.Index(
                fields=["ruleset", "-finished_at"], name="game_ruleset_finished"
            ),
            models.Index(
                fields=["-finished_at"],
                name="game_finished_public",
                condition=Q(status="finished", is_private=False),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=3) & Q(seat_count__lte=10),
                name="game_seat_count_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name or self.code

    def get_absolute_url(self) -> str:
        return reverse("games:table", kwargs={"code": self.code})

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABANDONED)


class Seat(models.Model):
    """A player at a table. ``position`` is the seat in table order, dealt at random
    when the game starts (None before). ``role``, ``side`` and ``won`` are written only
    when the game is over."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    role = models.CharField(_("role"), max_length=32, blank=True)
    side = models.CharField(_("side"), max_length=8, choices=Side.choices, blank=True)
    won = models.BooleanField(_("won"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "position", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.UniqueConstraint(
                fields=["game", "position"], name="seat_unique_position"
            ),
        ]
        indexes = [models.Index(fields=["user", "game"], name="seat_user_game")]

    def __str__(self) -> str:
        return f"{self.game} #{self.position}: {self.user}"


class GameAction(models.Model):
    """One applied engine action, in order: with the game's setup, the whole game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField(_("number"))
    position = models.PositiveSmallIntegerField(_("seat"))
    payload = models.JSONField(_("action"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("game action")
        verbose_name_plural = _("game actions")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], name="action_unique_number"
            ),
        ]

    def __str__(self) -> str:
        # The kind of move only: a vote's value or a card must never end up in a log
        # line or an admin page through str().
        kind = self.payload.get("type", "?") if isinstance(self.payload, dict) else "?"
        return f"{self.game} #{self.number}: {kind} by seat {self.position}"


class Mission(models.Model):
    """A mission (operation, patrol) as the table saw it: its size and, when played,
    the number of fail cards."""

    class Result(models.TextChoices):
        SUCCESS = "success", _("success")
        FAIL = "fail", _("fail")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="missions")
    number = models.PositiveSmallIntegerField(_("mission"))
    size = models.PositiveSmallIntegerField(_("team size"))
    two_fails = models.BooleanField(_("needs two fails"), default=False)
    result = models.CharField(
        _("result"), max_length=8, choices=Result.choices, blank=True
    )
    fails = models.PositiveSmallIntegerField(_("fail cards"), null=True, blank=True)
    team = models.ManyToManyField(Seat, related_name="missions", blank=True)

    class Meta:
        verbose_name = _("mission")
        verbose_name_plural = _("missions")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], name="mission_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} mission {self.number}"


class MissionCard(models.Model):
    """A played card, without its author: who played which card stays secret forever.
    Written all at once when the mission resolves, in shuffled order."""

    mission = models.ForeignKey(Mission, on_delete=models.CASCADE, related_name="cards")
    success = models.BooleanField(_("success"))

    class Meta:
        verbose_name = _("mission card")
        verbose_name_plural = _("mission cards")

    def __str__(self) -> str:
        return f"{self.mission}: {'success' if self.success else 'fail'}"


class Proposal(models.Model):
    """A team put to the vote: by whom, for which mission, with what result."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="proposals")
    mission_number = models.PositiveSmallIntegerField(_("mission"))
    attempt = models.PositiveSmallIntegerField(_("attempt"))
    leader = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="led_proposals"
    )
    team = models.ManyToManyField(Seat, related_name="proposals_on")
    approved = models.BooleanField(_("approved"), null=True, blank=True)
    created_at = models.DateTimeField(_("proposed"), auto_now_add=True)

    class Meta:
        verbose_name = _("proposal")
        verbose_name_plural = _("proposals")
        ordering = ["game", "mission_number", "attempt"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "mission_number", "attempt"],
                name="proposal_unique_attempt",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} mission {self.mission_number} attempt {self.attempt}"


class Vote(models.Model):
    """One seat's vote on one proposal. Secret while the vote is open."""

    proposal = models.ForeignKey(
        Proposal, on_delete=models.CASCADE, related_name="votes"
    )
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="votes")
    approve = models.BooleanField(_("approve"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("vote")
        verbose_name_plural = _("votes")
        constraints = [
            models.UniqueConstraint(fields=["proposal", "seat"], name="vote_once"),
        ]

    def __str__(self) -> str:
        return f"{self.proposal}: vote of {self.seat}"


class Check(models.Model):
    """A use of the check token: the private result and the public claim."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checks")
    after_mission = models.PositiveSmallIntegerField(_("after mission"))
    holder = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="checks_made"
    )
    target = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="checks_received"
    )
    result = models.CharField(_("true side"), max_length=8, choices=Side.choices)
    claim = models.CharField(
        _("claimed side"), max_length=8, choices=Side.choices, blank=True
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("check")
        verbose_name_plural = _("checks")
        ordering = ["game", "after_mission"]

    def __str__(self) -> str:
        return f"{self.game} check after {self.after_mission}"


class Shot(models.Model):
    """The sniper's shot at the end of a game with the scout preset."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="shot")
    sniper = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    target = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    hit = models.BooleanField(_("hit the scout"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("sniper's shot")
        verbose_name_plural = _("sniper's shots")

    def __str__(self) -> str:
        return f"{self.game}: shot"


class ChatMessage(models.Model):
    """Table talk. The "evil" channel is the evil side's private room during the
    sniper phase; everyone may read it after the game."""

    class Channel(models.TextChoices):
        TABLE = "table", _("table")
        EVIL = "evil", _("evil side")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    channel = models.CharField(
        _("channel"), max_length=8, choices=Channel.choices, default=Channel.TABLE
    )
    text = models.CharField(_("message"), max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["game", "created_at", "id"]
        indexes = [
            models.Index(fields=["game", "channel", "id"], name="chat_game_channel")
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.channel} message by {self.author}"
