"""Reading accounts: the questions forms and services ask before they write.

Both comparisons fold case in the database with ``LOWER()`` on each side, the same
expression the display-name constraint indexes, so a check here and the constraint
can never disagree (``__iexact`` compiles to ``LIKE`` on SQLite, which folds only
ASCII; see ``accounts.db``).
"""

from __future__ import annotations

from django.db.models import QuerySet, Value
from django.db.models.functions import Lower

from accounts.models import User


def _others(excluding: int | None) -> QuerySet[User]:
    users = User.objects.all()
    return users.exclude(pk=excluding) if excluding is not None else users


def display_name_taken(*, display_name: str, excluding: int | None = None) -> bool:
    """Whether another user already goes by this name, in any case."""
    return (
        _others(excluding)
        .alias(folded=Lower("display_name"))
        .filter(folded=Lower(Value(display_name)))
        .exists()
    )


def username_taken(*, username: str, excluding: int | None = None) -> bool:
    """Whether this log-in name exists in any case: "Olga" would be confused with
    "olga" in a public profile address."""
    return (
        _others(excluding)
        .alias(folded=Lower("username"))
        .filter(folded=Lower(Value(username)))
        .exists()
    )


def profile_users() -> QuerySet[User]:
    """Users whose public profile can be shown: deactivated accounts are hidden."""
    return User.objects.filter(is_active=True)
