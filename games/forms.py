"""Parsing what players submit: the create-table form and moves from a page.

A move arrives as form fields (a plain POST, or the same form sent over the socket by
htmx's ws extension as JSON); ``move_from_fields`` reads the turn the player saw and
lets the game's family turn the rest into the engine's action dict
(``MoveCodec.parse``). Anything malformed is a ``BadAction``: the engine never sees
it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import engine
from games.kit.family import family_of, playable_rulesets, words_of
from games.kit.moves import field_int, field_one
from games.models import TURN_CLOCK_CHOICES


def move_from_fields(
    ruleset: str, fields: Mapping[str, Any]
) -> tuple[dict[str, Any], int]:
    """(engine action, turn) from submitted form fields: the turn is the platform's,
    the move is parsed by the game's family."""
    turn = field_int(field_one(fields, "turn"))
    return family_of(ruleset).moves.parse(fields), turn


def option_field(option: engine.OptionSpec) -> forms.Field:
    """The form field for one table option: a box for a yes/no option, a list for
    an option with choices, a number for a number."""
    label, help_text = _(option.label), _(option.help)
    default = option.default
    if isinstance(default, bool):
        return forms.BooleanField(
            label=label, help_text=help_text, required=False, initial=default
        )
    if option.choices:
        return forms.TypedChoiceField(
            label=label,
            help_text=help_text,
            required=False,
            choices=[(value, _(text)) for value, text in option.choices],
            coerce=type(default),
            initial=default,
            empty_value=None,
        )
    if isinstance(default, int):
        return forms.IntegerField(
            label=label,
            help_text=help_text,
            required=False,
            initial=default,
            min_value=option.minimum,
            max_value=option.maximum,
        )
    return forms.CharField(
        label=label, help_text=help_text, required=False, initial=default
    )


def clock_label(seconds: int) -> str:
    """A turn clock setting in words ("off", "30 seconds", "2 minutes")."""
    if not seconds:
        return str(_("off"))
    if seconds % 60:
        return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}
    minutes = seconds // 60
    return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}


class CreateTableForm(forms.Form):
    """Game, seats, presets and options, public or private. Options of every game
    are on the page (each with its one-line explanation); only the chosen game's
    are read."""

    ruleset = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    seat_count = forms.TypedChoiceField(
        label=_("Seats"),
        coerce=int,
        choices=[],
        initial=5,
    )
    name = forms.CharField(
        label=_("Table name"),
        max_length=60,
        required=False,
        help_text=_("Optional: how the table is called in the lobby, e.g. “Friday”."),
    )
    is_private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_("Not listed in the lobby; players join by the link you share."),
    )

    turn_seconds = forms.TypedChoiceField(
        label=_("Turn clock"),
        coerce=int,
        choices=[],
        initial=0,
        required=False,
        empty_value=0,
        help_text=_(
            "Time for each decision. When it runs out, a bot plays that move for "
            "the player. Off: the table waits for everyone."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["turn_seconds"].choices = [
            (seconds, clock_label(seconds)) for seconds in TURN_CLOCK_CHOICES
        ]
        codes = playable_rulesets()
        self.fields["ruleset"].choices = [(code, words_of(code).game) for code in codes]
        self.fields["ruleset"].initial = codes[0] if codes else None
        rulesets = [engine.get_ruleset(code) for code in codes]
        counts = sorted(
            {n for r in rulesets for n in range(r.min_players, r.max_players + 1)}
        )
        self.fields["seat_count"].choices = [(n, str(n)) for n in counts]
        self.option_fields: dict[str, list[str]] = {}
        for code in codes:
            names = []
            for option in engine.get_ruleset(code).options:
                field_name = f"opt_{code}_{option.name}"
                self.fields[field_name] = option_field(option)
                names.append(field_name)
            self.option_fields[code] = names

    def game_choices(self) -> list[tuple[forms.BoundField, Any, tuple[int, int]]]:
        """Each game's radio button with its one-line description and how many
        players it takes (lowest, highest)."""
        choices = []
        for radio in self["ruleset"]:
            code = radio.data["value"]
            ruleset = engine.get_ruleset(code)
            players = (ruleset.min_players, ruleset.max_players)
            choices.append((radio, words_of(code).tagline, players))
        return choices

    def option_groups(self) -> list[tuple[str, Any, list[forms.BoundField]]]:
        return [
            (code, words_of(code).game, [self[name] for name in names])
            for code, names in self.option_fields.items()
        ]

    def chosen_options(self) -> dict[str, engine.OptionValue]:
        code = self.cleaned_data["ruleset"]
        prefix = f"opt_{code}_"
        chosen: dict[str, engine.OptionValue] = {}
        for name in self.option_fields.get(code, []):
            value = self.cleaned_data.get(name)
            if isinstance(self.fields[name], forms.BooleanField):
                value = bool(value)
            if value is not None:
                chosen[name[len(prefix) :]] = value
        return chosen

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        code = cleaned.get("ruleset")
        count = cleaned.get("seat_count")
        if code and count:
            ruleset = engine.get_ruleset(code)
            if not ruleset.min_players <= count <= ruleset.max_players:
                self.add_error(
                    "seat_count",
                    _("This game is for %(low)d to %(high)d players.")
                    % {"low": ruleset.min_players, "high": ruleset.max_players},
                )
        return cleaned
