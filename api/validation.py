"""Strict checks of what a program sends, against the same JSON Schemas the OpenAPI
document publishes (``api.schemas``), so the document cannot drift from the checks.

Only the small part of JSON Schema those schemas use is understood: ``type``,
``properties``, ``required``, ``additionalProperties``, ``enum``, ``minLength``,
``maxLength``, ``minimum``, ``maximum``, ``minItems``, ``maxItems``, ``items``,
``maxProperties``, ``$ref`` and ``oneOf`` with a ``discriminator``. Hand-written rather
than ``jsonschema`` because each failure must become one error with a stable code, the
field's path and a message in the caller's language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from api import errors

SchemaMap = Mapping[str, Mapping[str, Any]]


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def _no_constants(name: str) -> Any:
    raise ValueError(name)


def parse_json_object(body: bytes) -> dict[str, Any]:
    """The body as a JSON object. Refuses duplicate keys, NaN and Infinity, and
    anything but an object at the top, so nothing ambiguous reaches a service."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise errors.InvalidJson(reason=_("it is not UTF-8 text")) from None
    try:
        data = json.loads(
            text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants
        )
    except _DuplicateKey as exc:
        raise errors.InvalidJson(
            reason=_("the key “%(key)s” appears twice") % {"key": exc.args[0]}
        ) from None
    except (ValueError, RecursionError):
        raise errors.InvalidJson(reason=_("it is not valid JSON")) from None
    if not isinstance(data, dict):
        raise errors.InvalidJson(reason=_("the top level must be an object"))
    return data


def _type_words() -> dict[str, str]:
    return {
        "string": _("a text"),
        "integer": _("a whole number"),
        "boolean": _("true or false"),
        "array": _("a list"),
        "object": _("a JSON object"),
        "null": _("null"),
    }


def _has_type(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return type(value) is int  # JSON true/false are not numbers here
    if kind == "boolean":
        return type(value) is bool
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "null":
        return value is None
    raise ValueError(f"schema type {kind!r} is not supported")


def _child(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _resolve(schema: Mapping[str, Any], components: SchemaMap) -> Mapping[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = components[name]
    return schema


def validate(
    value: Any, schema: Mapping[str, Any], components: SchemaMap, path: str = ""
) -> None:
    """Raise the first ``ApiError`` that ``value`` earns against ``schema``."""
    schema = _resolve(schema, components)
    if "oneOf" in schema:
        _validate_one_of(value, schema, components, path)
        return
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_has_type(value, kind) for kind in kinds):
            words = _type_words()
            expected = _(" or ").join(words[kind] for kind in kinds)
            raise errors.WrongType(field=path or "body", expected=expected)
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(json.dumps(choice) for choice in schema["enum"])
        raise errors.InvalidChoice(field=path, choices=choices)
    if isinstance(value, str):
        _validate_string(value, schema, path)
    elif type(value) is int:
        _validate_integer(value, schema, path)
    elif isinstance(value, list):
        _validate_array(value, schema, components, path)
    elif isinstance(value, dict):
        _validate_object(value, schema, components, path)


def _validate_string(value: str, schema: Mapping[str, Any], path: str) -> None:
    pattern = schema.get("pattern")
    if pattern is not None and re.fullmatch(pattern, value) is None:
        raise errors.InvalidFormat(field=path)
    low, high = schema.get("minLength"), schema.get("maxLength")
    if (low is not None and len(value) < low) or (
        high is not None and len(value) > high
    ):
        if low and high is not None:
            limits = _("from %(low)d to %(high)d characters long") % {
                "low": low,
                "high": high,
            }
        elif high is not None:
            limits = _("at most %(high)d characters long") % {"high": high}
        else:
            limits = _("at least %(low)d characters long") % {"low": low}
        raise errors.OutOfRange(field=path, limits=limits)


def _validate_integer(value: int, schema: Mapping[str, Any], path: str) -> None:
    low, high = schema.get("minimum"), schema.get("maximum")
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            limits = _("at least %(low)d") % {"low": low}
        elif low is None:
            limits = _("at most %(high)d") % {"high": high}
        else:
            limits = _("from %(low)d to %(high)d") % {"low": low, "high": high}
        raise errors.OutOfRange(field=path, limits=limits)


def _validate_array(
    value: list[Any], schema: Mapping[str, Any], components: SchemaMap, path: str
) -> None:
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    if len(value) < low or (high is not None and len(value) > high):
        if high is None:
            limits = _("a list of at least %(low)d items") % {"low": low}
        else:
            limits = _("a list of %(low)d to %(high)d items") % {
                "low": low,
                "high": high,
            }
        raise errors.OutOfRange(field=path, limits=limits)
    items = schema.get("items")
    if items is not None:
        for index, item in enumerate(value):
            validate(item, items, components, _child(path, index))


def _validate_object(
    value: dict[str, Any],
    schema: Mapping[str, Any],
    components: SchemaMap,
    path: str,
) -> None:
    properties: Mapping[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties", False)
    high = schema.get("maxProperties")
    if high is not None and len(value) > high:
        limits = _("an object with at most %(high)d fields") % {"high": high}
        raise errors.OutOfRange(field=path or "body", limits=limits)
    for key in value:
        if key not in properties and extra is False:
            raise errors.UnknownField(field=_child(path, key))
    for key in schema.get("required", ()):
        if key not in value:
            raise errors.MissingField(field=_child(path, key))
    for key, item in value.items():
        sub = properties.get(key, extra)
        if isinstance(sub, Mapping):
            validate(item, sub, components, _child(path, key))


def _validate_one_of(
    value: Any, schema: Mapping[str, Any], components: SchemaMap, path: str
) -> None:
    """Only the discriminated form: the discriminator names the one schema."""
    discriminator = schema["discriminator"]
    name = discriminator["propertyName"]
    mapping: Mapping[str, str] = discriminator["mapping"]
    if not isinstance(value, dict):
        raise errors.WrongType(field=path or "body", expected=_type_words()["object"])
    if name not in value:
        raise errors.MissingField(field=_child(path, name))
    kind = value[name]
    if not isinstance(kind, str) or kind not in mapping:
        choices = ", ".join(json.dumps(choice) for choice in mapping)
        raise errors.InvalidChoice(field=_child(path, name), choices=choices)
    validate(value, {"$ref": mapping[kind]}, components, path)
