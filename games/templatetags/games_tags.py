"""Small template filters for game names and option badges."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.errors import CARD_TAG
from games.forms import clock_label
from games.kit.family import known_words
from games.models import Game
from games.words import option_labels
from numerals.digits import localize_text, numerals_for

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
    the table page says inside the seat's card (``games.errors.CARD_TAG``)."""
    return [m for m in messages or () if CARD_TAG not in m.tags.split()]


@register.filter
def countdown(deadline: str) -> str:
    """A family's countdown (a speech timer) from its end, an ISO time
    (``games.kit.regions.Facts.countdown``): the markup static/js/table.js counts."""
    if not deadline:
        return ""
    return render_countdown(dt.datetime.fromisoformat(deadline))


def render_countdown(deadline: dt.datetime | None) -> SafeString:
    """A move's countdown (a speech timer): the end time as text (all a page
    without JavaScript shows) and the seconds left, which static/js/table.js counts
    down from ``data-deadline`` like the turn clock. Nothing in it depends on the
    moment it is drawn, so every screen gets the same markup."""
    if deadline is None:
        return SafeString("")
    numerals = numerals_for()
    return format_html(
        '<span class="table-countdown" role="timer" data-countdown '
        'data-deadline="{}" data-digits="{}" data-expired="{}">'
        '{} <time datetime="{}">{}</time> <strong data-clock-left></strong></span>',
        int(deadline.timestamp() * 1000),
        numerals.digits if numerals else "",
        _("Time is up."),
        _("ends at"),
        deadline.isoformat(),
        localize_text(timezone.localtime(deadline).strftime("%H:%M:%S")),
    )
