"""The ``cells`` family's own records: one table, for the profile's figures.

The review and the export read a finished game from the engine's replay of its action
log (:mod:`.review`): every card, swap and mission is there, and nothing else is
needed to show them. What a replay cannot give is a database aggregate over all of a
player's games, so the one thing kept here is each player's part in each mission:
leader or second player, the colour their cell was mostly of when the card was turned
up, and whether the mission succeeded. That colour is a secret while the game runs;
it is written in the move's transaction like every record, and read only for finished
games (the profile's figures and the history list's filters).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class MissionPart(models.Model):
    """One player's part in one finished mission."""

    class Part(models.TextChoices):
        LEADER = "leader", pgettext_lazy("cells", "leader")
        PARTNER = "partner", pgettext_lazy("cells", "second player")

    class Side(models.TextChoices):
        GOOD = "good", pgettext_lazy("cells", "mostly blue")
        EVIL = "evil", pgettext_lazy("cells", "mostly red")

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="cells_mission_parts"
    )
    number = models.PositiveSmallIntegerField(pgettext_lazy("cells", "mission"))
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="cells_mission_parts"
    )
    part = models.CharField(_("part"), max_length=8, choices=Part.choices)
    side = models.CharField(
        _("side at the time"),
        max_length=8,
        choices=Side.choices,
        help_text=_(
            "The colour most of the player's cards were when the card was turned up."
        ),
    )
    success = models.BooleanField(_("succeeded"))

    class Meta:
        verbose_name = _("part in a mission")
        verbose_name_plural = _("parts in missions")
        ordering = ["game", "number", "part"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number", "part"], name="cells_mission_part_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} mission {self.number} {self.part}"
