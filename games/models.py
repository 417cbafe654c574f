"""The tables people play at, and the record every finished game leaves behind.

The action log (``GameAction``) together with the game's setup (ruleset, seat count,
options, seed) is the source of truth: the engine rebuilds any moment of any game from
it. Each game family keeps its own records (the Resistance's proposals, votes,
missions...) in its own app, projected from the engine's events in the same
transaction as the action (``games.services``), so that history and stats are plain
database queries. Nothing here names a family's fields.

A seat's role and side are copied onto ``Seat`` only when the game is over; the live
pages render only the engine's ``view()`` for the seat.
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
TURN_CLOCK_CHOICES = (0, 30, 60, 90, 120, 180, 300)
"""Seconds a player has for one decision; 0 is no clock (the default: a casual table
waits for its players). See docs/clocks.md."""
BOT_SHARE_MARK = 0.25
"""A finished game in which some seat's decisions were made by the clock's bot more
than this share of the time is marked in the history (docs/stats.md)."""


def new_table_code() -> str:
    """An unguessable table code: a private table's link is its only key."""
    return _secrets.token_urlsafe(8)[:TABLE_CODE_LENGTH]


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
        _("winner"),
        max_length=16,
        blank=True,
        help_text=_("The winning side's code, in the game family's words."),
    )
    end_reason = models.CharField(_("how it ended"), max_length=32, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(
        _("finished"), null=True, blank=True, db_index=True
    )
    last_action_at = models.DateTimeField(_("last move"), null=True, blank=True)
    next_game = models.OneToOneField(
        "self",
        verbose_name=_("rematch"),
        on_delete=models.SET_NULL,
        related_name="previous_game",
        null=True,
        blank=True,
        help_text=_("The table its host opened to play again with the same seats."),
    )
    turn_seconds = models.PositiveSmallIntegerField(
        _("turn clock"),
        default=0,
        help_text=_("Seconds per decision; 0: no clock."),
    )
    deadline = models.DateTimeField(
        _("deadline"),
        null=True,
        blank=True,
        help_text=_("When the current decision's time runs out (with a turn clock)."),
    )
    with_bots = models.BooleanField(
        _("with bots"),
        default=False,
        help_text=_("Bots hold seats: a practice game, never counted in ratings."),
    )
    bot_played = models.BooleanField(
        _("played by the bot"),
        default=False,
        help_text=_(
            "Some seat's decisions were mostly made by the clock's bot "
            "(see docs/stats.md)."
        ),
    )
    bot_move_count = models.PositiveIntegerField(
        _("moves made by the bot"),
        default=0,
        help_text=_(
            "How many of this table's moves the clock's bot made, the unseen ones "
            "too: read when the game ends, never shown (docs/clocks.md)."
        ),
    )
    bot_marks = models.JSONField(
        _("moves the bot made for a person"),
        default=list,
        blank=True,
        help_text=_(
            "[action number, seat] of each move the bot made for a person whose "
            "decision the whole table could see it wait for (docs/clocks.md)."
        ),
    )
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("moderator"),
        on_delete=models.PROTECT,
        related_name="moderated_games",
        null=True,
        blank=True,
        help_text=_("A person at the table who is not a player (moderated games)."),
    )
    moderator_away_since = models.DateTimeField(
        _("moderator away since"),
        null=True,
        blank=True,
        help_text=_(
            "When the moderator's last open screen of the table went away (empty "
            "while one is open); see games/presence.py."
        ),
    )
    change_id = models.PositiveBigIntegerField(
        _("change number"),
        default=0,
        editable=False,
        help_text=_(
            "Counts every change the table's screens must show (a move, a seat, a "
            "chat line, who is away): a screen that knows a lower number missed "
            "something (games/push.py)."
        ),
    )

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
            models.Index(
                fields=["deadline"],
                name="game_clock_due",
                condition=Q(status="playing", deadline__isnull=False),
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
    side = models.CharField(_("side"), max_length=16, blank=True)
    won = models.BooleanField(_("won"), null=True, blank=True)
    away_since = models.DateTimeField(
        _("away since"),
        null=True,
        blank=True,
        help_text=_(
            "When the player's last open screen of the table went away (empty while "
            "one is open); see games/presence.py."
        ),
    )

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
    position = models.SmallIntegerField(
        _("seat"), help_text=_("The acting seat; -1 is the table's moderator.")
    )
    payload = models.JSONField(_("action"))
    by_bot = models.BooleanField(
        _("by the bot"),
        default=False,
        help_text=_("Played by the bot: a bot's seat, or the clock ran out."),
    )
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


class MoveReceipt(models.Model):
    """A move a client named (an API ``Idempotency-Key``, a socket frame's or a
    page form's ``move_id``), written in the move's own transaction: a repeat of the
    key by the same user at the same table is answered from here and applies
    nothing, in any process, after any restart. ``fingerprint`` is a digest of the
    move as sent (action and turn): the same key for another move is refused."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(_("move id"), max_length=64)
    fingerprint = models.CharField(_("fingerprint"), max_length=64)
    version = models.PositiveIntegerField(_("version after the move"))
    turn = models.PositiveIntegerField(_("turn after the move"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("move receipt")
        verbose_name_plural = _("move receipts")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user", "key"], name="receipt_unique_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: move {self.version} by {self.user}"


class TableSocket(models.Model):
    """One open socket of a signed-in person at a table (games/presence.py): made on
    connect, beaten every ``PRESENCE_HEARTBEAT_SECONDS``, deleted on disconnect. A
    row whose beat is older than ``PRESENCE_STALE_SECONDS`` belongs to a process
    that died without saying goodbye; the clock's runner sweeps it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    channel = models.CharField(_("channel"), max_length=200, unique=True)
    beat_at = models.DateTimeField(_("last heartbeat"), db_index=True)

    class Meta:
        verbose_name = _("table socket")
        verbose_name_plural = _("table sockets")
        indexes = [models.Index(fields=["game", "user"], name="socket_game_user")]

    def __str__(self) -> str:
        return f"{self.game}: socket of {self.user}"


class ChatMessage(models.Model):
    """Table talk. ``table`` is everyone's channel; a game family may open private
    channels to some seats (the Resistance's evil side in the sniper phase, the mafia
    at night), named by the seat's view (``me.channels``). After the game everyone
    may read every channel."""

    class Channel(models.TextChoices):
        TABLE = "table", _("table")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    channel = models.CharField(_("channel"), max_length=16, default=Channel.TABLE)
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
