"""Every JSON shape of the API as JSON Schema (the 2020-12 dialect OpenAPI 3.1 uses).

The request schemas are what ``api.validation`` checks bodies against, and all of
them are published unchanged in ``/api/v1/openapi.json``: one source for the checks
and the document. The view schema restates the engine's ``view()`` contract
(``games/engine/README.md``); a test validates real views of every ruleset
against it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.utils import translation

from games import engine
from games.families.registry import playable_rulesets
from games.models import CHAT_MAX_LENGTH, Game

Schema = dict[str, Any]

MAX_SEATS = 10
MAX_SEAT = MAX_SEATS - 1
USERNAME_MAX_LENGTH = 150
PASSWORD_MAX_LENGTH = 128
TABLE_NAME_MAX_LENGTH = 60
TOKEN_NAME_MAX_LENGTH = 60
MAX_OPTIONS = 16
MAX_TURN = 1_000_000
PHASES = ["proposal", "vote", "mission", "check", "claim", "sniper", "over"]
SIDES = ["good", "evil"]
CHANNEL_PATTERN = "^[a-z_]{1,16}$"
"""A chat channel: `table`, or a side's private channel named by `me.channels`."""
VIEW_FIELDS = [
    "ruleset",
    "players",
    "options",
    "step",
    "phase",
    "leader",
    "mission",
    "missions",
    "rejections",
    "voters",
    "proposal",
    "play",
    "token",
    "checks",
    "sniper",
    "history",
    "me",
    "legal",
    "waiting_for",
    "outcome",
    "roles",
]
CARDS = ["success", "fail"]


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    return {"oneOf": [schema, {"type": "null"}]}


def _int(low: int = 0, high: int | None = None, **extra: Any) -> Schema:
    schema: Schema = {"type": "integer", "minimum": low, **extra}
    if high is not None:
        schema["maximum"] = high
    return schema


def _str(low: int = 0, high: int | None = None, **extra: Any) -> Schema:
    schema: Schema = {"type": "string", **extra}
    if low:
        schema["minLength"] = low
    if high is not None:
        schema["maxLength"] = high
    return schema


def _obj(
    properties: dict[str, Schema],
    required: list[str] | None = None,
    description: str = "",
    **extra: Any,
) -> Schema:
    schema: Schema = {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
        **extra,
    }
    if description:
        schema["description"] = description
    return schema


def _list(items: Schema, **extra: Any) -> Schema:
    return {"type": "array", "items": items, **extra}


SEAT = _int(0, MAX_SEAT, description="A seat in table order, from 0.")
SEATS = _list(SEAT, maxItems=MAX_SEATS)
DATETIME: Schema = {"type": "string", "format": "date-time"}
OPTION_VALUE: Schema = {"type": ["boolean", "integer", "string"]}


def ruleset_codes() -> list[str]:
    """The games the site offers: registered in the engine and worded for pages."""
    return list(playable_rulesets())


# --- Requests ----------------------------------------------------------------------


def _action_schemas() -> dict[str, Schema]:
    def action(kind: str, field: str, schema: Schema, about: str) -> Schema:
        return _obj(
            {"type": {"type": "string", "enum": [kind]}, field: schema},
            description=about,
        )

    return {
        "ProposeAction": action(
            "propose",
            "team",
            _list(SEAT, minItems=1, maxItems=MAX_SEATS),
            "The leader names the team: exactly the mission's size, no seat twice.",
        ),
        "VoteAction": action(
            "vote", "approve", {"type": "boolean"}, "Approve or reject the team."
        ),
        "PlayAction": action(
            "play",
            "card",
            {"type": "string", "enum": CARDS},
            "A team member plays a card; the good side can only play success.",
        ),
        "CheckAction": action(
            "check", "target", SEAT, "The check-token holder checks a player's side."
        ),
        "ClaimAction": action(
            "claim",
            "side",
            {"type": "string", "enum": SIDES},
            "The holder announces the side found, truthfully or not.",
        ),
        "ShootAction": action(
            "shoot", "target", SEAT, "The sniper shoots, hoping to hit the scout."
        ),
    }


ACTION_TYPES = {
    "propose": "ProposeAction",
    "vote": "VoteAction",
    "play": "PlayAction",
    "check": "CheckAction",
    "claim": "ClaimAction",
    "shoot": "ShootAction",
}


