"""Reading what a client sends (an API request's body, a frame on a table's socket,
the page's or a program's): strict JSON, and the refusals of what could not be
read. The page's HTML socket, the socket plumbing (``live.sockets``), the API and
the site's error answers (``config``) all speak these.

Every refusal is one :class:`RequestError` with a stable ``code``, the ``field`` at
fault (``action.team[1]``) and a message in the reader's language; nothing has
changed when one is raised. The API adds its own as subclasses: the checks of a
request's fields against its schema (``api.checks``) and its tokens, methods and
media types (``api.errors``).

It lives here, under the API, because the live room's sockets read and refuse
frames with it; nothing in it knows a table, a game or a schema.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class RequestError(Exception):
    """A request (or a socket frame) refused before anything read it."""

    code = "error"
    status = 400
    message: str | Promise = gettext_lazy("The request could not be understood.")

    def __init__(self, *, field: str | None = None, **params: Any) -> None:
        self.field = field
        self.params = params
        super().__init__(self.code)

    def __str__(self) -> str:
        text = str(self.message)
        params = {"field": self.field or "", **self.params}
        return text % params if "%(" in text else text


class BodyTooLarge(RequestError):
    code = "body_too_large"
    status = 413
    message = gettext_lazy("The request body is too large (at most %(limit)d bytes).")


class InvalidJson(RequestError):
    code = "invalid_json"
    message = gettext_lazy("The request body is not a JSON object: %(reason)s.")


class BadRequest(RequestError):
    code = "bad_request"
    message = gettext_lazy("The request could not be understood. Nothing was changed.")


class ForbiddenCharacter(RequestError):
    code = "forbidden_character"
    message = gettext_lazy(
        "The request contains a NUL character (U+0000), which no address, field or "
        "message may hold. Nothing was changed."
    )


class RateLimited(RequestError):
    code = "rate_limited"
    status = 429
    message = gettext_lazy("Too many messages at once: slow down, then send it again.")


class BinaryFrame(RequestError):
    code = "binary_frame"
    message = gettext_lazy("Send JSON text frames only; a binary frame is not read.")


class TooDeep(RequestError):
    code = "too_deep"
    message = gettext_lazy(
        "The message is nested too deeply (at most %(limit)d levels)."
    )


class ServerError(RequestError):
    code = "server_error"
    status = 500
    message = gettext_lazy("Something broke on our side. Please try again in a moment.")


class Unavailable(RequestError):
    code = "unavailable"
    status = 503
    message = gettext_lazy(
        "The site is temporarily unavailable; please try again in a moment. If you "
        "sent a move, read the table's view first: it may have been applied."
    )


def error_json(exc: Exception) -> dict[str, Any]:
    """The ``{"code", "message", "field"?}`` of an error a program may read (a
    ``RequestError`` or a ``games.errors.GameError``), in the active language."""
    error: dict[str, Any] = {"code": getattr(exc, "code", "error"), "message": str(exc)}
    field = getattr(exc, "field", None)
    if field:
        error["field"] = field
    return error


# --- JSON ----------------------------------------------------------------------------


class DuplicateKey(ValueError):
    pass


LONE_SURROGATE = gettext_lazy(
    "it holds a \\u escape of half a character (a lone surrogate)"
)


class LoneSurrogate(ValueError):
    """A ``\\uD800``–``\\uDFFF`` escape without its pair: not a character, and no
    text encoding (UTF-8, the database's, a log's) can write it."""


def _is_text(value: Any) -> bool:
    """``value`` (a key, or a string or list of them) holds no lone surrogate.
    Objects inside are checked by their own hook, as ``json.loads`` builds them."""
    if isinstance(value, str):
        return not any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, list):
        return all(_is_text(item) for item in value)
    return True


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s ``object_pairs_hook``: a key twice is an error, and so is a
    lone surrogate in a key or a value (checked first: an error names the key)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if not (_is_text(key) and _is_text(value)):
            raise LoneSurrogate
        if key in found:
            raise DuplicateKey(key)
        found[key] = value
    return found


def no_constants(name: str) -> Any:
    """``json.loads``'s ``parse_constant``: NaN and Infinity are errors."""
    raise ValueError(name)


def parse_json_object(raw: bytes | str) -> dict[str, Any]:
    """``raw`` as one JSON object. Duplicate keys, NaN and Infinity, and anything
    but an object at the top are refused, so nothing ambiguous reaches a service."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidJson(reason=_("it is not UTF-8 text")) from None
    try:
        data = json.loads(
            raw, object_pairs_hook=no_duplicate_keys, parse_constant=no_constants
        )
    except DuplicateKey as exc:
        reason = _("the key “%(key)s” appears twice") % {"key": exc.args[0]}
        raise InvalidJson(reason=reason) from None
    except LoneSurrogate:
        raise InvalidJson(reason=LONE_SURROGATE) from None
    except (ValueError, RecursionError):
        raise InvalidJson(reason=_("it is not valid JSON")) from None
    if not isinstance(data, dict):
        raise InvalidJson(reason=_("the top level must be an object"))
    return data
