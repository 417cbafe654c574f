"""SQLite plumbing: make ``LOWER()`` and ``UPPER()`` understand more than ASCII.

Display names are unique regardless of case through a ``Lower("display_name")``
constraint (see ``accounts.models``). PostgreSQL (with a UTF-8 ctype) folds Cyrillic
correctly, but SQLite's built-in ``lower()`` only folds A-Z, so "Оля" and "ОЛЯ" would
both be accepted on a developer's machine and in the SQLite half of CI. Registering
Python's own case mapping under the same names, on every SQLite connection Django
opens, makes the constraint and every ``Lower()``/``Upper()`` query agree across both
databases. The functions are deterministic, as SQLite requires for an index expression.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def _upper(value: Any) -> Any:
    return value.upper() if isinstance(value, str) else value


def sqlite_unicode_case(
    sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any
) -> None:
    """``connection_created`` receiver: replace SQLite's ASCII-only case functions."""
    if connection.vendor != "sqlite":
        return
    raw = connection.connection
    raw.create_function("lower", 1, _lower, deterministic=True)
    raw.create_function("upper", 1, _upper, deterministic=True)
