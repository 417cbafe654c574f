"""The API's own request and answer models, beside the shapes it shares with the
JSON socket (``api.shapes``: a seat's envelope, its view, a move, a player, a
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
from api.checks import accepted_options, option_value_schema
from api.shapes import (
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
from api.shapes import ChatMessage as ChatLine
from games import engine
from games.errors import GameError, IllegalMove
from games.kit.family import playable_rulesets
from games.models import CHAT_MAX_LENGTH, TURN_CLOCK_CHOICES, ChatMessage
from live.requests import RequestError

SHAPES = shapes()
ViewEnvelope = SHAPES.ViewEnvelope
RULESETS = playable_rulesets()
MIN_SEATS = min(engine.get_ruleset(code).min_players for code in RULESETS)
MAX_SEATS = max(engine.get_ruleset(code).max_players for code in RULESETS)
TABLE_LIST_LIMIT = 100
MAX_OPTIONS = 16


def option_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    return "integer" if isinstance(value, int) else "string"


def _options_by_ruleset() -> list[dict[str, Any]]:
    """For the document: the options each game's table takes, each with the values
    it takes (``enum`` or ``minimum``/``maximum``) and its default."""
    found = []
    for code in RULESETS:
        properties = {
            option.name: {
                **option_value_schema(option),
                "default": option.default,
                **({"description": option.label} if option.label else {}),
            }
            for option in accepted_options(code)
        }
        found.append(
            {
                "title": f"Options of {code}",
                "type": "object",
                "properties": properties,
                "additionalProperties": False,
            }
        )
    return found


def _option_branches() -> list[dict[str, Any]]:
    """For the document: one schema per option name of every game, its `default`
    holding the values the option takes (an option of the same name in several
    games takes what any of them takes)."""
    values: dict[str, list[dict[str, Any]]] = {}
    types: dict[str, str] = {}
    for code in RULESETS:
        for option in engine.get_ruleset(code).options:
            schema = option_value_schema(option)
            known = values.setdefault(option.name, [])
            if schema not in known:
                known.append(schema)
            types[option.name] = option_type(option.default)
    return [
        {
            "title": f"Option {name}",
            "properties": {
                "name": {"const": name},
                "type": {"const": types[name]},
                "default": schemas[0] if len(schemas) == 1 else {"anyOf": schemas},
            },
        }
        for name, schemas in values.items()
    ]


# --- Requests ------------------------------------------------------------------------


class TokenRequest(Request):
    """Your user name and password, for a key."""

    username: str = Field(
        min_length=1,
        max_length=150,
        description="Your user name, as on the log-in page.",
    )
    password: str = Field(min_length=1, max_length=128, description="Your password.")
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
    """A new table: its game, seats, options and clock."""

    ruleset: Literal[RULESETS] = Field(  # type: ignore[valid-type]
        description="The game: a `code` from GET /api/v1/rulesets."
    )
    seats: int = Field(
        ge=MIN_SEATS, le=MAX_SEATS, description="Players, host included."
    )
    options: dict[str, OptionValue] = Field(
        default_factory=dict,
        max_length=MAX_OPTIONS,
        description="Option name -> value, see GET /api/v1/rulesets: the options of "
        "the table's game, each with one of the values it takes (listed here per "
        "game). Missing options take their defaults. An option the game does not "
        "have is refused with `unknown_field`, a value of the wrong type with "
        "`wrong_type`, one outside the option's values with `invalid_choice` or "
        "`out_of_range`; each names the values the option takes.",
        json_schema_extra={"anyOf": _options_by_ruleset()},
    )
    private: bool = Field(
        default=False, description="Not listed in the lobby: join by code only."
    )
    name: str = Field(
        default="",
        max_length=60,
        description="What the table is called in the lobby; empty: none.",
    )
    turn_seconds: TurnClock = Field(
        default=0,
        description="The turn clock: seconds for each decision, one of the listed "
        "values; 0 (the default) is no clock. When the time runs out the bot plays "
        "the move for whoever has not decided (docs/clocks.md).",
    )


class EmptyRequest(Request):
    """No fields: send no body, or an empty JSON object."""


class ActionRequest(Request):
    """A move, and the `turn` of the view you decided on."""

    action: SHAPES.action_field  # type: ignore[name-defined]
    turn: Turn


class ChatRequest(Request):
    """A message for the table's chat."""

    text: str = Field(
        min_length=1, max_length=CHAT_MAX_LENGTH, description="What to write."
    )
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
    """A new key and what it is called."""

    token: str = Field(description="The key: shown this once, never again.")
    prefix: str = Field(
        description="The key's first characters: how the profile page names the token."
    )
    name: str = Field(description="What the program is, as sent.")
    created_at: DateTime = Field(description="When it was issued.")


class TokenInfo(Answer):
    """The calling token and its user."""

    user: User = Field(description="The token's user.")
    prefix: str = Field(description="The key's first characters.")
    name: str = Field(description="What the program is, as sent when it was issued.")
    created_at: DateTime = Field(description="When it was issued.")
    last_used_at: DateTime | None = Field(description="Updated at most once a minute.")


class OptionChoice(Answer):
    """One value an option takes."""

    value: OptionValue = Field(description="What to send in `options`.")
    label: str = Field(description="What it means, in your language.")


class RulesetOption(Answer):
    """An option of a game's tables. `choices`, else `minimum` and `maximum`, say
    which values it takes; the document lists them per option below."""

    model_config = ConfigDict(json_schema_extra={"oneOf": _option_branches()})

    name: str = Field(description="Its key in a new table's `options`.")
    type: Literal["boolean", "integer", "string"] = Field(
        description="The JSON type of its values."
    )
    default: OptionValue = Field(description="The value a table takes without it.")
    label: str = Field(description="Its name, in your language.")
    help: str = Field(
        description="What it does, in your language; a text that introduces the "
        "choices (ending in a colon) goes on with their labels."
    )
    choices: list[OptionChoice] = Field(
        description="The values it takes, each with its label; empty when it takes "
        "any value of its `type` (within `minimum` and `maximum`)."
    )
    minimum: int | None = Field(description="The least whole number it takes.")
    maximum: int | None = Field(description="The greatest whole number it takes.")


