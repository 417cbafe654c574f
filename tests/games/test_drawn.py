"""A drawing is reused only where the template would draw the very same HTML.

``games.drawn`` watches what a template reads; these tests hold it to that: a change
to anything read makes a drawing stale, a change to anything not read does not, and
what the watcher cannot follow is never reused. The second half plays random games
of every family and compares every seat's pushed parts, drawn with every cache warm,
with the same templates rendered afresh by Django."""

from __future__ import annotations

import gc
import random
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from games import drawn, engine, pieces, rendering, services
from games.families.registry import family_of
from games.models import Game
from games.selectors import table_context
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import start_table


class Obj:
    """An object a template reads attributes of (like a board or a model row)."""

    def __init__(self, **attributes: Any) -> None:
        self.__dict__.update(attributes)

    def __eq__(self, other: object) -> bool:
        return True  # like two model rows with one primary key: == says nothing

    __hash__ = object.__hash__


@dataclass
class Card:
    role: str
    partners: list[str] = field(default_factory=list)


def _holds(made: drawn.Drawn, values: dict[str, Any]) -> bool:
    return drawn.holds(made, drawn.Reader(values))


TEMPLATE = Template(
    "{% if board.open %}{{ board.title }}{% for p in board.card.partners %}"
    "<i>{{ p }}</i>{% endfor %}{% endif %}·{{ game.turn }}·{{ view.me.seat }}"
)


def _values(**changes: Any) -> dict[str, Any]:
    board = {"open": True, "title": "T", "card": Card("x", ["a", "b"]), "unread": 1}
    board.update(changes.pop("board", {}))
    values = {
        "board": Obj(**board),
        "game": Obj(turn=changes.pop("turn", 3), code="abc"),
        "view": {"me": {"seat": changes.pop("seat", 2)}, "log": [1, 2, 3]},
    }
    values.update(changes)
    return values


def test_a_drawing_holds_while_everything_it_read_is_the_same() -> None:
    made = drawn.draw(TEMPLATE, _values())
    assert made.html == "T<i>a</i><i>b</i>·3·2"
    assert _holds(made, _values())
    # What the template never read may change: an attribute, the rest of a dict.
    assert _holds(made, _values(board={"unread": 99}))
    other = _values()
    other["view"]["log"] = []
    assert _holds(made, other)


@pytest.mark.parametrize(
    "changed",
    [
        {"board": {"title": "U"}},
        {"board": {"card": Card("x", ["a", "c"])}},
        {"board": {"card": Card("y", ["a", "b"])}},  # a field the loop did not read
        {"board": {"open": False}},
        {"turn": 4},
        {"seat": 3},
        {"board": {"open": 1}},  # truthy all the same, but another value
    ],
)
def test_a_change_to_anything_read_makes_it_stale(changed: dict[str, Any]) -> None:
    made = drawn.draw(TEMPLATE, _values())
    assert not _holds(made, _values(**changed))


def test_a_branch_not_taken_is_not_an_input_but_its_condition_is() -> None:
    closed = drawn.draw(TEMPLATE, _values(board={"open": False}))
    assert closed.html == "·3·2"
    assert _holds(closed, _values(board={"open": False, "title": "U"}))
    assert not _holds(closed, _values())


def test_a_key_that_appears_or_goes_away_is_a_change() -> None:
    spectator = _values()
    spectator["view"] = {"me": None}
    made = drawn.draw(TEMPLATE, spectator)
    assert made.html.endswith("·")
    assert not _holds(made, _values())
    missing = _values()
    missing["view"] = {}
    assert not _holds(made, missing)
    assert _holds(drawn.draw(TEMPLATE, missing), missing)


def test_objects_are_compared_where_the_template_looks_not_by_equality() -> None:
    """``Obj`` says every two are equal, as model rows with one key do: the watcher
    must compare the attributes read, not the objects."""
    made = drawn.draw(Template("{{ game.turn }}"), {"game": Obj(turn=1)})
    assert not _holds(made, {"game": Obj(turn=2)})


