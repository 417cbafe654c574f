"""``{% piece %}`` (games.pieces): a block drawn once per equal set of values, and the
line-by-line compaction of a live part (games.rendering._compact)."""

from __future__ import annotations

import enum
import gc
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st

from games import pieces, rendering


@dataclass
class Row:
    name: str
    votes: list[bool | None] = field(default_factory=list)


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    pieces.forget_all()
    yield
    pieces.forget_all()


def _render(source: str, values: dict[str, Any]) -> str:
    return Template("{% load i18n pieces %}" + source).render(Context(values))


def test_frozen_tells_apart_what_prints_differently() -> None:
    assert pieces.frozen(1) != pieces.frozen(True)
    assert pieces.frozen(1) != pieces.frozen(1.0)
    assert pieces.frozen("<b>") != pieces.frozen(mark_safe("<b>"))
    assert pieces.frozen(None) != pieces.frozen("")
    assert pieces.frozen([1, 2]) != pieces.frozen((1, 2))
    assert pieces.frozen(Row("a", [True])) == pieces.frozen(Row("a", [True]))
    assert pieces.frozen(Row("a", [True])) != pieces.frozen(Row("a", [False]))
    assert pieces.frozen({"a": [1]}) == pieces.frozen({"a": [1]})
    lazy = gettext_lazy("Players")
    with translation.override("en"):
        english = pieces.frozen(lazy)
    with translation.override("ru"):
        assert pieces.frozen(lazy) != english


def test_a_lazy_text_is_translated_once_per_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pieces.forget_all()
    lazy = gettext_lazy("Players")
    casts: list[str] = []
    translation.gettext("Players")  # Django's translation functions, resolved
    real = translation._trans.gettext

    def counting(message: str) -> str:
        casts.append(message)
        return real(message)

    monkeypatch.setattr(translation._trans, "gettext", counting)
    with translation.override("en"):
        english = [pieces.frozen([lazy, lazy]) for _ in range(3)]
    with translation.override("ru"):
        russian = [pieces.frozen(lazy) for _ in range(3)]
        assert pieces.frozen(lazy, "ru") == russian[0]
    assert english[0] == english[2] == (list, (("lazy", "Players"),) * 2)
    assert russian[0] == ("lazy", "Игроки")
    assert casts == ["Players", "Players"]  # once a language, not once a use


def test_a_lazy_text_is_never_taken_for_another_with_its_identity() -> None:
    pieces.forget_all()
    first = gettext_lazy("Players")
    with translation.override("en"):
        assert pieces.frozen(first) == ("lazy", "Players")
        # Filed by identity, the entry is checked against the object itself: a
        # different lazy text filed under the same number is not the one found.
        pieces._texts.put((id(first), "en"), (gettext_lazy("Rules"), "Rules"))
        assert pieces.frozen(first) == ("lazy", "Players")


def test_frozen_refuses_what_is_not_plain_data() -> None:
    with pytest.raises(pieces.NotPlain):
        pieces.frozen(object())
    with pytest.raises(pieces.NotPlain):
        pieces.frozen([Row("a"), object()])


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


def _twin_row() -> type:
    @dataclass
    class Row:  # the same name as the module's, another class
        name: str
        votes: list[bool | None] = field(default_factory=list)

    return Row


def test_two_classes_of_one_name_are_told_apart() -> None:
    twin = _twin_row()
    assert twin.__qualname__ != Row.__qualname__ or twin is not Row
    assert pieces.frozen(twin("a")) != pieces.frozen(Row("a"))
    assert pieces.frozen(twin("a")) == pieces.frozen(twin("a"))
    assert pieces.frozen(Colour.RED) != pieces.frozen(Colour.BLUE)
    assert pieces.frozen(Colour.RED) != pieces.frozen("red")


def test_kept_pieces_leave_nothing_for_the_collector_to_walk_in_their_keys() -> None:
    """Thousands of pieces are kept per process: keys made of text and numbers are
    untracked by the collector (a level of nesting a collection), so full
    collections stop walking them (a class in a key kept every key tracked)."""
    template = Template(
        "{% load pieces %}{% for row in rows %}{% piece row colour %}"
        "<li>{{ row.name }} {{ colour.value }}</li>{% endpiece %}{% endfor %}"
    )
    rows = [Row(f"p{n}", [True, None, n % 2 == 0]) for n in range(20)]
    html = template.render(Context({"rows": rows, "colour": Colour.RED}))
    assert html.count("<li>") == 20 and "p19 red" in html
    keys = pieces._drawn.keys()
    assert len(keys) == 20
    for _ in range(10):
        gc.collect()
    assert [key for key in keys if gc.is_tracked(key)] == []


