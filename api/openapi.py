"""The OpenAPI 3.1 document of the API, written as Python data.

No generator: the endpoints are few, and writing the document by hand keeps each
description in the words a bot author needs. The schemas come from ``api.schemas``,
the very ones the request checks use; the operations are listed in ``OPERATIONS``
below, and a test checks that they and ``api/urls.py`` name the same URLs and
methods, and validates the document with ``openapi-spec-validator``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from api.schemas import components, engine_rule_codes, error_codes, ref

VERSION = "1.0.0"

AUTH = ("token_missing", "token_invalid")
BODY = (
    "invalid_json",
    "missing_field",
    "unknown_field",
    "wrong_type",
    "out_of_range",
    "invalid_choice",
    "unsupported_media_type",
    "body_too_large",
)
QUERY = ("unknown_field", "wrong_type", "invalid_choice", "out_of_range")
TABLE = ("table_not_found",)

CODE_PARAMETER = {
    "name": "code",
    "in": "path",
    "required": True,
    "description": "The table's code (in its page's address).",
    "schema": {"type": "string", "maxLength": 16},
}

ENGINE_RULE_CODES = "__engine__"


@dataclass(frozen=True)
class Operation:
    path: str
    method: str
    operation_id: str
    summary: str | Promise
    description: str
    ok: int
    answer: str | None
    body: str | None = None
    errors: tuple[str, ...] = ()
    query: tuple[dict[str, Any], ...] = ()
    auth: bool = True
    tags: tuple[str, ...] = field(default=("tables",))


OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "/api/v1/openapi.json",
        "get",
        "openapi",
        _("This document"),
        "The OpenAPI 3.1 description of the API. Needs no token.",
        200,
        None,
        auth=False,
        tags=("meta",),
    ),
    Operation(
        "/api/v1/auth/token",
        "post",
        "tokenCreate",
        _("Log in: get a token"),
        "Trade a user name and password for a key. The key is shown in this answer "
        "only; keep it. Failed attempts count towards the same lock-out as the "
        "log-in page, per user name and per address.",
        201,
        "IssuedToken",
        body="TokenRequest",
        errors=(*BODY, "invalid_credentials", "locked_out"),
        auth=False,
        tags=("auth",),
    ),
    Operation(
        "/api/v1/auth/token",
        "get",
        "tokenInfo",
        _("The calling token and its user"),
        "Who you are and which token you are using.",
        200,
        "TokenInfo",
        tags=("auth",),
    ),
    Operation(
        "/api/v1/auth/token",
        "delete",
        "tokenRevoke",
        _("Revoke the calling token"),
        "The key stops working at once, and the sockets it opened are closed.",
        204,
        None,
        tags=("auth",),
    ),
    Operation(
        "/api/v1/rulesets",
        "get",
        "rulesets",
        _("The games, their options and house decisions"),
        "Every game a table can be opened for, with its player range, options "
        "(label and help in your language) and the house decisions shown to "
        "players before the start.",
        200,
        "RulesetList",
        tags=("games",),
    ),
    Operation(
        "/api/v1/tables",
        "get",
        "tables",
        _("Open public tables, or your own"),
        "Open public tables, newest first (at most 100). With `mine=1`: your "
        "tables that are open or in play.",
        200,
        "TableList",
        errors=QUERY,
        query=(
            {
                "name": "mine",
                "in": "query",
                "required": False,
                "schema": {"type": "string", "enum": ["0", "1", "true", "false"]},
            },
        ),
    ),
    Operation(
        "/api/v1/tables",
        "post",
        "tableCreate",
        _("Open a table"),
        "You are its host and take the first seat.",
        201,
        "Table",
        body="TableCreateRequest",
        errors=(*BODY, "bad_setup"),
    ),
    Operation(
        "/api/v1/tables/{code}",
        "get",
        "table",
        _("A table: players, status, counters"),
        "Anyone with the code may look, as on the table's page.",
        200,
        "Table",
        errors=TABLE,
    ),
    Operation(
        "/api/v1/tables/{code}",
        "delete",
        "tableClose",
        _("Close a table that has not started"),
        "Host only.",
        204,
        None,
        errors=(*TABLE, "not_host", "not_open"),
    ),
    Operation(
        "/api/v1/tables/{code}/join",
        "post",
        "tableJoin",
        _("Take a seat"),
        "Seats are dealt in random order when the game starts.",
        200,
        "Table",
        body="EmptyRequest",
        errors=(*BODY, *TABLE, "not_open", "already_seated", "table_full"),
    ),
    Operation(
        "/api/v1/tables/{code}/leave",
        "post",
        "tableLeave",
        _("Leave a table before the start"),
        "The host cannot leave: close the table instead.",
        200,
        "Table",
        body="EmptyRequest",
        errors=(*BODY, *TABLE, "not_open", "not_seated", "host_cannot_leave"),
    ),
    Operation(
        "/api/v1/tables/{code}/start",
        "post",
        "tableStart",
        _("Start the game"),
        "Host only, with every seat taken: deals seats and roles.",
        200,
        "Table",
        body="EmptyRequest",
        errors=(*BODY, *TABLE, "not_host", "not_open", "table_not_full"),
    ),
    Operation(
        "/api/v1/tables/{code}/view",
        "get",
        "tableView",
        _("Your seat's view of the game"),
        "`view` is the engine's view for your own seat, or the spectator's view "
        "when you are not seated; null before the start. `view.legal` lists what "
        "you may do now.",
        200,
        "ViewEnvelope",
        errors=TABLE,
        tags=("play",),
    ),
    Operation(
        "/api/v1/tables/{code}/actions",
        "post",
        "tableAct",
        _("Make a move"),
        "You act in your own seat, the one your token's user holds; no request can "
        "name another. Send the `turn` of the view you decided on. The answer is "
        "your view right after your move (its `version` is your move's). A refused "
        "move answers with the error and, in `view`, the table as it stands now: "
        "`table_moved_on` when the decision you answered has passed.",
        200,
        "ViewEnvelope",
        body="ActionRequest",
        errors=(
            *BODY,
            *TABLE,
            "not_playing",
            "not_seated",
            "table_moved_on",
            "bad_action",
            ENGINE_RULE_CODES,
        ),
        tags=("play",),
    ),
    Operation(
        "/api/v1/tables/{code}/chat",
        "get",
        "chatList",
        _("Read the chat"),
        "The table channel when chat is on; the evil side's channel only where "
        "your own view opens it (evil seats in the sniper phase), and for everyone "
        "after the game. The last 100 messages, or with `after` the first 100 "
        "after that message id.",
        200,
        "ChatList",
        errors=(*QUERY, *TABLE, "chat_channel_closed"),
        query=(
            {
                "name": "channel",
                "in": "query",
                "required": False,
                "schema": {"type": "string", "enum": ["table", "evil"]},
            },
            {
                "name": "after",
                "in": "query",
                "required": False,
                "schema": {"type": "integer", "minimum": 0},
            },
        ),
        tags=("play",),
    ),
    Operation(
        "/api/v1/tables/{code}/chat",
        "post",
        "chatPost",
        _("Write in the chat"),
        "Seated players only; at most 5 messages in 10 seconds.",
        201,
        "ChatMessage",
        body="ChatRequest",
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
        tags=("play",),
    ),
)

SOCKET = """
## The table socket

