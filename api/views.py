"""The API's endpoints: ninja checks the token, the body and the query
(``api.plumbing``, ``api.schemas``); each endpoint calls one service or selector and
answers JSON that ninja validates against its documented model. Every game fact in
an answer comes from ``games.selectors.seat_view``: the engine's ``view()`` for the
caller's own seat.

Who acts is always the token's user, and the seat is the one that user holds: no
request names a seat to act for (an unknown field is refused), so acting in someone
else's seat cannot even be asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Annotated, Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from ninja import Status

from accounts import services as account_services
from accounts import throttle
from api import checks, errors, payloads, services, sockets
from api.plumbing import Api, Body, Query, error_response, json_text
from api.schemas import (
    ENGINE_RULE_CODES,
    ERROR_CODES,
    RULESETS,
    TABLE_LIST_LIMIT,
    ActionRequest,
    ChatLine,
    ChatList,
    ChatRequest,
    EmptyRequest,
    Error,
    IssuedToken,
    Mine,
    QueryCount,
    RulesetList,
    Table,
    TableCreateRequest,
    TableList,
    TokenInfo,
    TokenRequest,
    ViewEnvelope,
    option_type,
)
from api.selectors import chat_messages
from api.shapes import Channel
from games import engine
from games import errors as game_errors
from games import services as game_services
from games.kit.family import words_of
from games.models import Game
from games.selectors import (
    lobby_tables,
    my_tables,
    players_of,
    reachable_game,
)
from live.views import table_now

SOCKET = """
## The table socket