def test_a_piece_is_drawn_once_and_then_found() -> None:
    source = (
        "{% for row in rows %}{% piece row %}<li>{{ row.name }}</li>{% endpiece %}"
        "{% endfor %}"
    )
    template = Template("{% load pieces %}" + source)
    rows = [Row("Ann"), Row("Bob")]
    first = template.render(Context({"rows": rows}))
    assert first == "<li>Ann</li><li>Bob</li>"
    assert pieces.kept()[0] == 2
    # One row changed: one more piece, the other found.
    second = template.render(Context({"rows": [Row("Ann"), Row("Cy")]}))
    assert second == "<li>Ann</li><li>Cy</li>"
    assert pieces.kept()[0] == 3


def test_a_piece_sees_only_the_values_it_names() -> None:
    source = (
        "{% piece row label=word %}{{ row.name }}/{{ label }}/{{ other }}{% endpiece %}"
    )
    html = _render(source, {"row": Row("Ann"), "word": "lead", "other": "secret"})
    assert html == "Ann/lead/"
    # What it did not name cannot change it, so the kept drawing is right.
    again = _render(source, {"row": Row("Ann"), "word": "lead", "other": "else"})
    assert again == "Ann/lead/"
    assert _render(source, {"row": Row("Ann"), "word": "next"}) == "Ann/next/"


def test_a_piece_is_kept_per_language() -> None:
    source = '{% piece row %}{{ row.name }} {% translate "Players" %}{% endpiece %}'
    with translation.override("en"):
        english = _render(source, {"row": Row("Ann")})
    with translation.override("ru"):
        russian = _render(source, {"row": Row("Ann")})
    assert english == "Ann Players"
    assert russian == "Ann Игроки"


def test_escaping_is_the_same_as_without_the_tag() -> None:
    plain = "{% for row in rows %}<b>{{ row.name }}</b>{% endfor %}"
    tagged = (
        "{% for row in rows %}{% piece row %}<b>{{ row.name }}</b>{% endpiece %}"
        "{% endfor %}"
    )
    rows = [Row("<script>"), Row("a & b")]
    assert _render(tagged, {"rows": rows}) == _render(plain, {"rows": rows})
    assert "&lt;script&gt;" in _render(tagged, {"rows": rows})


def test_two_blocks_never_share_a_piece() -> None:
    first = _render("{% piece row %}A{{ row.name }}{% endpiece %}", {"row": Row("x")})
    second = _render("{% piece row %}B{{ row.name }}{% endpiece %}", {"row": Row("x")})
    assert (first, second) == ("Ax", "Bx")


def test_a_value_that_is_not_plain_is_drawn_every_time() -> None:
    class Live:
        def __init__(self) -> None:
            self.n = 0

        @property
        def name(self) -> str:
            self.n += 1
            return f"n{self.n}"

    live = Live()
    source = "{% piece row %}{{ row.name }}{% endpiece %}"
    assert _render(source, {"row": live}) == "n1"
    assert _render(source, {"row": live}) == "n2"
    assert pieces.kept()[0] == 0


def test_bypassed_draws_afresh_and_keeps_nothing() -> None:
    source = "{% piece row %}{{ row.name }}{% endpiece %}"
    with pieces.bypassed():
        assert _render(source, {"row": Row("a")}) == "a"
    assert pieces.kept()[0] == 0


@pytest.mark.parametrize(
    "tag", ["{% piece %}", "{% piece a.b %}", "{% piece x=1 2y=z %}"]
)
def test_a_malformed_tag_is_a_syntax_error(tag: str) -> None:
    with pytest.raises(TemplateSyntaxError):
        Template("{% load pieces %}" + tag + "{% endpiece %}")


_RUNS = re.compile(r"\s*\n\s*")


@given(st.text(alphabet=" \t\r\n\xa0ab<>", max_size=40))
def test_compact_folds_every_run_of_white_space_with_a_break(html: str) -> None:
    assert rendering._compact(html) == _RUNS.sub("\n", html)


def _part(rows: list[str], head: str = "<h2>Players</h2>") -> str:
    return pieces.pieced(head + "<ul>" + "\n".join(rows) + "</ul>", tuple(rows))


ROWS = [
    f'<li id="seat-row-{n}" data-seat="{n}">Player {n} waits</li>' for n in range(6)
]


def test_only_the_rows_that_changed_are_swapped() -> None:
    changed = [*ROWS]
    changed[2] = '<li id="seat-row-2" data-seat="2">Player 2 voted</li>'
    assert pieces.swaps(_part(ROWS), _part(changed)) == [changed[2]]