`wss://<host>/ws/table/<code>/?format=json`, with the header
`Authorization: Token <key>` on the handshake. (Without `format=json` the socket
speaks the pages' HTML.) A socket without a valid token or session is closed with
code 4401; an unknown table with 4404; a revoked token's sockets with 4401.

The server sends:

- `SocketView` on connect and after every change of the table: your seat's view
  only (the spectator's view if you are not seated), with `version` and `turn`;
- `SocketChatMessage` for a new message in a channel you may read;
- `SocketActed` when your move sent over the socket was applied;
- `SocketError` when a message of yours was refused (a fresh `SocketView`
  follows a refused move).

You may send `SocketAct` (a move, like `POST .../actions`) and `SocketChat`.
Their schemas are in `components.schemas`.
"""

DESCRIPTION = f"""
A JSON API for programs (bots, load tests, club tools), through the same services
as the pages.

Authenticate every request with `Authorization: Token <key>`; get a key with
`POST /api/v1/auth/token`. Sessions and cookies are ignored. Bodies are JSON
objects (`Content-Type: application/json`); unknown fields, wrong types and
oversize values are refused with status 400 and nothing changed. Errors are
`{{"error": {{"code", "message"}}}}`; `message` is in the language of
`Accept-Language`, else your profile's. Every code is listed under `ErrorCode`.
{SOCKET}"""


def _error_responses(op: Operation) -> dict[str, Any]:
    codes = error_codes()
    wanted: list[str] = list(AUTH) if op.auth else []
    for code in op.errors:
        wanted += engine_rule_codes() if code == ENGINE_RULE_CODES else [code]
    wanted.append("method_not_allowed")
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys(wanted):
        by_status.setdefault(codes[code][0], []).append(code)
    return {
        str(status): {
            "description": "Error: " + ", ".join(f"`{c}`" for c in sorted(found)),
            "content": {"application/json": {"schema": ref("Error")}},
        }
        for status, found in sorted(by_status.items())
    }


def _operation(op: Operation) -> dict[str, Any]:
    item: dict[str, Any] = {
        "operationId": op.operation_id,
        "summary": str(op.summary),
        "description": op.description,
        "tags": list(op.tags),
    }
    parameters = [*([CODE_PARAMETER] if "{code}" in op.path else []), *op.query]
    if parameters:
        item["parameters"] = parameters
    if op.body is not None:
        item["requestBody"] = {
            "required": op.body != "EmptyRequest",
            "content": {"application/json": {"schema": ref(op.body)}},
        }
    ok: dict[str, Any] = {"description": "OK"}
    if op.answer is not None:
        ok["content"] = {"application/json": {"schema": ref(op.answer)}}
    elif op.operation_id == "openapi":
        ok["content"] = {"application/json": {"schema": {"type": "object"}}}
    item["responses"] = {str(op.ok): ok, **_error_responses(op)}
    item["security"] = [{"token": []}] if op.auth else []
    return item


@cache
def document() -> dict[str, Any]:
    """The whole document, built once per process, in English."""
    with translation.override("en"):
        paths: dict[str, dict[str, Any]] = {}
        for op in OPERATIONS:
            paths.setdefault(op.path, {})[op.method] = _operation(op)
        return {
            "openapi": "3.1.0",
            "info": {
                "title": "Podpolye API",
                "version": VERSION,
                "description": DESCRIPTION,
            },
            "servers": [{"url": "/"}],
            "tags": [
                {"name": "meta", "description": "About the API."},
                {"name": "auth", "description": "Tokens."},
                {"name": "games", "description": "What can be played."},
                {"name": "tables", "description": "Opening, joining, starting."},
                {"name": "play", "description": "Views, moves and chat."},
            ],
            "paths": paths,
            "components": {
                "schemas": components(),
                "securitySchemes": {
                    "token": {
                        "type": "apiKey",
                        "in": "header",
                        "name": "Authorization",
                        "description": "`Token <key>`, the key from "
                        "POST /api/v1/auth/token.",
                    }
                },
            },
            "security": [{"token": []}],
        }


def endpoint_list() -> list[dict[str, str]]:
    """The operations for the page at /api/, summaries in the active language."""
    return [
        {"method": op.method.upper(), "path": op.path, "summary": str(op.summary)}
        for op in OPERATIONS
    ]
