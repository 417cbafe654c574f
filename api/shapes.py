"""The JSON shapes of a table, a seat's view and the table socket's messages, as
pydantic models: one source for checking what programs send, for what they are
sent, and for the API's OpenAPI document.

A game's own shapes come from its family (``Programs.view_schema`` and
``Programs.move_schema``, see ``games.kit.family``). :func:`shapes` joins those
of every installed family: the view union is discriminated on ``"ruleset"``, and a
move is checked against the schema of the family whose table it is sent to
(:func:`api.checks.move_of`), so a new family's schemas reach the API, the JSON
socket and the document with no edit here or elsewhere in ``api``.

``Request`` models are strict (no unknown field, no ``"5"`` for 5, no ``true`` for
1); ``Answer`` models describe exactly what is sent (no key beyond the listed ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal, NotRequired, Union

from django.apps import apps
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    RootModel,
    with_config,
)
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from games import models
from games.kit.family import Family, family_of, playable_rulesets
from games.kit.schemas import Answer, Channel, Request
from games.kit.schemas import OptionValue as OptionValue  # the API names it
from games.models import CHAT_MAX_LENGTH, Game

DateTime = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Count = Annotated[int, Field(ge=0)]
Status = Literal[tuple(Game.Status.values)]  # type: ignore[valid-type]
MAX_TURN = 1_000_000
Turn = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_TURN,
        description="The `turn` of the view you decided on. A move on a decision "
        "that has passed is refused with `table_moved_on`.",
    ),
]


class User(Answer):
    """A user as anyone may see them."""

    username: str = Field(description="The user's login name: unique, stable.")
    name: str = Field(description="The display name.")


class Player(Answer):
    """A seat as everyone may see it: who sits there, nothing about their role."""

    position: int | None = Field(
        description="The seat, dealt at the start; null before."
    )
    username: str = Field(description="The user's login name.")
    name: str = Field(description="The display name.")
    host: bool = Field(description="Whether this player opened the table.")


class ChatMessage(Answer):
    """A chat message."""

    id: int = Field(
        ge=1, description="Increasing: send the last one as `after` to read on."
    )
    channel: Channel
    author: User = Field(description="Who wrote it.")
    text: str = Field(description="What was written.")
    created_at: DateTime = Field(description="When it was written.")


class SocketChatMessage(Answer):
    """A new message in a channel you may read."""

    type: Literal["chat"] = Field(description="The message's kind.")
    message: ChatMessage = Field(description="The new message.")


class SocketActed(Answer):
    """Your move over the socket was applied at `version`."""

    type: Literal["acted"] = Field(description="The message's kind.")
    version: int = Field(ge=1, description="The table's version your move made.")
    turn: Count = Field(description="The table's `turn` after your move.")
    replayed: bool = Field(
        False, description="A repeat of a named move (`move_id`): nothing applied."
    )


@with_config(ConfigDict(extra="forbid"))
class SocketError(TypedDict):
    """Your message was refused; a fresh view follows a refused move."""

    type: Annotated[Literal["error"], Field(description="The message's kind.")]
    code: Annotated[str, Field(description="A stable code: see `ErrorCode`.")]
    message: Annotated[str, Field(description="For people, in your language.")]
    field: NotRequired[
        Annotated[str, Field(description="The field at fault, e.g. `action.team[1]`.")]
    ]


class SocketChat(Request):
    """Write to the table's chat over the socket."""

    type: Literal["chat"] = Field(description="The message's kind.")
    text: str = Field(
        min_length=1, max_length=CHAT_MAX_LENGTH, description="What to write."
    )
    channel: Channel = models.ChatMessage.Channel.TABLE


def _is_object(value: Any) -> Any:
    """A move is checked against its table's family (``api.checks.move_of``);
    here only that it is an object, with the field-level refusal programs know."""
    if not isinstance(value, dict):
        raise PydanticCustomError("dict_type", "Input should be a valid dictionary")
    return value


def _one_of(choices: list[type[BaseModel]], discriminator: str | None) -> Any:
    """The union of ``choices``, discriminated on ``discriminator`` if given (even a
    single model, so the document maps each value to its schema)."""
    union = Union[tuple(choices)]  # noqa: UP007 - a union built at run time
    if discriminator is None:
        return union
    return Annotated[union, Field(discriminator=discriminator)]


@dataclass(frozen=True)
class Shapes:
    """The shapes that depend on which families are installed."""

    families: tuple[Family, ...]
    View: type[RootModel[Any]]
    Action: type[RootModel[Any]]
    action_field: Any
    """The type of a move's field in a request: documented as ``Action``, checked
    as an object here and against the table's family by ``api.checks``."""
    ViewEnvelope: type[BaseModel]
    SocketView: type[BaseModel]
    SocketAct: type[BaseModel]
    SocketMessage: type[RootModel[Any]]


@cache
def shapes() -> Shapes:
    """Built once, when the families' apps are ready (each registers its family in
    its ``ready()``)."""
    apps.check_apps_ready()
    families = tuple(dict.fromkeys(family_of(code) for code in playable_rulesets()))
    views = [family.programs.view_schema for family in families]
    moves = [family.programs.move_schema for family in families]

    class View(RootModel[_one_of(views, "ruleset")]):  # type: ignore[misc]
        """`engine.view(state, seat)`: everything your seat may know and nothing
        else, in the shape of the table's game (discriminated on `ruleset`)."""

    class Action(RootModel[_one_of(moves, None)]):  # type: ignore[misc]
        """A move, in the shape of the table's game (see its `type`s). Every seat
        it names must be one of the table's, 0 to its seats less one: another
        (even within the schema's bounds) is refused with `out_of_range`, naming
        the table's seats."""

    action_field = Annotated[
        Action, PlainValidator(_is_object, json_schema_input_type=Action)
    ]

    class ViewEnvelope(Answer):
        """A seat's view of the table with the table's counters."""

        code: str = Field(description="The table's code.")
        status: Status = Field(  # type: ignore[valid-type]
            description="`open`, `playing`, `finished` or `abandoned`."
        )
        version: Count = Field(description="Bumped by every move.")
        turn: Count = Field(
            description="The version at which the current decision began."
        )
        seat: int | None = Field(
            ge=-1,
            description="Your seat, as in your view's `me.seat`; -1 for the "
            "moderator of a table that has one (as the engine numbers him); null "
            "for a spectator, and for every player before the start (seats are "
            "dealt when the game starts).",
        )
        players: list[Player] = Field(
            description="Who sits there, in seat order once the game has started."
        )
        view: View | None = Field(description="null until the game starts.")  # type: ignore[valid-type]

    class SocketView(ViewEnvelope):
        """Pushed on connect and after every change of the table."""

        type: Literal["view"] = Field(description="The message's kind.")

    class SocketAct(Request):
        """Act over the socket: the same move as POST .../actions."""

        type: Literal["act"] = Field(description="The message's kind.")
        action: action_field  # type: ignore[valid-type]
        turn: Turn
        move_id: str | None = Field(
            None,
            description="Names the move (1 to 64 of `A-Za-z0-9-_.:`): a repeat "
            "applies nothing and is answered `acted` again, with `replayed`.",
        )

    class SocketMessage(RootModel[_one_of([SocketAct, SocketChat], "type")]):  # type: ignore[misc]
        """What a program may send over a table's socket."""

    return Shapes(
        families=families,
        View=View,
        Action=Action,
        action_field=action_field,
        ViewEnvelope=ViewEnvelope,
        SocketView=SocketView,
        SocketAct=SocketAct,
        SocketMessage=SocketMessage,
    )
