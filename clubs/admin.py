"""Admin pages for clubs, seasons and ratings: for looking, not for changing. Every
row is written by ``clubs.services`` (a standings tally or a rating edited by hand
would no longer equal its games), so the pages are read-only; a superuser may delete
a club, which takes its seasons and tables' club rows with it."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clubs.models import (
    Club,
    ClubTable,
    Invite,
    MatchDay,
    Membership,
    Notice,
    PlayerRating,
    RatedGame,
    Season,
    SideRating,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ["user", "role", "joined_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ["name", "slug", "is_private", "created_at"]
    list_filter = ["is_private"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser


@admin.register(Invite)
class InviteAdmin(ReadOnlyAdmin):
    """The token is the invite's key: the admin shows whether it works, not it."""

    list_display = ["club", "created_by", "created_at", "expires_at", "revoked_at"]
    fields = list_display
    readonly_fields = fields


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    list_display = ["title", "club", "author", "created_at"]
    search_fields = ["title", "club__name"]


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ["name", "club", "family", "starts_on", "ends_on"]
    list_filter = ["family"]


@admin.register(MatchDay)
class MatchDayAdmin(ReadOnlyAdmin):
    list_display = ["club", "season", "ruleset", "starts_at", "seats", "status"]
    list_filter = ["status"]


@admin.register(ClubTable)
class ClubTableAdmin(ReadOnlyAdmin):
    list_display = ["game", "club", "season", "is_members_only", "counted", "voided"]
    list_filter = ["counted", "is_members_only"]
    search_fields = ["game__code", "club__name"]

    @admin.display(description=_("voided"), boolean=True)
    def voided(self, table: ClubTable) -> bool:
        return table.is_voided


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ["user", "family", "ordinal", "mu", "sigma", "games"]
    list_filter = ["family"]
    search_fields = ["user__username", "user__display_name"]


@admin.register(SideRating)
class SideRatingAdmin(ReadOnlyAdmin):
    list_display = ["ruleset", "players", "side", "mu", "sigma", "games"]
    list_filter = ["ruleset"]


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnlyAdmin):
    list_display = ["family", "number", "game", "rated_at"]
    list_filter = ["family"]
