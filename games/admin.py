"""Admin pages for tables and their records: read-only, and careful with secrets.

A staff member may also be a player, so the admin shows nothing a seat could not see:
a vote only once its proposal is decided, a check's true result and the roles only
once the game is over, and never who played which mission card (the action log's
"play" entries are shown without the card).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.models import (
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

HIDDEN = _("(hidden until the end)")


def _finished(game: Game) -> bool:
    """Only a finished game is revealed; an abandoned one never is."""
    return game.status == Game.Status.FINISHED


class ReadOnlyAdmin(admin.ModelAdmin):
    """Game records are written by games.services only."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["position", "user", "joined_at", "shown_role", "shown_side", "won"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    @admin.display(description=_("role"))
    def shown_role(self, seat: Seat) -> str:
        return seat.role or str(HIDDEN)

    @admin.display(description=_("side"))
    def shown_side(self, seat: Seat) -> str:
        return seat.side or str(HIDDEN)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = [
        "code",
        "name",
        "ruleset",
        "seat_count",
        "status",
        "host",
        "created_at",
    ]
    list_filter = ["status", "ruleset", "is_private"]
    search_fields = ["code", "name", "host__username", "host__display_name"]
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    exclude = ["seed"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser


@admin.register(GameAction)
class GameActionAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "position", "shown_action", "created_at"]
    list_filter = ["game__ruleset"]
    search_fields = ["game__code"]
    fields = ["game", "number", "position", "shown_action", "created_at"]
    readonly_fields = fields

    @admin.display(description=_("action"))
    def shown_action(self, action: GameAction) -> str:
        payload = dict(action.payload)
        if payload.get("type") == "play":
            payload["card"] = "•"  # who played which card is never shown
        elif payload.get("type") == "vote" and not _finished(action.game):
            payload["approve"] = "•"
        return str(payload)


@admin.register(Mission)
class MissionAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "size", "two_fails", "result", "fails"]
    list_filter = ["result"]
    search_fields = ["game__code"]


@admin.register(MissionCard)
class MissionCardAdmin(ReadOnlyAdmin):
    list_display = ["mission", "success"]


@admin.register(Proposal)
class ProposalAdmin(ReadOnlyAdmin):
    list_display = ["game", "mission_number", "attempt", "leader", "approved"]
    search_fields = ["game__code"]


@admin.register(Vote)
class VoteAdmin(ReadOnlyAdmin):
    list_display = ["proposal", "seat", "shown_vote"]
    fields = ["proposal", "seat", "shown_vote", "created_at"]
    readonly_fields = fields

    @admin.display(description=_("approve"))
    def shown_vote(self, vote: Vote) -> str:
        if vote.proposal.approved is None and not _finished(vote.proposal.game):
            return str(HIDDEN)
        return str(vote.approve)


@admin.register(Check)
class CheckAdmin(ReadOnlyAdmin):
    list_display = [
        "game",
        "after_mission",
        "holder",
        "target",
        "claim",
        "shown_result",
    ]
    fields = ["game", "after_mission", "holder", "target", "claim", "shown_result"]
    readonly_fields = fields

    @admin.display(description=_("true side"))
    def shown_result(self, check: Check) -> str:
        return check.result if _finished(check.game) else str(HIDDEN)


@admin.register(Shot)
class ShotAdmin(ReadOnlyAdmin):
    list_display = ["game", "sniper", "target", "hit"]


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """Moderation: staff can read and delete table talk; the evil side's channel of a
    game in play stays closed."""

    list_display = ["game", "author", "channel", "shown_text", "created_at"]
    list_filter = ["channel"]
    search_fields = ["game__code", "author__username"]
    fields = ["game", "author", "channel", "shown_text", "created_at"]
    readonly_fields = fields

    @admin.display(description=_("message"))
    def shown_text(self, message: ChatMessage) -> str:
        if message.channel == ChatMessage.Channel.EVIL and not _finished(message.game):
            return str(HIDDEN)
        return message.text
