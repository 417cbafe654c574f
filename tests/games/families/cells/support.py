"""What the cells web tests share: the leak oracle's words, and a table started and
played through the services."""

from __future__ import annotations

from django.utils import translation

from games.families.cells.words import WORDS


def secret_words() -> dict[str, list[str]]:
    """Display strings of every side, role and card colour, in both languages: a
    seat's element must not carry the words of that seat's secret side or role, and
    a card's element (``data-seat`` + ``data-slot``) not the word of its secret
    colour.

    A role name found inside a side name is left out (the text search would read a
    known side as the role); the ``data-role`` marks still show every role stated.
    """
    words: dict[str, list[str]] = {}
    for language in ("ru", "en"):
        with translation.override(language):
            sides = [str(WORDS.good), str(WORDS.evil)]
            for code, text in [*WORDS.sides.items(), *WORDS.colours.items()]:
                words.setdefault(code, []).append(str(text))
            for code, text in WORDS.roles.items():
                name = str(text)
                if not any(name.casefold() in side.casefold() for side in sides):
                    words.setdefault(code, []).append(name)
    return words
