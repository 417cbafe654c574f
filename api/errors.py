"""Errors of the API itself: authentication, HTTP method, body and query checks.

Game errors (a full table, a move the rules forbid, the table moved on) are
``games.errors.GameError``; these are the ones that stop a request before any service
is called, so nothing has changed when they are raised. Each has a stable ``code``
for programs and a message in the caller's language.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class ApiError(Exception):
    code = "error"
    status = 400
    message: str | Promise = _("The request could not be understood.")

    def __init__(self, *, field: str | None = None, **params: Any) -> None:
        self.field = field
        self.params = params
        super().__init__(self.code)

    def __str__(self) -> str:
        text = str(self.message)
        params = {"field": self.field or "", **self.params}
        return text % params if "%(" in text else text


class TokenMissing(ApiError):
    code = "token_missing"
    status = 401
    message = _("Send your API token in the Authorization header: “Token <key>”.")


class TokenInvalid(ApiError):
    code = "token_invalid"
    status = 401
    message = _("This API token is not valid: it may have been revoked.")


class InvalidCredentials(ApiError):
    code = "invalid_credentials"
    status = 401
    message = _("Wrong user name or password.")


class LockedOut(ApiError):
    code = "locked_out"
    status = 429
    message = _("Too many failed attempts to log in. Try again in %(seconds)d seconds.")


class NotFound(ApiError):
    code = "not_found"
    status = 404
    message = _("There is no such API endpoint.")


class MethodNotAllowed(ApiError):
    code = "method_not_allowed"
    status = 405
    message = _("This endpoint does not accept %(method)s.")


class UnsupportedMediaType(ApiError):
    code = "unsupported_media_type"
    status = 415
    message = _("Send the body as JSON, with “Content-Type: application/json”.")


class BodyTooLarge(ApiError):
    code = "body_too_large"
    status = 413
    message = _("The request body is too large (at most %(limit)d bytes).")


class InvalidJson(ApiError):
    code = "invalid_json"
    message = _("The request body is not a JSON object: %(reason)s.")


class MissingField(ApiError):
    code = "missing_field"
    message = _("“%(field)s” is required.")


class UnknownField(ApiError):
    code = "unknown_field"
    message = _("“%(field)s” is not a field this endpoint accepts.")


class WrongType(ApiError):
    code = "wrong_type"
    message = _("“%(field)s” must be %(expected)s.")


class OutOfRange(ApiError):
    code = "out_of_range"
    message = _("“%(field)s” must be %(limits)s.")


class InvalidChoice(ApiError):
    code = "invalid_choice"
    message = _("“%(field)s” must be one of: %(choices)s.")


class BadRequest(ApiError):
    code = "bad_request"
    message = _("The request could not be understood. Nothing was changed.")


class ForbiddenCharacter(ApiError):
    code = "forbidden_character"
    message = _(
        "The request contains a NUL character (U+0000), which no address, field or "
        "message may hold. Nothing was changed."
    )


class RateLimited(ApiError):
    code = "rate_limited"
    status = 429
    message = _("Too many messages at once: slow down, then send it again.")


class BinaryFrame(ApiError):
    code = "binary_frame"
    message = _("Send JSON text frames only; a binary frame is not read.")


class TooDeep(ApiError):
    code = "too_deep"
    message = _("The message is nested too deeply (at most %(limit)d levels).")


class ServerError(ApiError):
    code = "server_error"
    status = 500
    message = _("Something broke on our side. Please try again in a moment.")


class Unavailable(ApiError):
    code = "unavailable"
    status = 503
    message = _(
        "The site is temporarily unavailable; please try again in a moment. If you "
        "sent a move, read the table's view first: it may have been applied."
    )


API_ERRORS: tuple[type[ApiError], ...] = (
    TokenMissing,
    TokenInvalid,
    InvalidCredentials,
    LockedOut,
    NotFound,
    MethodNotAllowed,
    UnsupportedMediaType,
    BodyTooLarge,
    InvalidJson,
    MissingField,
    UnknownField,
    WrongType,
    OutOfRange,
    InvalidChoice,
    BadRequest,
    ForbiddenCharacter,
    RateLimited,
    BinaryFrame,
    TooDeep,
    ServerError,
    Unavailable,
)
