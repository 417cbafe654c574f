"""A player's stats as the profile shows them: every number with the link to the
list of games behind it, and the two charts.

Pure functions of :class:`history.selectors.PlayerStats`: no query here. A link is
the history list with the filters that select exactly the games counted (see
``history.selectors.game_list``), which is what lets anyone check a figure game by
game.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.families.registry import known_words
from history import charts
from history.selectors import ROLE_KINDS, PlayerStats, Tally

ROLE_ORDER = list(ROLE_KINDS)


def games_url(username: str, **filters: Any) -> str:
    """The history list of ``username``'s games narrowed by ``filters``."""
    query = {"player": username, **{k: v for k, v in filters.items() if v is not None}}
    return f"{reverse('history:list')}?{urlencode(query)}"


@dataclass(frozen=True)
class Ratio:
    """ "``count`` of ``total``", each linked to its games."""

    count: int
    total: int
    count_url: str
    total_url: str

    @property
    def rate(self) -> float | None:
        return self.count / self.total if self.total else None

    @property
    def percent(self) -> str:
        rate = self.rate
        return "—" if rate is None else f"{round(rate * 100)}%"


@dataclass(frozen=True)
class RecordRow:
    """One slice of the record (a game, a side, a role, a table size)."""

    key: str
    label: str
    record: Ratio


@dataclass(frozen=True)
class ProfileFigures:
    overall: Ratio
    abandoned: int
    abandoned_url: str
    by_ruleset: list[RecordRow]
    by_side: list[RecordRow]
    by_role: list[RecordRow]
    by_players: list[RecordRow]
    evil_missions_failed: Ratio
    approved_evil: Ratio
    approved_evil_of_evil_teams: Ratio
    clean_proposals: Ratio
    rate_chart: SafeString | None
    side_chart: SafeString | None


def _record(username: str, tally: Tally, **filters: Any) -> Ratio:
    """Games played and won: finished games only, as the counts are."""
    return Ratio(
        count=tally.won,
        total=tally.played,
        count_url=games_url(username, result="finished", won=1, **filters),
        total_url=games_url(username, result="finished", **filters),
    )


def _side_label(side: str) -> str:
    return _("good side") if side == "good" else _("evil side")


def _role_label(kind: str) -> str:
    labels = {
        "scout": pgettext("partisans", "Scout"),
        "sniper": pgettext("partisans", "Sniper"),
        "plain": _("no special role"),
    }
    return labels[kind]


def _game_label(code: str) -> str:
    words = known_words(code)
    return str(words.game) if words else code


def _rows(username: str, stats: PlayerStats) -> dict[str, list[RecordRow]]:
    by_ruleset = [
        RecordRow(
            key=code,
            label=_game_label(code),
            record=_record(username, tally, ruleset=code),
        )
        for code, tally in sorted(stats.by_ruleset.items())
    ]
    by_side = [
        RecordRow(
            key=side,
            label=_side_label(side),
            record=_record(username, tally, side=side),
        )
        for side, tally in sorted(stats.by_side.items(), key=lambda kv: kv[0] != "good")
        if side
    ]
    by_role = [
        RecordRow(
            key=kind,
            label=_role_label(kind),
            record=_record(username, tally, role=kind),
        )
        for kind, tally in sorted(
            stats.by_role.items(), key=lambda kv: ROLE_ORDER.index(kv[0])
        )
    ]
    by_players = [
        RecordRow(
            key=str(count),
            label=str(count),
            record=_record(username, tally, players=count),
        )
        for count, tally in sorted(stats.by_players.items())
    ]
    return {
        "by_ruleset": by_ruleset,
        "by_side": by_side,
        "by_role": by_role,
        "by_players": by_players,
    }


def _rate(won: int, played: int) -> float | None:
    return won / played if played else None


def _month_label(month: dt.date) -> str:
    """Short ("Mar 2025"), so that the axis labels do not run into each other."""
    return date_format(month, "M Y")


def rate_chart(stats: PlayerStats, chart_id: str) -> SafeString | None:
    """Win rate per month over the last two years: all games, as good, as evil."""
    months = sorted({m.month for m in stats.months})
    if not months:
        return None
    tallies: dict[tuple[dt.date, str], Tally] = {}
    for m in stats.months:
        tallies.setdefault((m.month, m.side), Tally()).add(m.played, m.won)
        tallies.setdefault((m.month, ""), Tally()).add(m.played, m.won)

    def points(side: str) -> list[float | None]:
        return [tallies.get((month, side), Tally()).rate for month in months]

    series = [
        charts.Series("all", _("all games"), points("")),
        charts.Series("good", _("good side"), points("good")),
        charts.Series("evil", _("evil side"), points("evil")),
    ]
    return charts.line_chart(
        chart_id=chart_id,
        title=_("Win rate by month"),
        description=_("Share of games won each month, overall and by side."),
        x_labels=[_month_label(month) for month in months],
        series=series,
    )


def side_chart(stats: PlayerStats, chart_id: str) -> SafeString | None:
    """Win rate overall and on each side, as bars with their numbers."""
    if not stats.overall.played:
        return None
    bars = [charts.Bar("all", _("all games"), stats.overall.rate, _note(stats.overall))]
    for side in ("good", "evil"):
        tally = stats.by_side.get(side, Tally())
        bars.append(charts.Bar(side, _side_label(side), tally.rate, _note(tally)))
    return charts.bar_chart(
        chart_id=chart_id,
        title=_("Win rate by side"),
        description=_("Share of games won on each side."),
        bars=bars,
    )


def _note(tally: Tally) -> str:
    return _("%(won)d of %(played)d") % {"won": tally.won, "played": tally.played}


def profile_figures(username: str, stats: PlayerStats) -> ProfileFigures:
    """Every figure of the profile, linked to its games."""
    return ProfileFigures(
        overall=_record(username, stats.overall),
        abandoned=stats.abandoned,
        abandoned_url=games_url(username, result="abandoned"),
        **_rows(username, stats),
        evil_missions_failed=Ratio(
            count=stats.evil_missions_failed,
            total=stats.evil_missions,
            count_url=games_url(username, fact="evil_missions_failed"),
            total_url=games_url(username, fact="evil_missions"),
        ),
        approved_evil=Ratio(
            count=stats.approved_evil,
            total=stats.good_votes,
            count_url=games_url(username, fact="approved_evil"),
            total_url=games_url(username, fact="good_votes"),
        ),
        approved_evil_of_evil_teams=Ratio(
            count=stats.approved_evil,
            total=stats.votes_on_evil_teams,
            count_url=games_url(username, fact="approved_evil"),
            total_url=games_url(username, fact="evil_team_votes"),
        ),
        clean_proposals=Ratio(
            count=stats.led_clean,
            total=stats.led_good,
            count_url=games_url(username, fact="led_clean"),
            total_url=games_url(username, fact="led_good"),
        ),
        rate_chart=rate_chart(stats, "chart-rate"),
        side_chart=side_chart(stats, "chart-side"),
    )
