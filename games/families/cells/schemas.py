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
from games.kit import Answer, AtTheTable, Channel, OptionValue, Request

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
    int,
    Field(ge=0, le=MAX_PLAYERS - 1, description="A seat in table order, from 0."),
    AtTheTable,
]
Seats = Annotated[list[Seat], Field(max_length=MAX_PLAYERS)]
Step = Annotated[int, Field(ge=0)]
Count = Annotated[int, Field(ge=0)]


# --- Moves ---------------------------------------------------------------------------


class CellsConfirmMove(Request):
    """I have seen my three cards (the first look, once)."""

    type: Literal["confirm"] = Field(description="The move's kind.")


class CellsSwapMove(Request):
    """Take one of my cards and another player's left or right card (the centre is
    protected: the engine refuses it with its own message)."""

    type: Literal["swap"] = Field(description="The move's kind.")
    mine: Slot = Field(description="Your slot, one of `legal[].mine`.")  # type: ignore[valid-type]
    player: Seat = Field(description="The other seat, one of `legal[].among`.")
    theirs: Slot = Field(  # type: ignore[valid-type]
        description="Their slot, one of `legal[].theirs` (never the centre)."
    )


class CellsExchangeMove(Request):
    """After seeing both cards of my swap: exchange them, or give each back."""

    type: Literal["exchange"] = Field(description="The move's kind.")
    exchange: bool = Field(
        description="true to exchange the two cards, false to give each back."
    )


class CellsMissionMove(Request):
    """Go on a mission with a partner (I draw three mission cards)."""

    type: Literal["mission"] = Field(description="The move's kind.")
    partner: Seat = Field(description="Your partner, one of `legal[].among`.")


class CellsPeekMove(Request):
    """Spend my turn looking at a card of mine that a swap has touched."""

    type: Literal["peek"] = Field(description="The move's kind.")
    slot: Slot = Field(  # type: ignore[valid-type]
        description="The slot of yours to look at, one of `legal[].slots`."
    )


class CellsDiscardMove(Request):
    """Discard a mission card of this colour (leader of three, partner of two)."""

    type: Literal["discard"] = Field(description="The move's kind.")
    card: Colour = Field(  # type: ignore[valid-type]
        description="The colour of the mission card to discard, one of `legal[].cards`."
    )


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
    """Confirm your first look."""

    type: Literal["confirm"] = Field(description="The move's kind.")


class CellsLegalSwap(Answer):
    """Swap one of `mine` with the `theirs` slot of a seat in `among`."""

    type: Literal["swap"] = Field(description="The move's kind.")
    mine: list[Slot] = Field(description="Your slots you may swap.")  # type: ignore[valid-type]
    among: Seats = Field(description="The seats you may swap with.")
    theirs: list[Slot] = Field(description="Their slots you may take.")  # type: ignore[valid-type]


class CellsLegalMission(Answer):
    """Go on a mission with a partner from `among`."""

    type: Literal["mission"] = Field(description="The move's kind.")
    among: Seats = Field(description="The seats you may take as partner.")


class CellsLegalPeek(Answer):
    """Look at one of your `slots`."""

    type: Literal["peek"] = Field(description="The move's kind.")
    slots: list[Slot] = Field(description="Your slots you may look at.")  # type: ignore[valid-type]


class CellsLegalExchange(Answer):
    """Exchange the two cards of your swap, or give each back."""

    type: Literal["exchange"] = Field(description="The move's kind.")
    choices: list[bool] = Field(description="The values `exchange` may take.")


class CellsLegalDiscard(Answer):
    """Discard a mission card of one of the `cards` colours."""

    type: Literal["discard"] = Field(description="The move's kind.")
    cards: list[Colour] = Field(description="The colours you may discard.")  # type: ignore[valid-type]


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

    left: Colour = Field(description="The left card's colour.")  # type: ignore[valid-type]
    centre: Colour = Field(description="The centre card's colour.")  # type: ignore[valid-type]
    right: Colour = Field(description="The right card's colour.")  # type: ignore[valid-type]


class CellsCell(Answer):
    """A player's cell: which slots a swap touched since they last saw them (public);
    the cards themselves only after the game."""

    seat: Seat
    touched: list[Slot] = Field(  # type: ignore[valid-type]
        description="The slots a swap has touched since the cell's owner last saw them."
    )
    cards: CellsCards | None = Field(
        description="The cards, after the game only; else null."
    )


class CellsTouch(Answer):
    """A public move on the cells: a swap (which two slots) or a peek (which slot)."""

    step: Step = Field(
        description="The step it was made at: a swap shows here as soon as it is made."
    )
    kind: Literal["swap", "peek"] = Field(description="A swap or a peek.")
    seat: Seat = Field(description="Who made it.")
    slot: Slot = Field(description="The slot of theirs it touched.")  # type: ignore[valid-type]
    player: Seat | None = Field(description="A swap's other seat; null for a peek.")
    theirs: Slot | None = Field(  # type: ignore[valid-type]
        description="A swap's slot of the other seat; null for a peek."
    )
    exchanged: bool | None = Field(description="Only after the game.")


