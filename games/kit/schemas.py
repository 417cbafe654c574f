"""The pydantic pieces a family's schemas are made of (``Programs``): the base of
what the site sends, the base of what a program sends, and the shared field types."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


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
