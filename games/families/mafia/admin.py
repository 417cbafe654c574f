"""Admin pages for the ``mafia`` family's records: read-only (who left is public the
moment it happens)."""

from __future__ import annotations

from django.contrib import admin

from games.families.mafia.models import Departure
from games.kit import ReadOnlyAdmin


@admin.register(Departure)
class DepartureAdmin(ReadOnlyAdmin):
    list_display = ["game", "seat", "at", "number", "how"]
    fields = list_display
    readonly_fields = fields
    search_fields = ["game__code"]
