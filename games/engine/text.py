"""Marks the strings a player can read so Django's ``makemessages`` extracts them.

The engine must not import Django (it is replayed, fuzzed and benchmarked without it),
so it cannot call ``gettext`` itself.  Every error template, option label and house
decision goes through :func:`gettext_noop` here; the web layer translates the English
text at render time with ``gettext(value)``.
"""

from __future__ import annotations

__all__ = ["gettext_noop"]


def gettext_noop(message: str) -> str:
    """Return ``message`` unchanged; its only job is to be found by ``makemessages``."""
    return message