def test_text_marked_safe_is_not_the_same_as_text() -> None:
    template = Template("{{ label }}")
    made = drawn.draw(template, {"label": "<b>"})
    assert made.html == "&lt;b&gt;"
    assert not _holds(made, {"label": mark_safe("<b>")})


def test_numbers_and_truths_are_not_confused() -> None:
    made = drawn.draw(Template("{{ n }}"), {"n": 1})
    assert not _holds(made, {"n": True})
    assert not _holds(made, {"n": 1.0})


def test_a_callable_is_compared_by_what_it_gives() -> None:
    template = Template("{{ notice }}")
    made = drawn.draw(template, {"notice": lambda: "away"})
    assert made.html == "away"
    assert _holds(made, {"notice": lambda: "away"})
    assert not _holds(made, {"notice": lambda: "back"})


@pytest.mark.parametrize(
    "source",
    [
        "{{ game }}",  # an object printed whole
        "{% for x in game %}{{ x }}{% endfor %}",  # an object iterated
    ],
)
def test_what_the_watcher_cannot_follow_is_never_reused(source: str) -> None:
    class Iterable(Obj):
        def __iter__(self) -> Any:
            return iter([1, 2])

        def __str__(self) -> str:
            return "game"

    values = {"game": Iterable(turn=1)}
    made = drawn.draw(Template(source), values)
    assert made.reads is None
    assert not _holds(made, values)


def test_names_a_template_sets_itself_are_not_inputs() -> None:
    template = Template(
        "{% with card=board.card %}{{ card.role }}{% endwith %}"
        "{% for p in board.card.partners %}{{ p }}{% endfor %}"
    )
    made = drawn.draw(template, {"board": Obj(card=Card("r", ["q"]))})
    paths = {path for path, _value in made.reads or ()}
    assert ("card", ()) not in paths and ("p", ()) not in paths
    assert _holds(made, {"board": Obj(card=Card("r", ["q"]))})
    assert not _holds(made, {"board": Obj(card=Card("r", ["q", "s"]))})


def test_a_drawing_leaves_nothing_for_the_collector() -> None:
    # The watch's stand-ins point back at it; draw() lets them go, so a push's
    # drawings are freed as they are dropped, not by the next full collection.
    values = _values()
    gc.collect()
    gc.disable()
    try:
        made = drawn.draw(TEMPLATE, values)
        del made
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_screen_whose_board_is_kept_still_follows_its_other_reads() -> None:
    # games.rendering: a screen whose board is the very object its last drawing was
    # drawn with (kept by games.recorded) follows only the drawing's other reads.
    game = Game(pk=987654, code="kept-board")
    memo: dict[Any, Any] = {}
    values = _values()
    with translation.override("en"):
        first = rendering._drawing(game, TEMPLATE, values, memo=memo)
        same = {**_values(), "board": values["board"]}
        assert rendering._drawing(game, TEMPLATE, same, memo=memo) == first
        turned = {**_values(turn=4), "board": values["board"]}
        again = rendering._drawing(game, TEMPLATE, turned, memo=memo)
        assert again != first and "·4·" in again
        moved = {**_values(turn=4, seat=5), "board": values["board"]}
        assert "·5" in rendering._drawing(game, TEMPLATE, moved, memo=memo)
        # Another board object: its reads are followed again.
        other = _values(turn=4, seat=5, board={"title": "U"})
        assert "U" in rendering._drawing(game, TEMPLATE, other, memo=memo)
    rendering.forget_all()


def test_the_csrf_placeholder_is_replaced_by_the_seat_token() -> None:
    template = Template("<form>{% csrf_token %}</form>")
    made = drawn.draw(template, {"csrf_token": drawn.CSRF_PLACEHOLDER})
    assert drawn.CSRF_PLACEHOLDER in made.html
    mine = drawn.with_token(made.html, "a" * 64)
    assert "a" * 64 in mine and drawn.CSRF_PLACEHOLDER not in mine


# --- Every push of random games equals Django's own rendering ----------------------

