"""The Resistance family's part of a finished game's JSON export.

The format is in docs/export-format.md.

Everything the review page shows, with one thing left out on purpose: the card each
player put into a mission. Who played which card stays secret forever (docs/rules.md
§1), so a ``play`` action is exported without its card and each mission keeps only its
fail count. To replay an export, :func:`import_action` fills the missing cards back
in from the fail counts (the first evil team members to play get the fail cards): any
such deal gives the same fail counts, results and ending, which is what
:func:`verify` checks. The cards it invents are not the real ones, and nothing may
present them as such.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games.families.resistance.engine import GameState, Phase
from games.families.resistance.review import game_record

if TYPE_CHECKING:
    from games.kit import Game, Seat


def export(game: Game, seats: Sequence[Seat]) -> dict[str, Any]:
    record = game_record(game, seats)
    return {
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


def export_action(action: dict[str, Any]) -> dict[str, Any]:
    if action.get("type") == "play":
        return {"type": "play"}  # never whose card was what
    return action


def import_action(
    state: GameState, seat: int, action: dict[str, Any], export: Mapping[str, Any]
) -> dict[str, Any]:
    """A ``play`` gets a card that keeps the mission's fail count: fail while the
    mission still owes fail cards and the seat is evil."""
    if action.get("type") != "play" or state.phase is not Phase.MISSION:
        return action
    fails = {
        int(m["number"]): int(m["fails"])
        for m in export["missions"]
        if m.get("fails") is not None
    }
    sides = {int(r["position"]): r["side"] for r in export["result"]["roles"]}
    owed = fails.get(state.mission, 0) - state.cards.count("fail")
    card = "fail" if owed > 0 and sides.get(seat) == "evil" else "success"
    return {**action, "card": card}


def verify(final: Mapping[str, Any], export: Mapping[str, Any]) -> list[str]:
    """Differences between the export's records and the replay's final public view:
    the same fail count per mission and the same votes on every team."""
    problems = []
    stated_fails = {
        int(m["number"]): int(m["fails"])
        for m in export["missions"]
        if m.get("fails") is not None
    }
    replayed_fails = {m["number"]: m["fails"] for m in final["missions"] if m["result"]}
    if replayed_fails != stated_fails:
        problems.append(f"fail counts {replayed_fails} != {stated_fails}")
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
    return problems
