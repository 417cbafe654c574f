"""Reading what a program sends (an API request's body or query, a frame on a
table's JSON socket): strict JSON, checked against the pydantic models of
``games.schemas`` and the families' move schemas.

Every refusal is one :class:`RequestError` with a stable ``code``, the ``field`` at
fault (``action.team[1]``) and a message in the reader's language; nothing has
changed when one is raised. The API (``api``) raises these too, and adds its own
(tokens, methods, media types) as subclasses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from games import engine
from games.kit.family import family_of


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


class MissingField(RequestError):
    code = "missing_field"
    message = gettext_lazy("“%(field)s” is required.")


class UnknownField(RequestError):
    code = "unknown_field"
    message = gettext_lazy("“%(field)s” is not a field this endpoint accepts.")


class WrongType(RequestError):
    code = "wrong_type"
    message = gettext_lazy("“%(field)s” must be %(expected)s.")


class OutOfRange(RequestError):
    code = "out_of_range"
    message = gettext_lazy("“%(field)s” must be %(limits)s.")


class InvalidFormat(RequestError):
    code = "invalid_format"
    message = gettext_lazy("“%(field)s” is not written as it should be.")


class InvalidChoice(RequestError):
    code = "invalid_choice"
    message = gettext_lazy("“%(field)s” must be one of: %(choices)s.")


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


# --- Checks --------------------------------------------------------------------------


def checked(model: type[BaseModel], data: Any, *, where: str = "") -> Any:
    """``data`` validated by ``model``; a refusal is the ``RequestError`` of its
    first fault, its field named from ``where`` (the place of ``data`` in the
    request)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise refusal(exc.errors(include_url=False), data, where=where) from None


def move_of(ruleset: str, data: Any, *, where: str = "action") -> dict[str, Any]:
    """A move sent to a table of ``ruleset``, checked by its family's move schema:
    the action dict the engine is handed."""
    move = checked(family_of(ruleset).programs.move_schema, data, where=where)
    return dict(move.model_dump())


def _child(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def field_path(loc: Sequence[str | int], data: Any, where: str = "") -> str:
    """The data path of a pydantic error's location. Following ``data`` tells the
    places in it (keys, indexes) from the names of a union's branches, which
    pydantic also puts in ``loc`` but which are nowhere in what was sent."""
    path, node = where, data
    for index, key in enumerate(loc):
        if (
            isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node)
        ) or (isinstance(node, dict) and key in node):
            path, node = _child(path, key), node[key]
        elif isinstance(node, dict) and index == len(loc) - 1:
            path, node = _child(path, key), None  # a field that is missing
    return path


def _type_words() -> dict[str, str]:
    object_word = _("a JSON object")
    return {
        "string_type": _("a text"),
        "int_type": _("a whole number"),
        "bool_type": _("true or false"),
        "list_type": _("a list"),
        "dict_type": object_word,
        "model_type": object_word,
        "model_attributes_type": object_word,
        "none_required": _("null"),
    }


def refusal(
    errors: Sequence[ErrorDetails], data: Any, *, where: str = ""
) -> RequestError:
    """The one error to answer for pydantic's ``errors`` about ``data``."""
    first = errors[0]
    kind, ctx = first["type"], first.get("ctx") or {}
    field = field_path(first["loc"], data, where)
    words = _type_words()
    if kind == "missing":
        return MissingField(field=field)
    if kind == "extra_forbidden":
        return UnknownField(field=field)
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        tag = _child(field, str(ctx.get("discriminator", "type")).strip("'"))
        if kind == "union_tag_not_found":
            return MissingField(field=tag)
        return InvalidChoice(field=tag, choices=_choices(ctx.get("expected_tags", "")))
    if kind in ("literal_error", "enum"):
        if not isinstance(first.get("input"), str):  # every choice is a code
            return WrongType(field=field, expected=words["string_type"])
        return InvalidChoice(field=field, choices=_choices(ctx.get("expected", "")))
    if kind == "string_pattern_mismatch":
        return InvalidFormat(field=field)
    if kind in words:
        # A value that fits none of a union's types fails once per type.
        kinds = [
            error["type"]
            for error in errors
            if field_path(error["loc"], data, where) == field and error["type"] in words
        ]
        expected = _(" or ").join(dict.fromkeys(words[k] for k in kinds))
        return WrongType(field=field or "body", expected=expected)
    limits = _limits(kind, ctx)
    if limits is not None:
        return OutOfRange(field=field or "body", limits=limits)
    return RequestError(field=field or None)


