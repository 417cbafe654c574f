"""Admin pages for tables and their records: read-only, and careful with secrets.

A staff member may also be a player, so the admin shows nothing a seat could not see:
the roles only once the game is over, a private channel's messages only then too, and
never a secret move in the action log (each family's ``admin_action`` hides what its
moves carry). A family's own records have their admin pages in its folder.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.kit.family import family_of
from games.kit.records import HIDDEN, ReadOnlyAdmin, finished
from games.models import ChatMessage, Game, GameAction, Seat


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
        family = family_of(action.game.ruleset)
        return str(
            family.records.admin_action(dict(action.payload), finished(action.game))
        )


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """Moderation: staff can read and delete table talk; a side's private channel of
    a game in play stays closed."""

    list_display = ["game", "author", "channel", "shown_text", "created_at"]
    list_filter = ["channel"]
    search_fields = ["game__code", "author__username"]
    fields = ["game", "author", "channel", "shown_text", "created_at"]
    readonly_fields = fields

    @admin.display(description=_("message"))
    def shown_text(self, message: ChatMessage) -> str:
        private = message.channel != ChatMessage.Channel.TABLE
        if private and not finished(message.game):
            return str(HIDDEN)
        return message.text
