"""Small template filters for game names and option badges."""

from __future__ import annotations

from typing import Any

from django import template

from games.families.registry import known_words
from games.forms import clock_label
from games.models import Game
from games.rendering import CARD_TAG, option_labels
from numerals.digits import localize_text

register = template.Library()


@register.filter
def game_name(ruleset: str) -> str:
    words = known_words(ruleset)
    return str(words.game) if words else ruleset


@register.filter
def option_badges(game: Game) -> list[str]:
    return option_labels(game)


@register.filter(name="clock_label")
def clock_label_filter(seconds: int) -> str:
    """A turn clock setting in words, in the language's digits."""
    return localize_text(clock_label(int(seconds or 0)))


@register.filter
def page_messages(messages: Any) -> list[Any]:
    """The flashed messages for the page's list: all but a private refusal, which
    the table page says inside the seat's card (``games.rendering.CARD_TAG``)."""
    return [m for m in messages or () if CARD_TAG not in m.tags.split()]
