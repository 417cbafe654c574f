"""Server-drawn charts: well-formed SVG, labels escaped, nothing inline that the
site's CSP would block."""

from __future__ import annotations

import datetime as dt
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
