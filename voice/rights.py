"""Who may speak and who may listen in a table's voice rooms, from one seat's own view.

A table has two rooms. The **table** room is every seat's (and the moderator's);
who may speak in it depends on public facts only (the phase, who is out of the
game: ``LivePage.table_voices``), so every view of one state gives the same speakers.
The **team** room follows the private chat rule: a seat is in it exactly while its
own view opens a private channel to it (``me.channels``: the mafia's at night, the
evil side's in the sniper phase); seats sharing that channel share the room.

:func:`voice_rights` is pure: a view in, plain data out, the same shape for every
viewer. It travels with every push to the seat's page (``voice.consumers``), which
silences its microphone towards a room it may not speak in and does not play a
peer that may not speak.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import engine
from games.kit.family import family_of

TABLE = "table"
TEAM = "team"
ROOMS = (TABLE, TEAM)


def closed() -> dict[str, Any]:
    """The rights of a screen that has no voice: a spectator's, a table not being
    played."""
    return {
        TABLE: {"talk": False, "hear": False, "speakers": []},
        TEAM: {"talk": False, "hear": False},
    }


def table_speakers(view: Mapping[str, Any]) -> list[int]:
    """The seats that may speak to the whole table now, with the moderator's chair
    (``engine.MODERATOR``) in a moderated game: public facts only."""
    ruleset = str(view["ruleset"])
    speakers = list(family_of(ruleset).live.table_voices(view))
    if engine.get_ruleset(ruleset).has_moderator:
        speakers.append(engine.MODERATOR)
    return speakers


def team_channel(view: Mapping[str, Any] | None) -> str | None:
    """The private channel the viewer's own view opens now (the team room it is
    in), or None."""
    me = (view or {}).get("me") or {}
    for channel in me.get("channels") or ():
        if channel != TABLE:
            return str(channel)
    return None


def voice_rights(view: Mapping[str, Any] | None) -> dict[str, Any]:
    """Per room, whether the viewer of ``view`` may speak (``talk``) and listen
    (``hear``), and who may speak to the table (``speakers``). A spectator's view
    (no ``me``) gets no room."""
    if view is None or not view.get("me"):
        return closed()
    seat = view["me"]["seat"]
    speakers = table_speakers(view)
    team = team_channel(view) is not None
    return {
        TABLE: {"talk": seat in speakers, "hear": True, "speakers": speakers},
        TEAM: {"talk": team, "hear": team},
    }


def may_use(rights: Mapping[str, Any], room: str) -> bool:
    """Whether a screen with ``rights`` is in ``room`` at all."""
    found = rights.get(room) or {}
    return bool(found.get("talk") or found.get("hear"))
