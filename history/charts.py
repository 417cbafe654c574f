"""Small charts drawn by the server as inline SVG: no chart library, no script.

Colours come from the stylesheet through classes (the site's CSP allows no inline
style), every text goes through ``format_html`` so a label can never inject markup,
and each chart carries a ``<title>`` and ``<desc>`` for screen readers; the numbers
it draws are also printed beside it, so a chart is never the only way to read them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString, mark_safe

WIDTH = 600
HEIGHT = 220
LEFT = 44
RIGHT = 12
TOP = 14
BOTTOM = 34


@dataclass(frozen=True)
class Series:
    """One line: ``key`` picks its colour class (good, evil, all)."""

    key: str
    label: str
    points: Sequence[float | None]
    """One value per x label (in 0..1 on the default scale); None where there is
    nothing to draw."""


def _percent(value: float) -> str:
    return f"{round(value * 100)}%"


@dataclass(frozen=True)
class Scale:
    """The y axis of a line chart: the values at its bottom and top, and how a value
    is printed (on the grid and in each point's tooltip)."""

    low: float = 0.0
    high: float = 1.0
    label: Callable[[float], str] = _percent

    def fraction(self, value: float) -> float:
        span = self.high - self.low
        return (value - self.low) / span if span else 0.5


PERCENT = Scale()


@dataclass(frozen=True)
class Bar:
    key: str
    label: str
    value: float | None
    """0..1; None draws an empty bar."""
    note: str
    """The numbers behind the bar, e.g. "12 of 20", printed after it."""


def _join(parts: Sequence[SafeString]) -> SafeString:
    """Concatenate pieces that were each built by ``format_html``."""
    assert all(isinstance(part, SafeData) for part in parts)
    return mark_safe("".join(parts))  # noqa: S308 - every part is already escaped


def _frame(
    chart_id: str, title: str, description: str, body: SafeString, height: int = HEIGHT
) -> SafeString:
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" '
        'aria-labelledby="{}-title {}-desc" xmlns="http://www.w3.org/2000/svg">'
        '<title id="{}-title">{}</title><desc id="{}-desc">{}</desc>{}</svg>',
        WIDTH,
        height,
        chart_id,
        chart_id,
        chart_id,
        title,
        chart_id,
        description,
        body,
    )


def _y(value: float) -> float:
    return TOP + (1 - value) * (HEIGHT - TOP - BOTTOM)


def _grid(scale: Scale = PERCENT) -> list[SafeString]:
    parts = []
    for fraction in (0.0, 0.5, 1.0):
        y = _y(fraction)
        parts.append(
            format_html(
                '<line class="grid-line" x1="{}" y1="{}" x2="{}" y2="{}"/>'
                '<text x="{}" y="{}" text-anchor="end">{}</text>',
                LEFT,
                f"{y:.1f}",
                WIDTH - RIGHT,
                f"{y:.1f}",
                LEFT - 6,
                f"{y + 4:.1f}",
                scale.label(scale.low + fraction * (scale.high - scale.low)),
            )
        )
    return parts


def _x_positions(count: int) -> list[float]:
    span = WIDTH - LEFT - RIGHT
    if count == 1:
        return [LEFT + span / 2]
    return [LEFT + span * index / (count - 1) for index in range(count)]


def _label_every(count: int) -> int:
    """Print every n-th x label so that at most about six fit."""
    return max(1, -(-count // 6))


def line_chart(
    *,
    chart_id: str,
    title: str,
    description: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    scale: Scale = PERCENT,
) -> SafeString:
    """Rates over time: one polyline per series, a dot per point with its value.

    A gap (None) breaks the line, so a month without games is not drawn as a trend.
    ``scale`` is the y axis (rates from 0 to 100 % unless told otherwise).
    """
    xs = _x_positions(len(x_labels))
    parts = _grid(scale)
    step = _label_every(len(x_labels))
    last = len(xs) - 1
    for index, (x, label) in enumerate(zip(xs, x_labels, strict=True)):
        if index % step == 0 or index == last:
            anchor = "end" if index == last and last else "middle"
            parts.append(
                format_html(
                    '<text x="{}" y="{}" text-anchor="{}">{}</text>',
                    f"{x:.1f}",
                    HEIGHT - BOTTOM + 16,
                    anchor,
                    label,
                )
            )
    for line in series:
        parts.extend(_series(line, xs, x_labels, scale))
    legend_x = LEFT
    for line in series:
        parts.append(
            format_html(
                '<line class="series-{}" x1="{}" y1="{}" x2="{}" y2="{}"/>'
                '<text x="{}" y="{}">{}</text>',
                line.key,
                legend_x,
                HEIGHT - 8,
                legend_x + 16,
                HEIGHT - 8,
                legend_x + 20,
                HEIGHT - 4,
                line.label,
            )
        )
        legend_x += 30 + 7 * len(line.label)
    return _frame(chart_id, title, description, _join(parts))


def _series(
    line: Series, xs: Sequence[float], x_labels: Sequence[str], scale: Scale
) -> list[SafeString]:
    parts = []
    runs: list[list[tuple[float, float]]] = [[]]
    for x, value, label in zip(xs, line.points, x_labels, strict=True):
        if value is None:
            runs.append([])
            continue
        y = _y(scale.fraction(value))
        runs[-1].append((x, y))
        parts.append(
            format_html(
                '<circle class="pt-{}" cx="{}" cy="{}" r="3"><title>{}: {} {}</title>'
                "</circle>",
                line.key,
                f"{x:.1f}",
                f"{y:.1f}",
                line.label,
                label,
                scale.label(value),
            )
        )
    for run in runs:
        if len(run) > 1:
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
            parts.insert(
                0,
                format_html(
                    '<polyline class="series-{}" points="{}"/>', line.key, points
                ),
            )
    return parts


def bar_chart(
    *, chart_id: str, title: str, description: str, bars: Sequence[Bar]
) -> SafeString:
    """Horizontal bars of rates, each labelled with its percentage and numbers."""
    row = 34
    height = TOP + row * len(bars) + 8
    label_width = 150
    span = WIDTH - label_width - 130
    parts = []
    for index, bar in enumerate(bars):
        y = TOP + index * row
        width = span * (bar.value or 0)
        value = "—" if bar.value is None else _percent(bar.value)
        parts.append(
            format_html(
                '<text x="{}" y="{}" text-anchor="end">{}</text>'
                '<rect class="bar-track" x="{}" y="{}" width="{}" height="18"/>'
                '<rect class="bar-{}" x="{}" y="{}" width="{}" height="18"/>'
                '<text x="{}" y="{}">{} · {}</text>',
                label_width - 8,
                y + 13,
                bar.label,
                label_width,
                y,
                span,
                bar.key,
                label_width,
                y,
                f"{width:.1f}",
                label_width + span + 6,
                y + 13,
                value,
                bar.note,
            )
        )
    return _frame(chart_id, title, description, _join(parts), height)
