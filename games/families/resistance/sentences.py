"""The Resistance games' public events in words: the replay's step labels.

Only public events are ever given here (the replay redacts with ``events_for``), so a
sentence can never say how a vote in progress went or whose card was whose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _

from games import engine
from games.families.resistance.words import phrases_for, side_name
from games.kit import names_list

MILESTONES = frozenset(
    {"propose", "votes_revealed", "mission_done", "check", "claim", "shoot"}
)
"""The steps the replay's "key moments" list jumps to."""

_KIND_OF_ACTION = {
    "game_started": "deal",
    "proposed": "propose",
    "voted": "vote",
    "card_played": "play",
    "checked": "check",
    "claimed": "claim",
    "shot": "shoot",
}


def _team(names: Mapping[int, str], seats: Sequence[int]) -> str:
    return names_list(names.get(seat, "?") for seat in seats)


def step_kind(events: Sequence[engine.Event]) -> tuple[str, bool]:
    """``(kind, milestone)`` of a replay step from its public events."""
    kinds = {event.kind for event in events}
    kind = next(
        (_KIND_OF_ACTION[e.kind] for e in events if e.kind in _KIND_OF_ACTION), ""
    )
    return kind, kind in MILESTONES or bool(kinds & MILESTONES)


def sentence(event: engine.Event, ruleset: str, names: Mapping[int, str]) -> str:
    """One public event in the game's own words; "" for those a step label skips."""
    data = event.data
    name = names.get
    kind = event.kind
    phrases = phrases_for(ruleset)
    if kind == "game_started":
        return phrases.dealt % {"name": name(data["leader"], "?")}
    if kind == "proposed":
        return phrases.proposed % {
            "mission": data["mission"],
            "attempt": data["attempt"],
            "leader": name(data["leader"], "?"),
            "team": _team(names, data["team"]),
        }
    if kind == "voted":
        return _("%(name)s votes.") % {"name": name(data["seat"], "?")}
    if kind == "votes_revealed":
        votes = list(data["votes"].values())
        numbers = {"yes": votes.count(True), "no": votes.count(False)}
        return (phrases.approved if data["approved"] else phrases.rejected) % numbers
    if kind == "leader_changed":
        return phrases.new_leader % {"name": name(data["leader"], "?")}
    if kind == "card_played":
        return phrases.card_played % {"name": name(data["seat"], "?")}
    if kind == "mission_done":
        text = phrases.mission_succeeds if data["success"] else phrases.mission_fails
        return text % {"mission": data["mission"], "fails": data["fails"]}
    if kind == "sniper_phase":
        return _("The sniper gets one shot at the scout.")
    if kind == "check_started":
        return _("%(name)s holds the check token.") % {
            "name": name(data["holder"], "?")
        }
    if kind == "checked":
        return _("%(holder)s checks %(target)s.") % {
            "holder": name(data["holder"], "?"),
            "target": name(data["target"], "?"),
        }
    if kind == "claimed":
        return _("%(holder)s announces: %(target)s is %(side)s.") % {
            "holder": name(data["holder"], "?"),
            "target": name(data["target"], "?"),
            "side": side_name(ruleset, data["claim"]),
        }
    if kind == "shot":
        text = (
            _("The sniper %(sniper)s shoots %(target)s: the scout is hit.")
            if data["hit"]
            else _("The sniper %(sniper)s shoots %(target)s and misses the scout.")
        )
        return text % {
            "sniper": name(data["sniper"], "?"),
            "target": name(data["target"], "?"),
        }
    if kind == "game_over":
        return _("%(side)s win.") % {
            "side": str(side_name(ruleset, data["winner"])).capitalize()
        }
    return ""
