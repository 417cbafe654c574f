"""The cells family's view and moves as pydantic models: the single source from which
the API and the JSON socket check a move, validate and serialise a view, and document
both (``engine/README.md``, "Actions and legal moves" and "The view").

Model names are the OpenAPI document's component names, hence the family's prefix.
Codes are read from the engine where it names them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, RootModel

from games import engine
from games.kit import Answer, Channel, OptionValue, Request

RULESETS = tuple(
    code
    for code in engine.ruleset_codes()
    if engine.get_ruleset(code).family == "cells"
)
_rulesets = [engine.get_ruleset(code) for code in RULESETS]
MIN_PLAYERS = min(ruleset.min_players for ruleset in _rulesets)
MAX_PLAYERS = max(ruleset.max_players for ruleset in _rulesets)
SIDES = tuple(dict.fromkeys(side for r in _rulesets for side in r.sides))
ROLES = ("resistance", "spy")
SLOTS = ("left", "centre", "right")
COLOURS = ("blue", "red")
PHASES = ("look", "turn", "exchange", "leader", "partner", "over")
REASONS = ("three_successes", "three_failures")

Ruleset = Literal[RULESETS]  # type: ignore[valid-type]
Side = Literal[SIDES]  # type: ignore[valid-type]
Role = Literal[ROLES]  # type: ignore[valid-type]
Slot = Literal[SLOTS]  # type: ignore[valid-type]
Colour = Literal[COLOURS]  # type: ignore[valid-type]
Seat = Annotated[
    int, Field(ge=0, le=MAX_PLAYERS - 1, description="A seat in table order, from 0.")
]
Seats = Annotated[list[Seat], Field(max_length=MAX_PLAYERS)]
Step = Annotated[int, Field(ge=0)]
Count = Annotated[int, Field(ge=0)]


# --- Moves ---------------------------------------------------------------------------


class CellsConfirmMove(Request):
    """I have seen my three cards (the first look, once)."""

    type: Literal["confirm"]


class CellsSwapMove(Request):
    """Take one of my cards and another player's left or right card (the centre is
    protected: the engine refuses it with its own message)."""

    type: Literal["swap"]
    mine: Slot  # type: ignore[valid-type]
    player: Seat
    theirs: Slot  # type: ignore[valid-type]


class CellsExchangeMove(Request):
    """After seeing both cards of my swap: exchange them, or give each back."""

    type: Literal["exchange"]
    exchange: bool


class CellsMissionMove(Request):
    """Go on a mission with a partner (I draw three mission cards)."""

    type: Literal["mission"]
    partner: Seat


class CellsPeekMove(Request):
    """Spend my turn looking at a card of mine that a swap has touched."""

    type: Literal["peek"]
    slot: Slot  # type: ignore[valid-type]


class CellsDiscardMove(Request):
    """Discard a mission card of this colour (leader of three, partner of two)."""

    type: Literal["discard"]
    card: Colour  # type: ignore[valid-type]


class CellsMove(
    RootModel[
        Annotated[
            CellsConfirmMove
            | CellsSwapMove
            | CellsExchangeMove
            | CellsMissionMove
            | CellsPeekMove
            | CellsDiscardMove,
            Field(discriminator="type"),
        ]
    ]
):
    """A move at a table of Cells."""


# --- What a seat may do now ----------------------------------------------------------


class CellsLegalConfirm(Answer):
    type: Literal["confirm"]


class CellsLegalSwap(Answer):
    """Swap one of `mine` with the `theirs` slot of a seat in `among`."""

    type: Literal["swap"]
    mine: list[Slot]  # type: ignore[valid-type]
    among: Seats
    theirs: list[Slot]  # type: ignore[valid-type]


class CellsLegalMission(Answer):
    type: Literal["mission"]
    among: Seats


class CellsLegalPeek(Answer):
    type: Literal["peek"]
    slots: list[Slot]  # type: ignore[valid-type]


class CellsLegalExchange(Answer):
    type: Literal["exchange"]
    choices: list[bool]


class CellsLegalDiscard(Answer):
    type: Literal["discard"]
    cards: list[Colour]  # type: ignore[valid-type]


CellsLegal = Annotated[
    CellsLegalConfirm
    | CellsLegalSwap
    | CellsLegalMission
    | CellsLegalPeek
    | CellsLegalExchange
    | CellsLegalDiscard,
    Field(discriminator="type"),
]


# --- The view ------------------------------------------------------------------------


class CellsCards(Answer):
    """A cell's three character cards."""

    left: Colour  # type: ignore[valid-type]
    centre: Colour  # type: ignore[valid-type]
    right: Colour  # type: ignore[valid-type]


