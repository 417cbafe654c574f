"""Admin pages for the ``cells`` family's records: read-only, and showing the colour a
player was mostly of at a mission only once the game is over."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.families.cells.models import MissionPart
from games.kit import HIDDEN, ReadOnlyAdmin, finished


@admin.register(MissionPart)
class MissionPartAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "part", "seat", "shown_side", "success"]
    fields = ["game", "number", "part", "seat", "shown_side", "success"]
    readonly_fields = fields
    search_fields = ["game__code"]

    @admin.display(description=_("side at the time"))
    def shown_side(self, part: MissionPart) -> str:
        return part.side if finished(part.game) else str(HIDDEN)
