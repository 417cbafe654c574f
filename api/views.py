"""The API's endpoints: parse (done by ``api.http``), call one service or selector,
answer JSON. Every game fact in an answer comes from the engine's ``view()`` for the
caller's own seat (``api.seatview``, equal to ``table_context``'s view).

Who acts is always the token's user, and the seat is the one that user holds: no
request names a seat to act for (an unknown field is refused), so acting in someone
else's seat cannot even be asked for.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from accounts import services as account_services
from accounts import throttle
from api import errors, payloads, seatview, services
from api.http import Call, Route, endpoint, error_response, json_response
from api.openapi import document, endpoint_list
from api.schemas import CHANNEL_PATTERN, ruleset_codes
from api.selectors import chat_messages
from games import errors as game_errors
from games import services as game_services
from games.models import ChatMessage, Game
from games.selectors import (
    lobby_tables,
    my_tables,
    players_of,
    reachable_game,
    table_context,
)

TABLE_LIST_LIMIT = 100


def _game(code: str, call: Call) -> Game:
    """The table, or "no such table" when the caller may not know it exists (a
    club's members-only table, to an outsider: ``games.hooks``)."""
    game = reachable_game(code, call.user)
    if game is None:
        raise game_errors.TableNotFound
    return game


def _table(game: Game) -> dict[str, Any]:
    return payloads.table_json(game, players_of(game))


def _envelope(game: Game, call: Call) -> dict[str, Any]:
    return seatview.envelope(game, call.user)


# --- Tokens ------------------------------------------------------------------------


def _token_create(call: Call) -> HttpResponse:
    """Log in with a password, get a key. Failures count towards the same lock-out
    as the log-in page (per user name and per address)."""
    try:
        user = account_services.user_authenticate(
            request=call.request,
            username=call.body["username"],
            password=call.body["password"],
            address=throttle.client_address(call.request),
        )
    except account_services.LoginLockedOut as locked:
        raise errors.LockedOut(seconds=locked.lockout.seconds_left()) from None
    except account_services.InvalidCredentials:
        raise errors.InvalidCredentials from None
    issued = services.token_create(user=user, name=call.body.get("name", ""))
    return json_response(
        {
            "token": issued.key,
            "prefix": issued.token.prefix,
            "name": issued.token.name,
            "created_at": issued.token.created_at.isoformat(),
        },
        status=201,
    )


def _token_info(call: Call) -> HttpResponse:
    token = call.token
    assert token is not None
    return json_response(
        {
            "user": payloads.user_json(call.caller),
            "prefix": token.prefix,
            "name": token.name,
            "created_at": token.created_at.isoformat(),
            "last_used_at": token.last_used_at.isoformat()
            if token.last_used_at
            else None,
        }
    )


def _token_revoke(call: Call) -> HttpResponse:
    assert call.token is not None
    services.token_revoke(token=call.token)
    return HttpResponse(status=204)


auth_token = endpoint(
    POST=Route(_token_create, body="TokenRequest", auth=False),
    GET=Route(_token_info),
    DELETE=Route(_token_revoke),
)


# --- Games and tables --------------------------------------------------------------


def _rulesets(call: Call) -> HttpResponse:
    return json_response(
        {"rulesets": [payloads.ruleset_json(code) for code in ruleset_codes()]}
    )


rulesets = endpoint(GET=Route(_rulesets))


def _tables(call: Call) -> HttpResponse:
    mine = call.query.get("mine", "0") in ("1", "true")
    games = my_tables(call.user) if mine else lobby_tables(call.user)
    return json_response({"tables": payloads.table_list_json(games[:TABLE_LIST_LIMIT])})


def _table_create(call: Call) -> HttpResponse:
    body = call.body
    game = game_services.game_create(
        host=call.caller,
        ruleset=body["ruleset"],
        seat_count=body["seats"],
        options=body.get("options", {}),
        is_private=body.get("private", False),
        name=body.get("name", ""),
    )
    url = reverse("api:table", kwargs={"code": game.code})
    answer = _table(_game(game.code, call))
    return json_response(answer, status=201, headers={"Location": url})


MINE = {"type": "string", "enum": ["0", "1", "true", "false"]}

tables = endpoint(
    GET=Route(_tables, query={"mine": MINE}),
    POST=Route(_table_create, body="TableCreateRequest"),
)


def _table_get(call: Call, code: str) -> HttpResponse:
    return json_response(_table(_game(code, call)))


def _table_close(call: Call, code: str) -> HttpResponse:
    game_services.table_close(game=_game(code, call), host=call.caller)
    return HttpResponse(status=204)


table = endpoint(GET=Route(_table_get), DELETE=Route(_table_close))


def _seat_join(call: Call, code: str) -> HttpResponse:
    game_services.seat_join(game=_game(code, call), user=call.caller)
    return json_response(_table(_game(code, call)))


def _seat_leave(call: Call, code: str) -> HttpResponse:
    game_services.seat_leave(game=_game(code, call), user=call.caller)
    return json_response(_table(_game(code, call)))


def _game_start(call: Call, code: str) -> HttpResponse:
    game_services.game_start(game=_game(code, call), user=call.caller)
    return json_response(_table(_game(code, call)))


join = endpoint(POST=Route(_seat_join, body="EmptyRequest"))
leave = endpoint(POST=Route(_seat_leave, body="EmptyRequest"))
start = endpoint(POST=Route(_game_start, body="EmptyRequest"))


# --- Play --------------------------------------------------------------------------


def _view(call: Call, code: str) -> HttpResponse:
    return json_response(_envelope(_game(code, call), call))


view = endpoint(GET=Route(_view))


def _act(call: Call, code: str) -> HttpResponse:
    """The answer to a move is the caller's view right after it (its ``version`` is
    the move's own; pushes bring later moves). A refused move answers with the
    error and the caller's view of the table as it stands now."""
    game = _game(code, call)
    try:
        game = game_services.game_act(
            game=game,
            user=call.caller,
            action=call.body["action"],
            turn=call.body["turn"],
        )
    except game_errors.GameError as exc:
        fresh = reachable_game(code, call.user)
        extra = {"view": _envelope(fresh, call)} if fresh is not None else None
        return error_response(exc, extra=extra)
    return json_response(_envelope(game, call))


actions = endpoint(POST=Route(_act, body="ActionRequest"))


# --- Chat --------------------------------------------------------------------------


def _chat_list(call: Call, code: str) -> HttpResponse:
    game = _game(code, call)
    ctx = table_context(game, call.user, with_chat=False)
    channels = list(ctx.chat_channels)
    wanted = call.query.get("channel")
    if wanted is not None:
        if wanted not in channels:
            raise game_errors.ChatChannelClosed
        channels = [wanted]
    messages = chat_messages(game, channels, after=call.query.get("after"))
    return json_response(
        {
            "channels": list(ctx.chat_channels),
            "messages": [payloads.chat_message_json(m) for m in messages],
        }
    )


def _chat_post(call: Call, code: str) -> HttpResponse:
    message = game_services.chat_post(
        game=_game(code, call),
        user=call.caller,
        text=call.body["text"],
        channel=call.body.get("channel", ChatMessage.Channel.TABLE),
    )
    message.author = call.caller
    return json_response(payloads.chat_message_json(message), status=201)


chat = endpoint(
    GET=Route(
        _chat_list,
        query={
            "channel": {"type": "string", "pattern": CHANNEL_PATTERN},
            "after": {"type": "integer", "minimum": 0},
        },
    ),
    POST=Route(_chat_post, body="ChatRequest"),
)


# --- The document and the page -----------------------------------------------------


def _openapi(call: Call) -> HttpResponse:
    return json_response(document())


openapi = endpoint(GET=Route(_openapi, auth=False))


def _not_found(call: Call, **kwargs: Any) -> HttpResponse:
    raise errors.NotFound


not_found = endpoint(
    **{
        method: Route(_not_found, auth=False)
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE")
    }
)


def index(request: HttpRequest) -> HttpResponse:
    """A page for people: what the API offers, and where the schema is."""
    return render(
        request,
        "api/index.html",
        {
            "endpoints": endpoint_list(),
            "schema_url": reverse("api:openapi"),
            "title": gettext("API for programs"),
        },
    )