def _request_schemas() -> dict[str, Schema]:
    return {
        "TokenRequest": _obj(
            {
                "username": _str(1, USERNAME_MAX_LENGTH),
                "password": _str(1, PASSWORD_MAX_LENGTH),
                "name": _str(
                    0,
                    TOKEN_NAME_MAX_LENGTH,
                    description="What the program is, to tell tokens apart.",
                ),
            },
            required=["username", "password"],
        ),
        "TableCreateRequest": _obj(
            {
                "ruleset": {"type": "string", "enum": ruleset_codes()},
                "seats": _int(3, MAX_SEATS, description="Players, host included."),
                "options": {
                    "type": "object",
                    "additionalProperties": OPTION_VALUE,
                    "maxProperties": MAX_OPTIONS,
                    "description": "Option name -> value, see GET /api/v1/rulesets. "
                    "Missing options take their defaults.",
                },
                "private": {
                    "type": "boolean",
                    "description": "Not listed in the lobby: join by code only.",
                },
                "name": _str(0, TABLE_NAME_MAX_LENGTH),
            },
            required=["ruleset", "seats"],
        ),
        "EmptyRequest": _obj(
            {}, description="No fields: send no body, or an empty JSON object."
        ),
        "Action": {
            "oneOf": [ref(name) for name in ACTION_TYPES.values()],
            "discriminator": {
                "propertyName": "type",
                "mapping": {
                    kind: f"#/components/schemas/{name}"
                    for kind, name in ACTION_TYPES.items()
                },
            },
        },
        **_action_schemas(),
        "ActionRequest": _obj(
            {
                "action": ref("Action"),
                "turn": _int(
                    0,
                    MAX_TURN,
                    description="The `turn` of the view you decided on. A move on a "
                    "decision that has passed is refused with `table_moved_on`.",
                ),
            }
        ),
        "ChatRequest": _obj(
            {
                "text": _str(1, CHAT_MAX_LENGTH),
                "channel": {
                    "type": "string",
                    "pattern": CHANNEL_PATTERN,
                    "description": "Default `table`. `evil` only where your view's "
                    "`me.channels` lists it.",
                },
            },
            required=["text"],
        ),
    }


# --- Socket messages (a program sends these over a table's JSON socket) ------------


def _socket_request_schemas() -> dict[str, Schema]:
    return {
        "SocketAct": _obj(
            {
                "type": {"type": "string", "enum": ["act"]},
                "action": ref("Action"),
                "turn": _int(0, MAX_TURN),
            },
            description="Act over the socket: the same move as POST .../actions.",
        ),
        "SocketChat": _obj(
            {
                "type": {"type": "string", "enum": ["chat"]},
                "text": _str(1, CHAT_MAX_LENGTH),
                "channel": {"type": "string", "pattern": CHANNEL_PATTERN},
            },
            required=["type", "text"],
            description="Write to the table's chat over the socket.",
        ),
        "SocketMessage": {
            "oneOf": [ref("SocketAct"), ref("SocketChat")],
            "discriminator": {
                "propertyName": "type",
                "mapping": {
                    "act": "#/components/schemas/SocketAct",
                    "chat": "#/components/schemas/SocketChat",
                },
            },
        },
    }


# --- Answers -----------------------------------------------------------------------


def _legal_schemas() -> dict[str, Schema]:
    def legal(kind: str, fields: dict[str, Schema], about: str) -> Schema:
        return _obj(
            {"type": {"type": "string", "enum": [kind]}, **fields}, description=about
        )

    return {
        "LegalPropose": legal(
            "propose",
            {"size": _int(1, MAX_SEATS), "among": SEATS},
            "Propose a team of `size` seats from `among`.",
        ),
        "LegalVote": legal(
            "vote",
            {"choices": _list({"type": "boolean"})},
            "Vote: `approve` is one of `choices`.",
        ),
        "LegalPlay": legal(
            "play",
            {"cards": _list({"type": "string", "enum": CARDS})},
            "Play one of `cards`.",
        ),
        "LegalCheck": legal("check", {"among": SEATS}, "Check one seat of `among`."),
        "LegalClaim": legal(
            "claim",
            {"sides": _list({"type": "string", "enum": SIDES})},
            "Announce one of `sides`.",
        ),
        "LegalShoot": legal("shoot", {"among": SEATS}, "Shoot one seat of `among`."),
        "LegalAction": {
            "oneOf": [
                ref(name)
                for name in (
                    "LegalPropose",
                    "LegalVote",
                    "LegalPlay",
                    "LegalCheck",
                    "LegalClaim",
                    "LegalShoot",
                )
            ],
            "discriminator": {
                "propertyName": "type",
                "mapping": {
                    kind: f"#/components/schemas/Legal{kind.capitalize()}"
                    for kind in ACTION_TYPES
                },
            },
        },
    }


