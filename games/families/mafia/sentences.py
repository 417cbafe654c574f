"""The public events of ``mafia_partisan`` in words: the replay's step labels.

Only public events are given here (the replay redacts with ``events_for``): a night's
choices, the radio's readings and the resolution are addressed events and never
reach a sentence. ``game_over`` says who won; the board of the step shows the roles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _

from games import engine
from games.families.mafia.words import words_for
from games.kit import names_list

MILESTONES = frozenset({"morning", "vote_closed", "colonel_shot", "game_over"})

_KIND_OF_EVENT = {
    "game_started": "deal",
    "night_began": "night",
    "dawn": "dawn",
    "morning": "morning",
    "inquiry": "inquiry",
    "vote_started": "vote",
    "voted": "vote",
    "vote_closed": "vote",
    "warned": "discipline",
    "kicked": "discipline",
    "colonel_named": "midday",
    "colonel_shot": "midday",
    "game_over": "over",
}


def step_kind(events: Sequence[engine.Event]) -> tuple[str, bool]:
    """``(kind, milestone)`` of a replay step from its public events."""
    kind = next(
        (_KIND_OF_EVENT[e.kind] for e in events if e.kind in _KIND_OF_EVENT), "night"
    )
    return kind, any(event.kind in MILESTONES for event in events)


def sentence(event: engine.Event, ruleset: str, names: Mapping[int, str]) -> str:
    """One public event in the game's own words; "" for those a label skips."""
    words = words_for(ruleset)
    data = event.data
    kind = event.kind

    def name(seat: object) -> str:
        return names.get(seat, "?") if isinstance(seat, int) else "?"

    def many(seats: object) -> str:
        if not isinstance(seats, list | tuple):
            return "—"
        return names_list(name(s) for s in seats) or "—"

    if kind == "game_started":
        return _("The cards are dealt; the introduction night begins.")
    if kind == "night_began":
        return _("Night %(n)s falls.") % {"n": data.get("night")}
    if kind == "step":
        return _("Step: %(step)s.") % {"step": words.step(data.get("step"))}
    if kind == "dawn":
        return _("Dawn: the moderator reads the night.")
    if kind == "morning":
        return _("Morning: left the game %(left)s; kicked %(kicked)s.") % {
            "left": many(data.get("left")),
            "kicked": many(data.get("kicked")),
        }
    if kind == "left":
        return _("%(name)s leaves the game.") % {"name": name(data.get("seat"))}
    if kind == "inquiry":
        return _("The moderator reads an inquiry.")
    if kind == "warned":
        return _("A warning to %(name)s.") % {"name": name(data.get("seat"))}
    if kind == "kicked":
        return _("%(name)s is kicked.") % {"name": name(data.get("seat"))}
    if kind == "vote_started":
        return _("The %(vote)s begins.") % {"vote": words.vote(data.get("kind", ""))}
    if kind == "voted":
        return _("%(name)s votes for %(seats)s.") % {
            "name": name(data.get("seat")),
            "seats": many(data.get("candidates")),
        }
    if kind == "vote_closed":
        return _("The %(vote)s is closed; chosen: %(seats)s.") % {
            "vote": words.vote(data.get("kind", "")),
            "seats": many(data.get("chosen")),
        }
    if kind == "colonel_named":
        return _("The colonel names %(seats)s.") % {"seats": many(data.get("named"))}
    if kind == "colonel_shot":
        return _("The colonel shoots %(name)s.") % {"name": name(data.get("target"))}
    if kind == "game_over":
        return _("The %(side)s win.") % {"side": words.side(data.get("winner", ""))}
    return ""
