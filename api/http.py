"""The API's request pipeline: method, token, language, body and query, in that
order, each refused with a JSON error before any service runs.

A view is ``endpoint(GET=Route(...), POST=Route(...))``: one URL, a route per method.
Sessions and CSRF play no part: a program authenticates with its token on every
request, so a browser's cookie can neither log it in nor be abused through it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.csrf import csrf_exempt

from accounts.models import User
from api import errors
from api.models import ApiToken
from api.schemas import components
from api.tokens import BadAuthorization, key_from_header, token_authenticate
from api.validation import parse_json_object, validate
from games.errors import GameError

MAX_BODY_BYTES = 16 * 1024
JSON_TYPE = "application/json"


@dataclass
class Call:
    """One authenticated (or public) API request, parsed and validated."""

    request: HttpRequest
    user: User | None
    token: ApiToken | None
    body: dict[str, Any] = field(default_factory=dict)
    query: dict[str, Any] = field(default_factory=dict)

    @property
    def caller(self) -> User:
        """The token's user, for routes that require a token."""
        assert self.user is not None
        return self.user


Handler = Callable[..., HttpResponse]


@dataclass(frozen=True)
class Route:
    """How one method of an endpoint is called: ``body`` names the request schema
    (None: no body), ``query`` maps allowed query parameters to their schemas."""

    handler: Handler
    body: str | None = None
    query: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    auth: bool = True


def json_response(
    data: Any, *, status: int = 200, headers: Mapping[str, str] | None = None
) -> HttpResponse:
    body = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False)
    response = HttpResponse(body, status=status, content_type=JSON_TYPE)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def error_json(exc: errors.ApiError | GameError) -> dict[str, Any]:
    error: dict[str, Any] = {"code": exc.code, "message": str(exc)}
    field_name = getattr(exc, "field", None)
    if field_name:
        error["field"] = field_name
    return error


def error_response(
    exc: errors.ApiError | GameError, *, extra: Mapping[str, Any] | None = None
) -> HttpResponse:
    headers: dict[str, str] = {}
    if exc.status == 401:
        headers["WWW-Authenticate"] = 'Token realm="api"'
    body: dict[str, Any] = {"error": error_json(exc), **(extra or {})}
    retry = getattr(exc, "params", {}).get("seconds")
    if isinstance(exc, errors.LockedOut) and retry is not None:
        headers["Retry-After"] = str(retry)
        body["error"]["retry_after"] = retry
    return json_response(body, status=exc.status, headers=headers)


def choose_language(accept_language: str, user: User | None) -> str:
    """The language of an answer to a program: what it asks for in Accept-Language,
    else its user's profile language, else the site's default. (A program sets the
    header on purpose, unlike a browser, so the header comes first here.)"""
    supported = {code for code, _ in settings.LANGUAGES}
    for code, _quality in parse_accept_lang_header(accept_language):
        code = code.lower().split("-")[0]
        if code in supported:
            return code
    language = getattr(user, "language", "") or ""
    return language if language in supported else settings.LANGUAGE_CODE


def call_language(request: HttpRequest, user: User | None) -> str:
    return choose_language(request.headers.get("Accept-Language", ""), user)


def _authenticate(request: HttpRequest) -> tuple[User, ApiToken]:
    try:
        key = key_from_header(request.headers.get("Authorization"))
    except BadAuthorization:
        raise errors.TokenInvalid from None
    if key is None:
        raise errors.TokenMissing
    found = token_authenticate(key)
    if found is None:
        raise errors.TokenInvalid
    return found.user, found.token


def _body(request: HttpRequest, schema_name: str) -> dict[str, Any]:
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise errors.BodyTooLarge(limit=MAX_BODY_BYTES)
    try:
        raw = request.body
    except RequestDataTooBig:
        raise errors.BodyTooLarge(limit=MAX_BODY_BYTES) from None
    if len(raw) > MAX_BODY_BYTES:
        raise errors.BodyTooLarge(limit=MAX_BODY_BYTES)
    if not raw.strip():
        data: dict[str, Any] = {}
    else:
        content_type = request.content_type or ""
        if content_type.lower() != JSON_TYPE:
            raise errors.UnsupportedMediaType
        data = parse_json_object(raw)
    validate(data, {"$ref": schema_name}, components())
    return data


def _query(
    request: HttpRequest, allowed: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """Query parameters, each given once and each one the route knows; an integer
    parameter arrives as digits and is handed on as an int."""
    found: dict[str, Any] = {}
    for name, values in request.GET.lists():
        where = f"?{name}"
        if name not in allowed:
            raise errors.UnknownField(field=where)
        schema = allowed[name]
        if len(values) != 1:
            raise errors.WrongType(field=where, expected=gettext("a single value"))
        value: Any = values[0]
        if schema.get("type") == "integer":
            if not (value.isascii() and value.isdigit()) or len(value) > 12:
                raise errors.WrongType(field=where, expected=gettext("a whole number"))
            value = int(value)
        validate(value, schema, components(), where)
        found[name] = value
    return found


def endpoint(**routes: Route) -> Callable[..., HttpResponse]:
    """One URL of the API, with a route per HTTP method."""

    @csrf_exempt
    def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        user: User | None = None
        with translation.override(call_language(request, None)):
            try:
                route = routes.get(request.method or "")
                if route is None:
                    raise errors.MethodNotAllowed(method=request.method)
                token = None
                if route.auth:
                    user, token = _authenticate(request)
            except errors.ApiError as exc:
                return _with_allow(error_response(exc), routes)
        language = call_language(request, user)
        with translation.override(language):
            try:
                call = Call(request=request, user=user, token=token)
                call.query = _query(request, route.query)
                if route.body is not None:
                    call.body = _body(request, route.body)
                response = route.handler(call, **kwargs)
            except (errors.ApiError, GameError) as exc:
                response = error_response(exc)
        response["Content-Language"] = language
        return response

    view.routes = routes  # type: ignore[attr-defined]
    return view


def _with_allow(response: HttpResponse, routes: Mapping[str, Route]) -> HttpResponse:
    if response.status_code == 405:
        response["Allow"] = ", ".join(sorted(routes))
    return response