def _view_schemas() -> dict[str, Schema]:
    side = {"type": "string", "enum": SIDES}
    votes = {
        "type": "object",
        "additionalProperties": {"type": "boolean"},
        "description": "Seat (as a string) -> approved.",
    }
    return {
        "Mission": _obj(
            {
                "number": _int(1, 5),
                "size": _int(1, MAX_SEATS),
                "two_fails": {"type": "boolean"},
                "result": {"type": ["string", "null"], "enum": [*CARDS, None]},
                "fails": {"type": ["integer", "null"], "minimum": 0},
            }
        ),
        "FinishedVote": _obj(
            {
                "mission": _int(1, 5),
                "attempt": _int(1, 5),
                "leader": SEAT,
                "team": SEATS,
                "votes": votes,
                "approved": {"type": "boolean"},
                "fails": {"type": ["integer", "null"], "minimum": 0},
                "result": {"type": ["string", "null"], "enum": [*CARDS, None]},
            },
            description="A vote that is over: every vote is public.",
        ),
        "Proposal": _obj(
            {
                "leader": SEAT,
                "team": SEATS,
                "voted": _list(SEAT, description="Who has voted; never how."),
                "votes": {
                    "oneOf": [votes, {"type": "null"}],
                    "description": "null while the vote is on.",
                },
            }
        ),
        "Play": _obj({"team": SEATS, "played": SEATS}),
        "CheckToken": _obj(
            {"holder": SEAT, "former": SEATS, "eligible": SEATS},
            description="The check token (preset «С проверкой»).",
        ),
        "CheckRecord": _obj(
            {
                "after_mission": _int(1, 5),
                "holder": SEAT,
                "target": SEAT,
                "claim": {"type": ["string", "null"], "enum": [*SIDES, None]},
                "result": {
                    "type": ["string", "null"],
                    "enum": [*SIDES, None],
                    "description": "The true side: only for its holder, or at the end.",
                },
            }
        ),
        "Sniper": _obj(
            {
                "phase": {"type": "boolean"},
                "sniper": {
                    "type": ["integer", "null"],
                    "description": "Known to the evil side, and to all at the end.",
                },
                "target": {"type": ["integer", "null"]},
                "hit": {"type": ["boolean", "null"]},
            }
        ),
        "KnownSeat": _obj(
            {
                "seat": SEAT,
                "side": {"type": ["string", "null"], "enum": [*SIDES, None]},
                "role": {"type": ["string", "null"]},
            }
        ),
        "Me": _obj(
            {
                "seat": SEAT,
                "side": side,
                "role": {"type": "string"},
                "known": _list(ref("KnownSeat")),
                "vote": {"type": ["boolean", "null"], "description": "Your vote now."},
                "card": {"type": ["string", "null"], "enum": [*CARDS, None]},
                "cards": {
                    "type": "object",
                    "additionalProperties": {"type": "string", "enum": CARDS},
                    "description": "Mission number -> the card you played on it.",
                },
                "channels": _list({"type": "string", "pattern": CHANNEL_PATTERN}),
            },
            description="You: your side, role and what you were told.",
        ),
        "RevealedRole": _obj({"seat": SEAT, "side": side, "role": {"type": "string"}}),
        "Outcome": _obj(
            {
                "winner": side,
                "reason": {
                    "type": "string",
                    "examples": [
                        "three_successes",
                        "three_failures",
                        "five_rejections",
                        "scout_shot",
                        "scout_missed",
                    ],
                },
            }
        ),
        "View": {
            "type": "object",
            "description": "engine.view(state, seat): everything your seat may know "
            "and nothing else. New fields may appear; ignore what you do not know.",
            "properties": {
                "ruleset": {"type": "string"},
                "players": _int(3, MAX_SEATS),
                "options": {"type": "object", "additionalProperties": OPTION_VALUE},
                "step": _int(0),
                "phase": {"type": "string", "enum": PHASES},
                "leader": SEAT,
                "mission": _int(1, 5),
                "missions": _list(ref("Mission")),
                "rejections": _int(0, 5),
                "voters": SEATS,
                "proposal": nullable(ref("Proposal")),
                "play": nullable(ref("Play")),
                "token": nullable(ref("CheckToken")),
                "checks": _list(ref("CheckRecord")),
                "sniper": nullable(ref("Sniper")),
                "history": _list(ref("FinishedVote")),
                "me": {
                    "oneOf": [ref("Me"), {"type": "null"}],
                    "description": "null for a spectator.",
                },
                "legal": {
                    **_list(ref("LegalAction")),
                    "description": "What you may do now; empty when nothing is "
                    "asked of you.",
                },
                "waiting_for": {**SEATS, "description": "Whose move the table awaits."},
                "outcome": nullable(ref("Outcome")),
                "roles": {
                    "oneOf": [_list(ref("RevealedRole")), {"type": "null"}],
                    "description": "Every role, once the game is over.",
                },
            },
            "required": VIEW_FIELDS,
        },
    }


