"""The game families the site plays: one folder each, registered here once.

A family is a Django app of its own (``games.families.<name>``) with a pure rules
engine in ``engine/`` (no Django, ever).  This list is the one registration: the
engine registry imports each family's ``engine`` package (which registers its rulesets),
and the settings install each family as an app.  See ``docs/adding-a-game.md``.
"""

from __future__ import annotations

FAMILIES: tuple[str, ...] = ("resistance", "cells", "mafia")
"""Family folder names, in the order their games are offered."""
