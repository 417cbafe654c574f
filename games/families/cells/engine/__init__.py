"""The ``cells`` game (docs/rules.md §2): Resistance for three or four players, each
leading a cell of three character cards whose majority colour is their side.

Importing this package registers the ``cells`` ruleset with :mod:`games.engine.core`.
See this folder's README for the actions, the view and the house decisions.
"""

from __future__ import annotations

from games.families.cells.engine.actions import (
    Action,
    Confirm,
    Discard,
    Exchange,
    Mission,
    Peek,
    Swap,
)
from games.families.cells.engine.errors import (
    AlreadyConfirmed,
    CardNotHeld,
    NoSwapPending,
    NotStarted,
    NotYourTurn,
    ProtectedCentre,
    SelfPartner,
    SwapWithYourself,
    UntouchedSlot,
)
from games.families.cells.engine.oracle import Leak, Secret
from games.families.cells.engine.rulesets import CELLS, HOUSE_DECISIONS, CellsRuleset
from games.families.cells.engine.sides import RESISTANCE, SIDES, SPY, Side
from games.families.cells.engine.state import (
    BLUE,
    RED,
    SLOTS,
    GameState,
    MissionRecord,
    Phase,
    Table,
    Touch,
)

__all__ = [
    "BLUE",
    "CELLS",
    "HOUSE_DECISIONS",
    "RED",
    "RESISTANCE",
    "SIDES",
    "SLOTS",
    "SPY",
    "Action",
    "AlreadyConfirmed",
    "CardNotHeld",
    "CellsRuleset",
    "Confirm",
    "Discard",
    "Exchange",
    "GameState",
    "Leak",
    "Mission",
    "MissionRecord",
    "NoSwapPending",
    "NotStarted",
    "NotYourTurn",
    "Peek",
    "Phase",
    "ProtectedCentre",
    "Secret",
    "SelfPartner",
    "Side",
    "Swap",
    "SwapWithYourself",
    "Table",
    "Touch",
    "UntouchedSlot",
]
