"""Small charts drawn by the server as inline SVG: no chart library, no script.

Colours come from the stylesheet through classes (the site's CSP allows no inline
style), every text goes through ``format_html`` so a label can never inject markup,
and each chart carries a ``<title>`` and ``<desc>`` for screen readers; the numbers
it draws are also printed beside it, so a chart is never the only way to read them.

Drawn for a phone: the drawing is about as wide (in its own units) as a phone shows
it, so its 13-unit labels stay about 12 px on a 360–390 px screen; a wider screen
caps its width in the stylesheet instead of blowing the labels up.

In a right-to-left language (Persian) a chart is mirrored like the rest of the page:
time runs from right to left, as a game's track and the replay controls do, the
percentages stand on the right, the bars grow leftwards from their labels, and the
numbers are in the language's own digits. The geometry is computed once, left to
right; :class:`_Canvas` flips each x coordinate, and the SVG's ``direction`` makes
``text-anchor`` (start / end, which are logical) follow, so a label anchored at its
end still ends at the axis.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString, mark_safe

from numerals.digits import localize_text

WIDTH = 360
HEIGHT = 200
LEFT = 46
RIGHT = 14
TOP = 12
PLOT_BOTTOM = 150
"""The line chart's x axis; below it the month labels, then the legend."""
FONT = 13
CHAR = 7.2
"""About how wide one character of a 13-unit label is, to keep labels apart."""


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


@dataclass(frozen=True)
class _Canvas:
    """Where a left-to-right layout lands on the page: mirrored when ``rtl``."""

    rtl: bool

    @classmethod
    def for_active_language(cls) -> _Canvas:
        return cls(rtl=translation.get_language_bidi())

    def x(self, x: float) -> str:
        return f"{WIDTH - x if self.rtl else x:.1f}"

    def left(self, x: float, width: float) -> str:
        """The left edge of a box that starts at ``x`` in the left-to-right layout."""
        return f"{WIDTH - x - width if self.rtl else x:.1f}"

    def text(self, value: str) -> str:
        return localize_text(value)


def _join(parts: Sequence[SafeString]) -> SafeString:
    """Concatenate pieces that were each built by ``format_html``."""
    assert all(isinstance(part, SafeData) for part in parts)
    return mark_safe("".join(parts))  # noqa: S308 - every part is already escaped


def _frame(
    canvas: _Canvas,
    chart_id: str,
    title: str,
    description: str,
    body: SafeString,
    height: float,
) -> SafeString:
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" direction="{}" role="img" '
        'aria-labelledby="{}-title {}-desc" xmlns="http://www.w3.org/2000/svg">'
        '<title id="{}-title">{}</title><desc id="{}-desc">{}</desc>{}</svg>',
        WIDTH,
        f"{height:.0f}",
        "rtl" if canvas.rtl else "ltr",
        chart_id,
        chart_id,
        chart_id,
        title,
        chart_id,
        description,
        body,
    )


def _y(value: float) -> float:
    return TOP + (1 - value) * (PLOT_BOTTOM - TOP)


def _grid(canvas: _Canvas, scale: Scale = PERCENT) -> list[SafeString]:
    parts = []
    for fraction in (0.0, 0.5, 1.0):
        y = _y(fraction)
        parts.append(
            format_html(
                '<line class="grid-line" x1="{}" y1="{}" x2="{}" y2="{}"/>'
                '<text x="{}" y="{}" text-anchor="end">{}</text>',
                canvas.x(LEFT),
                f"{y:.1f}",
                canvas.x(WIDTH - RIGHT),
                f"{y:.1f}",
                canvas.x(LEFT - 5),
                f"{y + 4:.1f}",
                canvas.text(
                    scale.label(scale.low + fraction * (scale.high - scale.low))
                ),
            )
        )
    return parts


def _x_positions(count: int) -> list[float]:
    span = WIDTH - LEFT - RIGHT
    if count == 1:
        return [LEFT + span / 2]
    return [LEFT + span * index / (count - 1) for index in range(count)]