`wss://<host>/ws/table/<code>/?format=json`, with the header
`Authorization: Token <key>` on the handshake. (Without `format=json` the socket
speaks the pages' HTML.) A socket without a valid token or session is closed with
code 4401; an unknown table with 4404; a revoked token's sockets with 4401; any
socket, when the server cannot reach its channel layer now, with 4503 (open it
again after a pause).

The server sends:

- `SocketView` on connect and after every change of the table: your seat's view
  only (the spectator's view if you are not seated), with `version` and `turn`;
- `SocketChatMessage` for a new message in a channel you may read;
- `SocketActed` when your move sent over the socket was applied;
- `SocketError` when a message of yours was refused (a fresh `SocketView`
  follows a refused move).

You may send a `SocketMessage`: `SocketAct` (a move, like `POST .../actions`) or
`SocketChat`. Their schemas are in `components.schemas`.
"""

api = Api(
    title="Podpolye API",
    version="1.0.0",
    description=f"""
A JSON API for programs (bots, load tests, club tools), through the same services
as the pages.

Authenticate every request with `Authorization: Token <key>`; get a key with
`POST /api/v1/auth/token`. Sessions and cookies are ignored. Bodies are JSON
objects (`Content-Type: application/json`); unknown fields, wrong types and
oversize values are refused with status 400 and nothing changed. Errors are
`{{"error": {{"code", "message"}}}}`; `message` is in the language of
`Accept-Language`, else your profile's. Every code is listed under `ErrorCode`.
A view and a move have the shape of the table's game: `View` is discriminated on
`ruleset`, and a move is checked against the moves of the table's game.
{SOCKET}""",
    servers=[{"url": "/"}],
    openapi_extra={
        "tags": [
            {"name": "meta", "description": "About the API."},
            {"name": "auth", "description": "Tokens."},
            {"name": "games", "description": "What can be played."},
            {"name": "tables", "description": "Opening, joining, starting."},
            {"name": "play", "description": "Views, moves and chat."},
        ]
    },
)

AUTH = ("token_missing", "token_invalid")
BODY = (
    "invalid_json",
    "missing_field",
    "unknown_field",
    "wrong_type",
    "out_of_range",
    "invalid_choice",
    "invalid_format",
    "unsupported_media_type",
    "body_too_large",
)
QUERY = (
    "unknown_field",
    "wrong_type",
    "invalid_choice",
    "invalid_format",
    "out_of_range",
)
TABLE = ("table_not_found",)
ENGINE = "__engine__"
"""Stands for every rule of every installed game."""


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    summary: str | Promise


OPERATIONS: list[Operation] = []
"""Every operation, for the page at /api/ (summaries in the reader's language)."""


def endpoint(
    method: str,
    route: str,
    *,
    name: str,
    operation_id: str,
    summary: Promise,
    description: str,
    ok: int,
    answer: Any,
    errors: tuple[str, ...] = (),
    auth: bool = True,
    tag: str = "tables",
    query: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """One operation: its answer, and every error it can give, grouped by status
    under the ``Error`` model. Without ``query`` (query parameters of its own,
    checked by ``api.plumbing.Query``) it refuses any query parameter."""
    codes: list[str] = [*(AUTH if auth else ()), "unknown_field"]
    for code in errors:
        codes += ENGINE_RULE_CODES if code == ENGINE else [code]
    codes.append("method_not_allowed")
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys(codes):
        by_status.setdefault(ERROR_CODES[code][0], []).append(code)
    described = {
        status: {"description": "Error: " + ", ".join(f"`{c}`" for c in sorted(found))}
        for status, found in by_status.items()
    }
    OPERATIONS.append(Operation(method, "/api/v1" + route, summary))
    register = api.api_operation(
        [method],
        route,
        auth=api.auth if auth else None,
        response={ok: answer, **dict.fromkeys(by_status, Error)},
        operation_id=operation_id,
        summary=summary,  # type: ignore[arg-type]
        description=description,
        tags=[tag],
        url_name=name,
        openapi_extra={"responses": described},
    )
    return register if query else lambda view: register(_no_query(view))


def _no_query(view: Callable[..., Any]) -> Callable[..., Any]:
    """``view``, refusing a query parameter: it takes none."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        for name in request.GET:
            raise checks.UnknownField(field=f"?{name}")
        return view(request, *args, **kwargs)

    return checked


def _user(request: HttpRequest) -> Any:
    return request.auth  # type: ignore[attr-defined]


def _game(code: str, request: HttpRequest) -> Game:
    """The table, or "no such table" when the caller may not know it exists (a
    club's members-only table, to an outsider: ``games.hooks``)."""
    game = reachable_game(code, _user(request))
    if game is None:
        raise game_errors.TableNotFound
    return game


def _table(code: str, request: HttpRequest) -> dict[str, Any]:
    game = _game(code, request)
    return payloads.table_json(game, players_of(game))


def _table_after(written: Game, found: Game) -> dict[str, Any]:
    """The table a service just changed, from the row it wrote (read under its
    lock, so current) rather than a third read of the table and of who may reach
    it: the caller has just joined, opened or started it. ``found`` is the row the
    request found: the host, who never changes, comes from it, already read."""
    written.host = found.host
    return payloads.table_json(written, players_of(written))


def _envelope(game: Game, request: HttpRequest) -> Any:
    """The caller's seat at ``game``'s version (a move's answer names the version
    that move made), read through the snapshot other sockets share. Validated here,
    straight from the dict (ninja then only serialises it): the most frequent answer
    skips ninja's slower path for arbitrary objects."""
    table = table_now(game)
    if table is None:
        raise game_errors.TableNotFound
    return ViewEnvelope.model_validate(
        payloads.seat_envelope(sockets.seat_view(table, _user(request)))
    )


# --- The document --------------------------------------------------------------------


@endpoint(
    "GET",
    "/openapi.json",
    name="openapi",
    operation_id="openapi",
    summary=_("This document"),
    description="The OpenAPI 3.1 description of the API. Needs no token.",
    ok=200,
    answer=dict[str, Any],
    auth=False,
    tag="meta",
)
def openapi(request: HttpRequest) -> HttpResponse:
    return HttpResponse(json_text(api.document()), content_type="application/json")


# --- Tokens --------------------------------------------------------------------------


@endpoint(
    "POST",
    "/auth/token",
    name="token",
    operation_id="tokenCreate",
    summary=_("Log in: get a token"),
    description="Trade a user name and password for a key. The key is shown in "
    "this answer only; keep it. Failed attempts count towards the same lock-out as "
    "the log-in page, per user name and per address.",
    ok=201,
    answer=IssuedToken,
    errors=(*BODY, "invalid_credentials", "locked_out"),
    auth=False,
    tag="auth",
)
def token_create(
    request: HttpRequest, body: Annotated[TokenRequest, Body(...)]
) -> Status[dict[str, Any]]:
    try:
        user = account_services.user_authenticate(
            request=request,
            username=body.username,
            password=body.password,
            address=throttle.client_address(request),
        )
    except account_services.LoginLockedOut as locked:
        raise errors.LockedOut(seconds=locked.lockout.seconds_left()) from None
    except account_services.InvalidCredentials:
        raise errors.InvalidCredentials from None
    issued = services.token_create(user=user, name=body.name)
    token = issued.token
    return Status(
        201,
        {
            "token": issued.key,
            "prefix": token.prefix,
            "name": token.name,
            "created_at": payloads.when(token.created_at),
        },
    )


@endpoint(
    "GET",
    "/auth/token",
    name="token",
    operation_id="tokenInfo",
    summary=_("The calling token and its user"),
    description="Who you are and which token you are using.",
    ok=200,
    answer=TokenInfo,
    tag="auth",
)
def token_info(request: HttpRequest) -> dict[str, Any]:
    token = request.api_token  # type: ignore[attr-defined]
    return {
        "user": payloads.user_json(_user(request)),
        "prefix": token.prefix,
        "name": token.name,
        "created_at": payloads.when(token.created_at),
        "last_used_at": payloads.when(token.last_used_at),
    }


@endpoint(
    "DELETE",
    "/auth/token",
    name="token",
    operation_id="tokenRevoke",
    summary=_("Revoke the calling token"),
    description="The key stops working at once, and the sockets it opened are closed.",
    ok=204,
    answer=None,
    tag="auth",
)
def token_revoke(request: HttpRequest) -> Status[None]:
    services.token_revoke(token=request.api_token)  # type: ignore[attr-defined]
    return Status(204, None)


# --- Games and tables ----------------------------------------------------------------


def _help(option: engine.OptionSpec) -> str:
    """An option's help in the active language; a help that introduces the choices
    (it ends in a colon, the page showing them below) goes on with their labels."""
    text = gettext(option.help)
    if not (option.choices and text.rstrip().endswith(":")):
        return text
    joined = gettext("; ").join(
        gettext("%(label)s (%(value)s)")
        % {"label": gettext(label), "value": checks.listed([value])}
        for value, label in option.choices
    )
    return f"{text.rstrip()} {joined}."


def _option(option: engine.OptionSpec) -> dict[str, Any]:
    return {
        "name": option.name,
        "type": option_type(option.default),
        "default": option.default,
        "label": gettext(option.label),
        "help": _help(option),
        "choices": [
            {"value": value, "label": gettext(label)} for value, label in option.choices
        ],
        "minimum": option.minimum,
        "maximum": option.maximum,
    }


def _ruleset(code: str) -> dict[str, Any]:
    """A game as the create-table page offers it, in the active language."""
    ruleset = engine.get_ruleset(code)
    words = words_of(code)
    return {
        "code": code,
        "name": str(words.game),
        "min_players": ruleset.min_players,
        "max_players": ruleset.max_players,
        "options": [_option(option) for option in ruleset.options],
        "house_decisions": [gettext(text) for text in ruleset.house_decisions],
        "roles": {role: str(words.role(role)) for role in words.roles},
    }


@endpoint(
    "GET",
    "/rulesets",
    name="rulesets",
    operation_id="rulesets",
    summary=_("The games, their options and house decisions"),
    description="Every game a table can be opened for, with its player range, "
    "options (label and help in your language, and the values each takes) and "
    "the house decisions shown to players before the start.",
    ok=200,
    answer=RulesetList,
    tag="games",
)
def rulesets(request: HttpRequest) -> dict[str, Any]:
    return {"rulesets": [_ruleset(code) for code in RULESETS]}


@endpoint(
    "GET",
    "/tables",
    name="tables",
    operation_id="tables",
    summary=_("Open public tables, or your own"),
    description=f"Open public tables, newest first (at most {TABLE_LIST_LIMIT}). "
    "With `mine=1`: your tables that are open or in play.",
    ok=200,
    answer=TableList,
    errors=QUERY,
    query=True,
)
def tables(
    request: HttpRequest, mine: Annotated[Mine | None, Query(None)] = None
) -> dict[str, Any]:
    user = _user(request)
    games = my_tables(user) if mine in ("1", "true") else lobby_tables(user)
    listed = games[:TABLE_LIST_LIMIT]
    return {"tables": [payloads.table_summary_json(g, taken=g.taken) for g in listed]}


@endpoint(
    "POST",
    "/tables",
    name="tables",
    operation_id="tableCreate",
    summary=_("Open a table"),
    description="You are its host and take the first seat.",
    ok=201,
    answer=Table,
    errors=(*BODY, "bad_setup"),
)
def table_create(
    request: HttpRequest,
    body: Annotated[TableCreateRequest, Body(...)],
    response: HttpResponse,
) -> Status[dict[str, Any]]:
    checks.check_options(body.ruleset, body.seats, body.options)
    game = game_services.game_create(
        host=_user(request),
        ruleset=body.ruleset,
        seat_count=body.seats,
        options=body.options,
        is_private=body.private,
        name=body.name,
        turn_seconds=body.turn_seconds,
    )
    response["Location"] = reverse("api:table", kwargs={"code": game.code})
    # Its creator is its host, and has just been given the row.
    return Status(201, payloads.table_json(game, players_of(game)))


@endpoint(
    "GET",
    "/tables/{code}",
    name="table",
    operation_id="table",
    summary=_("A table: players, status, counters"),
    description="Anyone with the code may look, as on the table's page.",
    ok=200,
    answer=Table,
    errors=TABLE,
)
def table(request: HttpRequest, code: str) -> dict[str, Any]:
    return _table(code, request)


@endpoint(
    "DELETE",
    "/tables/{code}",
    name="table",
    operation_id="tableClose",
    summary=_("Close a table that has not started"),
    description="Host only.",
    ok=204,
    answer=None,
    errors=(*TABLE, "not_host", "not_open"),
)
def table_close(request: HttpRequest, code: str) -> Status[None]:
    game_services.table_close(game=_game(code, request), host=_user(request))
    return Status(204, None)


NoBody = Annotated[EmptyRequest, Body(None)]


@endpoint(
    "POST",
    "/tables/{code}/join",
    name="join",
    operation_id="tableJoin",
    summary=_("Take a seat"),
    description="Seats are dealt in random order when the game starts.",
    ok=200,
    answer=Table,
    errors=(*BODY, *TABLE, "not_open", "already_seated", "table_full"),
)
def join(request: HttpRequest, code: str, body: NoBody) -> dict[str, Any]:
    found = _game(code, request)
    seat = game_services.seat_join(game=found, user=_user(request))
    return _table_after(seat.game, found)


@endpoint(
    "POST",
    "/tables/{code}/leave",
    name="leave",
    operation_id="tableLeave",
    summary=_("Leave a table before the start"),
    description="The host cannot leave: close the table instead.",
    ok=200,
    answer=Table,
    errors=(*BODY, *TABLE, "not_open", "not_seated", "host_cannot_leave"),
)
def leave(request: HttpRequest, code: str, body: NoBody) -> dict[str, Any]:
    game_services.seat_leave(game=_game(code, request), user=_user(request))
    return _table(code, request)


@endpoint(
    "POST",
    "/tables/{code}/start",
    name="start",
    operation_id="tableStart",
    summary=_("Start the game"),
    description="Host only, with every seat taken: deals seats and roles.",
    ok=200,
    answer=Table,
    errors=(*BODY, *TABLE, "not_host", "not_open", "table_not_full"),
)
def start(request: HttpRequest, code: str, body: NoBody) -> dict[str, Any]:
    found = _game(code, request)
    started = game_services.game_start(game=found, user=_user(request))
    return _table_after(started, found)


# --- Play ----------------------------------------------------------------------------


@endpoint(
    "GET",
    "/tables/{code}/view",
    name="view",
    operation_id="tableView",
    summary=_("Your seat's view of the game"),
    description="`view` is the engine's view for your own seat, or the spectator's "
    "view when you are not seated; null before the start. `view.legal` lists what "
    "you may do now.",
    ok=200,
    answer=ViewEnvelope,
    errors=TABLE,
    tag="play",
)
def view(request: HttpRequest, code: str) -> dict[str, Any]:
    return _envelope(_game(code, request), request)


@endpoint(
    "POST",
    "/tables/{code}/actions",
    name="actions",
    operation_id="tableAct",
    summary=_("Make a move"),
    description="You act in your own seat, the one your token's user holds; no "
    "request can name another. Send the `turn` of the view you decided on; the "
    "move is checked against the moves of the table's game. The answer is your view "
    "right after your move (its `version` is your move's). A refused move answers "
    "with the error and, in `view`, the table as it stands now: `table_moved_on` "
    "when the decision you answered has passed.\n\n"
    "Name your move with an `Idempotency-Key` header (1 to 64 letters, digits or "
    "`-_.:`; a UUID will do) to send it again safely after a time-out or a 5xx: a "
    "repeat of the key by you at this table applies nothing and answers 200 with "
    "your view now and the header `Idempotent-Replayed: true`, however often and "
    "whenever it comes. The header `Move-Version` of a named move's answer, first "
    "or repeated, is the version the move made. The same key for another move is "
    "refused (`move_id_reused`).",
    ok=200,
    answer=ViewEnvelope,
    errors=(
        *BODY,
        *TABLE,
        "not_playing",
        "not_seated",
        "table_moved_on",
        "bad_action",
        "bad_move_id",
        "move_id_reused",
        ENGINE,
    ),
    tag="play",
)
def actions(
    request: HttpRequest,
    code: str,
    body: Annotated[ActionRequest, Body(...)],
    response: HttpResponse,
) -> Any:
    """The answer to a move is the caller's view right after it (pushes bring later
    moves). A refused move answers with the error and the caller's view of the table
    as it stands now. A move named by ``Idempotency-Key`` is applied once."""
    game = _game(code, request)
    action = checks.move_of(game.ruleset, body.action, seats=game.seat_count)
    move_id = request.headers.get("Idempotency-Key")
    try:
        if move_id is None:
            game = game_services.game_act(
                game=game, user=_user(request), action=action, turn=body.turn
            )
        else:
            acted = game_services.game_act_named(
                game=game,
                user=_user(request),
                action=action,
                turn=body.turn,
                move_id=move_id,
            )
            game = acted.game
            # The version the move made, on its first answer and every repeat's.
            response["Move-Version"] = str(acted.version)
            if acted.replayed:
                response["Idempotent-Replayed"] = "true"
    except game_errors.GameError as exc:
        fresh = reachable_game(code, _user(request))
        if fresh is None:
            raise
        return error_response(
            exc, extra={"view": _envelope(fresh, request).model_dump()}
        )
    return _envelope(game, request)


# --- Chat ----------------------------------------------------------------------------


@endpoint(
    "GET",
    "/tables/{code}/chat",
    name="chat",
    operation_id="chatList",
    summary=_("Read the chat"),
    description="The table channel when chat is on; a side's private channel only "
    "where your own view opens it (`me.channels`), and for everyone after the game. "
    "The last 100 messages, or with `after` the first 100 after that message id.",
    ok=200,
    answer=ChatList,
    errors=(*QUERY, *TABLE, "chat_channel_closed"),
    tag="play",
    query=True,
)
def chat(
    request: HttpRequest,
    code: str,
    channel: Annotated[Channel | None, Query(None)] = None,
    after: Annotated[QueryCount | None, Query(None)] = None,
) -> dict[str, Any]:
    game = _game(code, request)
    table = table_now(game)
    if table is None:
        raise game_errors.TableNotFound
    channels = table.readable_channels(table.viewer(_user(request)))
    readable = list(channels)
    if channel is not None:
        if channel not in readable:
            raise game_errors.ChatChannelClosed
        readable = [channel]
    messages = chat_messages(game, readable, after=after)
    return {
        "channels": list(channels),
        "messages": [payloads.chat_message_json(m) for m in messages],
    }


@endpoint(
    "POST",
    "/tables/{code}/chat",
    name="chat",
    operation_id="chatPost",
    summary=_("Write in the chat"),
    description="Seated players only; at most 5 messages in 10 seconds.",
    ok=201,
    answer=ChatLine,
    errors=(
        *BODY,
        *TABLE,
        "not_seated",
        "chat_disabled",
        "chat_channel_closed",
        "chat_empty",
        "chat_too_long",
        "chat_too_fast",
    ),
    tag="play",
)
def chat_post(
    request: HttpRequest, code: str, body: Annotated[ChatRequest, Body(...)]
) -> Status[dict[str, Any]]:
    user = _user(request)
    message = game_services.chat_post(
        game=_game(code, request), user=user, text=body.text, channel=body.channel
    )
    message.author = user
    return Status(201, payloads.chat_message_json(message))


# --- The page for people -------------------------------------------------------------


def index(request: HttpRequest) -> HttpResponse:
    """A page for people: what the API offers, and where the document is."""
    return render(
        request,
        "api/index.html",
        {
            "endpoints": [
                {"method": op.method, "path": op.path, "summary": str(op.summary)}
                for op in OPERATIONS
            ],
            "schema_url": reverse("api:openapi"),
            "title": gettext("API for programs"),
        },
    )
