"""The API's own request and answer models, beside the shapes it shares with the
JSON socket (``games.schemas``: a seat's envelope, its view, a move, a player, a
chat message). django-ninja checks every body and query against these, validates
and serialises every answer with them, and writes the OpenAPI document from them.

What depends on the installed games (the codes a table may be opened for, its seat
counts, the view and move unions, the error codes of every rule) is read when this
module is imported, once the apps are ready: a new family's shapes join with no
edit here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from django.utils import translation
from pydantic import BeforeValidator, ConfigDict, Field, RootModel, with_config
from typing_extensions import TypedDict

from api import errors as _api_errors  # noqa: F401 - its codes join ErrorCode
from games import engine
from games.errors import GameError, IllegalMove
from games.kit.family import playable_rulesets
from games.models import CHAT_MAX_LENGTH, TURN_CLOCK_CHOICES, ChatMessage
from games.requests import RequestError
from games.schemas import (
    Answer,
    Channel,
    Count,
    DateTime,
    OptionValue,
    Player,
    Request,
    Status,
    Turn,
    User,
    shapes,
)
from games.schemas import ChatMessage as ChatLine

SHAPES = shapes()
ViewEnvelope = SHAPES.ViewEnvelope
RULESETS = playable_rulesets()
MIN_SEATS = min(engine.get_ruleset(code).min_players for code in RULESETS)
MAX_SEATS = max(engine.get_ruleset(code).max_players for code in RULESETS)
TABLE_LIST_LIMIT = 100
MAX_OPTIONS = 16


# --- Requests ------------------------------------------------------------------------


class TokenRequest(Request):
    username: str = Field(min_length=1, max_length=150)
    password: str = Field(min_length=1, max_length=128)
    name: str = Field(
        default="",
        max_length=60,
        description="What the program is, to tell tokens apart.",
    )


def _whole_seconds(value: Any) -> Any:
    """A JSON integer only, as the form takes it: 60.0 or true is refused, not
    rounded into a clock."""
    if type(value) is not int:
        raise ValueError("a whole number of seconds")
    return value


TurnClock = Annotated[
    Literal[TURN_CLOCK_CHOICES],  # type: ignore[valid-type]
    BeforeValidator(_whole_seconds),
]


class TableCreateRequest(Request):
    ruleset: Literal[RULESETS]  # type: ignore[valid-type]
    seats: int = Field(
        ge=MIN_SEATS, le=MAX_SEATS, description="Players, host included."
    )
    options: dict[str, OptionValue] = Field(
        default_factory=dict,
        max_length=MAX_OPTIONS,
        description="Option name -> value, see GET /api/v1/rulesets. Missing options "
        "take their defaults.",
    )
    private: bool = Field(
        default=False, description="Not listed in the lobby: join by code only."
    )
    name: str = Field(default="", max_length=60)
    turn_seconds: TurnClock = Field(
        default=0,
        description="The turn clock: seconds for each decision, one of the listed "
        "values; 0 (the default) is no clock. When the time runs out the bot plays "
        "the move for whoever has not decided (docs/clocks.md).",
    )


class EmptyRequest(Request):
    """No fields: send no body, or an empty JSON object."""


class ActionRequest(Request):
    action: SHAPES.action_field  # type: ignore[name-defined]
    turn: Turn


class ChatRequest(Request):
    text: str = Field(min_length=1, max_length=CHAT_MAX_LENGTH)
    channel: Channel = Field(
        default=ChatMessage.Channel.TABLE,
        description="Default `table`. Another channel only where your view's "
        "`me.channels` lists it.",
    )


def _digits(value: Any) -> Any:
    """A query's whole number, as ASCII digits (anything else is left for the
    strict check to refuse)."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value) if len(value) <= 12 else value
    return value


QueryCount = Annotated[int, BeforeValidator(_digits), Field(ge=0)]
Mine = Literal["0", "1", "true", "false"]


# --- Answers -------------------------------------------------------------------------


class IssuedToken(Answer):
    token: str = Field(description="The key: shown this once, never again.")
    prefix: str
    name: str
    created_at: DateTime


class TokenInfo(Answer):
    user: User
    prefix: str
    name: str
    created_at: DateTime
    last_used_at: DateTime | None = Field(description="Updated at most once a minute.")


class RulesetOption(Answer):
    name: str
    type: Literal["boolean", "integer", "string"]
    default: OptionValue
    label: str
    help: str


class Ruleset(Answer):
    code: str
    name: str
    min_players: int
    max_players: int
    options: list[RulesetOption]
    house_decisions: list[str]
    roles: dict[str, str] = Field(description="Role code -> its name in this game.")


class RulesetList(Answer):
    rulesets: list[Ruleset]


class Seats(Answer):
    taken: Count
    total: int


class TableSummary(Answer):
    code: str
    name: str
    ruleset: str
    status: Status  # type: ignore[valid-type]
    private: bool
    seats: Seats
    host: User
    options: dict[str, OptionValue]
    chat: bool
    created_at: DateTime
    url: str = Field(description="The table's page.")


class TableList(Answer):
    tables: list[TableSummary] = Field(max_length=TABLE_LIST_LIMIT)


class Table(TableSummary):
    players: list[Player]
    version: Count
    turn: Count
    phase: str
    winner: str | None
    started_at: DateTime | None
    finished_at: DateTime | None
    turn_seconds: Count = Field(description="The turn clock; 0: none.")
    deadline: DateTime | None = Field(
        description="When the current decision's time runs out (with a turn clock)."
    )


class ChatList(Answer):
    channels: list[Channel] = Field(description="The channels you may read.")
    messages: list[ChatLine]


# --- Errors --------------------------------------------------------------------------


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def _error_codes() -> dict[str, tuple[int, str]]:
    """Every code an answer or a socket can carry, with its status and English
    words: the request checks', the API's, the game services', and every rule of
    every installed game (``409``)."""
    codes: dict[str, tuple[int, str]] = {}
    for cls in [*_subclasses(RequestError), *_subclasses(GameError)]:
        if cls is not IllegalMove:
            codes.setdefault(cls.code, (cls.status, str(cls.message)))
    for cls in [engine.IllegalAction, *_subclasses(engine.IllegalAction)]:
        words = "Move refused: " + cls.template
        codes.setdefault(cls.code, (IllegalMove.status, words))
    return codes


with translation.override("en"):
    ERROR_CODES = _error_codes()
ENGINE_RULE_CODES = tuple(
    cls.code for cls in [engine.IllegalAction, *_subclasses(engine.IllegalAction)]
)


class ErrorCode(RootModel[Literal[tuple(sorted(ERROR_CODES))]]):  # type: ignore[misc]
    model_config = ConfigDict(
        json_schema_extra={
            "description": "\n".join(
                f"- `{code}` ({status}): {words}"
                for code, (status, words) in sorted(ERROR_CODES.items())
            )
        }
    )


@with_config(ConfigDict(extra="forbid"))
class ErrorDetail(TypedDict):
    code: ErrorCode
    message: Annotated[str, Field(description="For people, in your language.")]
    field: NotRequired[
        Annotated[str, Field(description="The field at fault, e.g. `action.team[1]`.")]
    ]
    retry_after: NotRequired[Annotated[int, Field(description="Seconds.")]]


@with_config(ConfigDict(extra="forbid"))
class Error(TypedDict):
    error: ErrorDetail
    view: NotRequired[
        Annotated[
            ViewEnvelope,  # type: ignore[valid-type]
            Field(description="On a refused move: the table as it stands now."),
        ]
    ]
