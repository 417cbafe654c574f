"""What club pages print, worked out in Python so templates only print."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString

from clubs import notices as notice_text
from clubs.families import side_label
from clubs.models import MatchDaySignup, Notice, Season
from games.models import Game


@dataclass(frozen=True)
class ShownNotice:
    notice: Notice
    html: SafeString


def notices(found: Iterable[Notice]) -> list[ShownNotice]:
    return [ShownNotice(notice, notice_text.render(notice.body)) for notice in found]


@dataclass(frozen=True)
class SideHeader:
    code: str
    label: str


def side_headers(season: Season, sides: Sequence[str]) -> list[SideHeader]:
    return [SideHeader(side, side_label(season.family, side)) for side in sides]


@dataclass(frozen=True)
class SidePoints:
    label: str
    win: int
    loss: int


def points_scheme(season: Season, sides: Sequence[str]) -> list[SidePoints]:
    scheme = season.points or {}
    return [
        SidePoints(
            label=side_label(season.family, side),
            win=scheme.get(side, {}).get("win", 1),
            loss=scheme.get(side, {}).get("loss", 0),
        )
        for side in sides
    ]


@dataclass(frozen=True)
class DayTable:
    game: Game
    players: list[MatchDaySignup]


def day_tables(signups: Sequence[MatchDaySignup]) -> list[DayTable]:
    """A seated match day's tables with who sits at each, in opening order."""
    tables: dict[int, DayTable] = {}
    for signup in signups:
        if signup.game is not None:
            tables.setdefault(signup.game.pk, DayTable(signup.game, [])).players.append(
                signup
            )
    return sorted(tables.values(), key=lambda table: table.game.pk)