GAMES = [
    ("partisans", 7, {"scout": True, "check": True}, 21),
    ("trust_no_one", 6, {}, 22),
    ("werewolves", 8, {}, 23),
    ("cells", 4, {}, 24),
    ("mafia_partisan", 10, {}, 25),
]
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _viewers(game: Game) -> dict[Any, Any]:
    """Every seat's player, the moderator (in a moderated game) and a spectator."""
    viewers: dict[Any, Any] = {
        seat.position: seat.user for seat in game.seats.select_related("user")
    }
    if game.moderator is not None:
        viewers[engine.MODERATOR] = game.moderator
    viewers["spectator"] = UserFactory()
    return viewers


def _expected(context: dict[str, Any]) -> dict[str, str]:
    """Each part of the live area as plain Django draws it, with no cache at all
    (every ``{% piece %}`` drawn afresh too)."""
    with pieces.bypassed():
        return _drawn_afresh(context)


def _drawn_afresh(context: dict[str, Any]) -> dict[str, str]:
    family = family_of(context["game"].ruleset)
    public = context["public_board_of"]()
    found = {}
    for region in family.regions:
        if region.shared:
            values = {
                "board": public,
                "game": context["game"],
                "words": context["words"],
                "readonly": False,
            }
        else:
            values = dict(context)
        found[f"region-{region.id}"] = rendering._compact(
            render_to_string(region.template, values)
        )
    found["table-extras"] = rendering._compact(
        render_to_string("games/_extras.html", dict(context))
    )
    return found


@pytest.mark.django_db
@pytest.mark.parametrize(("ruleset", "players", "options", "seed"), GAMES)
def test_every_push_equals_a_fresh_drawing(
    ruleset: str, players: int, options: dict[str, Any], seed: int
) -> None:
    rendering.forget_all()
    game = start_table(ruleset, players, options)
    viewers = _viewers(game)
    tokens = {key: f"{n:064x}" for n, key in enumerate(viewers, start=7)}
    memos: dict[Any, dict[str, Any]] = {key: {} for key in viewers}
    rng = random.Random(seed)
    steps = 0
    while game.status == Game.Status.PLAYING:
        for key, user in viewers.items():
            language = ("ru", "en", "fa")[steps % 3]
            with translation.override(language):
                context = rendering.table_page_context(
                    table_context(game, user, with_chat=False),
                    csrf_token=tokens[key],
                    memo=memos[key],
                )
                shown = context["live"].shown()
                expected = _expected(context)
            for part, html in expected.items():
                assert shown[part] == html, f"{part} of {key} at step {steps}"
            frame = "".join(shown.values())
            assert drawn.CSRF_PLACEHOLDER not in frame
            assert set(TOKEN.findall(frame)) <= {tokens[key]}
        seat, action = engine.random_action(load_state(game), rng)
        services.game_act(game=game, user=viewers[seat], action=action, turn=game.turn)
        game.refresh_from_db()
        steps += 1
    assert steps > 10


# --- A push that sends only the rows that changed rebuilds the part exactly --------

_ID = re.compile(r'^<\w+\s[^>]*?\bid="([^"]+)"')
_VOID = {"input", "br", "img", "hr", "meta", "link", "source", "wbr", "col", "area"}


class _TopLevel(HTMLParser):
    """The frame's top-level elements, each as (id, its whole HTML, its inner HTML),
    which is what htmx's socket extension swaps in one by one."""

    def __init__(self, frame: str, *, inside_table: bool = False) -> None:
        super().__init__(convert_charrefs=False)
        self.frame = frame
        self.inside_table = inside_table
        self.oob = ""
        self.lines = [0]
        for line in frame.split("\n"):
            self.lines.append(self.lines[-1] + len(line) + 1)
        self.depth = 0
        self.start = 0
        self.inner = 0
        self.found: list[tuple[str, str, str]] = []
        self.feed(frame)
        self.close()

    def _at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        at = self._at()
        if self.depth == 0:
            self.start = at
            text = self.get_starttag_text() or ""
            self.inner = at + len(text)
            self.ident = dict(attrs).get("id") or ""
            self.oob = dict(attrs).get("hx-swap-oob") or ""
            if tag in _VOID:
                self.found.append((self.ident, text, "", self.oob))
                return
        if tag not in _VOID:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        at = self._at()
        self.depth -= 1
        if self.depth == 0:
            end = self.frame.index(">", at) + 1
            whole = self.frame[self.start : end]
            self.found.append(
                (self.ident, whole, self.frame[self.inner : at], self.oob)
            )
            # A browser drops a table's row found outside a table.
            if not self.inside_table:
                assert tag not in {"tr", "td", "th", "tbody", "thead", "tfoot"}, whole


