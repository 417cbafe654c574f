"""The state of a ``cells`` game: immutable values, nothing but data.

The character cards lie in one flat tuple, three per seat in slot order: seat ``s``
holds positions ``3*s`` (left), ``3*s + 1`` (centre) and ``3*s + 2`` (right).  A move
makes a new :class:`GameState` with :func:`evolve`, which copies the instance
dictionary instead of going through ``dataclasses.replace`` (that re-runs ``__init__``
and costs several times more; the benchmark plays a few thousand games a second).
What the deal fixed for the whole game sits in one shared :class:`Table`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from games.engine.core import GameSetup, Outcome
from games.engine.states import evolve as evolve

if TYPE_CHECKING:
    from games.families.cells.engine.rulesets import CellsRuleset

__all__ = [
    "BLUE",
    "CENTRE",
    "COLOURS",
    "LEFT",
    "PEEK",
    "RED",
    "RIGHT",
    "SLOTS",
    "SWAP",
    "GameState",
    "MissionRecord",
    "Phase",
    "Table",
    "Touch",
    "evolve",
    "position",
]

BLUE = "blue"
"""A resistance character card; a successful mission card."""
RED = "red"
"""A spy character card; a failed mission card."""
COLOURS = (BLUE, RED)

SLOTS = ("left", "centre", "right")
"""A player's three slots, in the order they lie on the table."""
LEFT, CENTRE, RIGHT = 0, 1, 2

SWAP = "swap"
PEEK = "peek"


def position(seat: int, slot: int) -> int:
    """Where the card in ``seat``'s ``slot`` lies in :attr:`GameState.cards`."""
    return 3 * seat + slot


class Phase(StrEnum):
    """What the table is doing now; the value is what the view shows."""

    LOOK = "look"
    """Every player looks at their three cards and confirms."""
    TURN = "turn"
    """The current player chooses a swap, a mission or a peek."""
    EXCHANGE = "exchange"
    """The swapper has seen both cards and decides whether to exchange them."""
    LEADER = "leader"
    """The mission's leader holds three mission cards and discards one."""
    PARTNER = "partner"
    """The partner holds the two passed cards, discards one, reveals the other."""
    OVER = "over"


class Touch(NamedTuple):
    """One swap or peek: public but for ``exchanged`` and ``seen``.

    Everyone sees who touched which slots with whom; whether a swap exchanged the
    cards and which cards the player saw stay hidden until the game is over.
    """

    kind: str
    """:data:`SWAP` or :data:`PEEK`."""
    step: int
    """The table's step once this move was made (the first move of a game is step 1)."""
    seat: int
    """Who swapped or peeked."""
    slot: int
    """The slot of their own that they took or looked at."""
    other: int | None
    """Swap: the other player; peek: ``None``."""
    other_slot: int | None
    """Swap: the other player's slot (never the centre); peek: ``None``."""
    exchanged: bool | None
    """Swap: the decision, ``None`` while it is pending; peek: ``None``."""
    seen: tuple[str, ...]
    """The cards the player saw: swap (their own, the other player's), peek (one)."""


class MissionRecord(NamedTuple):
    """One mission, in progress or done.  ``drawn`` and the two discards are kept
    only for the oracle and the tests: no view ever shows them, not even after the
    game."""

    number: int
    step: int
    """The step at which the leader chose the partner."""
    leader: int
    partner: int
    reshuffled: bool
    """Whether the deck was reshuffled just before this mission's draw."""
    drawn: tuple[str, ...]
    leader_discard: str | None
    partner_discard: str | None
    card: str | None
    """The revealed card, ``None`` until the partner reveals it."""


@dataclass(frozen=True, slots=True)
class Table:
    """What the deal fixed for the whole game."""

    ruleset: CellsRuleset
    setup: GameSetup
    players: int
    first: int
    """The first player (random: a house decision)."""
    chat: bool


@dataclass(frozen=True)
class GameState:
    """Where a game stands.  Compare two states with ``==``: replay relies on it."""

    table: Table
    step: int
    turn: int
    """The step at which the decision now asked of the table began."""
    phase: Phase
    current: int
    """Whose turn it is (during the first look: who will play first)."""
    confirmed: tuple[bool, ...]
    """Per seat: has confirmed the first look."""
    cards: tuple[str, ...]
    """The character cards, three per seat: see :func:`position`."""
    touched: tuple[bool, ...]
    """Per position: another player's swap touched it since its holder last saw it.
    It follows from the public record of swaps and peeks alone."""
    touches: tuple[Touch, ...]
    """Every swap and peek, in order; during an exchange the pending swap is last."""
    mission: MissionRecord | None
    """The mission in progress (leader and partner phases), else ``None``."""
    hand: tuple[str, ...]
    """The mission cards held by whoever decides now: three, then two."""
    missions: tuple[MissionRecord, ...]
    """Finished missions, in order."""
    deck: tuple[str, ...]
    """The undrawn mission deck, top first."""
    discards: tuple[str, ...]
    """The face-down discard pile since the last reshuffle."""
    reshuffles: int
    successes: int
    failures: int
    outcome: Outcome | None

    @property
    def ruleset(self) -> CellsRuleset:
        """The ruleset; the module-level API dispatches on it."""
        return self.table.ruleset

    @property
    def players(self) -> int:
        return self.table.players
