"""Parsing what players submit: the create-table form and moves from a page.

A move arrives as form fields (a plain POST, or the same form sent over the socket by
htmx's ws extension as JSON); ``move_from_fields`` turns either into the engine's action
dict and the turn the player saw. Anything malformed is a ``BadAction``: the engine
never sees it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine, errors
from games.words import WORDS

MOVE_TYPES = {"propose", "vote", "play", "check", "claim", "shoot"}


def _values(fields: Any, name: str) -> list[str]:
    """All values of a field from a QueryDict or a JSON object (where a single
    checked box comes as a string and several as a list)."""
    if hasattr(fields, "getlist"):
        return [str(v) for v in fields.getlist(name)]
    value = fields.get(name)
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)]


def _one(fields: Any, name: str) -> str:
    values = _values(fields, name)
    if len(values) != 1:
        raise errors.BadAction
    return values[0].strip()


def _int(text: str) -> int:
    """A small whole number in ASCII digits only. ``str.isdigit`` also accepts "²"
    and "①" (which ``int`` then refuses) and other scripts' digits such as "٣"
    (which ``int`` reads as 3): our own pages always send ASCII digits, so anything
    else is a forged or garbled field, refused before the engine sees it, whatever
    language the interface speaks."""
    if not (1 <= len(text) <= 3 and text.isascii() and text.isdigit()):
        raise errors.BadAction
    return int(text)


def move_from_fields(fields: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """(engine action, turn) from submitted form fields."""
    kind = _one(fields, "action")
    if kind not in MOVE_TYPES:
        raise errors.BadAction
    turn = _int(_one(fields, "turn"))
    if kind == "propose":
        team = [_int(v.strip()) for v in _values(fields, "team")]
        return {"type": "propose", "team": team}, turn
    if kind == "vote":
        choice = _one(fields, "approve")
        if choice not in ("yes", "no"):
            raise errors.BadAction
        return {"type": "vote", "approve": choice == "yes"}, turn
    if kind == "play":
        card = _one(fields, "card")
        if card not in ("success", "fail"):
            raise errors.BadAction
        return {"type": "play", "card": card}, turn
    if kind == "claim":
        side = _one(fields, "side")
        if side not in ("good", "evil"):
            raise errors.BadAction
        return {"type": "claim", "side": side}, turn
    return {"type": kind, "target": _int(_one(fields, "target"))}, turn


class CreateTableForm(forms.Form):
    """Game, seats, presets and options, public or private. Options of every game
    are on the page (each with its one-line explanation); only the chosen game's
    are read."""

    ruleset = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    seat_count = forms.TypedChoiceField(
        label=_("Seats"),
        coerce=int,
        choices=[(n, str(n)) for n in range(5, 11)],
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [
            (code, WORDS[code].game) for code in engine.ruleset_codes() if code in WORDS
        ]
        self.fields["ruleset"].initial = "partisans"
        self.option_fields: dict[str, list[str]] = {}
        for code in engine.ruleset_codes():
            if code not in WORDS:
                continue
            names = []
            for option in engine.get_ruleset(code).options:
                field_name = f"opt_{code}_{option.name}"
                self.fields[field_name] = forms.BooleanField(
                    label=_(option.label),
                    help_text=_(option.help),
                    required=False,
                    initial=bool(option.default),
                )
                names.append(field_name)
            self.option_fields[code] = names

    def game_choices(self) -> list[tuple[forms.BoundField, Any]]:
        """Each game's radio button with its one-line description."""
        return [
            (radio, WORDS[radio.data["value"]].tagline) for radio in self["ruleset"]
        ]

    def option_groups(self) -> list[tuple[str, Any, list[forms.BoundField]]]:
        return [
            (code, WORDS[code].game, [self[name] for name in names])
            for code, names in self.option_fields.items()
        ]

    def chosen_options(self) -> dict[str, bool]:
        code = self.cleaned_data["ruleset"]
        prefix = f"opt_{code}_"
        return {
            name[len(prefix) :]: bool(self.cleaned_data.get(name))
            for name in self.option_fields.get(code, [])
        }

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
