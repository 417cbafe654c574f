"""A region's rows sent alone (``games.kit.regions.changed_rows``): a changed row is
swapped in by its id, a new row is put next to a row the screen has, and anything
else sends the whole region. Each case is checked the way a browser would apply it
(``tests.live.frames``): the screen then equals the new drawing."""

from __future__ import annotations

import pytest
from django.utils.safestring import mark_safe
from hypothesis import given
from hypothesis import strategies as st

from games.kit.regions import ROW, ROW_END, Drawing, changed_rows
from tests.live.frames import apply, parts_of


def _drawing(html: str) -> Drawing:
    return Drawing(mark_safe(html))  # noqa: S308 - a test's own HTML


def _row(ident: str, text: str, tag: str = "li") -> str:
    return f'{ROW}<{tag} id="{ident}">{text}</{tag}>{ROW_END}'


def _log(*lines: tuple[str, str], tag: str = "li", wrap: str = "ol") -> Drawing:
    rows = "\n".join(_row(ident, text, tag) for ident, text in lines)
    return _drawing(
        f'<div id="region-record" class="region"><h2>Log</h2>\n<{wrap}>\n{rows}\n'
        f"</{wrap}>\n<p>end</p></div>"
    )


def _shown_after(before: Drawing, after: Drawing) -> dict[str, str]:
    page = parts_of(before.html)
    sent = changed_rows(before, after)
    assert sent is not None
    apply(page, "".join(sent))
    return page


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # appended at the end, one and two at once
        ([("a", "1")], [("a", "1"), ("b", "2")]),
        ([("a", "1")], [("a", "1"), ("b", "2"), ("c", "3")]),
        # put first (a log, newest first), one and two at once
        ([("a", "1")], [("b", "2"), ("a", "1")]),
        ([("a", "1")], [("c", "3"), ("b", "2"), ("a", "1")]),
        # in the middle, and a row changed besides
        ([("a", "1"), ("c", "3")], [("a", "1"), ("b", "2"), ("c", "4")]),
    ],
    ids=["append", "append-two", "prepend", "prepend-two", "middle-and-changed"],
)
def test_new_rows_are_put_next_to_the_rows_the_screen_has(
    before: list[tuple[str, str]], after: list[tuple[str, str]]
) -> None:
    old, new = _log(*before), _log(*after)
    sent = changed_rows(old, new)
    assert sent is not None
    # Only the new and the changed rows travel, never the region.
    assert 'id="region-record"' not in "".join(sent)
    assert len(sent) == len([r for r in after if r not in before])
    assert _shown_after(old, new) == parts_of(new.html)


def test_table_rows_come_in_a_table_wrapper_so_that_they_parse() -> None:
    old = _log(("r1", "<tr><td>1</td></tr>"), tag="tbody", wrap="table")
    new = _log(
        ("r1", "<tr><td>1</td></tr>"),
        ("r2", "<tr><td>2</td></tr>"),
        tag="tbody",
        wrap="table",
    )
    sent = changed_rows(old, new)
    assert sent == [
        '<table hx-swap-oob="afterend:#r1">\n<tbody id="r2"><tr><td>2</td></tr></tbody>'
        "</table>"
    ]
    assert _shown_after(old, new) == parts_of(new.html)


def test_an_unchanged_region_sends_no_row() -> None:
    assert changed_rows(_log(("a", "1")), _log(("a", "1"))) == []


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # a row went
        (_log(("a", "1"), ("b", "2")), _log(("a", "1"))),
        # the rest of the region changed besides a new row
        (
            _log(("a", "1")),
            _drawing(
                f'<div id="region-record" class="region"><h2>Log!</h2>\n<ol>\n'
                f"{_row('a', '1')}\n{_row('b', '2')}\n</ol>\n<p>end</p></div>"
            ),
        ),
        # the first row of a list the screen shows without rows
        (
            _drawing('<div id="region-record" class="region"><p>Nothing yet</p></div>'),
            _log(("a", "1")),
        ),
        # two rows swapped places
        (_log(("a", "1"), ("b", "2")), _log(("b", "2"), ("a", "1"))),
    ],
    ids=["row-went", "frame-changed", "first-row", "reordered"],
)
def test_anything_else_sends_the_whole_region(before: Drawing, after: Drawing) -> None:
    assert changed_rows(before, after) is None


def test_a_changed_table_row_sends_the_whole_region() -> None:
    """A browser drops a <tbody> that comes outside a <table>, and htmx has no way
    to put a wrapper's children in a row's place: the region goes whole."""
    old = _log(("r1", "<tr><td>1</td></tr>"), tag="tbody", wrap="table")
    new = _log(("r1", "<tr><td>2</td></tr>"), tag="tbody", wrap="table")
    assert changed_rows(old, new) is None


def test_a_new_tr_row_sends_the_whole_region() -> None:
    old = _log(("r1", "<td>1</td>"), tag="tr", wrap="table")
    new = _log(("r1", "<td>1</td>"), ("r2", "<td>2</td>"), tag="tr", wrap="table")
    assert changed_rows(old, new) is None


@given(
    before=st.lists(st.integers(0, 30), unique=True, max_size=6),
    after=st.lists(st.integers(0, 30), unique=True, max_size=8),
    changed=st.sets(st.integers(0, 30)),
    heading=st.booleans(),
)
def test_whatever_changed_a_screen_sent_the_rows_shows_the_new_drawing(
    before: list[int], after: list[int], changed: set[int], heading: bool
) -> None:
    """Any two lists of rows: either the region goes whole, or the rows sent make
    the screen equal the new drawing."""
    old = _log(*[(f"r{n}", str(n)) for n in before])
    new_rows = [(f"r{n}", f"{n}{'*' if n in changed else ''}") for n in after]
    new = _log(*new_rows)
    if heading:
        new = _drawing(new.html.replace("<h2>Log</h2>", "<h2>Log!</h2>"))
    sent = changed_rows(old, new)
    if sent is None:
        return
    page = parts_of(old.html)
    apply(page, "".join(sent))
    assert page == parts_of(new.html)
