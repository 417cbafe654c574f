"""django-ninja, set up for this API.

Ninja routes each request to its endpoint, runs the token check, validates the body,
the query and the answer with the pydantic models of ``api.schemas`` and
``api.shapes``, and writes the OpenAPI document from them. What this module adds:

* strict input: a body is one JSON object of at most ``MAX_BODY_BYTES`` sent as
  ``application/json`` (duplicate keys, NaN and Infinity refused), a query names
  only the endpoint's parameters, each once; every refusal is a
  ``live.requests.RequestError`` with a stable code and the field at fault;
* one error envelope, ``{"error": {"code", "message", "field"?}}``, for every
  refusal (request checks, the token, the method, an unknown address, the game
  services), in the caller's language: Accept-Language first, else the token's
  user's profile (``Content-Language`` says which);
* the document: built once, in English, with the table socket's messages among its
  components.

Sessions and CSRF play no part: a program authenticates with its token on every
request, so a browser's cookie can neither log it in nor be abused through it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

import pydantic
from django.core.exceptions import ImproperlyConfigured, RequestDataTooBig
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.urls import URLPattern, path
from django.utils import translation
from django.utils.translation import gettext
from ninja import NinjaAPI
from ninja.openapi.schema import REF_TEMPLATE, OpenAPISchema
from ninja.params import models as params
from ninja.renderers import JSONRenderer
from ninja.schema import NinjaGenerateJsonSchema
from ninja.security import APIKeyHeader

from api import checks, errors, payloads
from api.shapes import SocketActed, SocketChatMessage, SocketError, shapes
from api.tokens import BadAuthorization, key_from_header, token_authenticate
from games.errors import GameError
from live import requests

MAX_BODY_BYTES = 16 * 1024
JSON_TYPE = "application/json"


# --- Input ---------------------------------------------------------------------------


def _json_body(request: HttpRequest) -> Any:
    """The body as one JSON object; no body at all is an empty one."""
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise requests.BodyTooLarge(limit=MAX_BODY_BYTES)
    try:
        raw = request.body
    except RequestDataTooBig:
        raise requests.BodyTooLarge(limit=MAX_BODY_BYTES) from None
    if len(raw) > MAX_BODY_BYTES:
        raise requests.BodyTooLarge(limit=MAX_BODY_BYTES)
    if not raw.strip():
        return {}
    if (request.content_type or "").lower() != JSON_TYPE:
        raise errors.UnsupportedMediaType
    return requests.parse_json_object(raw)


class StrictBodyModel(params.BodyModel):
    @classmethod
    def resolve(
        cls, request: HttpRequest, api: NinjaAPI, path_params: dict[str, Any]
    ) -> Any:
        # Ninja reads a single body parameter from under its name.
        name = cls.__read_from_single_attr__
        body = _json_body(request)
        try:
            return cls.model_validate({name: body})
        except pydantic.ValidationError as exc:
            details = exc.errors(include_url=False)
            for detail in details:
                detail["loc"] = detail["loc"][1:]
            raise checks.refusal(details, body) from None


class StrictQueryModel(params.QueryModel):
    model_config = pydantic.ConfigDict(strict=True)

    @classmethod
    def resolve(
        cls, request: HttpRequest, api: NinjaAPI, path_params: dict[str, Any]
    ) -> Any:
        known = cls.__ninja_flatten_map__
        found: dict[str, Any] = {}
        for name, values in request.GET.lists():
            where = f"?{name}"
            if name not in known:
                raise checks.UnknownField(field=where)
            if len(values) != 1:
                expected = gettext("a single value")
                raise checks.WrongType(field=where, expected=expected)
            found[name] = values[0]
        found = cls._map_data_paths(found)
        try:
            return cls.model_validate(found)
        except pydantic.ValidationError as exc:
            refused = checks.refusal(exc.errors(include_url=False), found)
            refused.field = f"?{refused.field}"
            raise refused from None


class Body(params.Body):  # type: ignore[misc]
    """A JSON body, strictly (the class name is ninja's name of the source)."""

    _model = StrictBodyModel


class Query(params.Query):  # type: ignore[misc]
    """Query parameters, strictly: none unknown, each once."""

    _model = StrictQueryModel


# --- The token and the language ------------------------------------------------------


class TokenAuth(APIKeyHeader):
    """``Authorization: Token <key>`` on every request but logging in; the token's
    user becomes ``request.auth`` and the token ``request.api_token``."""

    param_name = "Authorization"
    openapi_description = "`Token <key>`, the key from POST /api/v1/auth/token."

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        try:
            key = key_from_header(key)
        except BadAuthorization:
            raise errors.TokenInvalid from None
        if key is None:
            raise errors.TokenMissing
        found = token_authenticate(key)
        if found is None:
            raise errors.TokenInvalid
        request.api_token = found.token  # type: ignore[attr-defined]
        # Now the user is known: their profile's language, unless the program
        # asked for one (see ``_answering``).
        header = request.headers.get("Accept-Language", "")
        translation.activate(payloads.program_language(header, found.user))
        return found.user


def _answering(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """One of the API's URLs: in the caller's language, with JSON errors for a
    method the URL does not take and for an address that is not there."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        header = request.headers.get("Accept-Language", "")
        with translation.override(payloads.program_language(header, None)):
            try:
                response = view(request, *args, **kwargs)
            except Http404:
                response = error_response(errors.NotFound())
            if isinstance(response, HttpResponseNotAllowed):
                allowed = sorted(m.strip() for m in response["Allow"].split(","))
                refused = errors.MethodNotAllowed(method=request.method)
                response = error_response(refused)
                response["Allow"] = ", ".join(allowed)
            response["Content-Language"] = translation.get_language()
        return response

    answer.csrf_exempt = True  # type: ignore[attr-defined]
    return answer


@_answering
def not_found(request: HttpRequest, **kwargs: Any) -> HttpResponse:
    """Anything else under /api/v1/ answers a JSON 404, not the site's HTML page."""
    raise Http404


# --- Answers -------------------------------------------------------------------------


def json_text(data: Any) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False)


class Renderer(JSONRenderer):
    json_dumps_params = {"ensure_ascii": False}


def error_response(
    exc: Exception, *, extra: dict[str, Any] | None = None
) -> HttpResponse:
    """The error envelope for a refusal: ``{"error": {...}, **extra}``."""
    body: dict[str, Any] = {"error": requests.error_json(exc), **(extra or {})}
    status = getattr(exc, "status", 400)
    headers = {}
    if status == 401:
        headers["WWW-Authenticate"] = 'Token realm="api"'
    seconds = getattr(exc, "params", {}).get("seconds")
    if isinstance(exc, errors.LockedOut) and seconds is not None:
        headers["Retry-After"] = str(seconds)
        body["error"]["retry_after"] = seconds
    response = HttpResponse(json_text(body), status=status, content_type=JSON_TYPE)
    for name, value in headers.items():
        response[name] = value
    return response


class _Document(OpenAPISchema):
    """Ninja's document, refusing two different schemas under one name (model names
    are component names, and families name theirs after themselves)."""

    def add_schema_definitions(self, definitions: dict[str, Any]) -> None:
        for name, schema in definitions.items():
            known = self.schemas.get(name)
            if known is not None and known != schema:
                raise ImproperlyConfigured(f"two API schemas are named {name!r}")
        super().add_schema_definitions(definitions)


def _socket_schemas() -> dict[str, Any]:
    """The table socket's messages: documented, though no HTTP operation uses them."""
    found = shapes()
    sent = [found.SocketView, SocketChatMessage, SocketActed, SocketError]
    inputs: list[Any] = [
        (model, "serialization", pydantic.TypeAdapter(model)) for model in sent
    ]
    socket_message = found.SocketMessage
    inputs.append((socket_message, "validation", pydantic.TypeAdapter(socket_message)))
    _refs, top = pydantic.TypeAdapter.json_schemas(
        inputs, ref_template=REF_TEMPLATE, schema_generator=NinjaGenerateJsonSchema
    )
    return dict(top.get("$defs", {}))


class Api(NinjaAPI):
    """The API for programs: every endpoint token-authenticated unless it says
    otherwise, every refusal one JSON error."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            openapi_url=None,  # served by an endpoint of its own (GET only)
            docs_url=None,  # no browsable page: it would load scripts from elsewhere
            urls_namespace="api",
            auth=TokenAuth(),
            renderer=Renderer(),
            **kwargs,
        )
        self._document: dict[str, Any] | None = None
        self.add_exception_handler(requests.RequestError, self._refused)
        self.add_exception_handler(GameError, self._refused)
        self.add_exception_handler(RequestDataTooBig, self._too_large)

    def _refused(self, request: HttpRequest, exc: Exception) -> HttpResponse:
        return error_response(exc)

    def _too_large(self, request: HttpRequest, exc: Exception) -> HttpResponse:
        return error_response(requests.BodyTooLarge(limit=MAX_BODY_BYTES))

    def get_content_type(self) -> str:
        return JSON_TYPE

    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: Any = None
    ) -> Any:
        return self.document()

    def document(self) -> dict[str, Any]:
        """The OpenAPI 3.1 document, built once per process, in English."""
        if self._document is None:
            with translation.override("en"):
                schema = _Document(self, self.get_root_path({}))
                schema.add_schema_definitions(_socket_schemas())
                self._document = json.loads(json_text(schema))
        return self._document

    def url_patterns(self) -> list[URLPattern]:
        """Ninja's URLs, each answering in the caller's language (``_answering``)."""
        patterns, _app, _namespace = self.urls
        return [
            path(str(p.pattern), _answering(p.callback), name=p.name)
            for p in patterns
            if isinstance(p, URLPattern)
        ]
