"""The history list's filters, read from the query string.

A bad value in one field (a typo in a shared link) drops that filter only: the list
still shows, narrowed by the fields that made sense.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import engine
from games.kit.family import known_words, playable_rulesets, words_of
from history.selectors import GameFilter, fact_owners, user_by_username

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
    ("abandoned", _("Abandoned")),
]
WON_CHOICES = [("", _("Won or lost")), ("1", _("won")), ("0", _("lost"))]


def _code_choices(kind: str) -> list[tuple[str, str]]:
    """Every side (``kind="sides"``) or role code some game deals, for the links the
    stats make; the code itself is what the list filters on."""
    codes: set[str] = set()
    for code in engine.ruleset_codes():
        words = known_words(code)
        if kind == "sides":
            codes |= set(engine.get_ruleset(code).sides)
        elif words is not None:
            codes |= set(words.roles)
    return [("", "")] + [(code, code) for code in sorted(codes)]


def _result_choices() -> list[tuple[str, Any]]:
    """Any result, abandoned, or each game's winning side in its words."""
    wins: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for code in playable_rulesets():
        words = words_of(code)
        for side in engine.get_ruleset(code).sides:
            if side not in seen:
                seen.add(side)
                label = _("%(side)s won") % {"side": str(words.side(side)).capitalize()}
                wins.append((side, label))
    return [*RESULT_CHOICES[:2], *wins, RESULT_CHOICES[2]]


class DateInput(forms.DateInput):
    input_type = "date"


class HistoryFilterForm(forms.Form):
    """Every filter of the history list; the stats' links fill in the hidden ones."""

    ruleset = forms.ChoiceField(label=_("Game"), required=False, choices=())
    players = forms.TypedChoiceField(
        label=_("Players"), required=False, coerce=int, empty_value=None, choices=()
    )
    result = forms.ChoiceField(label=_("Result"), required=False, choices=())
    since = forms.DateField(label=_("From"), required=False, widget=DateInput)
    until = forms.DateField(label=_("To"), required=False, widget=DateInput)
    mine = forms.BooleanField(label=_("Games I played"), required=False)
    player = forms.CharField(required=False, max_length=150, widget=forms.HiddenInput)
    side = forms.ChoiceField(required=False, choices=())
    role = forms.ChoiceField(required=False, choices=())
    won = forms.TypedChoiceField(
        required=False,
        choices=WON_CHOICES,
        coerce=lambda value: value == "1",
        empty_value=None,
    )
    fact = forms.ChoiceField(required=False, choices=())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = _ruleset_choices()
        self.fields["players"].choices = _player_count_choices()
        self.fields["result"].choices = _result_choices()
        self.fields["side"].choices = _code_choices("sides")
        self.fields["role"].choices = _code_choices("roles")
        self.fields["fact"].choices = [("", "")] + [(f, f) for f in fact_owners()]

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
