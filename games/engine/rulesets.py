"""What every family's ruleset does the same way: check a table's options, pickle as
its code, replay a log, and hand each question of :class:`~games.engine.core.Ruleset`
to the family's own modules.

A family's ruleset is a frozen dataclass with the game's data (its ``code``,
``options``...) that subclasses :class:`RulesetBase` and names three modules:
``rules`` (``deal(ruleset, setup)``, ``start(ruleset, setup)``, ``apply(state, seat,
action)``, ``legal_actions(state, seat)``, ``waiting_for(state)``), ``views``
(``view(state, seat, after=, own=)``) and ``bots`` (``random_action(state, rng)``,
``bot_action(view, rng)``). Its states carry ``ruleset``, ``turn`` and ``outcome``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from random import Random
from types import ModuleType
from typing import Any, ClassVar

from games.engine.core import (
    BadOptionValue,
    Event,
    GameSetup,
    IllegalAction,
    MalformedAction,
    OptionSpec,
    OptionValue,
    Outcome,
    UnknownOption,
    get_ruleset,
)

__all__ = ["RulesetBase"]


class RulesetBase:
    """The shared half of a ruleset; the subclass gives the data and the modules."""

    __slots__ = ()

    code: str
    options: tuple[OptionSpec, ...]
    rules: ClassVar[ModuleType]
    views: ClassVar[ModuleType]
    bots: ClassVar[ModuleType]

    def __reduce__(self) -> tuple[Any, ...]:
        # A pickled state points back at the registered ruleset, not a copy of it.
        return (get_ruleset, (self.code,))

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

    def setup(self, game_setup: GameSetup) -> Any:
        return self.rules.deal(self, game_setup)

    def start(self, game_setup: GameSetup) -> tuple[Any, list[Event]]:
        started: tuple[Any, list[Event]] = self.rules.start(self, game_setup)
        return started

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]:
        applied: tuple[Any, list[Event]] = self.rules.apply(state, seat, action)
        return applied

    def replay(self, game_setup: GameSetup, log: Iterable[Any]) -> Any:
        """Deal again and apply every ``(seat, action)`` of the log in order; a
        refused entry raises with its ``step``."""
        state = self.setup(game_setup)
        for index, entry in enumerate(log):
            try:
                seat, action = entry
                state, _ = self.apply(state, seat, action)
            except IllegalAction as error:
                error.step = index
                raise
            except (TypeError, ValueError):
                malformed = MalformedAction(
                    detail="a log entry is a (seat, action) pair"
                )
                malformed.step = index
                raise malformed from None
        return state

    def legal_actions(self, state: Any, seat: int | None) -> tuple[dict[str, Any], ...]:
        legal: tuple[dict[str, Any], ...] = self.rules.legal_actions(state, seat)
        return legal

    def waiting_for(self, state: Any) -> frozenset[int]:
        waiting: frozenset[int] = self.rules.waiting_for(state)
        return waiting

    def turn(self, state: Any) -> int:
        turn: int = state.turn
        return turn

    def outcome(self, state: Any) -> Outcome | None:
        outcome: Outcome | None = state.outcome
        return outcome

    def view(
        self,
        state: Any,
        seat: int | None,
        *,
        after: Any = None,
        own: bool = True,
        memo: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        shown: dict[str, Any] = self.views.view(state, seat, after=after, own=own)
        return shown

    def random_action(self, state: Any, rng: Random) -> tuple[int, dict[str, Any]]:
        move: tuple[int, dict[str, Any]] = self.bots.random_action(state, rng)
        return move

    def bot_action(self, view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
        move: dict[str, Any] = self.bots.bot_action(view, rng)
        return move