@pytest.mark.parametrize(
    "new",
    [
        _part(ROWS[:-1]),  # a row went
        _part([ROWS[1], ROWS[0], *ROWS[2:]]),  # rows moved
        _part([*ROWS, "<li>no id</li>"]),  # a row came with no id to put it by
        _part([*ROWS, '<tr id="seat-row-6"><td>6</td></tr>']),  # a table's row came
        _part([*ROWS, '<li id="seat-row-6">new</li>'], "<h2>Y</h2>"),  # and more
        _part(
            [*ROWS[:2], '<li id="seat-row-2">Player 2 voted</li>', *ROWS[3:]],
            "<h2>X</h2>",
        ),
        _part(["<li>no id</li>", *ROWS[1:]]),  # a row with no id to swap it in by
        _part(['<tr id="seat-row-0"><td>0</td></tr>', *ROWS[1:]]),  # a table's row
        _part([row.replace("waits", "voted") for row in ROWS]),  # most of it changed
        "<ul>no pieces</ul>",
    ],
)
def test_the_whole_part_goes_when_more_than_rows_changed(new: str) -> None:
    assert pieces.swaps(_part(ROWS), new) is None


def test_a_row_that_came_goes_in_beside_the_row_it_follows() -> None:
    came = '<li id="seat-row-6" data-seat="6">Player 6 waits</li>'
    assert pieces.swaps(_part(ROWS), _part([*ROWS, came])) == [
        f'<div hx-swap-oob="afterend:#seat-row-5">\n{came}</div>'
    ]


def test_rows_that_came_first_go_in_before_the_old_first_one() -> None:
    came = [f'<li id="line-{n}">new {n}</li>' for n in (8, 7)]
    changed = [*ROWS]
    changed[3] = '<li id="seat-row-3" data-seat="3">Player 3 voted</li>'
    assert pieces.swaps(_part(ROWS), _part([*came, *changed])) == [
        changed[3],
        f'<div hx-swap-oob="beforebegin:#seat-row-0">{came[0]}\n{came[1]}\n</div>',
    ]


def _grid(rows: list[str], between: str = "") -> str:
    head = '<table class="vote-grid"><thead><tr><th>#</th></tr></thead>'
    return pieces.pieced(head + between.join(rows) + "</table>", tuple(rows))


GRID = [
    f'<tbody id="vote-row-{n}"><tr><td>{n}</td><td>?</td></tr></tbody>'
    for n in range(8)
]


def test_a_table_row_group_goes_in_inside_a_table() -> None:
    came = '<tbody id="vote-row-8"><tr><td>8</td><td>?</td></tr></tbody>'
    assert pieces.swaps(_grid(GRID), _grid([*GRID, came])) == [
        f'<table hx-swap-oob="afterend:#vote-row-7">{came}</table>'
    ]


def test_a_changed_row_group_goes_out_and_comes_back_in() -> None:
    # A frame cannot carry a <tbody> at its top level to be swapped by its id.
    changed = [*GRID]
    changed[2] = '<tbody id="vote-row-2"><tr><td>2</td><td>fail</td></tr></tbody>'
    assert pieces.swaps(_grid(GRID), _grid(changed)) == [
        '<div hx-swap-oob="delete:#vote-row-2"></div>',
        f'<table hx-swap-oob="beforebegin:#vote-row-3">{changed[2]}</table>',
    ]
    # With white space between the groups, taking one out leaves its space behind:
    # not exact, so the whole part goes.
    assert pieces.swaps(_grid(GRID, "\n"), _grid(changed, "\n")) is None


def test_every_seat_asking_about_the_same_two_drawings_is_answered_once() -> None:
    old = _part(ROWS)
    new = _part([*ROWS, '<li id="seat-row-6">new</li>'])
    first = pieces.swaps(old, new)
    assert first is not None and pieces.swaps(old, new) is first
    assert pieces.swaps(_part(ROWS), new) == first


def test_nothing_to_swap_when_nothing_changed() -> None:
    assert pieces.swaps(_part(ROWS), _part(list(ROWS))) is None
    assert pieces.swaps(None, _part(ROWS)) is None


def test_a_drawn_region_knows_its_pieces_after_compaction() -> None:
    from games import drawn

    template = Template(
        "{% load pieces %}<ul>\n  {% for r in rows %}{% piece r %}\n    "
        '<li id="r-{{ r.name }}">\n      {{ r.name }}\n    </li>'
        "{% endpiece %}\n  {% endfor %}\n</ul>"
    )
    made = drawn.draw(template, {"rows": [Row("a"), Row("b")]})
    assert made.pieces == (
        '<li id="r-a">\n      a\n    </li>',
        '<li id="r-b">\n      b\n    </li>',
    )
    html = rendering._compact(made.html)
    for piece in made.pieces:
        assert rendering._compact(piece) in html
