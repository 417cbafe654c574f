"""Numbers that Python puts into translated sentences, in the reader's digits.

The site builds many sentences in Python: ``phrases.fails % {"n": 2}``,
``_("Voted %(done)d of %(total)d · waiting for: %(names)s") % {...}``. In Persian
the numbers in them must read ۲ and ۳, but the names must stay exactly as their
players typed them ("Max2000" is a name, not a number). Converting the finished
sentence cannot tell the two apart; the ``%`` that fills it in can: a number arrives
as an int, a name as a str.

So, in a language with its own digits (see :data:`numerals.digits.NATIVE`), the
translation catalogue hands out its sentences as :class:`Sentence`, a str whose
``%`` writes each *number* it is given in those digits and everything else as usual.
Every call site stays as it is, and every game family gets this without knowing
about it: the presenters, the words, the errors, Django's own messages. Russian and
English get plain strings, exactly as before.

Why not a middleware that rewrites the response: it would rewrite the digits in
names and in form values too, and the table's live updates reach the page over a
websocket, past every middleware. Why not a helper called at each ``%``: every
sentence of every family, present and future, would have to remember it.

Numbers a template prints itself, or passes to ``{% blocktranslate %}`` (which fills
in text, not numbers), go through the ``digits`` filter instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import trans_real

from numerals.digits import is_number, localize_text, numerals_for

# One printf-style conversion, as Python's ``%`` reads it.
_CONVERSION = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?(?P<spec>[-#0 +]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[hlL]?)"
    r"(?P<type>[diouxXeEfFgGcrsa%])"
)


class Sentence(str):
    """A translated sentence whose numbers come out in ``language``'s digits."""

    language: str

    def __new__(cls, text: str, language: str) -> Sentence:
        sentence = super().__new__(cls, text)
        sentence.language = language
        return sentence

    def __str__(self) -> str:
        # ``str(gettext_lazy(...)) % params`` (games.errors does it) keeps the Sentence.
        return self

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]
        # Copies and pickles (a cache, a channel layer) rebuild it with its language.
        return str.__str__(self), self.language

    def __mod__(self, params: Any) -> str:
        text = str.__str__(self)
        # First exactly what a plain str does, so that a wrong set of params fails
        # (or is ignored) just as it would have.
        plain = text % params
        if not _has_number(params):
            return plain
        try:
            return _fill(text, params, self.language)
        except (KeyError, IndexError, TypeError, ValueError):
            return plain


def _has_number(params: Any) -> bool:
    if isinstance(params, Mapping):
        return any(is_number(value) for value in params.values())
    if isinstance(params, tuple):
        return any(is_number(value) for value in params)
    return is_number(params)


def _fill(template: str, params: Any, language: str) -> str:
    """``template % params`` one conversion at a time, numbers in native digits."""
    by_name = params if isinstance(params, Mapping) else None
    positional = iter(params if isinstance(params, tuple) else (params,))

    def one(match: re.Match[str]) -> str:
        kind = match["type"]
        if kind == "%":
            return "%"
        if "*" in match["spec"]:
            raise ValueError("a * width takes its value from the params")
        if match["key"] is not None:
            if by_name is None:
                raise TypeError("format requires a mapping")
            value = by_name[match["key"]]
        elif by_name is not None and not isinstance(params, tuple):
            raise TypeError("a mapping fills only named conversions")
        else:
            value = next(positional)
        piece = ("%" + match["spec"] + kind) % (value,)
        return localize_text(piece, language) if is_number(value) else piece

    return _CONVERSION.sub(one, template)


def _localized(text: str, language: str) -> str:
    if isinstance(text, str) and numerals_for(language) is not None:
        return Sentence(text, language)
    return text


class NumeralsTranslation(trans_real.DjangoTranslation):
    """Django's translation object, handing out :class:`Sentence` in a language
    with its own digits.

    It also falls back to the English source text, never to the site's default
    language: Django sends a string the Persian catalogue lacks (one added since it
    was last brought up to date) to Russian, which a Persian reader is far less
    likely to read than English. Russian is the default and English is the source,
    so for them nothing changes."""

    def gettext(self, message: str) -> str:
        return _localized(super().gettext(message), self.language())

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _localized(super().ngettext(msgid1, msgid2, n), self.language())

    def _add_fallback(self, localedirs: Any = None) -> None:
        return


def install() -> None:
    """Make Django build its translation objects from :class:`NumeralsTranslation`.

    Django looks the class up each time it creates a language's translation object
    (once per language and process); any made before this are dropped, so every one
    in use is of the new class."""
    if trans_real.DjangoTranslation is NumeralsTranslation:
        return
    trans_real.DjangoTranslation = NumeralsTranslation
    trans_real._translations.clear()
    trans_real._default = None
