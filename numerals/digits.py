"""The digits a reader expects: Persian readers read ۰۱۲۳۴۵۶۷۸۹, not 0123456789.

Only what people read changes. A value a form sends, a URL, an id or a data-
attribute keeps its ASCII digits (the server accepts ASCII digits only), so nothing
here is ever applied to those: templates call the ``digits`` filter on the numbers
they show, and :mod:`numerals.translation` does the same for the numbers Python puts
into translated sentences.

A language missing from :data:`NATIVE` keeps ASCII digits (Russian and English).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils import formats, translation
from django.utils.safestring import SafeData, mark_safe


@dataclass(frozen=True)
class Numerals:
    digits: str
    """The ten digits, zero first."""
    percent: str
    """The percent sign that follows a number."""

    def table(self) -> dict[int, str]:
        return {ord(str(index)): digit for index, digit in enumerate(self.digits)}


NATIVE: dict[str, Numerals] = {
    # U+06F0..U+06F9 (Extended Arabic-Indic, the Persian forms of 4, 5 and 6) and
    # U+066A, the Arabic percent sign Persian typesetting uses.
    "fa": Numerals(digits="۰۱۲۳۴۵۶۷۸۹", percent="٪"),
}

_PERCENT_AFTER_DIGIT = re.compile(r"(?<=[0-9])%")
# In text that is already HTML only the text between tags changes, never a tag's
# attributes (an href, a value, an SVG coordinate) or a character reference.
_MARKUP = re.compile(r"(<[^>]*>|&#?\w+;)")


def numerals_for(language: str | None = None) -> Numerals | None:
    """The active (or the given) language's own numerals, or None for ASCII."""
    code = language if language is not None else translation.get_language()
    if not code:
        return None
    return NATIVE.get(code) or NATIVE.get(code.split("-")[0])


def localize_text(text: str, language: str | None = None) -> str:
    """``text`` with its ASCII digits (and a percent sign after one) in the
    language's own numerals; unchanged where the language uses ASCII digits.

    For text people read: a sentence, a date, a figure. Text that is already HTML
    keeps its markup as it is and stays safe."""
    numerals = numerals_for(language)
    if numerals is None:
        return text
    if isinstance(text, SafeData):
        parts = _MARKUP.split(str(text))
        return mark_safe(  # noqa: S308 - only the text between tags changed
            "".join(
                part if index % 2 else _convert(part, numerals)
                for index, part in enumerate(parts)
            )
        )
    return _convert(str(text), numerals)


def _convert(text: str, numerals: Numerals) -> str:
    if numerals.percent != "%":
        text = _PERCENT_AFTER_DIGIT.sub(numerals.percent, text)
    return text.translate(numerals.table())


class NativeInt(int):
    """An int that prints in a language's own digits.

    It is still a number: ``{% blocktranslate count n=seats|digits %}`` chooses the
    plural form from it, and comparisons and arithmetic work as on any int (their
    results are plain ints again)."""

    language: str

    def __new__(cls, value: int, language: str) -> NativeInt:
        number = super().__new__(cls, value)
        number.language = language
        return number

    def __getnewargs__(self) -> tuple[int, str]:  # type: ignore[override]
        return int(self), self.language

    def __str__(self) -> str:
        return localize_text(int.__str__(self), self.language)

    def __format__(self, spec: str) -> str:
        return localize_text(int.__format__(self, spec), self.language)


def is_number(value: Any) -> bool:
    """A count or a measure; True and False are not numbers to show."""
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def localize(value: Any, language: str | None = None) -> Any:
    """What the ``digits`` filter does: a number or a text as people should read it
    in the active language. In a language with ASCII digits the value comes back
    untouched (not even turned into text)."""
    numerals = numerals_for(language)
    if numerals is None or value is None or isinstance(value, bool):
        return value
    code = language or translation.get_language()
    if isinstance(value, int):
        return NativeInt(value, code)
    if isinstance(value, float | Decimal):
        return localize_text(formats.localize(value), code)
    return localize_text(value if isinstance(value, str) else str(value), code)
