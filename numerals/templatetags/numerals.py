"""``{% load numerals %}``: what a page needs so that a right-to-left reader reads
numbers and names as they are meant.

``{{ value|digits }}``: a number people read, in the active language's digits
(Persian: ۰۱۲۳۴۵۶۷۸۹; Russian and English: unchanged). Only for what is shown:
never on a form's value, a URL, an id or a data- attribute. A number stays a number
(``{% blocktranslate count n=x|digits %}`` still picks the plural form), a text has
its digits replaced, HTML keeps its tags and attributes.

``{{ name|bdi }}``: a name a player typed, isolated from the sentence around it, for
``{% blocktranslate with name=player|bdi %}`` (outside a sentence, write the <bdi>
element itself). "Оля!" or "Max 2" inside Persian text would otherwise have its
punctuation or number pulled to the wrong end. It keeps its own digits: a name is
never localized.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from numerals.digits import localize
from numerals.lists import list_separator

register = template.Library()


@register.filter(is_safe=True)
def digits(value: Any) -> Any:
    return localize(value)


@register.simple_tag
def comma() -> str:
    """The separator of a list in the active language (Persian: «، »), for a list a
    template writes itself: ``{% if not forloop.last %}{% comma %}{% endif %}``."""
    return list_separator()


@register.filter
def bdi(value: Any) -> Any:
    if value is None or value == "":
        return value
    return format_html("<bdi>{}</bdi>", value)