def _holder(page: dict[str, str], ident: str) -> str:
    holders = [key for key, html in page.items() if f'id="{ident}"' in html]
    assert len(holders) == 1, f"row {ident} is in {holders}"
    return holders[0]


def _insert(page: dict[str, str], oob: str, inner: str, wrapper: str) -> None:
    """What ``hx-swap-oob="beforebegin:#row"`` (or ``afterend:``) does: the
    wrapper's children go in just before (after) that row, as rows of its part;
    ``delete:#row`` takes the row out."""
    how, _, target = oob.partition(":")
    assert how in ("beforebegin", "afterend", "delete"), oob
    assert target.startswith("#"), oob
    key = _holder(page, target[1:])
    html = page[key]
    rows = list(getattr(html, "pieces", ()))
    at = next(i for i, row in enumerate(rows) if _row_id(row) == target[1:])
    if how == "delete":
        assert not inner, inner
        page[key] = pieces.pieced(html.replace(rows.pop(at), "", 1), tuple(rows))
        return
    came = [whole for _i, whole, _in, _o in _TopLevel(inner, inside_table=True).found]
    assert came and all(_row_id(row) for row in came), inner
    if wrapper == "table":
        assert all(row.startswith("<tbody") for row in came), inner
    if how == "beforebegin":
        html = html.replace(rows[at], inner + rows[at], 1)
        rows[at:at] = came
    else:
        html = html.replace(rows[at], rows[at] + inner, 1)
        rows[at + 1 : at + 1] = came
    page[key] = pieces.pieced(html, tuple(rows))


def _apply(page: dict[str, str], frame: str) -> None:
    """The frame swapped into the page's parts as the browser does: a part by its
    id, a row by its id inside the part that holds it, new rows beside the row
    they are inserted next to."""
    for ident, whole, inner, oob in _TopLevel(frame).found:
        if ":" in oob:
            _insert(page, oob, inner, whole[1 : whole.index(" ")])
            continue
        if ident in page:
            page[ident] = inner
            continue
        if ident.startswith("table-"):
            continue  # the state and the clock
        key = _holder(page, ident)
        html = page[key]
        rows = list(getattr(html, "pieces", ()))
        at = next(i for i, row in enumerate(rows) if _row_id(row) == ident)
        old, rows[at] = rows[at], whole
        page[key] = pieces.pieced(html.replace(old, whole, 1), tuple(rows))


def _row_id(row: str) -> str:
    found = _ID.match(row)
    return found[1] if found else ""


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "players", "options", "seed"), [GAMES[0], GAMES[3], GAMES[4]]
)
def test_a_push_of_changed_rows_rebuilds_every_part(
    ruleset: str, players: int, options: dict[str, Any], seed: int
) -> None:
    rendering.forget_all()
    game = start_table(ruleset, players, options)
    viewers = _viewers(game)
    sent: dict[Any, dict[str, str]] = {}
    pages: dict[Any, dict[str, str]] = {}
    memos: dict[Any, dict[str, Any]] = {key: {} for key in viewers}
    rng = random.Random(seed)
    rows_sent = 0
    rows_added = 0
    while True:
        # The last round is the push of the move that ended the game, which sends
        # the parts that changed like any other (consumers.HtmlSeatConsumer).
        over = game.status != Game.Status.PLAYING
        for key, user in viewers.items():
            ctx = table_context(game, user, with_chat=False)
            with translation.override("ru"):
                if key not in sent:
                    _html, shown = rendering.render_whole(ctx, memo=memos[key])
                    pages[key] = dict(shown)
                else:
                    frame, shown = rendering.render_update(
                        ctx, sent[key], memo=memos[key], presence=over
                    )
                    rows_sent += frame.count('<li id="seat-row-')
                    rows_added += frame.count('hx-swap-oob="beforebegin:#')
                    rows_added += frame.count('hx-swap-oob="afterend:#')
                    assert ('id="table-presence"' in frame) == over
                    _apply(pages[key], frame)
            sent[key] = shown
            for part, html in pages[key].items():
                assert str(html) == str(shown[part]), f"{part} of {key}"
            # The page now holds exactly these parts (with the rows they hold).
            pages[key] = dict(shown)
        if over:
            break
        seat, action = engine.random_action(load_state(game), rng)
        services.game_act(game=game, user=viewers[seat], action=action, turn=game.turn)
        game.refresh_from_db()
    assert rows_sent > 0
    if ruleset in ("partisans", "trust_no_one", "werewolves"):
        assert rows_added > 0  # the vote grid's and the log's new lines