class CellsCell(Answer):
    """A player's cell: which slots a swap touched since they last saw them (public);
    the cards themselves only after the game."""

    seat: Seat
    touched: list[Slot]  # type: ignore[valid-type]
    cards: CellsCards | None


class CellsTouch(Answer):
    """A public move on the cells: a swap (which two slots) or a peek (which slot)."""

    step: Step
    kind: Literal["swap", "peek"]
    seat: Seat
    slot: Slot  # type: ignore[valid-type]
    player: Seat | None
    theirs: Slot | None  # type: ignore[valid-type]
    exchanged: bool | None = Field(description="Only after the game.")


class CellsMissionNow(Answer):
    """The mission being played."""

    number: Annotated[int, Field(ge=1)]
    step: Step
    leader: Seat
    partner: Seat
    stage: Literal["leader", "partner"]


class CellsMissionDone(Answer):
    """A finished mission and the card the partner turned up."""

    number: Annotated[int, Field(ge=1)]
    step: Step
    leader: Seat
    partner: Seat
    card: Colour  # type: ignore[valid-type]
    result: Literal["success", "fail"]


class CellsDeck(Answer):
    """The mission deck: counts only, ever."""

    cards: Count
    discards: Count
    reshuffles: Count


class CellsSeen(Answer):
    """A card on show to you."""

    seat: Seat
    slot: Slot  # type: ignore[valid-type]
    card: Colour  # type: ignore[valid-type]


class CellsSwapShown(Answer):
    """The two cards of your swap, while you decide."""

    kind: Literal["swap"]
    step: Step
    mine: CellsSeen
    theirs: CellsSeen


class CellsPeekShown(Answer):
    """The card you looked at, until the next move."""

    kind: Literal["peek"]
    step: Step
    seat: Seat
    slot: Slot  # type: ignore[valid-type]
    card: Colour  # type: ignore[valid-type]


class CellsMe(Answer):
    """You: what is on show to you now, and nothing you must remember yourself."""

    seat: Seat
    side: Side | None = Field(  # type: ignore[valid-type]
        description="Only at the first look and after the end: the site never reminds."
    )
    role: Role | None  # type: ignore[valid-type]
    confirmed: bool
    cards: CellsCards | None = Field(description="The first look, until you confirm.")
    touched: list[Slot]  # type: ignore[valid-type]
    swap: CellsSwapShown | None
    peek: CellsPeekShown | None
    hand: list[Colour] | None = Field(  # type: ignore[valid-type]
        description="Your mission cards while you decide."
    )
    channels: list[Channel]


class CellsOutcome(Answer):
    winner: Side  # type: ignore[valid-type]
    reason: Literal[REASONS]  # type: ignore[valid-type]


class CellsRole(Answer):
    """A seat's side and role by its final majority, at the end."""

    seat: Seat
    side: Side  # type: ignore[valid-type]
    role: Role  # type: ignore[valid-type]


class CellsView(Answer):
    """`engine.view(state, seat)` at a table of Cells: what your seat may be shown now
    and nothing else (not even your own cards, but at the moments the rules allow)."""

    ruleset: Ruleset  # type: ignore[valid-type]
    players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
    options: dict[str, OptionValue]
    step: Step
    phase: Literal[PHASES]  # type: ignore[valid-type]
    first: Seat
    current: Seat
    confirmed: Seats
    cells: list[CellsCell]
    touches: list[CellsTouch]
    mission: CellsMissionNow | None
    missions: list[CellsMissionDone]
    successes: Count
    failures: Count
    deck: CellsDeck
    me: CellsMe | None = Field(description="null for a spectator.")
    legal: list[CellsLegal]
    waiting_for: Seats
    outcome: CellsOutcome | None
    roles: list[CellsRole] | None
