"""The mafia family's view and moves as pydantic models, for the API and the JSON
socket (``engine/README.md``, "Actions and legal moves" and "The view").

The view's top-level keys are listed exactly; its nested records are described as
JSON objects (the engine's README is their reference). Moves are checked strictly.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, RootModel, SerializerFunctionWrapHandler, model_serializer

from games.kit import Answer, OptionValue, Request

Seat = Annotated[int, Field(ge=0, le=9, description="A seat in table order, from 0.")]
Target = Annotated[int, Field(ge=-1, le=9)]
Record = dict[str, Any]


class MafiaView(Answer):
    """`engine.view(state, seat)` at a table of «پارتیزان»: what your seat (or the
    moderator, seat -1) may be shown now and nothing else."""

    ruleset: Literal["mafia_partisan"]
    players: Annotated[int, Field(ge=10, le=10)]
    options: dict[str, OptionValue]
    step: Annotated[int, Field(ge=0)]
    phase: Literal["night", "dawn", "day", "midday", "vote", "over"]
    night: Record | None
    day: Record | None
    seats: list[Record]
    inquiries_left: int
    mornings: list[Record]
    inquiries: list[Record]
    middays: list[Record]
    vote: Record | None
    votes: list[Record]
    timer: Record | None
    discipline: list[Record]
    me: Record | None = Field(description="null for a spectator.")
    legal: list[Record]
    waiting_for: list[Target]
    outcome: Record | None
    roles: list[Record] | None
    ledger: Record | None = Field(description="the moderator's; everyone's after.")


class MafiaNightMove(Request):
    """A night step (or a midday sleep): the awake role's `choose`, everyone else's
    `tap` with the same fields."""

    type: Literal["choose", "tap"]
    number: Annotated[int, Field(ge=1, le=5)] | None = None
    target: Seat | None = None
    targets: Annotated[list[Seat], Field(min_length=2, max_length=2)] | None = None
    mode: Literal["shoot", "slaughter", "recruit", "pass"] | None = None
    guess: str | None = None

    @model_serializer(mode="wrap")
    def _sent_keys_only(self, handler: SerializerFunctionWrapHandler) -> Record:
        """The move the engine is handed has exactly the keys that were sent (a
        null ``target`` sent to skip included): a step's form takes its own keys
        and no other, not even as null, so the fields a program left out must not
        come back as ``None``."""
        dumped: Record = handler(self)
        sent = self.model_fields_set | {"type"}
        return {key: value for key, value in dumped.items() if key in sent}


class MafiaVoteMove(Request):
    type: Literal["vote"]
    candidates: Annotated[list[Seat], Field(max_length=10)]


class MafiaBareMove(Request):
    """The moderator's moves without fields."""

    type: Literal["confirm_night", "inquiry", "midday", "close_vote", "end_day"]


class MafiaTimerMove(Request):
    type: Literal["timer"]
    kind: Literal["confer", "colonel_speech", "defence"]
    subject: Seat | None


class MafiaStartVoteMove(Request):
    type: Literal["start_vote"]
    vote: Literal["defence", "exit"]


class MafiaDisciplineMove(Request):
    type: Literal["warn", "kick"]
    target: Seat


class MafiaMove(
    RootModel[
        Annotated[
            MafiaNightMove
            | MafiaVoteMove
            | MafiaBareMove
            | MafiaTimerMove
            | MafiaStartVoteMove
            | MafiaDisciplineMove,
            Field(union_mode="left_to_right"),
        ]
    ]
):
    """One move: a player's or the moderator's (seat -1)."""