def _choices(expected: str) -> str:
    """Pydantic's English list of a literal's values (``'a', 'b' or 'c'``), written
    as a program sends them (``"a", "b", "c"``)."""
    found = re.findall(r"'([^']*)'", str(expected))
    return listed(found) if found else str(expected)


def _limits(kind: str, ctx: dict[str, Any]) -> str | None:
    """What the bound a value broke says, in words."""
    if kind in ("greater_than_equal", "greater_than"):
        low = ctx["ge"] if "ge" in ctx else ctx["gt"] + 1
        return _("at least %(low)d") % {"low": low}
    if kind in ("less_than_equal", "less_than"):
        high = ctx["le"] if "le" in ctx else ctx["lt"] - 1
        return _("at most %(high)d") % {"high": high}
    if kind == "string_too_short":
        return _("at least %(low)d characters long") % {"low": ctx["min_length"]}
    if kind == "string_too_long":
        return _("at most %(high)d characters long") % {"high": ctx["max_length"]}
    if kind == "too_short":
        return _("a list of at least %(low)d items") % {"low": ctx["min_length"]}
    if kind == "too_long":
        high = ctx["max_length"]
        if ctx.get("field_type") == "Dictionary":
            return _("an object with at most %(high)d fields") % {"high": high}
        return _("at most %(high)d") % {"high": high}
    return None


# --- A table's options ---------------------------------------------------------------


def accepted_options(ruleset: str) -> tuple[engine.OptionSpec, ...]:
    """The options a table of ``ruleset`` may be opened with: the game's own, and
    ``chat`` at its fixed value where the game does not let a table switch it (the
    engine takes it, at that value only, so every game's tables accept ``chat``)."""
    rules = engine.get_ruleset(ruleset)
    options = tuple(rules.options)
    if not any(option.name == "chat" for option in options):
        fixed = rules.chat_default
        options += (engine.OptionSpec("chat", fixed, "", "", choices=((fixed, ""),)),)
    return options


def option_value_schema(option: engine.OptionSpec) -> dict[str, Any]:
    """The JSON Schema of the values ``option`` takes."""
    if option.choices:
        return {"enum": [value for value, _label in option.choices]}
    if isinstance(option.default, bool):
        return {"type": "boolean"}
    if isinstance(option.default, int):
        bounds = {"minimum": option.minimum, "maximum": option.maximum}
        return {"type": "integer", **{k: v for k, v in bounds.items() if v is not None}}
    return {"type": "string"}


def listed(values: Sequence[Any]) -> str:
    """Values as a program writes them: JSON, comma-separated."""
    return ", ".join(json.dumps(value, ensure_ascii=False) for value in values)


def _bounds(option: engine.OptionSpec) -> str:
    low, high = option.minimum, option.maximum
    if low is not None and high is not None:
        return _("from %(low)d to %(high)d") % {"low": low, "high": high}
    if low is not None:
        return _("at least %(low)d") % {"low": low}
    return _("at most %(high)d") % {"high": high}


def check_options(ruleset: str, seats: int, options: dict[str, Any]) -> None:
    """Refuse a table's seat count or options that ``ruleset`` does not take, with
    the field at fault and the values it does take (the engine checks them again
    when the table is opened)."""
    rules = engine.get_ruleset(ruleset)
    if not rules.min_players <= seats <= rules.max_players:
        low, high = rules.min_players, rules.max_players
        if low == high:
            limits = _("exactly %(count)d") % {"count": low}
        else:
            limits = _("from %(low)d to %(high)d") % {"low": low, "high": high}
        raise OutOfRange(field="seats", limits=limits)
    specs = {option.name: option for option in accepted_options(ruleset)}
    for name, value in options.items():
        field = _child("options", name)
        option = specs.get(name)
        if option is None:
            raise UnknownField(field=field)
        if option.accepts(value):
            continue
        if option.choices:
            choices = [choice for choice, _label in option.choices]
            raise InvalidChoice(field=field, choices=listed(choices))
        words = _type_words()
        if isinstance(option.default, bool):
            expected = words["bool_type"]
        elif isinstance(option.default, int):
            expected = words["int_type"]
        else:
            expected = words["string_type"]
        if type(value) is not type(option.default):
            raise WrongType(field=field, expected=expected)
        raise OutOfRange(field=field, limits=_bounds(option))