class Ruleset(Answer):
    """A game a table can be opened for."""

    code: str = Field(
        description="The game's code: `ruleset` of a new table, and of its views."
    )
    name: str = Field(description="The game's name, in your language.")
    min_players: int = Field(description="The fewest seats a table of it has.")
    max_players: int = Field(description="The most seats a table of it has.")
    options: list[RulesetOption] = Field(
        description="The options its tables may be opened with."
    )
    house_decisions: list[str] = Field(
        description="How the site plays what the rules leave open, in your "
        "language: shown to players before the start."
    )
    roles: dict[str, str] = Field(description="Role code -> its name in this game.")


class RulesetList(Answer):
    """Every game a table can be opened for."""

    rulesets: list[Ruleset] = Field(description="Every game a table can be opened for.")


class Seats(Answer):
    """A table's seats, taken and in all."""

    taken: Count = Field(description="Seats taken.")
    total: int = Field(description="Seats at the table.")


class TableSummary(Answer):
    """A table as the lobby lists it."""

    code: str = Field(
        description="The table's code: its address in the API and on the site."
    )
    name: str = Field(description="Its name in the lobby; may be empty.")
    ruleset: str = Field(description="The game: a `code` of GET /api/v1/rulesets.")
    status: Status = Field(  # type: ignore[valid-type]
        description="`open` (waiting for players), `playing`, `finished` or "
        "`abandoned`."
    )
    private: bool = Field(description="Not listed in the lobby.")
    seats: Seats = Field(description="Seats taken and in all.")
    host: User = Field(description="Who opened it.")
    options: dict[str, OptionValue] = Field(
        description="Its options, every one (defaults filled in)."
    )
    chat: bool = Field(description="Whether its chat is on.")
    created_at: DateTime = Field(description="When it was opened.")
    url: str = Field(description="The table's page.")


class TableList(Answer):
    """Tables, newest first."""

    tables: list[TableSummary] = Field(
        max_length=TABLE_LIST_LIMIT, description="The tables, newest first."
    )


class Table(TableSummary):
    """A table: its players, status and counters."""

    players: list[Player] = Field(
        description="Who sits there; each seat's position once the game has started."
    )
    version: Count = Field(description="Moves applied so far; bumped by every move.")
    turn: Count = Field(
        description="The version at which the current decision began: send it "
        "with a move."
    )
    phase: str = Field(
        description="The game's phase as the engine names it (see the view's "
        "`phase`); empty before the start."
    )
    winner: str | None = Field(
        description="The winning side once the game is finished; else null."
    )
    started_at: DateTime | None = Field(
        description="When the game started; null before."
    )
    finished_at: DateTime | None = Field(
        description="When the game ended; null before."
    )
    turn_seconds: Count = Field(description="The turn clock; 0: none.")
    deadline: DateTime | None = Field(
        description="When the current decision's time runs out (with a turn clock)."
    )


class ChatList(Answer):
    """Chat messages you may read, and the channels they come from."""

    channels: list[Channel] = Field(description="The channels you may read.")
    messages: list[ChatLine] = Field(description="The messages, oldest first.")


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
SEAT_NOT_AT_THE_TABLE = (
    "A seat a move names that is not at the table (seat 7 at a table of five, as "
    "well as 12 or -1) is this code too, in every game and every move, over HTTP "
    "and the socket, naming the table's seats (`must be from 0 to 4`)."
)
NOTES = {
    "out_of_range": "A value outside the bounds its field takes; the message names "
    "them. " + SEAT_NOT_AT_THE_TABLE,
    engine.BadTarget.code: "Never answered by the API: a seat that is not at the "
    "table is refused before the rules see the move, with `400 out_of_range`.",
}
"""What the document adds to a code's words: when it is given (or not)."""
PREEMPTED = frozenset({engine.BadTarget.code})
"""Rules' codes the API's own checks refuse first: never an operation's answer."""
ENGINE_RULE_CODES = tuple(
    cls.code
    for cls in [engine.IllegalAction, *_subclasses(engine.IllegalAction)]
    if cls.code not in PREEMPTED
)


class ErrorCode(RootModel[Literal[tuple(sorted(ERROR_CODES))]]):  # type: ignore[misc]
    model_config = ConfigDict(
        json_schema_extra={
            "description": "\n".join(
                f"- `{code}` ({status}): {words}"
                + (f" {NOTES[code]}" if code in NOTES else "")
                for code, (status, words) in sorted(ERROR_CODES.items())
            )
        }
    )


@with_config(ConfigDict(extra="forbid"))
class ErrorDetail(TypedDict):
    """What was refused: a stable `code` for programs, a `message` for people."""

    code: ErrorCode
    message: Annotated[str, Field(description="For people, in your language.")]
    field: NotRequired[
        Annotated[str, Field(description="The field at fault, e.g. `action.team[1]`.")]
    ]
    retry_after: NotRequired[Annotated[int, Field(description="Seconds.")]]


@with_config(ConfigDict(extra="forbid"))
class Error(TypedDict):
    """A refusal: nothing was changed."""

    error: Annotated[ErrorDetail, Field(description="What was refused, and why.")]
    view: NotRequired[
        Annotated[
            ViewEnvelope,  # type: ignore[valid-type]
            Field(description="On a refused move: the table as it stands now."),
        ]
    ]
