"""What the fuzz sends: text of every kind (NUL, other scripts' digits, huge and
empty strings), move-shaped fields and arbitrary JSON."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from games.families.resistance.moves import MOVE_TYPES

NASTY = st.sampled_from(
    ["", " ", "\x00", "a\x00b", "²", "①", "٣", "-1", "1e3", "0x1", "999999",
     "\u202e", "<script>", "' OR 1=1 --", "\ud7ff", "x" * 5000, "null", "[]", "{}"]
)  # fmt: skip
TEXT = st.one_of(NASTY, st.text(max_size=40))
NUMBER_TEXT = st.one_of(NASTY, st.integers(-5, 1000).map(str), st.text(max_size=4))
KIND = st.one_of(st.sampled_from(sorted(MOVE_TYPES)), TEXT)

# Half a character (a lone surrogate): only where text travels as JSON, which
# writes it as a \u escape (a form or a URL cannot carry it at all).
LONE_SURROGATE = st.sampled_from(["\ud800", "a\udfffb", "\udc00\ud83d", "\ud83d"])
JSON_TEXT = st.one_of(TEXT, LONE_SURROGATE)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | JSON_TEXT,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4)
    ),
    max_leaves=12,
)
# Redirect targets (a form's "next"): words, other hosts and schemes, odd slashes.
NEXT = st.one_of(
    st.sampled_from(
        ["home", "games:lobby", "not a url", "https://evil.example/",
         "//evil.example/x", "/\\evil.example", "\\\\evil.example", "http:///x",
         "javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", " /x",
         "/clubs/\x01", "/\t/evil.example", "ftp://evil.example", "/"]
    ),
    TEXT,
)  # fmt: skip


@st.composite
def move_fields(draw: st.DrawFn) -> dict[str, Any]:
    """Form fields of a move: mostly the right names, any values."""
    fields: dict[str, Any] = {"action": draw(KIND), "turn": draw(NUMBER_TEXT)}
    for name in draw(st.sets(st.sampled_from(["team", "target", "approve", "card",
                                               "side", "extra"]))):  # fmt: skip
        if name == "team":
            fields[name] = draw(st.lists(NUMBER_TEXT, max_size=4))
        else:
            fields[name] = draw(TEXT)
    return fields


@st.composite
def socket_frame(draw: st.DrawFn, *, json_mode: bool) -> tuple[str, Any]:
    """("text", str) or ("bytes", bytes): a move, a chat line, any JSON, or junk."""
    kind = draw(st.sampled_from(["move", "chat", "json", "junk", "bytes"]))
    if kind == "bytes":
        return "bytes", draw(st.binary(max_size=64))
    if kind == "junk":
        return "text", draw(TEXT)
    if kind == "json":
        import json

        return "text", json.dumps(draw(JSON))
    if kind == "chat":
        body: dict[str, Any] = {"text": draw(JSON_TEXT), "channel": draw(JSON_TEXT)}
        if json_mode:
            body = {"type": "chat", "text": body["text"]}
    else:
        fields = draw(move_fields())
        body = fields
        if json_mode:
            body = {
                "type": "act",
                "action": {"type": fields["action"], **draw(
                    st.dictionaries(TEXT, JSON, max_size=3))},
                "turn": draw(st.one_of(st.integers(-2, 50), JSON)),
            }  # fmt: skip
        if draw(st.booleans()):
            body["move_id"] = draw(st.one_of(JSON_TEXT, JSON))
    import json

    return "text", json.dumps(body)
