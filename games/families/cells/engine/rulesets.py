"""``cells`` as a ruleset: its data (players, options, house decisions) and the door to
its rules.

One game in this family today.  Whatever a variant would change (the deck, the number
of spy cards, the reshuffle) is a field here or a constant of :mod:`.rules`, never an
``if code == ...``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import ClassVar

from games.engine.core import (
    OptionSpec,
    register,
)
from games.engine.rulesets import RulesetBase
from games.engine.text import gettext_noop
from games.families.cells.engine import bots, rules, view
from games.families.cells.engine.actions import Action, parse_action
from games.families.cells.engine.sides import RESISTANCE, SIDES, SPY
from games.families.cells.engine.state import GameState

__all__ = ["CELLS", "HOUSE_DECISIONS", "CellsRuleset"]


@dataclass(frozen=True, slots=True)
class CellsRuleset(RulesetBase):
    """The ``cells`` game as data, plus the door to its rules.

    :class:`~games.engine.rulesets.RulesetBase` hands each question to the family's
    modules (:mod:`.rules`, :mod:`.view`, :mod:`.bots`), so that
    :mod:`games.engine.core` can dispatch on ``state.ruleset`` without knowing this
    family.
    """

    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view
    bots: ClassVar[ModuleType] = bots

    code: str
    options: tuple[OptionSpec, ...]
    house_decisions: tuple[str, ...]
    chat_default: bool = True
    chat_optional: bool = True
    min_players: int = 3
    max_players: int = 4
    family: str = "cells"
    sides: tuple[str, ...] = SIDES
    role_codes: tuple[str, ...] = (RESISTANCE, SPY)
    has_moderator: bool = False

    def parse_action(self, state: GameState, action: object) -> Action:
        return parse_action(action, state.table.players)

    def final_roles(self, state: GameState) -> tuple[tuple[str, str], ...]:
        """``(role, side)`` per seat, by the majority of its cards at the end."""
        return tuple(rules.roles_now(state))


CHAT = OptionSpec(
    "chat",
    True,
    gettext_noop("Table chat"),
    gettext_noop("Players can write to each other in a chat during the game."),
)

HOUSE_DECISIONS = (
    gettext_noop(
        "The first player is chosen at random; then the turn passes to the next seat."
    ),
    gettext_noop(
        "Each player sees their three cards until they confirm; play starts once "
        "every player has confirmed."
    ),
    gettext_noop(
        "You may spend your turn looking at any card of yours that another player's "
        "swap has touched since you last saw it, exchanged or not; if several were "
        "touched, you choose which."
    ),
    gettext_noop("A look is public: everyone sees that you looked, and at which card."),
    gettext_noop(
        "The site shows you the two cards of a swap until you decide whether to "
        "exchange them, and a card you look at until the next move; never again "
        "after that."
    ),
    gettext_noop(
        "Your cards that another player's swap has touched since you last saw them "
        "are marked: the mark comes from the public record of swaps."
    ),
    gettext_noop(
        "When a leader is about to draw and fewer than three mission cards are left, "
        "the remaining cards and the discard pile are shuffled into a new deck; "
        "revealed mission cards stay out of it."
    ),
    gettext_noop(
        "Three successes: every player whose cards are mostly blue wins. Three "
        "failures: every player whose cards are mostly red wins."
    ),
    gettext_noop(
        "After the game every character card is turned up; the discarded mission "
        "cards and the undrawn mission deck stay hidden."
    ),
)
"""docs/rules.md §2's house decisions, in the order of its text and table."""

CELLS = CellsRuleset(code="cells", options=(CHAT,), house_decisions=HOUSE_DECISIONS)

_BY_CODE = {CELLS.code: CELLS}
register(CELLS)
