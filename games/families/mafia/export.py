"""The ``mafia`` part of a finished game's JSON export (docs/export-format.md).

Everything the review shows, as data read from the final view of the engine's
replay (the ledger is everyone's after the end, docs/rules.md §3 "Secrets"): every
night's real choices with whether each had an effect and the radio's readings, each
night's resolution, every morning, inquiry, midday, vote (ballots, counts,
threshold), warning and kick, and every exit with its true causes. The seed stays in
``setup``: it decides only the deal, and every card is public after the game.

One thing is left out: **what a sleeper tapped.** A ``tap`` is no choice (it has no
effect and is recorded nowhere in the game); its fields are only where a sleeping
player's finger fell so that every screen looked alike, and the export writes it as
``{"type": "tap"}``. :func:`import_action` fills the fields back in with a fixed
stand-in from the step's screen so the log replays; nothing may present them as what
the player tapped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games import engine
from games.kit import States, final_view

if TYPE_CHECKING:
    from games.kit import Game, Seat

RECORDS = (
    "nights",
    "mornings",
    "inquiries",
    "middays",
    "votes",
    "discipline",
    "exits",
)
"""The family's top-level keys in the export, each a list."""


def records(view: Mapping[str, Any]) -> dict[str, Any]:
    """The family's records from a final view (seen by everyone, after the end)."""
    ledger = view.get("ledger") or {}
    return {
        "nights": list(ledger.get("nights") or ()),
        "mornings": list(view.get("mornings") or ()),
        "inquiries": list(view.get("inquiries") or ()),
        "middays": list(view.get("middays") or ()),
        "votes": list(view.get("votes") or ()),
        "discipline": list(view.get("discipline") or ()),
        "exits": list(ledger.get("exits") or ()),
        "code": {
            "radio_code": ledger.get("radio_code"),
            "general_guess": ledger.get("general_guess"),
        },
    }


def export(game: Game, seats: Sequence[Seat], states: States) -> dict[str, Any]:
    """The family's records: the ledger of the final view (the engine reveals the
    nights once the game is over)."""
    return records(final_view(game, states))


def export_action(action: dict[str, Any]) -> dict[str, Any]:
    if action.get("type") == "tap":
        return {"type": "tap"}  # where a sleeper's finger fell is nobody's business
    return action


def stand_in_tap(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A tap matching the step's screen (``legal_actions``' spec): the first offer
    of each field, or none where the screen allows none."""
    move: dict[str, Any] = {"type": "tap"}
    form = spec["form"]
    if form == "number":
        move["number"] = spec["numbers"][0]
    elif form == "seat":
        targets = spec["targets"]
        move["target"] = None if spec["skip"] or not targets else targets[0]
    elif form == "pair":
        move["targets"] = sorted(spec["targets"][: spec["count"]])
    elif form == "general":
        mode = spec["modes"][0]
        move["mode"] = mode
        move["target"] = None if mode == "pass" else spec["targets"][0]
        move["guess"] = spec["guesses"][0] if mode == "slaughter" else None
    return move


def import_action(
    state: Any, seat: int, action: dict[str, Any], export: Mapping[str, Any]
) -> dict[str, Any]:
    """An exported ``tap`` without fields gets stand-in fields from the screen."""
    if action != {"type": "tap"}:
        return action
    spec = next(
        (s for s in engine.legal_actions(state, seat) if s.get("type") == "tap"), None
    )
    if spec is None:
        return action  # not a sleeper's turn: the engine refuses it, as it should
    return stand_in_tap(spec)


def verify(final: Mapping[str, Any], export: Mapping[str, Any]) -> list[str]:
    """Differences between the export's records and the replay's final view."""
    replayed = records(final)
    problems = []
    for key in (*RECORDS, "code"):
        if export.get(key) != replayed[key]:
            problems.append(f"the {key} differ from the record")
    return problems
