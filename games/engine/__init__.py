"""The rules engine: pure Python, no Django, deterministic from a seed.

The web layer uses only the names exported here.  A game is a :class:`GameSetup` (game
code, players, options, seed) plus the log of ``(seat, action)`` pairs; everything else
(the state, each seat's view, the outcome) is computed from those two by
:func:`setup`/:func:`replay` and :func:`apply`.  Each game family's own engine lives in
``games/families/<family>/engine/`` and registers its rulesets when imported; the
families are listed once in :mod:`games.families`.  See ``games/engine/README.md``.
"""

from __future__ import annotations

from importlib import import_module

from games.engine.core import (
    MODERATOR,
    BadOptionValue,
    BadTarget,
    Event,
    GameIsOver,
    GameSetup,
    IllegalAction,
    IllegalOption,
    IllegalSetup,
    MalformedAction,
    NotSeated,
    OptionSpec,
    OptionValue,
    Outcome,
    Ruleset,
    SetupError,
    UnknownOption,
    UnknownRuleset,
    Viewer,
    WrongPhase,
    WrongPlayerCount,
    apply,
    bot_action,
    events_for,
    final_roles,
    get_ruleset,
    legal_actions,
    outcome,
    parse_action,
    random_action,
    register,
    registered,
    replay,
    ruleset_codes,
    setup,
    start,
    turn,
    view,
    waiting_for,
)
from games.families import FAMILIES

__all__ = [
    "MODERATOR",
    "BadOptionValue",
    "BadTarget",
    "Event",
    "GameIsOver",
    "GameSetup",
    "IllegalAction",
    "IllegalOption",
    "IllegalSetup",
    "MalformedAction",
    "NotSeated",
    "OptionSpec",
    "OptionValue",
    "Outcome",
    "Ruleset",
    "SetupError",
    "UnknownOption",
    "UnknownRuleset",
    "Viewer",
    "WrongPhase",
    "WrongPlayerCount",
    "apply",
    "bot_action",
    "events_for",
    "final_roles",
    "get_ruleset",
    "legal_actions",
    "outcome",
    "parse_action",
    "random_action",
    "register",
    "registered",
    "replay",
    "ruleset_codes",
    "setup",
    "start",
    "turn",
    "view",
    "waiting_for",
]

for _family in FAMILIES:
    import_module(f"games.families.{_family}.engine")
