"""The Resistance family's records of a game, projected from the engine's events.

Proposals, votes, missions and their cards, checks and the sniper's shot: written by
:mod:`.projection` in the same transaction as the move, read by history and stats.
Secrets in these tables (a vote in progress, a check result) are never read by the
live pages, which render only the engine's ``view()``; mission cards are stored
without their author, shuffled, exactly as the table sees them turned up.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Side(models.TextChoices):
    GOOD = "good", _("good")
    EVIL = "evil", _("evil")


class Mission(models.Model):
    """A mission (operation, patrol) as the table saw it: its size and, when played,
    the number of fail cards."""

    class Result(models.TextChoices):
        SUCCESS = "success", _("success")
        FAIL = "fail", _("fail")

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="missions"
    )
    number = models.PositiveSmallIntegerField(_("mission"))
    size = models.PositiveSmallIntegerField(_("team size"))
    two_fails = models.BooleanField(_("needs two fails"), default=False)
    result = models.CharField(
        _("result"), max_length=8, choices=Result.choices, blank=True
    )
    fails = models.PositiveSmallIntegerField(_("fail cards"), null=True, blank=True)
    team = models.ManyToManyField("games.Seat", related_name="missions", blank=True)

    class Meta:
        verbose_name = _("mission")
        verbose_name_plural = _("missions")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], name="mission_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} mission {self.number}"


class MissionCard(models.Model):
    """A played card, without its author: who played which card stays secret forever.
    Written all at once when the mission resolves, in shuffled order."""

    mission = models.ForeignKey(Mission, on_delete=models.CASCADE, related_name="cards")
    success = models.BooleanField(_("success"))

    class Meta:
        verbose_name = _("mission card")
        verbose_name_plural = _("mission cards")

    def __str__(self) -> str:
        return f"{self.mission}: {'success' if self.success else 'fail'}"


class Proposal(models.Model):
    """A team put to the vote: by whom, for which mission, with what result."""

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="proposals"
    )
    mission_number = models.PositiveSmallIntegerField(_("mission"))
    attempt = models.PositiveSmallIntegerField(_("attempt"))
    leader = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="led_proposals"
    )
    team = models.ManyToManyField("games.Seat", related_name="proposals_on")
    approved = models.BooleanField(_("approved"), null=True, blank=True)
    public_lean = models.CharField(
        _("public odds lean to"),
        max_length=8,
        blank=True,
        default="",
        help_text=_(
            "approve or reject: whether the team looked less or more likely than "
            "average to hold an evil player, from the fail cards played so far; "
            "blank when the public odds did not lean"
        ),
    )
    created_at = models.DateTimeField(_("proposed"), auto_now_add=True)

    class Meta:
        verbose_name = _("proposal")
        verbose_name_plural = _("proposals")
        ordering = ["game", "mission_number", "attempt"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "mission_number", "attempt"],
                name="proposal_unique_attempt",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} mission {self.mission_number} attempt {self.attempt}"


class Vote(models.Model):
    """One seat's vote on one proposal. Secret while the vote is open."""

    proposal = models.ForeignKey(
        Proposal, on_delete=models.CASCADE, related_name="votes"
    )
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="votes"
    )
    approve = models.BooleanField(_("approve"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("vote")
        verbose_name_plural = _("votes")
        constraints = [
            models.UniqueConstraint(fields=["proposal", "seat"], name="vote_once"),
        ]

    def __str__(self) -> str:
        return f"{self.proposal}: vote of {self.seat}"


class Check(models.Model):
    """A use of the check token: the private result and the public claim."""

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="checks"
    )
    after_mission = models.PositiveSmallIntegerField(_("after mission"))
    holder = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="checks_made"
    )
    target = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="checks_received"
    )
    result = models.CharField(_("true side"), max_length=8, choices=Side.choices)
    claim = models.CharField(
        _("claimed side"), max_length=8, choices=Side.choices, blank=True
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("check")
        verbose_name_plural = _("checks")
        ordering = ["game", "after_mission"]

    def __str__(self) -> str:
        return f"{self.game} check after {self.after_mission}"


class Shot(models.Model):
    """The sniper's shot at the end of a game with the scout preset."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="shot"
    )
    sniper = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="+")
    target = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="+")
    hit = models.BooleanField(_("hit the scout"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("sniper's shot")
        verbose_name_plural = _("sniper's shots")

    def __str__(self) -> str:
        return f"{self.game}: shot"
