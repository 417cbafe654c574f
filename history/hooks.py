"""Extension points for apps that add to the history pages, so that ``history`` never
imports them (like ``games.hooks``). Each is a list of callables registered from an
app's ``ready()``; with none registered, history is what it is without that app.

* ``list_filters``: ``filter(params, viewer) -> ListFilter | None``: a filter of the
  history list read from its own query-string keys (``params`` is the query string),
  e.g. a club's season, so that a standings figure links to exactly its games. It
  only narrows the games the viewer may see anyway.
* ``game_notes``: ``notes(games) -> {game id: [text]}``: short lines a list row and
  the review page show beside a game (a voided league game and why), one query per
  page of games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from games.models import Game


@dataclass(frozen=True)
class ListFilter:
    condition: Q
    """Over ``Game``: the games the filter keeps."""
    caption: str
    """What the list says it is narrowed to ("" to say nothing)."""
    params: Mapping[str, str] = field(default_factory=dict)
    """The query-string keys it read, kept when the filter form is sent again."""


list_filters: list[Callable[[Mapping[str, str], Any], ListFilter | None]] = []
game_notes: list[Callable[[Sequence[Game]], Mapping[int, Sequence[str]]]] = []


def filters_for(params: Mapping[str, str], viewer: Any) -> list[ListFilter]:
    """The extra filters the query string asks for."""
    found = (make(params, viewer) for make in list_filters)
    return [extra for extra in found if extra is not None]


def notes_for(games: Sequence[Game]) -> dict[int, list[str]]:
    """Every app's notes on a page of games, by game id."""
    notes: dict[int, list[str]] = {}
    if not games:
        return notes
    for game in games:
        if lines := fair_play_notes(game):
            notes[game.pk] = lines
    for make in game_notes:
        for game_id, lines in make(games).items():
            notes.setdefault(game_id, []).extend(lines)
    return notes


def fair_play_notes(game: Game) -> list[str]:
    """The platform's own marks (docs/stats.md): a practice game with bots, and a
    game in which the clock's bot made much of some player's decisions."""
    lines = []
    if game.with_bots:
        lines.append(_("Played with bots: not counted in ratings or stats"))
    if game.bot_played:
        lines.append(_("The bot played for someone whose time ran out"))
    return lines
