"""The pydantic pieces a family's schemas are made of (``Programs``): the base of
what the site sends, the base of what a program sends, and the shared field types."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo
from pydantic_core import PydanticCustomError


class Answer(BaseModel):
    """What the site sends: every key listed, none beyond."""

    model_config = ConfigDict(extra="forbid")


class Request(BaseModel):
    """What a program sends: checked strictly, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", strict=True)


CHANNEL_PATTERN = "^[a-z_]{1,16}$"
Channel = Annotated[
    str,
    Field(
        pattern=CHANNEL_PATTERN,
        description="A chat channel: `table`, or a side's private channel named by "
        "your view's `me.channels`.",
    ),
]
OptionValue = bool | int | str

SEATS = "seats"
"""The key of the table's seat count in a move's validation context."""
NOT_AT_THE_TABLE = "seat_not_at_table"
"""The error type of a seat number that is not at the table (its context: the
table's seats, ``low`` to ``high``)."""


def _at_the_table(value: Any, info: ValidationInfo) -> Any:
    """A seat number checked against the table the move is sent to. The site
    validates a program's move with the table's seat count in the context
    (``{"seats": n}``): a whole number that is no seat of that table (7 at a table
    of five, 12, -1) is refused as one fact, naming the table's seats, whatever
    bound of the schema it also breaks. Anything else (a text, a boolean) goes on
    to the schema's own checks, and without a context (a view, the document) only
    the schema's bounds apply. The seat count is public: the refusal says nothing
    about who sits where or in which role."""
    seats = (info.context or {}).get(SEATS)
    if type(seats) is int and type(value) is int and not 0 <= value < seats:
        raise PydanticCustomError(
            NOT_AT_THE_TABLE,
            "Input should be a seat of this table, from {low} to {high}",
            {"low": 0, "high": seats - 1},
        )
    return value


AtTheTable = BeforeValidator(_at_the_table)
"""Put in a move's seat type (``Annotated[int, Field(ge=0, le=9), AtTheTable]``):
every field naming a seat, alone or in a list, is then checked against the table's
seats before the engine sees the move, so a seat that is not at the table is the
same refusal in every family and every move."""
