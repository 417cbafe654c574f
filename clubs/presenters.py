"""What club pages print, worked out in Python so templates only print."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.utils.formats import get_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from clubs import notices as notice_text
from clubs.families import hidden_side, side_label
from clubs.models import MatchDay, MatchDaySignup, Notice, Season
from clubs.selectors import BoardLine, SideRecord, Standing
from games.models import Game
from history.presenters import profile_url_maker


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


def _side_cell(record: SideRecord) -> SafeString:
    if not record.played:
        return format_html(
            '<td class="num" data-side="{}"><span class="muted">—</span></td>',
            record.side,
        )
    return format_html(
        '<td class="num" data-side="{}"><a href="{}">{}</a>/<a href="{}">{}</a> '
        '<span class="muted small">{}</span></td>',
        record.side,
        record.won_url,
        record.won,
        record.played_url,
        record.played,
        record.percent,
    )


def standings_rows(lines: Sequence[Standing]) -> SafeString:
    """The standings' table rows, built here rather than in a template loop: a
    season of 200 players has some 1,400 linked figures, and Django's template
    engine spends several times longer on them than ``format_html`` does."""
    rows = [
        format_html(
            '<tr data-player="{}"><td class="num">{}</td>'
            '<th scope="row"><a href="{}">{}</a></th>'
            '<td class="num" data-stat="points"><a href="{}"><strong>{}</strong></a>'
            "</td>"
            '<td class="num" data-stat="played"><a href="{}">{}</a></td>'
            '<td class="num" data-stat="won"><a href="{}">{}</a></td>'
            '<td class="num" data-stat="rate">{}</td>{}</tr>',
            line.username,
            line.rank,
            line.profile_url,
            line.name,
            line.played_url,
            line.points,
            line.played_url,
            line.played,
            line.won_url,
            line.won,
            line.percent,
            format_html_join("", "{}", ((_side_cell(r),) for r in line.by_side)),
        )
        for line in lines
    ]
    return mark_safe("".join(rows))  # noqa: S308 - every row built by format_html


def equal_chances(day: MatchDay, tables: Sequence[DayTable]) -> bool:
    """Whether every table of the day deals the hidden side alike (then the seating
    could not change anyone's chance of it)."""
    shares = {hidden_side(day.ruleset, table.game.seat_count).share for table in tables}
    return len(shares) <= 1


def one_decimal() -> Callable[[float], str]:
    """A number with one decimal in the reader's language (``12,3`` in Russian),
    the separator looked up once rather than per number."""
    separator = str(get_format("DECIMAL_SEPARATOR"))
    return lambda value: f"{value:.1f}".replace(".", separator)


def leaderboard_rows(board: Sequence[BoardLine]) -> SafeString:
    """The leaderboard's rows (up to a hundred), built in one pass like the
    standings'."""
    number = one_decimal()
    profile_url = profile_url_maker()
    rows = [
        format_html(
            '<tr data-player="{}"><td class="num">{}</td>'
            '<th scope="row"><a href="{}">{}</a></th>'
            '<td class="num"><strong>{}</strong></td><td class="num">{}</td>'
            '<td class="num muted small">{} ± {}</td></tr>',
            line.username,
            line.rank,
            profile_url(line.username),
            line.name,
            number(line.rating),
            line.games,
            number(line.mu),
            number(line.sigma),
        )
        for line in board
    ]
    return mark_safe("".join(rows))  # noqa: S308 - every row built by format_html
