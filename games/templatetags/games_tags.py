"""Small template filters for game names and option badges."""

from __future__ import annotations

from django import template

from games.families.registry import known_words
from games.models import Game
from games.rendering import option_labels

register = template.Library()


@register.filter
def game_name(ruleset: str) -> str:
    words = known_words(ruleset)
    return str(words.game) if words else ruleset


@register.filter
def option_badges(game: Game) -> list[str]:
    return option_labels(game)
