"""Lists of players' names inside a sentence, as a right-to-left reader reads them.

In a Persian sentence, "Катя, Аня, Егор" would come out with its commas on the wrong
side of the names: the bidi algorithm sees one left-to-right run of Cyrillic letters
and commas. Each name is therefore isolated (FSI … PDI, the plain-text twin of
<bdi>) and the names are joined by the language's own comma («، »). A left-to-right
language keeps its plain ", " and its names as typed: there the run is already in
the sentence's direction.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import translation

FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"


def list_separator() -> str:
    """What goes between two items of a list in the active language."""
    return "، " if translation.get_language_bidi() else ", "


def isolated(name: str) -> str:
    """A name that keeps its own direction inside a right-to-left sentence."""
    if not translation.get_language_bidi():
        return name
    return f"{FIRST_STRONG_ISOLATE}{name}{POP_DIRECTIONAL_ISOLATE}"


def names_list(names: Iterable[str]) -> str:
    """Names as one list of the active language (see the module notes)."""
    return list_separator().join(isolated(name) for name in names)
