"""The mafia family's view and moves as pydantic models, for the API and the JSON
socket (``engine/README.md``, "Actions and legal moves" and "The view").

The view's top-level keys are listed exactly; its nested records are described as
JSON objects (the engine's README is their reference). Moves are checked strictly.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, RootModel, SerializerFunctionWrapHandler, model_serializer

from games.kit import Answer, AtTheTable, OptionValue, Request

Seat = Annotated[
    int,
    Field(ge=0, le=9, description="A seat in table order, from 0."),
    AtTheTable,
]
Target = Annotated[int, Field(ge=-1, le=9)]
Record = dict[str, Any]


class MafiaView(Answer):
    """`engine.view(state, seat)` at a table of «پارتیزان»: what your seat (or the
    moderator, seat -1) may be shown now and nothing else."""

    ruleset: Literal["mafia_partisan"] = Field(
        description="The table's game: the view's shape."
    )
    players: Annotated[int, Field(ge=10, le=10)] = Field(
        description="Seats at the table (always ten)."
    )
    options: dict[str, OptionValue] = Field(
        description="The table's options, every one (defaults filled in)."
    )
    step: Annotated[int, Field(ge=0)] = Field(description="Actions applied so far.")
    phase: Literal["night", "dawn", "day", "midday", "vote", "over"] = Field(
        description="What the table is doing now."
    )
    night: Record | None = Field(
        description="The night (and its dawn): `number`, `intro`, the current "
        "`step` and its `form` (what a tap or a choice takes); null "
        "by day."
    )
    day: Record | None = Field(
        description="The day: `number`, the inquiry, the colonel's `midday`, a "
        "midday sleep's `sleep_step` and `sleep_form`, the `defended`"
        " seats and whether the defence or exit vote is on; null at "
        "night."
    )
    seats: list[Record] = Field(
        description="Every seat, in order: `seat`, `in_game`, `left` (when, and "
        "how as said to the table), `warnings`, and `kicked`: true "
        "from a kick until the kicked player has left (at the next "
        "night), false after that (his `left.how` then says he was "
        "kicked)."
    )
    inquiries_left: int = Field(description="Inquiries the table may still call.")
    mornings: list[Record] = Field(
        description="Every morning's announcement, in order."
    )
    inquiries: list[Record] = Field(
        description="Every inquiry's reading, in order (as the `inquiry_reading` "
        "option says)."
    )
    middays: list[Record] = Field(
        description="Every finished midday of the colonel: `day`, `stage`, "
        "`named`, `target`, `left`."
    )
    vote: Record | None = Field(
        description="The vote in progress (`kind`, `candidates`, `voters`, "
        "`threshold`, `ballots`, `counts`, `chosen`); else null."
    )
    votes: list[Record] = Field(description="Every finished vote, in the same shape.")
    timer: Record | None = Field(
        description="The timer running: `kind`, `subject`, `seconds`, `step`; "
        "else null."
    )
    discipline: list[Record] = Field(
        description="Every warning and kick: `day`, `seat`, `kind`."
    )
    me: Record | None = Field(description="null for a spectator.")
    legal: list[Record] = Field(
        description="What you may do now; empty when nothing is asked of you."
    )
    waiting_for: list[Target] = Field(
        description="Whose move the table awaits: during a night step or a midday"
        " sleep a player sees only himself until he has acted, a "
        "spectator nobody; else (and the moderator always) everyone "
        "awaited."
    )
    outcome: Record | None = Field(
        description="`winner` (`citizens` or `mafia`) and `reason`, once the game"
        " is over; else null."
    )
    roles: list[Record] | None = Field(
        description="Every seat's `side` and `role`, once the game is over; else null."
    )
    ledger: Record | None = Field(
        description="The moderator's record of the game (roles, exits with their "
        "causes, the recruit, `recruitment_used`, `slaughters_used`, the nights' "
        "choices...); everyone's after the end, null for the others before it. A "
        "recruitment, a slaughter and its count show here (and in the views that "
        "show them) as soon as the move is made, not when the night resolves."
    )


class MafiaNightMove(Request):
    """A night step (or a midday sleep): the awake role's `choose`, everyone else's
    `tap` with the same fields."""

    type: Literal["choose", "tap"] = Field(
        description="`choose` for the awake role's real choice, `tap` for "
        "everyone else at the same step (same fields)."
    )
    number: Annotated[int, Field(ge=1, le=5)] | None = Field(
        default=None,
        description="The radio operator's code, 1 to 5, where the step's form "
        "asks for it.",
    )
    target: Seat | None = Field(
        default=None,
        description="A seat, where the step's form asks for one; null to skip "
        "where allowed.",
    )
    targets: list[Seat] | None = Field(
        default=None,
        description="The colonel's two seats; another count is refused with "
        "`wrong_count`.",
    )
    mode: Literal["shoot", "slaughter", "recruit", "pass"] | None = Field(
        default=None,
        description="The General's action: `shoot`, `slaughter`, `recruit`, or "
        "`pass` where the table allows it.",
    )
    guess: str | None = Field(
        default=None, description="The role guessed, for a slaughter (a role code)."
    )

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
    """A ballot in the vote in progress."""

    type: Literal["vote"] = Field(description="The move's kind.")
    candidates: Annotated[list[Seat], Field(max_length=10)] = Field(
        description="The seats you vote for (at most one with the `ballot` option"
        " set to `one`)."
    )


class MafiaBareMove(Request):
    """The moderator's moves without fields."""

    type: Literal["confirm_night", "inquiry", "midday", "close_vote", "end_day"] = (
        Field(
            description="The moderator's move: confirm the night's resolution, call "
            "the inquiry, start the midday, close the vote, end the day."
        )
    )


class MafiaTimerMove(Request):
    """The moderator starts a timer."""

    type: Literal["timer"] = Field(description="The move's kind.")
    kind: Literal["confer", "colonel_speech", "defence"] = Field(
        description="Which timer the moderator starts."
    )
    subject: Seat | None = Field(
        description="The seat that speaks; null where the timer has none."
    )


class MafiaStartVoteMove(Request):
    """The moderator opens the defence or the exit vote."""

    type: Literal["start_vote"] = Field(description="The move's kind.")
    vote: Literal["defence", "exit"] = Field(
        description="Which vote the moderator opens."
    )


class MafiaDisciplineMove(Request):
    """The moderator warns or kicks a player (by day)."""

    type: Literal["warn", "kick"] = Field(description="The move's kind.")
    target: Seat = Field(description="The seat warned or kicked.")


class MafiaMove(
    RootModel[
        Annotated[
            MafiaNightMove
            | MafiaVoteMove
            | MafiaBareMove
            | MafiaTimerMove
            | MafiaStartVoteMove
            | MafiaDisciplineMove,
            Field(discriminator="type"),
        ]
    ]
):
    """One move: a player's or the moderator's (seat -1)."""