class CellsMissionNow(Answer):
    """The mission being played."""

    number: Annotated[int, Field(ge=1)] = Field(description="The mission, from 1.")
    step: Step = Field(description="The step it began at.")
    leader: Seat
    partner: Seat
    stage: Literal["leader", "partner"] = Field(
        description="Who discards now: the leader, then the partner."
    )


class CellsMissionDone(Answer):
    """A finished mission and the card the partner turned up."""

    number: Annotated[int, Field(ge=1)] = Field(description="The mission, from 1.")
    step: Step = Field(description="The step it ended at.")
    leader: Seat
    partner: Seat
    card: Colour = Field(description="The colour the partner turned up.")  # type: ignore[valid-type]
    result: Literal["success", "fail"] = Field(description="Whether it succeeded.")


class CellsDeck(Answer):
    """The mission deck: counts only, ever."""

    cards: Count = Field(description="Mission cards left to draw.")
    discards: Count = Field(description="Mission cards discarded.")
    reshuffles: Count = Field(description="How often the discards were shuffled back.")


class CellsSeen(Answer):
    """A card on show to you."""

    seat: Seat
    slot: Slot = Field(description="The slot.")  # type: ignore[valid-type]
    card: Colour = Field(description="Its colour.")  # type: ignore[valid-type]


class CellsSwapShown(Answer):
    """The two cards of your swap, while you decide."""

    kind: Literal["swap"] = Field(description="A swap.")
    step: Step = Field(description="The step of the swap.")
    mine: CellsSeen
    theirs: CellsSeen


class CellsPeekShown(Answer):
    """The card you looked at, until the next move."""

    kind: Literal["peek"] = Field(description="A peek.")
    step: Step = Field(description="The step of the peek.")
    seat: Seat
    slot: Slot = Field(description="The slot looked at.")  # type: ignore[valid-type]
    card: Colour = Field(description="Its colour.")  # type: ignore[valid-type]


class CellsMe(Answer):
    """You: what is on show to you now, and nothing you must remember yourself."""

    seat: Seat
    side: Side | None = Field(  # type: ignore[valid-type]
        description="Only at the first look and after the end: the site never reminds."
    )
    role: Role | None = Field(description="Your role, when `side` is shown.")  # type: ignore[valid-type]
    confirmed: bool = Field(description="Whether you have confirmed your first look.")
    cards: CellsCards | None = Field(description="The first look, until you confirm.")
    touched: list[Slot] = Field(  # type: ignore[valid-type]
        description="Your slots a swap has touched since you last saw them."
    )
    swap: CellsSwapShown | None = Field(
        description="The two cards of your swap, while you decide."
    )
    peek: CellsPeekShown | None = Field(
        description="The card you looked at, until the next move."
    )
    hand: list[Colour] | None = Field(  # type: ignore[valid-type]
        description="Your mission cards while you decide."
    )
    channels: list[Channel] = Field(
        description="The chat channels you may write to now."
    )


class CellsOutcome(Answer):
    """Who won and why."""

    winner: Side = Field(description="The side that won.")  # type: ignore[valid-type]
    reason: Literal[REASONS] = Field(description="Why the game ended.")  # type: ignore[valid-type]


class CellsRole(Answer):
    """A seat's side and role by its final majority, at the end."""

    seat: Seat
    side: Side = Field(description="The side of its final majority.")  # type: ignore[valid-type]
    role: Role = Field(description="Its role.")  # type: ignore[valid-type]


class CellsView(Answer):
    """`engine.view(state, seat)` at a table of Cells: what your seat may be shown now
    and nothing else (not even your own cards, but at the moments the rules allow)."""

    ruleset: Ruleset = Field(description="The table's game: the view's shape.")  # type: ignore[valid-type]
    players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = Field(
        description="Seats at the table."
    )
    options: dict[str, OptionValue] = Field(
        description="The table's options, every one (defaults filled in)."
    )
    step: Step = Field(description="Actions applied so far.")
    phase: Literal[PHASES] = Field(description="What the table is doing now.")  # type: ignore[valid-type]
    first: Seat = Field(description="Who played first.")
    current: Seat = Field(description="Whose turn it is.")
    confirmed: Seats = Field(description="Who has confirmed their first look.")
    cells: list[CellsCell] = Field(description="Every seat's cell, in seat order.")
    touches: list[CellsTouch] = Field(
        description="Every swap and peek, in order, each as soon as it is made."
    )
    mission: CellsMissionNow | None = Field(
        description="The mission being played; else null."
    )
    missions: list[CellsMissionDone] = Field(
        description="Every finished mission, in order."
    )
    successes: Count = Field(description="Missions won.")
    failures: Count = Field(description="Missions lost.")
    deck: CellsDeck = Field(description="The mission deck, in counts.")
    me: CellsMe | None = Field(description="null for a spectator.")
    legal: list[CellsLegal] = Field(
        description="What you may do now; empty when nothing is asked of you."
    )
    waiting_for: Seats = Field(description="Whose move the table awaits.")
    outcome: CellsOutcome | None = Field(
        description="Who won and why, once the game is over; else null."
    )
    roles: list[CellsRole] | None = Field(
        description="Every seat's side and role, once the game is over; else null."
    )
