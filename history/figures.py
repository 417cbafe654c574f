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

from games import engine
from games.kit.family import Figure, Ratio, families, family_of, known_words
from history import charts
from history.selectors import PlayerStats, Tally
from history.selectors import alignment as selectors_alignment


def games_url(username: str, **filters: Any) -> str:
    """The history list of ``username``'s games narrowed by ``filters``."""
    query = {"player": username, **{k: v for k, v in filters.items() if v is not None}}
    return f"{reverse('history:list')}?{urlencode(query)}"


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
    facts: list[Figure]
    """Each family's own figures (the Resistance's missions as evil, votes...)."""
    rate_chart: SafeString | None
    side_chart: SafeString | None

    def fact(self, key: str) -> Figure:
        return next(figure for figure in self.facts if figure.key == key)


def _record(username: str, tally: Tally, **filters: Any) -> Ratio:
    """Games played and won: finished games only, as the counts are."""
    return Ratio(
        count=tally.won,
        total=tally.played,
        count_url=games_url(username, result="finished", won=1, **filters),
        total_url=games_url(username, result="finished", **filters),
    )


def _game_label(code: str) -> str:
    words = known_words(code)
    return str(words.game) if words else code


def _side_label(ruleset: str, side: str) -> str:
    """A side in its game's words: "Partisans: traitors"."""
    words = known_words(ruleset)
    name = str(words.side(side)) if words else side
    return f"{_game_label(ruleset)}: {name}"


def _role_label(ruleset: str, role: str) -> str:
    words = known_words(ruleset)
    name = str(words.role(role)) if words else role
    return f"{_game_label(ruleset)}: {name}"


def _side_order(key: tuple[str, str]) -> tuple[str, int]:
    ruleset, side = key
    try:
        sides = engine.get_ruleset(ruleset).sides
    except engine.UnknownRuleset:
        return ruleset, 0
    return ruleset, sides.index(side) if side in sides else len(sides)


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
            key=f"{ruleset}:{side}",
            label=_side_label(ruleset, side),
            record=_record(username, tally, ruleset=ruleset, side=side),
        )
        for (ruleset, side), tally in sorted(
            stats.by_side.items(), key=lambda kv: _side_order(kv[0])
        )
        if side
    ]
    by_role = [
        RecordRow(
            key=f"{ruleset}:{role}",
            label=_role_label(ruleset, role),
            record=_record(username, tally, ruleset=ruleset, role=role),
        )
        for (ruleset, role), tally in sorted(stats.by_role.items())
        if role
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


def _alignment_labels(stats: PlayerStats) -> dict[str, str]:
    """What the charts call the two sides: the game's own words when all the
    player's games are of one game, else the site's neutral words."""
    games = list(stats.by_ruleset)
    if len(games) == 1:
        words = known_words(games[0])
        sides = engine.get_ruleset(games[0]).sides if words else ()
        if words and len(sides) == 2:
            return {
                "good": str(words.side(sides[0])),
                "evil": str(words.side(sides[1])),
            }
    return {"good": _("good side"), "evil": _("evil side")}


def _alignment_tallies(stats: PlayerStats) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for (ruleset, side), tally in stats.by_side.items():
        if side:
            key = selectors_alignment(ruleset, side)
            tallies.setdefault(key, Tally()).add(tally.played, tally.won)
    return tallies


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

    labels = _alignment_labels(stats)
    series = [
        charts.Series("all", _("all games"), points("")),
        charts.Series("good", labels["good"], points("good")),
        charts.Series("evil", labels["evil"], points("evil")),
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
    labels = _alignment_labels(stats)
    tallies = _alignment_tallies(stats)
    for side in ("good", "evil"):
        tally = tallies.get(side, Tally())
        bars.append(charts.Bar(side, labels[side], tally.rate, _note(tally)))
    return charts.bar_chart(
        chart_id=chart_id,
        title=_("Win rate by side"),
        description=_("Share of games won on each side."),
        bars=bars,
    )


def _note(tally: Tally) -> str:
    return _("%(won)d of %(played)d") % {"won": tally.won, "played": tally.played}


def _facts(username: str, stats: PlayerStats) -> list[Figure]:
    """Each family's own figures over the player's seats in its games."""
    if stats.seats is None:
        return []
    played = set(stats.by_ruleset)
    figures: list[Figure] = []
    for family in families():
        rulesets = [code for code in played if _family_code(code) == family.code]
        if not rulesets:
            continue
        seats = stats.seats.filter(game__ruleset__in=rulesets)
        figures += family.stats.figures(
            seats, lambda **filters: games_url(username, **filters)
        )
    return figures


def _family_code(ruleset: str) -> str:
    try:
        return family_of(ruleset).code
    except (LookupError, engine.UnknownRuleset):
        return ""


def profile_figures(username: str, stats: PlayerStats) -> ProfileFigures:
    """Every figure of the profile, linked to its games."""
    return ProfileFigures(
        overall=_record(username, stats.overall),
        abandoned=stats.abandoned,
        abandoned_url=games_url(username, result="abandoned"),
        **_rows(username, stats),
        facts=_facts(username, stats),
        rate_chart=rate_chart(stats, "chart-rate"),
        side_chart=side_chart(stats, "chart-side"),
    )
