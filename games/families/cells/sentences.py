"""The public events of ``cells`` in words: the replay's step labels.

Only public events are ever given here (the replay redacts with ``events_for``, and
every ``cells`` event is public anyway): none names a character card before the end,
or a mission card but the one turned up, so a sentence cannot either. ``game_over``
carries every cell turned up and every swap's decision; its sentence says only who
won: the board of the step shows the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import engine
from games.families.cells.words import words_for

MILESTONES = frozenset({"play_started", "swapped", "peeked", "mission_done"})
"""The steps the replay's "key moments" list jumps to."""

_KIND_OF_EVENT = {
    "game_started": "deal",
    "confirmed": "confirm",
    "swapped": "swap",
    "swap_decided": "exchange",
    "peeked": "peek",
    "mission_started": "mission",
    "cards_passed": "discard",
    "mission_done": "discard",
}


def step_kind(events: Sequence[engine.Event]) -> tuple[str, bool]:
    """``(kind, milestone)`` of a replay step from its public events."""
    kind = next(
        (_KIND_OF_EVENT[e.kind] for e in events if e.kind in _KIND_OF_EVENT), ""
    )
    return kind, any(event.kind in MILESTONES for event in events)


def sentence(event: engine.Event, ruleset: str, names: Mapping[int, str]) -> str:
    """One public event in the game's own words; "" for those a label skips."""
    words = words_for(ruleset)
    data = event.data
    kind = event.kind

    def name(key: str) -> str:
        return names.get(data[key], "?")

    def slot(key: str) -> str:
        return str(words.slot(data[key]))

    if kind == "game_started":
        return _("The cards are dealt: everyone looks at their three cards.")
    if kind == "confirmed":
        return _("%(name)s has seen their cards.") % {"name": name("seat")}
    if kind == "play_started":
        return _("Everyone has seen their cards; %(name)s plays first.") % {
            "name": name("current")
        }
    if kind == "swapped":
        return _(
            "%(name)s takes their %(slot)s card and %(other)s's %(theirs)s card."
        ) % {
            "name": name("seat"),
            "slot": slot("mine"),
            "other": name("player"),
            "theirs": slot("theirs"),
        }
    if kind == "swap_decided":
        return _("%(name)s gives both cards back, face down.") % {"name": name("seat")}
    if kind == "peeked":
        return _("%(name)s looks at their %(slot)s card.") % {
            "name": name("seat"),
            "slot": slot("slot"),
        }
    if kind == "mission_started":
        return pgettext("cells", "Mission %(n)d: %(leader)s goes with %(partner)s.") % {
            "n": data["number"],
            "leader": name("leader"),
            "partner": name("partner"),
        }
    if kind == "deck_reshuffled":
        return _("The mission cards are shuffled into a new deck of %(n)d.") % {
            "n": data["deck"]
        }
    if kind == "cards_passed":
        return _("%(leader)s discards one card and passes two to %(partner)s.") % {
            "leader": name("leader"),
            "partner": name("partner"),
        }
    if kind == "mission_done":
        text = (
            pgettext(
                "cells", "%(partner)s reveals a %(card)s card: mission %(n)d succeeds."
            )
            if data["success"]
            else pgettext(
                "cells", "%(partner)s reveals a %(card)s card: mission %(n)d fails."
            )
        )
        return text % {
            "partner": name("partner"),
            "card": words.colour(data["card"]),
            "n": data["number"],
        }
    if kind == "turn_passed":
        return _("%(name)s's turn.") % {"name": name("current")}
    if kind == "game_over":
        return _("%(side)s win.") % {
            "side": str(words.side(data["winner"])).capitalize()
        }
    return ""
