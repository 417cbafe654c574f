"""A finished game as a JSON document, and the game rebuilt from one.

The format is described in ``docs/export-format.md``. The export carries everything
the review page shows and the whole action log, with one thing left out on purpose:
the card each player put into a mission. Who played which card stays secret forever
(RULES.md §1), so a ``play`` action is exported without its card and each mission
keeps only its fail count.

:func:`rebuild` replays an export through the engine. It fills the missing cards
back in with the fail count of each mission (the first evil team members to play
get the fail cards): any such deal gives the same fail counts, the same results and
the same ending, which is what :func:`verify` checks against the export's own record.
The cards it invents are not the real ones, and nothing may present them as such.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from typing import Any

from games import engine
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
    rows = GameAction.objects.filter(game=game).order_by("number")
    actions = []
    for number, seat, payload, at in rows.values_list(
        "number", "position", "payload", "created_at"
    ):
        action = dict(payload)
        if action.get("type") == "play":
            action = {"type": "play"}  # never whose card was what
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
        "setup": game_setup(game).to_dict(),
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
        "missions": [
            {
                "number": m.number,
                "size": m.size,
                "two_fails": m.two_fails,
                "team": m.team,
                "result": m.result or None,
                "fails": m.fails,
            }
            for m in record.missions
        ],
        "proposals": [
            {
                "mission": p.mission,
                "attempt": p.attempt,
                "leader": p.leader,
                "team": p.team,
                "votes": {str(seat): vote for seat, vote in sorted(p.votes.items())},
                "approved": p.approved,
            }
            for p in record.proposals
        ],
        "checks": [
            {
                "after_mission": c.after_mission,
                "holder": c.holder,
                "target": c.target,
                "result": c.result,
                "claim": c.claim or None,
            }
            for c in record.checks
        ],
        "shot": None
        if record.shot is None
        else {
            "sniper": record.shot.sniper,
            "target": record.shot.target,
            "hit": record.shot.hit,
        },
    }


def export_json(game: Game) -> str:
    """The export as text: UTF-8 JSON, dates in ISO 8601."""
    return json.dumps(game_export(game), ensure_ascii=False, indent=2)


# --- reading an export back ---------------------------------------------------------


def _sides(export: Mapping[str, Any]) -> dict[int, str]:
    return {int(r["position"]): r["side"] for r in export["result"]["roles"]}


def _fail_counts(export: Mapping[str, Any]) -> dict[int, int]:
    return {
        int(m["number"]): int(m["fails"])
        for m in export["missions"]
        if m.get("fails") is not None
    }


def _card_for(
    state: Any, seat: int, sides: Mapping[int, str], owed: dict[int, int]
) -> str:
    """A card for ``seat`` that keeps the mission's fail count: fail while the
    mission still owes fail cards and the seat is evil."""
    mission = engine.view(state, None)["mission"]
    if owed.get(mission, 0) > 0 and sides.get(seat) == "evil":
        owed[mission] -= 1
        return "fail"
    return "success"


def rebuild(export: Mapping[str, Any]) -> tuple[Any, engine.Outcome | None]:
    """Replay an export through the engine: (final state, outcome).

    Raises :class:`ExportError` for a document that is not an export of this format
    or whose actions the rules refuse.
    """
    if export.get("format") != FORMAT or export.get("version") != VERSION:
        raise ExportError("not a Podpolye game export of a known version")
    try:
        setup = engine.GameSetup.from_dict(export["setup"])
        sides = _sides(export)
        owed = _fail_counts(export)
        state = engine.setup(setup)
        for entry in sorted(export["actions"], key=lambda e: int(e["number"])):
            seat, action = int(entry["seat"]), dict(entry["action"])
            if action.get("type") == "play":
                action["card"] = _card_for(state, seat, sides, owed)
            state, _events = engine.apply(state, seat, action)
    except (KeyError, TypeError, ValueError, engine.IllegalAction) as error:
        raise ExportError(f"the export does not replay: {error}") from error
    return state, engine.outcome(state)


def verify(export: Mapping[str, Any]) -> list[str]:
    """Differences between an export's stated record and its replay; [] when they
    agree: same ending, same fail count per mission, same votes on every team."""
    state, outcome = rebuild(export)
    final = engine.view(state, None)
    problems = []
    stated = export["result"]
    if outcome is None or outcome.to_dict() != {
        "winner": stated["winner"],
        "reason": stated["reason"],
    }:
        problems.append(f"outcome {outcome} != {stated['winner']}/{stated['reason']}")
    replayed_fails = {m["number"]: m["fails"] for m in final["missions"] if m["result"]}
    if replayed_fails != _fail_counts(export):
        problems.append(f"fail counts {replayed_fails} != {_fail_counts(export)}")
    replayed_votes = [
        (h["mission"], h["attempt"], h["leader"], h["team"], h["votes"], h["approved"])
        for h in final["history"]
    ]
    stated_votes = [
        (p["mission"], p["attempt"], p["leader"], p["team"], p["votes"], p["approved"])
        for p in export["proposals"]
    ]
    if replayed_votes != stated_votes:
        problems.append("the votes differ from the proposals' record")
    roles = [
        {"position": r["seat"], "side": r["side"], "role": r["role"]}
        for r in final["roles"] or []
    ]
    if roles != sorted(stated["roles"], key=lambda r: r["position"]):
        problems.append("the roles differ from the deal")
    return problems
