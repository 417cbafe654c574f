"""The history list's filters, read from the query string.

A bad value in one field (a typo in a shared link) drops that filter only: the list
still shows, narrowed by the fields that made sense.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import User
from games.families.registry import playable_rulesets, words_of
from history.selectors import (
    FACTS,
    RESULTS,
    ROLE_KINDS,
    GameFilter,
    user_by_username,
)

PLAYER_COUNTS = range(3, 11)


def _ruleset_choices() -> list[tuple[str, Any]]:
    return [("", _("Any game"))] + [
        (code, words_of(code).game) for code in playable_rulesets()
    ]


def _player_count_choices() -> list[tuple[str, Any]]:
    return [("", _("Any number"))] + [(str(n), str(n)) for n in PLAYER_COUNTS]


RESULT_CHOICES = [
    ("", _("Any result")),
    ("finished", _("Finished (not abandoned)")),
    ("good", _("Good side won")),
    ("evil", _("Evil side won")),
    ("abandoned", _("Abandoned")),
]
SIDE_CHOICES = [("", _("Either side")), ("good", _("good")), ("evil", _("evil"))]
ROLE_CHOICES = [
    ("", _("Any role")),
    ("scout", pgettext_lazy("partisans", "Scout")),
    ("sniper", pgettext_lazy("partisans", "Sniper")),
    ("plain", _("no special role")),
]
WON_CHOICES = [("", _("Won or lost")), ("1", _("won")), ("0", _("lost"))]

assert {code for code, _label in ROLE_CHOICES if code} == set(ROLE_KINDS)
assert {code for code, _label in RESULT_CHOICES if code} == set(RESULTS)


class DateInput(forms.DateInput):
    input_type = "date"


class HistoryFilterForm(forms.Form):
    """Every filter of the history list; the stats' links fill in the hidden ones."""

    ruleset = forms.ChoiceField(label=_("Game"), required=False, choices=())
    players = forms.TypedChoiceField(
        label=_("Players"), required=False, coerce=int, empty_value=None, choices=()
    )
    result = forms.ChoiceField(
        label=_("Result"), required=False, choices=RESULT_CHOICES
    )
    since = forms.DateField(label=_("From"), required=False, widget=DateInput)
    until = forms.DateField(label=_("To"), required=False, widget=DateInput)
    mine = forms.BooleanField(label=_("Games I played"), required=False)
    player = forms.CharField(required=False, max_length=150, widget=forms.HiddenInput)
    side = forms.ChoiceField(required=False, choices=SIDE_CHOICES)
    role = forms.ChoiceField(required=False, choices=ROLE_CHOICES)
    won = forms.TypedChoiceField(
        required=False,
        choices=WON_CHOICES,
        coerce=lambda value: value == "1",
        empty_value=None,
    )
    fact = forms.ChoiceField(
        required=False, choices=[("", "")] + [(fact, fact) for fact in FACTS]
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = _ruleset_choices()
        self.fields["players"].choices = _player_count_choices()

    def game_filter(self) -> GameFilter:
        """The valid part of the query string as a :class:`GameFilter`."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        username = (data.get("player") or "").strip()
        player: User | None = user_by_username(username) if username else None
        return GameFilter(
            ruleset=data.get("ruleset") or "",
            players=data.get("players"),
            result=data.get("result") or "",
            since=data.get("since"),
            until=data.get("until"),
            mine=bool(data.get("mine")),
            player=player,
            unknown_player=bool(username) and player is None,
            side=data.get("side") or "",
            role=data.get("role") or "",
            won=data.get("won"),
            fact=data.get("fact") or "",
        )