def _answer_schemas() -> dict[str, Schema]:
    user = _obj({"username": {"type": "string"}, "name": {"type": "string"}})
    status = {"type": "string", "enum": list(Game.Status.values)}
    player = _obj(
        {
            "position": {
                "type": ["integer", "null"],
                "description": "The seat, dealt at the start; null before.",
            },
            "username": {"type": "string"},
            "name": {"type": "string", "description": "The display name."},
            "host": {"type": "boolean"},
        }
    )
    seats = _obj({"taken": _int(0, MAX_SEATS), "total": _int(3, MAX_SEATS)})
    table_fields: dict[str, Schema] = {
        "code": {"type": "string"},
        "name": {"type": "string"},
        "ruleset": {"type": "string"},
        "status": status,
        "private": {"type": "boolean"},
        "seats": ref("Seats"),
        "host": ref("User"),
        "options": {"type": "object", "additionalProperties": OPTION_VALUE},
        "chat": {"type": "boolean"},
        "created_at": DATETIME,
        "url": {"type": "string", "description": "The table's page."},
    }
    envelope = {
        "code": {"type": "string"},
        "status": status,
        "version": _int(0, description="Bumped by every move."),
        "turn": _int(0, description="The version at which the current decision began."),
        "seat": {
            "type": ["integer", "null"],
            "description": "Your seat; null for a spectator, and for everyone "
            "before the start (seats are dealt when the game starts).",
        },
        "players": _list(ref("Player")),
        "view": {
            "oneOf": [ref("View"), {"type": "null"}],
            "description": "null until the game starts.",
        },
    }
    error_codes = _error_codes()
    return {
        "User": user,
        "Player": player,
        "Seats": seats,
        "IssuedToken": _obj(
            {
                "token": _str(description="The key: shown this once, never again."),
                "prefix": {"type": "string"},
                "name": {"type": "string"},
                "created_at": DATETIME,
            }
        ),
        "TokenInfo": _obj(
            {
                "user": ref("User"),
                "prefix": {"type": "string"},
                "name": {"type": "string"},
                "created_at": DATETIME,
                "last_used_at": {
                    "type": ["string", "null"],
                    "format": "date-time",
                    "description": "Updated at most once a minute.",
                },
            }
        ),
        "RulesetOption": _obj(
            {
                "name": {"type": "string"},
                "type": {"type": "string", "enum": ["boolean", "integer", "string"]},
                "default": OPTION_VALUE,
                "label": {"type": "string"},
                "help": {"type": "string"},
            }
        ),
        "Ruleset": _obj(
            {
                "code": {"type": "string"},
                "name": {"type": "string"},
                "min_players": _int(3, MAX_SEATS),
                "max_players": _int(3, MAX_SEATS),
                "options": _list(ref("RulesetOption")),
                "house_decisions": _list({"type": "string"}),
                "roles": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                    "description": "Role code -> its name in this game.",
                },
            }
        ),
        "RulesetList": _obj({"rulesets": _list(ref("Ruleset"))}),
        "TableSummary": _obj(table_fields),
        "TableList": _obj({"tables": _list(ref("TableSummary"), maxItems=100)}),
        "Table": _obj(
            {
                **table_fields,
                "players": _list(ref("Player")),
                "version": _int(0),
                "turn": _int(0),
                "phase": {"type": "string"},
                "winner": {"type": ["string", "null"], "enum": [*SIDES, None]},
                "started_at": {"type": ["string", "null"], "format": "date-time"},
                "finished_at": {"type": ["string", "null"], "format": "date-time"},
            }
        ),
        "ViewEnvelope": _obj(
            envelope,
            description="A seat's view of the table with the table's counters.",
        ),
        "ChatMessage": _obj(
            {
                "id": _int(1),
                "channel": {"type": "string", "pattern": CHANNEL_PATTERN},
                "author": ref("User"),
                "text": {"type": "string"},
                "created_at": DATETIME,
            }
        ),
        "ChatList": _obj(
            {
                "channels": _list(
                    {"type": "string", "pattern": CHANNEL_PATTERN},
                    description="The channels you may read.",
                ),
                "messages": _list(ref("ChatMessage")),
            }
        ),
        "ErrorCode": {
            "type": "string",
            "enum": sorted(error_codes),
            "description": "\n".join(
                f"- `{code}` ({status}): {text}"
                for code, (status, text) in sorted(error_codes.items())
            ),
        },
        "Error": _obj(
            {
                "error": _obj(
                    {
                        "code": ref("ErrorCode"),
                        "message": {
                            "type": "string",
                            "description": "For people, in your language.",
                        },
                        "field": {
                            "type": "string",
                            "description": "The field at fault, e.g. `action.team[1]`.",
                        },
                        "retry_after": {"type": "integer", "description": "Seconds."},
                    },
                    required=["code", "message"],
                ),
                "view": {
                    **ref("ViewEnvelope"),
                    "description": "On a refused move: the table as it stands now.",
                },
            },
            required=["error"],
        ),
        "SocketView": _obj(
            {"type": {"type": "string", "enum": ["view"]}, **envelope},
            description="Pushed on connect and after every change of the table.",
        ),
        "SocketChatMessage": _obj(
            {
                "type": {"type": "string", "enum": ["chat"]},
                "message": ref("ChatMessage"),
            },
            description="A new message in a channel you may read.",
        ),
        "SocketActed": _obj(
            {
                "type": {"type": "string", "enum": ["acted"]},
                "version": _int(1),
                "turn": _int(0),
            },
            description="Your move over the socket was applied at `version`.",
        ),
        "SocketError": _obj(
            {
                "type": {"type": "string", "enum": ["error"]},
                "code": ref("ErrorCode"),
                "message": {"type": "string"},
                "field": {"type": "string"},
            },
            required=["type", "code", "message"],
            description="Your message was refused; a fresh view follows a refused "
            "move.",
        ),
    }


