"""Errors of the API itself: the token, the HTTP method, the address, the media type.

The checks of a body, a query or a socket frame (``invalid_json``,
``missing_field``...) are ``live.requests``'s and ``api.checks``'s, shared with the
JSON socket; game errors are ``games.errors.GameError``. Each has a stable ``code``
for programs and a message in the caller's language, and nothing has changed when
one is raised.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from live.requests import RequestError


class TokenMissing(RequestError):
    code = "token_missing"
    status = 401
    message = _("Send your API token in the Authorization header: “Token <key>”.")


class TokenInvalid(RequestError):
    code = "token_invalid"
    status = 401
    message = _("This API token is not valid: it may have been revoked.")


class InvalidCredentials(RequestError):
    code = "invalid_credentials"
    status = 401
    message = _("Wrong user name or password.")


class LockedOut(RequestError):
    code = "locked_out"
    status = 429
    message = _("Too many failed attempts to log in. Try again in %(seconds)d seconds.")


class NotFound(RequestError):
    code = "not_found"
    status = 404
    message = _("There is no such API endpoint.")


class MethodNotAllowed(RequestError):
    code = "method_not_allowed"
    status = 405
    message = _("This endpoint does not accept %(method)s.")


class UnsupportedMediaType(RequestError):
    code = "unsupported_media_type"
    status = 415
    message = _("Send the body as JSON, with “Content-Type: application/json”.")
