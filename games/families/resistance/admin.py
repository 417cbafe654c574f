"""Admin pages for the Resistance family's records: read-only, showing nothing a seat
could not see (a vote only once its proposal is decided, a check's true result only
once the game is over, never who played which mission card)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.families.resistance.models import (
    Check,
    Mission,
    MissionCard,
    Proposal,
    Shot,
    Vote,
)
from games.kit import HIDDEN, ReadOnlyAdmin, finished


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
        if vote.proposal.approved is None and not finished(vote.proposal.game):
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
        return check.result if finished(check.game) else str(HIDDEN)


@admin.register(Shot)
class ShotAdmin(ReadOnlyAdmin):
    list_display = ["game", "sniper", "target", "hit"]