@pytest.mark.django_db
@pytest.mark.parametrize(
    # The cells' four seats see their own parts change at almost every move.
    ("ruleset", "players", "options", "seed"),
    [GAMES[0], GAMES[4]],
)
def test_a_push_that_finds_a_screens_own_parts_unchanged_equals_a_fresh_drawing(
    ruleset: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # After most votes a screen's own parts come out as they were, and its push is
    # made without drawing them (rendering._own_unchanged). The page that push
    # leaves must still be, part by part, what Django draws afresh with no cache.
    rendering.forget_all()
    game = start_table(ruleset, players, options)
    viewers = _viewers(game)
    tokens = {key: f"{n:064x}" for n, key in enumerate(viewers, start=3)}
    sent: dict[Any, dict[str, str]] = {}
    pages: dict[Any, dict[str, str]] = {}
    memos: dict[Any, dict[str, Any]] = {key: {} for key in viewers}
    unchanged = drawn_again = lost = 0
    real = rendering._own_unchanged

    def counted(*args: Any) -> Any:
        nonlocal unchanged, drawn_again
        found = real(*args)
        if found is None:
            drawn_again += 1
        else:
            unchanged += 1
        return found

    monkeypatch.setattr(rendering, "_own_unchanged", counted)
    rng = random.Random(seed)
    steps = 0
    while game.status == Game.Status.PLAYING and steps < 90:
        for key, user in viewers.items():
            with translation.override("ru"):
                ctx = table_context(game, user, with_chat=False)
                if key not in sent:
                    _html, shown = rendering.render_whole(
                        ctx, csrf_token=tokens[key], memo=memos[key]
                    )
                    pages[key] = dict(shown)
                else:
                    frame, shown = rendering.render_update(
                        ctx, sent[key], csrf_token=tokens[key], memo=memos[key]
                    )
                    if key == players - 1 and _own_changed(game, sent[key], shown):
                        # A frame drawn but never sent (its socket failed before
                        # it noted the parts): what the screen's memo holds is now
                        # ahead of what it was sent, and its next push must say so.
                        lost += 1
                        if lost % 2:
                            continue
                    _apply(pages[key], frame)
                fresh = _expected(
                    rendering.table_page_context(
                        table_context(game, user, with_chat=False),
                        csrf_token=tokens[key],
                    )
                )
            for part, html in fresh.items():
                assert str(pages[key][part]) == html, f"{part} of {key}"
                assert str(shown[part]) == html, f"{part} of {key}"
            sent[key] = shown
            pages[key] = dict(shown)
        seat, action = engine.random_action(load_state(game), rng)
        services.game_act(game=game, user=viewers[seat], action=action, turn=game.turn)
        game.refresh_from_db()
        steps += 1
    # Both ways were taken, many times.
    assert unchanged > 20
    assert drawn_again > 20
    assert lost > 2


def _own_changed(game: Game, before: dict[str, str], after: dict[str, str]) -> bool:
    shared = {f"region-{r.id}" for r in family_of(game.ruleset).regions if r.shared}
    return any(after[part] != before.get(part) for part in after if part not in shared)


@pytest.mark.django_db
def test_a_vote_that_changes_nothing_in_the_record_does_not_work_it_out_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The record (the vote grid, the log) is drawn from a board of its own, kept
    # while what it read of the spectator's view is unchanged: a vote changes who
    # has voted, which the seats' rows show and the record does not. So a vote
    # neither draws the record again nor works out its log to find that drawing.
    from games.families.resistance import presenters

    rendering.forget_all()
    game = start_table("partisans", 7, {"check": True})
    viewer = _viewers(game)[0]
    memo: dict[Any, Any] = {}
    drawings: list[str] = []
    logs: list[int] = []
    draw, log = drawn.draw, presenters._log

    def drawing(template: Any, values: dict[str, Any], **kwargs: Any) -> Any:
        drawings.append(str(template))
        return draw(template, values, **kwargs)

    def working_out(*args: Any) -> Any:
        logs.append(1)
        return log(*args)

    rested: list[str] = []
    shared_region = rendering._live_shared_region

    def resting(context: Any, region: Any, language: str) -> Any:
        found = shared_region(context, region, language)
        if found is None:
            rested.append(region.id)
        return found

    monkeypatch.setattr(drawn, "draw", drawing)
    monkeypatch.setattr(presenters, "_log", working_out)
    monkeypatch.setattr(rendering, "_live_shared_region", resting)
    rng = random.Random(5)
    quiet_votes = records = rows = logs_made = rows_rested = records_rested = 0
    while game.status == Game.Status.PLAYING:
        before = load_state(game).phase
        seat, action = engine.random_action(load_state(game), rng)
        services.game_act(
            game=game,
            user=game.seats.get(position=seat).user,
            action=action,
            turn=game.turn,
        )
        game.refresh_from_db()
        drawings.clear()
        logs.clear()
        rested.clear()
        with translation.override("ru"):
            rendering.table_page_context(
                table_context(game, viewer, with_chat=False), memo=memo
            )
        if action["type"] == "vote" and load_state(game).phase == before:
            quiet_votes += 1
            records += drawings.count("resistance/record.html")
            rows += drawings.count("resistance/board.html")
            logs_made += len(logs)
            rows_rested += rested.count("board")
            records_rested += rested.count("record")
    assert quiet_votes > 10
    assert rows == quiet_votes  # the seats' rows: drawn again at every vote
    assert records <= quiet_votes // 10
    assert logs_made <= quiet_votes // 10
    # The seats' rows, whose board is made again at every vote, are drawn from the
    # spectator's board as before most of the time, with no reads noted.
    assert records_rested == 0
    assert rows_rested >= quiet_votes // 2


@dataclass
class _Nothing:
    pass


@dataclass
class _One:
    value: Any


def test_plain_data_is_told_from_the_rest_at_every_depth() -> None:
    # The kinds a board is made of, as the exact-type shortcuts and the general
    # checks see them, each asked twice (the second time from the kept fields).
    for _ in range(2):
        assert drawn.plain(Card("spy", ["a", mark_safe("<b>b</b>")]))
        assert drawn.plain(_Nothing()) and drawn.plain(_One(("x", 1, None, 2.5)))
        assert drawn.plain({"rows": [_One(True)], 3: frozenset({"a"})})
        assert not drawn.plain(_One(Obj()))
        assert not drawn.plain([Card("spy"), _One([{"deep": Obj()}])])
        assert not drawn.plain(Card)  # the class itself is not data
    # A piece files a dataclass by every field's value, in order.
    assert pieces.frozen(_One(1)) != pieces.frozen(_One(True))
    assert pieces.frozen(Card("a", ["b"])) == pieces.frozen(Card("a", ["b"]))
    assert pieces.frozen(Card("a", ["b"])) != pieces.frozen(Card("a", ["c"]))
    assert pieces.frozen(_Nothing()) == pieces.frozen(_Nothing())


def test_a_shelf_that_seldom_finds_a_drawing_seldom_looks() -> None:
    shelf = rendering._Shelf()
    reader = drawn.Reader({"x": 1})
    for _ in range(rendering.SHELF_TRIED):
        assert shelf.find(reader) is None  # nothing kept yet: every look misses
    assert not shelf.worth_looking()
    made = drawn.Drawn("<p>1</p>", ((("x", ()), 1),))
    shelf.keep(made)
    # It still looks now and then, so a drawing that starts to come out the same
    # again is found within one round of samples, and once found, found at once.
    looks = [shelf.find(drawn.Reader({"x": 1})) for _ in range(rendering.SHELF_SAMPLED)]
    assert looks.count(made) == 1
    for _ in range(rendering.SHELF_TRIED):
        shelf.find(drawn.Reader({"x": 1}))
    assert shelf.worth_looking()
    assert shelf.find(drawn.Reader({"x": 1})) is made
    assert shelf.find(drawn.Reader({"x": 2})) is None  # a miss is still a miss


PIECED = Template(
    "{% load pieces %}<ul>{% for row in rows %}{% piece row %}<li>{{ row.name }}"
    "</li>{% endpiece %}{% endfor %}</ul>{{ title }}"
)


def test_a_drawing_not_watched_is_the_same_html_without_its_reads() -> None:
    values = {"rows": [{"name": "Аня"}, {"name": "<b>"}], "title": "x"}
    watched = drawn.draw(PIECED, dict(values))
    plain = drawn.draw(PIECED, dict(values), watched=False)
    assert plain.html == watched.html == PIECED.render(Context(values))
    assert plain.pieces == watched.pieces == ("<li>Аня</li>", "<li>&lt;b&gt;</li>")
    assert watched.reads is not None and plain.reads is None
    assert not drawn.holds(plain, drawn.Reader(values))  # never reused


def test_a_shared_region_between_samples_is_drawn_unwatched_and_not_kept() -> None:
    game = Obj(pk=-7, code="unwatched")
    template = Template("<p>{{ board.n }}</p>")
    key = (game.pk, game.code, translation.get_language(), template, True)
    try:
        # Every vote changes the board: nothing is ever found again (the first
        # drawing makes the shelf, each one after it looks).
        for n in range(rendering.SHELF_TRIED + 1):
            html = rendering._drawing(game, template, {"board": {"n": n}}, shared=True)
            assert html == f"<p>{n}</p>"
        shelf = rendering._shelves.get(key)
        assert shelf is not None and not shelf.worth_looking()
        drawings = [
            rendering._drawing(game, template, {"board": {"n": 100 + n}}, shared=True)
            for n in range(rendering.SHELF_SAMPLED)
        ]
        assert drawings == [f"<p>{100 + n}</p>" for n in range(rendering.SHELF_SAMPLED)]
        # Only the one sampled drawing was watched and kept.
        on_shelf = {made.html for made in shelf.drawings()}
        assert len(on_shelf.intersection(drawings)) == 1
    finally:
        rendering._shelves.pop(key)


def test_a_screen_back_to_what_it_showed_a_few_moves_ago_is_not_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A card loses its "your vote" line when the votes are revealed: it is the card
    # it was before the seat voted, kept among the screen's last few drawings.
    game = Obj(pk=-8, code="older")
    template = Template(
        "<p>{{ card.role }}{% if card.vote %} {{ card.vote }}{% endif %}</p>"
    )
    key = (game.pk, game.code, translation.get_language(), template, False)
    memo: dict[Any, Any] = {}
    draws: list[dict[str, Any]] = []
    real = drawn.draw

    def counted(template: Any, values: dict[str, Any], **kwargs: Any) -> drawn.Drawn:
        draws.append(values)
        return real(template, values, **kwargs)

    monkeypatch.setattr(drawn, "draw", counted)
    try:
        cards = [
            {"role": "spy", "vote": ""},
            {"role": "spy", "vote": "✓"},
            {"role": "spy", "vote": ""},
            {"role": "spy", "vote": "✗"},
            {"role": "spy", "vote": ""},
            {"role": "spy", "vote": "✓"},
        ]
        shown = [
            rendering._drawing(game, template, {"card": card}, memo=memo)
            for card in cards
        ]
        plain, yes, no = "<p>spy</p>", "<p>spy ✓</p>", "<p>spy ✗</p>"
        assert shown == [plain, yes, plain, no, plain, yes]
        assert [values["card"] for values in draws] == [*cards[:2], cards[3]]
        older = memo[((template, translation.get_language()), rendering._OLDER)]
        assert 0 < len(older) <= rendering.OLDER_KEPT
    finally:
        rendering._shelves.pop(key)
