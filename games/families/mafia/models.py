"""The ``mafia`` family's own records: one table, for the profile's figures.

The review and the export read a finished game from the engine's replay (its final
view holds every night and every vote). What a replay cannot give is a database
aggregate over all of a player's games, so the one thing kept here is who left the
game, when, and how the table was told (at night, voted out, shot by the colonel,
kicked): public the moment it happens, written from the engine's public ``left``
event in the move's transaction (:mod:`.projection`). A player with no row was still
in the game at the end.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Departure(models.Model):
    """A player leaving a ``mafia`` game."""

    class At(models.TextChoices):
        NIGHT = "night", pgettext_lazy("mafia left", "at night")
        DAY = "day", pgettext_lazy("mafia left", "by day")

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="mafia_departures"
    )
    seat = models.OneToOneField(
        "games.Seat", on_delete=models.CASCADE, related_name="mafia_departure"
    )
    at = models.CharField(_("when"), max_length=8, choices=At.choices)
    number = models.PositiveSmallIntegerField(
        _("night or day"), help_text=_("The number of the night or the day.")
    )
    how = models.CharField(
        _("how"),
        max_length=32,
        help_text=_(
            "How the table was told, comma-separated: night, vote, colonel, kick."
        ),
    )

    class Meta:
        verbose_name = _("departure")
        verbose_name_plural = _("departures")
        ordering = ["game", "pk"]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat_id}: {self.at} {self.number}"