def _label_every(labels: Sequence[str]) -> int:
    """Print every n-th x label so that the printed ones do not run into each other."""
    longest = max((len(label) for label in labels), default=1)
    room = (WIDTH - LEFT - RIGHT) / (longest * CHAR + 12)
    fit = max(2, int(room))
    return max(1, -(-len(labels) // fit))


def _legend(
    canvas: _Canvas, series: Sequence[Series], top: float
) -> tuple[list[SafeString], float]:
    """The series' names under the chart, in as many rows as they need."""
    parts = []
    x, y = float(LEFT), top
    for line in series:
        width = 22 + CHAR * len(line.label)
        if x > LEFT and x + width > WIDTH - RIGHT:
            x, y = float(LEFT), y + FONT + 8
        parts.append(
            format_html(
                '<line class="series-{}" x1="{}" y1="{}" x2="{}" y2="{}"/>'
                '<text x="{}" y="{}">{}</text>',
                line.key,
                canvas.x(x),
                f"{y - 4:.1f}",
                canvas.x(x + 16),
                f"{y - 4:.1f}",
                canvas.x(x + 20),
                f"{y:.1f}",
                line.label,
            )
        )
        x += width + 14
    return parts, y


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
    canvas = _Canvas.for_active_language()
    xs = _x_positions(len(x_labels))
    parts = _grid(canvas, scale)
    step = _label_every(x_labels)
    last = len(xs) - 1
    for index, (x, label) in enumerate(zip(xs, x_labels, strict=True)):
        if index % step == 0 or index == last:
            if index == last and last:
                anchor = "end"
            elif index == 0 and last:
                anchor = "start"
            else:
                anchor = "middle"
            if 0 < index < last and last - index < step:
                continue  # too close to the last label, which is always printed
            parts.append(
                format_html(
                    '<text x="{}" y="{}" text-anchor="{}">{}</text>',
                    canvas.x(x),
                    PLOT_BOTTOM + 18,
                    anchor,
                    canvas.text(label),
                )
            )
    for line in series:
        parts.extend(_series(canvas, line, xs, x_labels, scale))
    legend, bottom = _legend(canvas, series, PLOT_BOTTOM + 42)
    parts.extend(legend)
    return _frame(canvas, chart_id, title, description, _join(parts), bottom + 8)


def _series(
    canvas: _Canvas,
    line: Series,
    xs: Sequence[float],
    x_labels: Sequence[str],
    scale: Scale,
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
                '<circle class="pt-{}" cx="{}" cy="{}" r="3.5"><title>{}: {} {}</title>'
                "</circle>",
                line.key,
                canvas.x(x),
                f"{y:.1f}",
                line.label,
                canvas.text(label),
                canvas.text(scale.label(value)),
            )
        )
    for run in runs:
        if len(run) > 1:
            points = " ".join(f"{canvas.x(x)},{y:.1f}" for x, y in run)
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
    """Horizontal bars of rates, each labelled with its percentage and numbers.

    The labels sit in a column of their own, as wide as the longest needs (within
    reason); the bar and its numbers share the rest of the width."""
    canvas = _Canvas.for_active_language()
    row, bar_height = 32, 16
    height = TOP + row * len(bars)
    longest = max((len(bar.label) for bar in bars), default=1)
    # Cyrillic and Persian letters run wider than CHAR: room for them, or the
    # label's first letters fall off the chart's edge.
    label_width = min(max(longest * CHAR * 1.2 + 14, 70), 150)
    note_width = (
        max((len(_bar_value(bar)) + 3 + len(bar.note) for bar in bars), default=1)
        * CHAR
    )
    span = max(WIDTH - label_width - note_width - 16, 80)
    parts = []
    for index, bar in enumerate(bars):
        y = TOP + index * row
        width = span * (bar.value or 0)
        parts.append(
            format_html(
                '<text x="{}" y="{}" text-anchor="end">{}</text>'
                '<rect class="bar-track" x="{}" y="{}" width="{}" height="{}"/>'
                '<rect class="bar-{}" x="{}" y="{}" width="{}" height="{}"/>'
                '<text x="{}" y="{}">{} · {}</text>',
                canvas.x(label_width - 8),
                y + 13,
                bar.label,
                canvas.left(label_width, span),
                y,
                f"{span:.1f}",
                bar_height,
                bar.key,
                canvas.left(label_width, width),
                y,
                f"{width:.1f}",
                bar_height,
                canvas.x(label_width + span + 6),
                y + 13,
                canvas.text(_bar_value(bar)),
                canvas.text(bar.note),
            )
        )
    return _frame(canvas, chart_id, title, description, _join(parts), height)


def _bar_value(bar: Bar) -> str:
    return "—" if bar.value is None else _percent(bar.value)
