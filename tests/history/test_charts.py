"""Server-drawn charts: well-formed SVG, labels escaped, nothing inline that the
site's CSP would block."""

from __future__ import annotations

import datetime as dt
import itertools
import xml.etree.ElementTree as ET

from django.utils import translation

from history import charts, figures
from history.selectors import MonthTally, PlayerStats, Tally

SVG = "{http://www.w3.org/2000/svg}"
EVIL_LABEL = '<script>alert("x")</script> & "quotes"'


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # noqa: S314 - our own output, not untrusted input
    assert root.tag == f"{SVG}svg"
    return root


def test_line_chart_is_valid_svg_with_escaped_labels() -> None:
    svg = charts.line_chart(
        chart_id="c1",
        title=EVIL_LABEL,
        description="desc",
        x_labels=["Jan", EVIL_LABEL, "Mar"],
        series=[
            charts.Series("all", EVIL_LABEL, [0.5, None, 1.0]),
            charts.Series("good", "good", [0.0, 0.25, 0.75]),
        ],
    )
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg
    root = _parse(svg)
    assert root.find(f"{SVG}title").text == EVIL_LABEL
    assert root.get("role") == "img"
    assert " style=" not in svg
    # A gap breaks the line: the "all" series has two single points, no polyline.
    polylines = root.findall(f"{SVG}polyline")
    assert [p.get("class") for p in polylines] == ["series-good"]
    assert len(root.findall(f"{SVG}circle")) == 5


def test_bar_chart_is_valid_svg_with_escaped_labels() -> None:
    svg = charts.bar_chart(
        chart_id="c2",
        title="Win rate",
        description=EVIL_LABEL,
        bars=[
            charts.Bar("good", EVIL_LABEL, 0.5, "1 of 2"),
            charts.Bar("evil", "evil", None, "0 of 0"),
        ],
    )
    root = _parse(svg)
    assert root.find(f"{SVG}desc").text == EVIL_LABEL
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert EVIL_LABEL in texts
    assert "50% · 1 of 2" in texts
    assert "— · 0 of 0" in texts


def test_profile_charts_from_stats() -> None:
    stats = PlayerStats(
        overall=Tally(3, 2),
        by_ruleset={"partisans": Tally(3, 2)},
        by_side={
            ("partisans", "good"): Tally(2, 1),
            ("partisans", "evil"): Tally(1, 1),
        },
        months=[
            MonthTally(dt.date(2025, 1, 1), "good", 2, 1),
            MonthTally(dt.date(2025, 2, 1), "evil", 1, 1),
        ],
    )
    _parse(figures.rate_chart(stats, "rate"))
    with translation.override("en"):
        side = _parse(figures.side_chart(stats, "side"))
    texts = [t.text for t in side.iter(f"{SVG}text")]
    # One game played: the sides are named in its words, not "good"/"evil".
    assert "partisans" in texts and "traitors" in texts
    assert figures.rate_chart(PlayerStats(), "x") is None
    assert figures.side_chart(PlayerStats(), "x") is None


MONTHS = ["Jan 2025", "Feb 2025", "Mar 2025", "Apr 2025", "May 2025"]


def _line(language: str) -> ET.Element:
    with translation.override(language):
        return _parse(
            charts.line_chart(
                chart_id="rate",
                title="Win rate by month",
                description="desc",
                x_labels=MONTHS,
                series=[charts.Series("all", "all games", [0.5, 0.25, None, 1, 0])],
            )
        )


def _texts(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}text"))


def test_line_chart_runs_left_to_right_in_english() -> None:
    root = _line("en")
    assert root.get("direction") == "ltr"
    months = [t for t in _texts(root) if t.text in MONTHS]
    xs = [float(t.get("x")) for t in months]
    assert xs == sorted(xs) and len(xs) >= 2
    percents = [t for t in _texts(root) if t.text in ("0%", "50%", "100%")]
    assert len(percents) == 3
    assert all(float(t.get("x")) < charts.WIDTH / 2 for t in percents)


def test_line_chart_is_mirrored_in_persian_with_persian_digits() -> None:
    """Time runs right to left, like the mission track; the percentages stand on
    the right; every number is in Persian digits."""
    root = _line("fa")
    assert root.get("direction") == "rtl"
    months = [t for t in _texts(root) if t.text and t.text.endswith("۲۰۲۵")]
    xs = [float(t.get("x")) for t in months]
    assert xs == sorted(xs, reverse=True) and len(xs) >= 2
    percents = [t for t in _texts(root) if t.text in ("۰٪", "۵۰٪", "۱۰۰٪")]
    assert len(percents) == 3
    assert all(float(t.get("x")) > charts.WIDTH / 2 for t in percents)
    # The points mirror too: the first month's dot is the rightmost.
    dots = [float(c.get("cx")) for c in root.iter(f"{SVG}circle")]
    assert dots == sorted(dots, reverse=True)
    shown = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert not any(char.isascii() and char.isdigit() for char in shown)


def test_bar_chart_grows_from_its_labels_on_either_side() -> None:
    bars = [charts.Bar("good", "good side", 0.5, "1 of 2")]
    for language, rtl in (("en", False), ("fa", True)):
        with translation.override(language):
            root = _parse(
                charts.bar_chart(chart_id="side", title="t", description="d", bars=bars)
            )
        track, bar = root.iter(f"{SVG}rect")
        label = _texts(root)[0]
        left, width = float(bar.get("x")), float(bar.get("width"))
        track_left, track_width = float(track.get("x")), float(track.get("width"))
        assert width == track_width / 2
        if rtl:  # the label on the right, the bar growing leftwards from it
            assert left + width == track_left + track_width
            assert float(label.get("x")) > track_left + track_width
            assert _texts(root)[1].text == "۵۰٪ · ۱ of ۲"  # the note as given
        else:
            assert left == track_left
            assert float(label.get("x")) < track_left
            assert _texts(root)[1].text == "50% · 1 of 2"


def test_many_months_print_few_enough_labels_to_stay_apart() -> None:
    labels = [f"M{index:02d} 2025" for index in range(24)]
    with translation.override("en"):
        root = _parse(
            charts.line_chart(
                chart_id="m",
                title="t",
                description="d",
                x_labels=labels,
                series=[charts.Series("all", "all", [0.5] * 24)],
            )
        )
    printed = sorted(float(t.get("x")) for t in _texts(root) if t.text in labels)
    assert labels[0] in [t.text for t in _texts(root)]
    assert labels[-1] in [t.text for t in _texts(root)]
    widest = max(len(label) for label in labels) * charts.CHAR
    assert all(b - a >= widest for a, b in itertools.pairwise(printed))
