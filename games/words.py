"""A table's settings in words: its options and the house decisions of its game."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import engine
from games.models import Game


def option_labels(game: Game) -> list[str]:
    """The options that are on, in words, for badges: those a host switches on (a
    yes/no option that is off unless chosen). Every value, defaults included, is in
    the waiting room's settings (:func:`option_settings`)."""
    ruleset = engine.get_ruleset(game.ruleset)
    labels = []
    for option in ruleset.options:
        if option.name == "chat" or option.default is not False:
            continue
        if game.options.get(option.name):
            labels.append(_(option.label))
    return labels


def option_settings(game: Game) -> list[tuple[str, str]]:
    """Every option of the table with its value, in words: the waiting room shows
    them all (a game whose house decisions are the table's options, such as a
    moderated one, lets every player read what the host chose before the start)."""
    ruleset = engine.get_ruleset(game.ruleset)
    settings = []
    for option in ruleset.options:
        if option.name == "chat":
            continue
        value = game.options.get(option.name, option.default)
        if isinstance(value, bool):
            text = _("yes") if value else _("no")
        else:
            text = next(
                (_(label) for choice, label in option.choices if choice == value),
                str(value),
            )
        settings.append((_(option.label), text))
    return settings


def house_decisions(game: Game) -> list[str]:
    return [_(text) for text in engine.get_ruleset(game.ruleset).house_decisions]
