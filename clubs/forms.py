"""What club pages submit. Forms parse and check shapes; every rule (who may, when,
what is taken) is the services' and comes back as a ``ClubError``."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.families import (
    family_codes,
    family_label,
    family_of_ruleset,
    rulesets_of,
    side_label,
    sides_of,
)
from clubs.models import DESCRIPTION_MAX_LENGTH, NOTICE_MAX_LENGTH, Season
from clubs.services.clubs import INVITE_MAX_DAYS
from clubs.services.leagues import DEFAULT_POINTS, POINTS_RANGE
from games.forms import CreateTableForm
from games.kit.family import playable_rulesets, words_of


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M")


class ClubForm(forms.Form):
    name = forms.CharField(label=pgettext_lazy("club", "Name"), max_length=60)
    slug = forms.CharField(
        label=_("Address"),
        max_length=40,
        help_text=_(
            "The club's page will be at /clubs/address/: small Latin letters, digits "
            "and hyphens."
        ),
    )
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=DESCRIPTION_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    is_private = forms.BooleanField(
        label=_("Private club"),
        required=False,
        help_text=_(
            "Its tables, games, standings and notices are for members only; the "
            "club is not listed."
        ),
    )


class ClubEditForm(ClubForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["slug"]


class NoticeForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=120)
    body = forms.CharField(
        label=_("Text"),
        max_length=NOTICE_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "Plain text: an empty line starts a new paragraph; an address starting "
            "with https:// becomes a link, as does [text](https://address)."
        ),
    )


class InviteForm(forms.Form):
    days = forms.IntegerField(
        label=_("Valid for (days)"), min_value=1, max_value=INVITE_MAX_DAYS, initial=7
    )


class VoidForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        help_text=_("Shown with the game in the history, for everyone who sees it."),
    )


def family_choices() -> list[tuple[str, Any]]:
    return [(code, family_label(code)) for code in family_codes()]


class SeasonForm(forms.Form):
    """Name, game family, dates, and points per side of every family (each shown
    with its own legend; only the chosen family's are read)."""

    name = forms.CharField(label=pgettext_lazy("season", "Name"), max_length=60)
    family = forms.ChoiceField(label=_("Games"), choices=())
    starts_on = forms.DateField(label=_("Starts"), widget=DateInput())
    ends_on = forms.DateField(label=_("Ends"), widget=DateInput())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["family"].choices = family_choices()
        today = timezone.localdate()
        self.fields["starts_on"].initial = today
        self.fields["ends_on"].initial = today + dt.timedelta(days=90)
        self.point_fields: dict[str, list[tuple[str, str, str]]] = {}
        for family in family_codes():
            rows = []
            for side in sides_of(family):
                for outcome in ("win", "loss"):
                    name = f"pts_{family}_{side}_{outcome}"
                    self.fields[name] = forms.IntegerField(
                        min_value=POINTS_RANGE.start,
                        max_value=POINTS_RANGE.stop - 1,
                        initial=DEFAULT_POINTS[outcome],
                        required=False,
                    )
                rows.append(
                    (side, f"pts_{family}_{side}_win", f"pts_{family}_{side}_loss")
                )
            self.point_fields[family] = rows

    def point_groups(self) -> list[tuple[str, Any, list[tuple[str, Any, Any]]]]:
        return [
            (
                family,
                family_label(family),
                [
                    (side_label(family, side), self[win], self[loss])
                    for side, win, loss in rows
                ],
            )
            for family, rows in self.point_fields.items()
        ]

    def points(self) -> dict[str, dict[str, int]]:
        family = self.cleaned_data["family"]
        chosen: dict[str, dict[str, int]] = {}
        for side, win, loss in self.point_fields.get(family, []):
            chosen[side] = {
                "win": self._value(win, DEFAULT_POINTS["win"]),
                "loss": self._value(loss, DEFAULT_POINTS["loss"]),
            }
        return chosen

    def _value(self, name: str, default: int) -> int:
        value = self.cleaned_data.get(name)
        return default if value is None else int(value)


class ClubTableForm(CreateTableForm):
    """The create-table form inside a club: the season it counts for (if any), and
    for an admin, whether it is open to everyone instead of members only."""

    season = forms.TypedChoiceField(
        label=_("Season"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=(),
        help_text=_("A season's table counts for its standings once the game ends."),
    )
    open_to_all = forms.BooleanField(
        label=_("Open to everyone"),
        required=False,
        help_text=_("Anyone may take a seat, not only the club's members."),
    )

    def __init__(
        self, *args: Any, seasons: list[Season], admin: bool, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["is_private"]
        if not admin:
            del self.fields["open_to_all"]
        self.seasons = {season.pk: season for season in seasons}
        self.fields["season"].choices = [("", _("No season: a friendly game"))] + [
            (season.pk, f"{season.name} · {family_label(season.family)}")
            for season in seasons
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        season = self.seasons.get(cleaned.get("season") or 0)
        code = cleaned.get("ruleset")
        if season is not None and code and family_of_ruleset(code) != season.family:
            self.add_error(
                "ruleset",
                _("The season “%(season)s” is played with: %(games)s.")
                % {
                    "season": season.name,
                    "games": ", ".join(
                        str(words_of(ruleset).game)
                        for ruleset in rulesets_of(season.family)
                    ),
                },
            )
        cleaned["season_obj"] = season
        return cleaned


class MatchDayForm(forms.Form):
    season = forms.TypedChoiceField(label=_("Season"), coerce=int, choices=())
    ruleset = forms.ChoiceField(label=_("Game"), choices=())
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        widget=DateTimeInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    seats = forms.IntegerField(
        label=_("Seats"),
        min_value=3,
        max_value=200,
        initial=20,
        help_text=_("How many players may sign up; the site splits them into tables."),
    )

    def __init__(self, *args: Any, seasons: list[Season], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seasons = {season.pk: season for season in seasons}
        self.fields["season"].choices = [
            (season.pk, f"{season.name} · {family_label(season.family)}")
            for season in seasons
        ]
        families = {season.family for season in seasons}
        self.fields["ruleset"].choices = [
            (code, words_of(code).game)
            for code in playable_rulesets()
            if family_of_ruleset(code) in families
        ]
        self.fields["starts_at"].initial = (
            timezone.localtime() + dt.timedelta(days=1)
        ).replace(hour=19, minute=0, second=0, microsecond=0)

    def season_obj(self) -> Season:
        return self.seasons[self.cleaned_data["season"]]
