"""A finished game as a JSON document, and the game rebuilt from one.

The format is described in ``docs/export-format.md``. The export carries everything
the review page shows and the whole action log, with what stays secret forever left
out on purpose by the game's family (``Export.action`` and ``Export.records``
drop, say, which card a player played where only a count was ever shown).

:func:`rebuild` replays an export through the engine, letting the family fill back in
what it left out with stand-ins consistent with its record (moves, and in a game whose
deal hides something forever, the deal: its seed is not exported); :func:`verify`
checks that the replay ends as the export says. The stand-ins are not the real moves
or the real deal, and nothing may present them as such.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from typing import Any

from games import engine
from games import state as states
from games.kit.family import family_of
from games.models import Game, GameAction
from games.state import game_setup
from history.selectors import GameRecord, game_record

FORMAT = "podpolye-game"
VERSION = 1


class ExportError(ValueError):
    """An export that cannot be read or does not replay."""


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _actions(game: Game) -> list[dict[str, Any]]:
    family = family_of(game.ruleset)
    rows = GameAction.objects.filter(game=game).order_by("number")
    actions = []
    for number, seat, payload, at in rows.values_list(
        "number", "position", "payload", "created_at"
    ):
        action = family.export.action(dict(payload))
        actions.append(
            {"number": number, "seat": seat, "action": action, "at": _iso(at)}
        )
    return actions


def _result(game: Game, record: GameRecord) -> dict[str, Any]:
    return {
        "winner": game.winner,
        "reason": game.end_reason,
        "roles": [
            {"position": seat.position, "side": seat.side, "role": seat.role}
            for seat in record.seats
        ],
    }


def game_export(game: Game) -> dict[str, Any]:
    """The export document of a finished game (see docs/export-format.md), as
    JSON-ready data: dates are ISO 8601 strings already."""
    if game.status != Game.Status.FINISHED:
        raise ExportError("only a finished game can be exported")
    record = game_record(game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "code": game.code,
        "name": game.name,
        "private": game.is_private,
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
        "setup": family_of(game.ruleset).export.setup(game_setup(game)),
        "players": [
            {
                "position": seat.position,
                "username": seat.user.username,
                "display_name": seat.user.display_name,
            }
            for seat in record.seats
        ],
        "actions": _actions(game),
        "result": _result(game, record),
        **family_of(game.ruleset).export.records(game, record.seats, states),
    }


def export_json(game: Game) -> str:
    """The export as text: UTF-8 JSON, dates in ISO 8601."""
    return json.dumps(game_export(game), ensure_ascii=False, indent=2)


# --- reading an export back ---------------------------------------------------------


def rebuild(export: Mapping[str, Any]) -> tuple[Any, engine.Outcome | None]:
    """Replay an export through the engine: (final state, outcome).

    Raises :class:`ExportError` for a document that is not an export of this format
    or whose actions the rules refuse.
    """
    if export.get("format") != FORMAT or export.get("version") != VERSION:
        raise ExportError("not a Podpolye game export of a known version")
    try:
        family = family_of(str(export["setup"]["ruleset"]))
        state = family.export.start(export)
        for entry in sorted(export["actions"], key=lambda e: int(e["number"])):
            seat = int(entry["seat"])
            action = family.export.restore_action(
                state, seat, dict(entry["action"]), export
            )
            state, _events = engine.apply(state, seat, action)
    except (KeyError, TypeError, ValueError, engine.IllegalAction) as error:
        raise ExportError(f"the export does not replay: {error}") from error
    return state, engine.outcome(state)


def verify(export: Mapping[str, Any]) -> list[str]:
    """Differences between an export's stated record and its replay; [] when they
    agree: same ending, same roles, and the family's own records
    (``Export.verify``)."""
    state, outcome = rebuild(export)
    final = engine.view(state, None)
    problems = []
    stated = export["result"]
    if outcome is None or outcome.to_dict() != {
        "winner": stated["winner"],
        "reason": stated["reason"],
    }:
        problems.append(f"outcome {outcome} != {stated['winner']}/{stated['reason']}")
    problems += family_of(export["setup"]["ruleset"]).export.verify(final, export)
    roles = [
        {"position": r["seat"], "side": r["side"], "role": r["role"]}
        for r in final["roles"] or []
    ]
    if roles != sorted(stated["roles"], key=lambda r: r["position"]):
        problems.append("the roles differ from the deal")
    return problems
