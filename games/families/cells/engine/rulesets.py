"""``cells`` as a ruleset: its data (players, options, house decisions) and the door to
its rules.

One game in this family today.  Whatever a variant would change (the deck, the number
of spy cards, the reshuffle) is a field here or a constant of :mod:`.rules`, never an
``if code == ...``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from games.engine.core import (
    BadOptionValue,
    Event,
    GameSetup,
    OptionSpec,
    OptionValue,
    Outcome,
    UnknownOption,
    register,
)
from games.engine.text import gettext_noop
from games.families.cells.engine import bots, rules, view
from games.families.cells.engine.actions import Action, parse_action
from games.families.cells.engine.sides import RESISTANCE, SIDES, SPY
from games.families.cells.engine.state import GameState

__all__ = ["CELLS", "HOUSE_DECISIONS", "CellsRuleset"]


@dataclass(frozen=True, slots=True)
class CellsRuleset:
    """The ``cells`` game as data, plus the door to its rules.

    The methods only hand over to the family's modules (:mod:`.rules`, :mod:`.view`,
    :mod:`.bots`); they exist so that :mod:`games.engine.core` can dispatch on
    ``state.ruleset`` without knowing this family.
    """

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

    def __reduce__(self) -> tuple[Any, ...]:
        # A pickled state points back at the registered ruleset, not a copy of it.
        return (_registered, (self.code,))

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, OptionValue]:
        """Every option with its default filled in; unknown names and values raise."""
        specs = {spec.name: spec for spec in self.options}
        chosen: dict[str, OptionValue] = {}
        for name, value in options.items():
            spec = specs.get(name)
            if spec is None:
                raise UnknownOption(option=str(name))
            if not spec.accepts(value):
                raise BadOptionValue(option=name, value=repr(value))
            chosen[name] = value
        return {spec.name: chosen.get(spec.name, spec.default) for spec in self.options}

    def setup(self, game_setup: GameSetup) -> GameState:
        return rules.deal(self, game_setup)

    def start(self, game_setup: GameSetup) -> tuple[GameState, list[Event]]:
        return rules.start(self, game_setup)

    def apply(
        self, state: GameState, seat: int, action: Mapping[str, Any] | Action
    ) -> tuple[GameState, list[Event]]:
        return rules.apply(state, seat, action)

    def replay(
        self, game_setup: GameSetup, log: Iterable[tuple[int, Any]]
    ) -> GameState:
        return rules.replay(self, game_setup, log)

    def parse_action(self, state: GameState, action: object) -> Action:
        return parse_action(action, state.table.players)

    def legal_actions(
        self, state: GameState, seat: int | None
    ) -> tuple[dict[str, Any], ...]:
        return rules.legal_actions(state, seat)

    def waiting_for(self, state: GameState) -> frozenset[int]:
        return rules.waiting_for(state)

    def turn(self, state: GameState) -> int:
        return state.turn

    def outcome(self, state: GameState) -> Outcome | None:
        return state.outcome

    def final_roles(self, state: GameState) -> tuple[tuple[str, str], ...]:
        """``(role, side)`` per seat, by the majority of its cards at the end."""
        return tuple(rules.roles_now(state))

    def view(
        self,
        state: GameState,
        seat: int | None,
        *,
        after: GameState | None = None,
        own: bool = True,
        memo: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return view.view(state, seat, after=after, own=own)

    def random_action(
        self, state: GameState, rng: Random
    ) -> tuple[int, dict[str, Any]]:
        return bots.random_action(state, rng)

    def bot_action(self, view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
        return bots.bot_action(view, rng)


def _registered(code: str) -> CellsRuleset:
    """The ruleset of this family registered under ``code`` (for unpickling)."""
    return _BY_CODE[code]


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
