"""What a display name may look like, and the one way names are compared.

A display name is how a player is known at the table, so two names that look the
same must count as the same: names are NFKC-normalised (full-width letters, ligatures
and composed accents collapse to one spelling), runs of spaces become one, and
invisible characters (zero-width spaces, direction marks, control codes) are refused
because they would let "Оля" and "Оля\u200b" sit at one table.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Unicode categories that print nothing: controls, format marks (zero-width joiners,
# bidi overrides), unassigned and private-use code points, and line/paragraph breaks.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Zl", "Zp"})


def normalize_display_name(value: str) -> str:
    """The canonical spelling of a display name: NFKC, single spaces, no edge spaces."""
    return " ".join(unicodedata.normalize("NFKC", value).split())


def validate_display_name(value: str) -> None:
    """Refuse names that nobody can read or tell apart from another."""
    if any(unicodedata.category(char) in _INVISIBLE_CATEGORIES for char in value):
        raise ValidationError(
            _("A display name cannot contain invisible or control characters."),
            code="invisible",
        )
    if not any(char.isalnum() for char in value):
        raise ValidationError(
            _("A display name needs at least one letter or digit."),
            code="no_letters",
        )
