"""Checking what a program sends against its schema: a request's body or query, a
frame of a table's JSON socket, a move against its table's family's move schema
(``api.shapes`` and the families' ``Programs.move_schema``), a new table's seat count
and options against its game.

Every refusal is a ``live.requests.RequestError`` (the field-level ones are here) with
a stable ``code``, the ``field`` at fault (``action.team[1]``) and a message in the
reader's language; nothing has changed when one is raised.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from games import engine
from games.kit.family import family_of
from games.kit.schemas import NOT_AT_THE_TABLE, SEATS
from live.requests import RequestError


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
    """A value outside the bounds its field takes, named in the message: a number,
    a text's or a list's length, a table's seat count or option, and a seat a move
    names that is not at the table (seat 7 at a table of five: "from 0 to 4")."""

    code = "out_of_range"
    message = gettext_lazy("“%(field)s” must be %(limits)s.")


class InvalidFormat(RequestError):
    code = "invalid_format"
    message = gettext_lazy("“%(field)s” is not written as it should be.")


class InvalidChoice(RequestError):
    code = "invalid_choice"
    message = gettext_lazy("“%(field)s” must be one of: %(choices)s.")


# --- Checks --------------------------------------------------------------------------


def checked(
    model: type[BaseModel],
    data: Any,
    *,
    where: str = "",
    context: dict[str, Any] | None = None,
) -> Any:
    """``data`` validated by ``model`` (with ``context``, which validators such as
    ``games.kit.AtTheTable`` read); a refusal is the ``RequestError`` of its first
    fault, its field named from ``where`` (the place of ``data`` in the request)."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise refusal(exc.errors(include_url=False), data, where=where) from None


def move_of(
    ruleset: str, data: Any, *, seats: int | None, where: str = "action"
) -> dict[str, Any]:
    """A move sent to a table of ``ruleset`` with ``seats`` seats, checked by its
    family's move schema: the action dict the engine is handed.

    Every seat the move names (a field typed with ``games.kit.AtTheTable``) must be
    one of the table's, ``0`` to ``seats - 1``: any other whole number is
    ``out_of_range`` naming that range, in every family and every move, before
    the engine sees it (which would refuse it too, as ``bad_target``). ``seats`` is
    None only where no table is meant (the schema's own bounds alone apply)."""
    schema = family_of(ruleset).programs.move_schema
    context = None if seats is None else {SEATS: seats}
    move = checked(schema, data, where=where, context=context)
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
    if kind == NOT_AT_THE_TABLE:
        return _("from %(low)d to %(high)d") % {"low": ctx["low"], "high": ctx["high"]}
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