def _error_codes() -> dict[str, tuple[int, str]]:
    """Every error code an answer or a socket can carry: the API's own, the game
    services', and every rule the engine can say was broken (status 409)."""
    from api.errors import API_ERRORS
    from games import errors as game_errors

    codes: dict[str, tuple[int, str]] = {}
    for cls in API_ERRORS:
        codes[cls.code] = (cls.status, str(cls.message))
    for cls in _subclasses(game_errors.GameError):
        if cls is not game_errors.IllegalMove:
            codes.setdefault(cls.code, (cls.status, str(cls.message)))
    for cls in [engine.IllegalAction, *_subclasses(engine.IllegalAction)]:
        codes.setdefault(
            cls.code, (game_errors.IllegalMove.status, "Move refused: " + cls.template)
        )
    return codes


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found.append(sub)
        found.extend(_subclasses(sub))
    return found


@cache
def error_codes() -> dict[str, tuple[int, str]]:
    with translation.override("en"):
        return _error_codes()


def engine_rule_codes() -> list[str]:
    """The codes of every rule the engine can say a move broke."""
    classes = [engine.IllegalAction, *_subclasses(engine.IllegalAction)]
    return list(dict.fromkeys(cls.code for cls in classes))


@cache
def components() -> dict[str, Schema]:
    """Every named schema, for the document and for ``$ref`` in validation. Built
    once, in English: the document is for programmers; answers are translated."""
    with translation.override("en"):
        return {
            **_request_schemas(),
            **_socket_request_schemas(),
            **_legal_schemas(),
            **_view_schemas(),
            **_answer_schemas(),
        }
