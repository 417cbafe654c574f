"""The records of a game as JSON: how the table is told who left, the mornings, the
inquiries, and a night's resolution for the moderator.  Shared by the rules (events)
and the view, so an event and a view never word the same record differently."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.families.mafia.engine.roles import Side
from games.families.mafia.engine.state import GameState, Morning, Reading, Resolution

__all__ = ["morning_dict", "public_causes", "reading_dict", "resolution_dict"]

_PUBLIC_CAUSES = {
    "shot": "night",
    "slaughtered": "night",
    "sniped": "night",
    "sniper_missed": "night",
    "colonel_due": "night",
    "kicked": "kick",
    "voted_out": "vote",
    "colonel_shot": "colonel",
}
"""How the table is told a cause of leaving: the night's dead are names only."""


def public_causes(causes: Iterable[str]) -> list[str]:
    """The public words for a leaver's causes (no cause of a night exit is told)."""
    told: list[str] = []
    for cause in causes:
        word = _PUBLIC_CAUSES[cause]
        if word not in told:
            told.append(word)
    return told


def resolution_dict(resolution: Resolution) -> dict[str, Any]:
    """A resolution as JSON (the moderator's ledger, the post-game reveal)."""
    return {
        "night": resolution.night,
        "exits": [
            {"seat": seat, "causes": list(causes)} for seat, causes in resolution.exits
        ],
        "colonel_hit": resolution.colonel_hit,
        "saved": list(resolution.saved),
        "shielded": resolution.shielded,
        "slaughter": None
        if resolution.slaughter is None
        else {
            "target": resolution.slaughter[0],
            "guess": resolution.slaughter[1],
            "correct": resolution.slaughter[2],
        },
        "recruitment": resolution.recruitment,
        "recruited": resolution.recruited,
        "demolition": resolution.demolition,
        "suspension_began": resolution.suspension_began,
        "sniper": resolution.sniper,
    }


def morning_dict(morning: Morning) -> dict[str, Any]:
    return {
        "night": morning.night,
        "left": list(morning.left),
        "kicked": list(morning.kicked),
        "midday": morning.midday,
        "recruitment": morning.recruitment,
        "colonel_reading": None
        if morning.colonel_reading is None
        else {
            "seat": morning.colonel_reading[0],
            "side": morning.colonel_reading[1].value,
        },
    }


def reading_dict(state: GameState, reading: Reading) -> dict[str, Any]:
    """An inquiry as the table hears it: each side, or the counts (house option)."""
    shown: dict[str, Any] = {"day": reading.day, "number": reading.number}
    if state.house.inquiry_reading == "sides":
        shown["reading"] = [
            {"seat": seat, "side": side.value} for seat, side in reading.entries
        ]
        shown["counts"] = None
    else:
        shown["reading"] = None
        sides = [side for _, side in reading.entries]
        shown["counts"] = [
            {"side": side.value, "count": sides.count(side)}
            for side in (Side.CITIZENS, Side.MAFIA)
        ]
    return shown
