"""Tokens in the admin: listed and revocable (deleted), never created or read back,
since the admin never sees a plain key."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from api.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["prefix", "name", "user", "created_at", "last_used_at"]
    list_select_related = ["user"]
    search_fields = ["prefix", "name", "user__username", "user__display_name"]
    readonly_fields = ["user", "name", "prefix", "created_at", "last_used_at"]
    exclude = ["key_hash"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A key is made by the API only, where its owner sees it once.
        return False
