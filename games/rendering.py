"""Rendering a table for one viewer: the page, the live fragment a push replaces, a
chat line. Views and consumers both come here, so a refreshed page and a live push
are the same HTML.

The live area is made of parts: the table's state (version, status, turn), each of
the game family's regions, and the viewer's extras (host tools, the rematch, a
finished game's private channels). A shared region is drawn from the spectator's
view, so it is the same for every seat: it is rendered once per table version and
language in each process and reused for every seat's push. A push after a move sends
only the parts that changed since this socket's last frame, each swapped in by id;
a connect (and a reconnect) sends the whole area.

What one move costs, per seat, is only that seat's own: its view's board, its own
regions and its extras. The spectator's board is drawn only when a version's shared
regions are not cached yet, and a socket tells a changed part by comparing the HTML
it last sent (a shared part is the very same string for every seat of a version, so
that comparison is free) rather than hashing every part for every seat.

Inside a part, a ``{% piece %}`` (a row of the seats, the vote grid, the log) is
drawn once per equal values (``games.pieces``), and when only such rows changed the
push sends those rows alone, each swapped in by its id.

A part is drawn again only when something its template reads has changed
(``games.drawn``): each socket keeps what its parts were last drawn from, and each
table keeps its recent drawings, so a seat whose card did not change gets its card
without drawing it, and ten seats whose "your move" areas are the same share one.
"""

from __future__ import annotations

import datetime as dt
import functools
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, NamedTuple

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games import drawn, engine, pieces, recorded, selectors
from games.cache import LRU
from games.families.registry import Region, family_of
from games.models import ChatMessage, Game, GameAction
from games.presence import bot_moves, of_table, render_notice
from games.selectors import TableContext
from numerals.digits import localize_text, numerals_for

CARD_TAG = "card"
"""The tag of a flashed private refusal (``GameError.private``): the table page shows
it in the seat's card (``card_error``), the page's message list leaves it out."""


def _compact(html: str) -> str:
    """A template's output without its indentation and blank lines: a run of white
    space that holds a line break becomes one line break, which HTML shows exactly
    as it showed the run (no template of a live part has a <pre> or a <textarea>).
    A push is then about a sixth smaller; a page shows the same compact parts.

    Line by line rather than by a regular expression (which tried a match at every
    space: seven times slower): the first line keeps its start, the last its end,
    and the lines between that hold only white space vanish into one break."""
    if "\n" not in html:
        return html
    lines = html.split("\n")
    kept = [lines[0].rstrip()]
    kept.extend(line for line in map(str.strip, lines[1:-1]) if line)
    kept.append(lines[-1].lstrip())
    return "\n".join(kept)


_shared: LRU[tuple[Any, ...], dict[str, str]] = LRU(1024)
"""(table, version, status, language) -> the shared regions' HTML."""
_started: LRU[tuple[int, str, int], dt.datetime] = LRU(1024)
"""(table, code, action number) -> when that action was applied (a log row never
changes)."""


def option_labels(game: Game) -> list[str]:
    """The options that are on, in words, for badges: those a host switches on (a
    yes/no option that is off unless chosen). Every value, defaults included, is in
    the waiting room's settings (:func:`option_settings`)."""
    ruleset = engine.get_ruleset(game.ruleset)
    labels = []
    for option in ruleset.options:
        if option.name == "chat" or option.default is not False:
            continue
        if game.options.get(option.name):
            labels.append(_(option.label))
    return labels


def option_settings(game: Game) -> list[tuple[str, str]]:
    """Every option of the table with its value, in words: the waiting room shows
    them all (a game whose house decisions are the table's options, such as a
    moderated one, lets every player read what the host chose before the start)."""
    ruleset = engine.get_ruleset(game.ruleset)
    settings = []
    for option in ruleset.options:
        if option.name == "chat":
            continue
        value = game.options.get(option.name, option.default)
        if isinstance(value, bool):
            text = _("yes") if value else _("no")
        else:
            text = next(
                (_(label) for choice, label in option.choices if choice == value),
                str(value),
            )
        settings.append((_(option.label), text))
    return settings


def house_decisions(game: Game) -> list[str]:
    return [_(text) for text in engine.get_ruleset(game.ruleset).house_decisions]


class _Once:
    """``make(game)``, worked out the first time a template calls it (a push, which
    shows none of these, then spends nothing on them; ``functools.cache`` of a
    lambda cost more to set up, for every seat's push, than this)."""

    __slots__ = ("_game", "_made", "_make")

    def __init__(self, make: Any, game: Game) -> None:
        self._make = make
        self._game = game
        self._made: Any = _Once

    def __call__(self) -> Any:
        if self._made is _Once:
            self._made = self._make(self._game)
        return self._made


def _page_context(
    ctx: TableContext,
    *,
    origin: str = "",
    csrf_token: str | None = None,
    card_error: str = "",
    memo: dict[Any, Any] | None = None,
) -> dict[str, Any]:
    game = ctx.game
    names = ctx.names
    taken = len(ctx.players)
    family = family_of(game.ruleset)
    words = family.words(game.ruleset)
    playing = game.status != Game.Status.ABANDONED
    board = None
    if ctx.view is not None and ctx.public_view is not None:
        # A socket's own board, kept while what it read is unchanged.
        board = recorded.kept(memo, family, ctx.view, names, playing=playing)

    def public_board() -> Any:
        # Drawn only for shared regions that are not cached for this version yet.
        if ctx.public_view is None:
            return None
        if ctx.view is ctx.public_view:
            return board
        return family.board(ctx.public_view, names, playing=playing)

    return {
        "ctx": ctx,
        "game": game,
        "players": ctx.players,
        "words": words,
        "family": family,
        "board": board,
        "public_board_of": public_board,
        "regions": family.regions,
        "view": ctx.view,
        "readonly": False,
        "taken": taken,
        "free_seats": range(max(0, game.seat_count - taken)),
        "is_full": taken >= game.seat_count,
        "is_host": ctx.is_host,
        "is_seated": ctx.is_seated,
        "is_moderator": ctx.moderating,
        # The moderator is the host (the only design so far): no query on a push.
        "moderator_name": game.host.display_name
        if game.moderator_id is not None and game.moderator_id == game.host_id
        else "",
        "viewer": ctx.viewer,
        # The waiting room's and the page header's: a template calls these when it
        # shows them (once each), so a push, which shows neither, spends nothing.
        "option_labels": _Once(option_labels, game),
        "option_settings": _Once(option_settings, game),
        "house_decisions": _Once(house_decisions, game),
        "chat": ctx.chat,
        "side_chats": [
            {
                "channel": channel,
                "label": words.channel(channel),
                "messages": messages,
                "can_write": (ctx.is_seated or ctx.moderating)
                and game.status == Game.Status.PLAYING,
            }
            for channel, messages in ctx.side_chats
        ],
        "chat_channels": ctx.chat_channels,
        "can_chat_table": (ctx.is_seated or ctx.moderating)
        and ChatMessage.Channel.TABLE in ctx.chat_channels
        and game.status in (Game.Status.OPEN, Game.Status.PLAYING),
        "error": "",
        "card_error": card_error,
        "countdown": render_countdown(game, ctx.view) if ctx.view else "",
        # Who is away, public (games.presence): a part of its own that its own push
        # replaces; drawn (lazily: the template calls it) only with the whole area.
        "presence_notice": lambda: render_notice(of_table(game)),
        "bot_moves": bot_moves(game, names),
        "origin": origin,
        **({"csrf_token": csrf_token} if csrf_token else {}),
    }


def table_page_context(
    ctx: TableContext,
    *,
    origin: str = "",
    csrf_token: str | None = None,
    card_error: str = "",
    memo: dict[Any, Any] | None = None,
) -> dict[str, Any]:
    """Everything a table page and its live area show to ``ctx``'s viewer.

    ``origin`` (scheme://host) makes the share link absolute; ``csrf_token`` lets a
    fragment rendered outside a request (a push) still carry working forms;
    ``card_error`` is a private refusal to say inside the seat's card; ``memo``,
    what a socket's screen was last drawn from (``render_regions``) and the board
    it was drawn with (``games.recorded``)."""
    context = _page_context(
        ctx, origin=origin, csrf_token=csrf_token, card_error=card_error, memo=memo
    )
    if context["board"] is not None and ctx.game.status != Game.Status.OPEN:
        context["live"] = live_parts(context, memo)
    return context


@dataclass(frozen=True)
class RegionPart:
    region: Region
    html: SafeString


def render_regions(
    context: Mapping[str, Any],
    *,
    shared_key: tuple[Any, ...] | None = None,
    own: _Own | None = None,
) -> list[RegionPart]:
    """Each of the family's regions, rendered: a shared one with ``public_board`` as
    its ``board`` (or the board ``public_board_of()`` draws; given ``shared_key``,
    taken from the per-process cache), the others with the viewer's own context.
    ``own`` draws the viewer's parts, with what a socket's screen was last drawn
    from: a region whose inputs did not change is not drawn again (:func:`_drawing`)."""
    regions: Sequence[Region] = context["regions"]
    shared = _shared.get(shared_key) if shared_key is not None else None
    fresh: dict[str, str] = {}
    parts = []
    public_board: Any = context.get("public_board")
    own = own if own is not None else _Own(context, None)
    live = shared_key is not None and public_board is None and _kept_boards(context)
    for region in regions:
        if region.shared:
            html = shared.get(region.id) if shared is not None else None
            if html is None:
                if live:
                    html = _live_shared_region(context, region, own.language)
                if html is None:
                    if public_board is None and "public_board_of" in context:
                        public_board = context["public_board_of"]()
                    html = _drawing(
                        context["game"],
                        region.template,
                        _shared_values(context, public_board),
                        shared=True,
                        language=own.language,
                    )
                fresh[region.id] = html
        else:
            html = own.draw(region.template)
        parts.append(RegionPart(region, pieces.marked(html)))  # templates' output
    if shared_key is not None and fresh and shared is None:
        # The marked strings themselves: every seat's part is then the same object.
        made = {part.region.id: part.html for part in parts if part.region.shared}
        _shared.put(shared_key, made)
    return parts


def _shared_values(context: Mapping[str, Any], board: Any) -> dict[str, Any]:
    """What a shared region is drawn from: the public board and nothing of the
    viewer's."""
    return {
        "board": board,
        "game": context["game"],
        "words": context["words"],
        "readonly": context.get("readonly", False),
    }


def _kept_boards(context: Mapping[str, Any]) -> bool:
    """Whether a live table's shared regions are drawn from boards kept from one
    version to the next (:func:`_live_shared_region`): a page or a push, not a
    read-only one."""
    ctx: TableContext | None = context.get("ctx")
    return (
        ctx is not None
        and ctx.public_view is not None
        and not context.get("readonly", False)
    )


class _SharedMemos:
    """A live table's shared regions, per language: for each region, what a
    socket's memo holds for its own parts (the board kept while what it read is
    unchanged, the region's last drawings), behind a lock (a page drawn in a
    database thread and a push on the event loop may draw them at once)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.regions: dict[str, dict[Any, Any]] = {}


_shared_memos: LRU[tuple[Any, ...], _SharedMemos] = LRU(1024)
_TRIED = "tried"
_KEPT = "kept"
_RESTING = "resting"
REST_VERSIONS = 8
"""Versions a region whose board is seldom kept is drawn as any shared region was
before, from the spectator's board made afresh, with no reads noted (see
:func:`_live_shared_region`)."""


def _live_shared_region(
    context: Mapping[str, Any], region: Region, language: str
) -> str | None:
    """A shared region of a live table, drawn from a board of its own kept from one
    version to the next while what it read of the spectator's view is unchanged
    (games.recorded), as a socket keeps a seat's board. The record (the vote grid,
    the log, the checks) reads nothing that a vote or a mission card before the
    last changes, nor a Mafia night's moves, so its drawing is reused as it was;
    the seats' rows change at every vote, and that region's board is made again.

    Noting the board's reads and watching the drawing cost a little. A region drawn
    from a board made again is drawn without watching (that drawing would not be
    reused), and a region whose board is kept from one version to the next less
    than once in four times lately (the seats' rows, which show who has voted)
    rests for ``REST_VERSIONS``: None, and the caller draws it from the spectator's
    board as before. It is tried again after that."""
    ctx: TableContext = context["ctx"]
    game: Game = context["game"]
    key = (game.pk, game.code, language)
    memos = _shared_memos.get(key)
    if memos is None:
        memos = _SharedMemos()
        _shared_memos.put(key, memos)
    with memos.lock:
        memo = memos.regions.setdefault(region.id, {})
        resting = memo.get(_RESTING, 0)
        if resting:
            memo[_RESTING] = resting - 1
            memo.pop(recorded.BOARD, None)
            return None
        before: recorded.Kept | None = memo.get(recorded.BOARD)
        board = recorded.kept(
            memo,
            context["family"],
            ctx.public_view,  # type: ignore[arg-type]  # _kept_boards checked it
            ctx.names,
            playing=game.status != Game.Status.ABANDONED,
        )
        kept = before is not None and before.board is board
        if before is not None:
            tried = memo.get(_TRIED, 0) + 1
            hits = memo.get(_KEPT, 0) + kept
            if tried >= 32:  # what happened lately counts
                tried, hits = tried // 2, hits // 2
            memo[_TRIED], memo[_KEPT] = tried, hits
            if tried >= 8 and 4 * hits < tried:
                memo[_RESTING] = REST_VERSIONS
        return _drawing(
            game,
            region.template,
            _shared_values(context, board),
            shared=True,
            memo=memo,
            watch=kept,
            language=language,
        )


DRAWINGS_KEPT = 16
"""Per table, language, template and shape (the paths a drawing read): the last
drawings any screen got, each reused for a screen whose inputs are the same."""
SHAPES_KEPT = 8


SHELF_TRIED = 16
"""Finds a shelf makes before it judges whether looking is worth it."""
SHELF_SAMPLED = 8
"""A shelf that seldom finds anything still looks once in this many times."""


class _Shelf:
    """One template's recent drawings at one table in one language, filed by what
    they read: for each shape (the paths one drawing read; a branch the template
    takes reads others), by the values it found there. Finding a drawing for a
    screen is one lookup per shape, and the one found is checked read by read
    (``drawn.holds``) before it is used.

    Looking costs a read of every path of every shape, as much as drawing a small
    template, and some templates never come out the same twice (a shared board
    that shows every vote as it is cast, a seat's card): a shelf that has found a
    drawing for fewer than one look in ten lately looks only once in
    ``SHELF_SAMPLED`` times, so that it notices when that changes. Not looking only
    means drawing: what a screen gets is the same either way."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._shapes: OrderedDict[Any, OrderedDict[Any, drawn.Drawn]] = OrderedDict()
        # Finds lately (halved now and then) and how many of them found a drawing.
        self._tried = 0
        self._hits = 0
        self._passed = 0

    def worth_looking(self) -> bool:
        if self._tried < SHELF_TRIED or 10 * self._hits >= self._tried:
            return True
        self._passed += 1
        return self._passed % SHELF_SAMPLED == 0

    def find(self, reader: drawn.Reader) -> drawn.Drawn | None:
        """A drawing that holds for ``reader``, if it is worth looking and found."""
        return self.look(reader) if self.worth_looking() else None

    def look(self, reader: drawn.Reader) -> drawn.Drawn | None:
        """A drawing that holds for ``reader``, looked for whatever the odds."""
        with self._lock:
            shapes = list(self._shapes.items())
        found = None
        for shape, filed in reversed(shapes):
            key = tuple(drawn.filed_as(reader.value(path)) for path in shape)
            with self._lock:
                candidate = filed.get(key)
            if candidate is not None and drawn.holds(candidate, reader):
                found = candidate
                break
        with self._lock:
            self._tried += 1
            self._hits += found is not None
            if self._tried >= 4 * SHELF_TRIED:
                self._tried //= 2
                self._hits //= 2
        return found

    def drawings(self) -> list[drawn.Drawn]:
        with self._lock:
            return [made for filed in self._shapes.values() for made in filed.values()]

    def keep(self, made: drawn.Drawn) -> None:
        reads = made.reads or ()
        shape = tuple(path for path, _value in reads)
        key = tuple(drawn.filed_as(value) for _path, value in reads)
        with self._lock:
            filed = self._shapes.get(shape)
            if filed is None:
                filed = self._shapes[shape] = OrderedDict()
                while len(self._shapes) > SHAPES_KEPT:
                    self._shapes.popitem(last=False)
            else:
                self._shapes.move_to_end(shape)
            filed[key] = made
            filed.move_to_end(key)
            while len(filed) > DRAWINGS_KEPT:
                filed.popitem(last=False)


_shelves: LRU[tuple[Any, ...], _Shelf] = LRU(1024)
"""At most this many (table, language, template) shelves: a few hundred tables
playing at once in one process."""


def _drawing(
    game: Game,
    template: str,
    values: dict[str, Any],
    *,
    shared: bool = False,
    reader: drawn.Reader | None = None,
    memo: dict[Any, Any] | None = None,
    watch: bool = True,
    language: str | None = None,
) -> SafeString:
    """``template`` drawn from ``values``, or a drawing of it that any screen of
    this table got from the same inputs (games.drawn): first the one this screen
    last got (``memo``), then the table's recent ones. ``language``: the active one,
    when the caller has it already. Not ``watch``: a new drawing for ``memo`` is
    made without its reads (it will not be reused from there)."""
    reader = reader if reader is not None else drawn.Reader(values)
    language = language or translation.get_language()
    mine = (template, language)  # a drawing is in one language
    board = values.get("board")
    if memo is not None:
        last: _Last | None = memo.get(mine)
        if last is not None:
            if board is not None and last.board is board:
                if _holds_on_kept_board(last, reader):
                    return last.made.html  # type: ignore[return-value]
            elif drawn.holds(last.made, reader):
                memo[mine] = _Last(last.made, board, last.outside)
                return last.made.html  # type: ignore[return-value]
            # A screen often comes back to what it showed a few moves ago (a card
            # loses its "your vote" line when the votes are revealed).
            older: list[drawn.Drawn] = memo.get((mine, _OLDER), [])
            for index, made in enumerate(older):
                if drawn.holds(made, reader):
                    older[index] = last.made
                    memo[mine] = _Last(made, board, drawn.reads_outside(made, "board"))
                    return made.html  # type: ignore[return-value]
    key = (game.pk, game.code, language, template, shared)
    shelf = _shelves.get(key)
    looking = shelf is None or shelf.worth_looking()
    if shelf is not None and looking:
        found = shelf.look(reader)
        if found is not None:
            if memo is not None:
                _remember(memo, mine, found, board)
            return found.html  # type: ignore[return-value]
    # A drawing that neither this screen's memo nor the shelf will keep (a shared
    # region's, between a seldom-finding shelf's samples) need not note its reads:
    # drawn unwatched, the same HTML for less.
    made = drawn.draw(template, values, watched=looking or (memo is not None and watch))
    found = tuple(_compact(piece) for piece in made.pieces)
    made = drawn.Drawn(
        pieces.marked(pieces.pieced(_compact(made.html), found)),
        made.reads,
    )
    if made.reads is not None:
        if shelf is None:
            shelf = _Shelf()
            _shelves.put(key, shelf)
        shelf.keep(made)
    if memo is not None:
        _remember(memo, mine, made, board)
    return made.html  # type: ignore[return-value]


OLDER_KEPT = 3
"""Drawings a screen keeps of each template besides its last one."""
_OLDER = "older"


def _remember(
    memo: dict[Any, Any], mine: tuple[str, str], made: drawn.Drawn, board: Any
) -> None:
    """``made`` is what this screen shows of a template now; the drawing it showed
    before joins the few older ones it keeps (a drawing that never holds is not
    worth keeping)."""
    last: _Last | None = memo.get(mine)
    if last is not None and last.made.reads is not None and last.made is not made:
        older = memo.setdefault((mine, _OLDER), [])
        older.insert(0, last.made)
        del older[OLDER_KEPT:]
    memo[mine] = _Last(made, board, drawn.reads_outside(made, "board"))


def _holds_on_kept_board(last: _Last, reader: drawn.Reader) -> bool:
    """Whether a screen's last drawing, made with the board it has now (the same
    object: kept, games.recorded, so everything it has shown is what it would show
    now), still holds: only its other reads (the game's turn, the forms' token, ...)
    are followed again."""
    return last.outside is not None and drawn.reads_hold(last.outside, reader)


class _Last(NamedTuple):
    """A screen's last drawing of one template: the drawing, the board it was drawn
    (or last found to hold) with, and its reads of anything but that board."""

    made: drawn.Drawn
    board: Any
    outside: tuple[tuple[drawn.Path, Any], ...] | None


class _Own:
    """A viewer's own parts (their regions and extras): one set of inputs, read
    once for all of them, with the CSRF token drawn as a placeholder so that seats
    whose inputs are the same share a drawing (games.drawn.with_token)."""

    def __init__(self, context: Mapping[str, Any], memo: dict[Any, Any] | None) -> None:
        self.context = context
        self.memo = memo
        self.token: str | None = context.get("csrf_token")
        # Read once for all of a screen's parts (a context-local lookup each time).
        self.language = translation.get_language()
        self._values: dict[str, Any] | None = None
        self._reader: drawn.Reader | None = None

    def reader(self) -> drawn.Reader:
        """The viewer's inputs, the token a placeholder, each path followed once."""
        if self._reader is None:
            self._values = dict(self.context)
            if self.token:
                self._values["csrf_token"] = drawn.CSRF_PLACEHOLDER
            self._reader = drawn.Reader(self._values)
        return self._reader

    def draw(self, template: str) -> str:
        reader = self.reader()
        html = _drawing(
            self.context["game"],
            template,
            reader.values,  # type: ignore[arg-type]  # the dict made just above
            reader=reader,
            memo=self.memo,
            language=self.language,
        )
        return drawn.with_token(html, self.token)

    def as_last_drawn(self, template: str) -> str | None:
        """What this screen last showed of ``template``, if that is what drawing it
        now would give without a new drawing: the same kept board (games.recorded:
        everything it shows, it would show now) and the same values of every other
        input it read. This is the first thing :func:`_drawing` tries, asked on its
        own; None where it would go on to look further."""
        if self.memo is None:
            return None
        last: _Last | None = self.memo.get((template, self.language))
        board = self.context.get("board")
        if (
            last is None
            or board is None
            or last.board is not board
            or not _holds_on_kept_board(last, self.reader())
        ):
            return None
        return drawn.with_token(last.made.html, self.token)


def _shared_key(game: Game, language: str) -> tuple[Any, ...]:
    return (game.pk, game.code, game.version, game.status, language)


@dataclass(frozen=True)
class LiveParts:
    """A started table's live area, part by part (see the module doc)."""

    game: Game
    countdown: bool
    regions: list[RegionPart]
    extras: SafeString

    @functools.cached_property
    def state(self) -> SafeString:
        """The table's state and clock, for a whole live area (a push sends its
        own, marked for an out-of-band swap: ``render_update``)."""
        return render_state(self.game, countdown=self.countdown)

    def shown(self) -> dict[str, str]:
        """Each part's HTML by its id: what a socket keeps to tell what a later
        push must send (a few kilobytes a socket; comparing a shared part, the same
        string for every seat, costs nothing, where hashing every part for every
        seat cost a tenth of a push). The state goes with every push, so it is not
        among them."""
        found: dict[str, str] = {"table-extras": self.extras}
        for part in self.regions:
            found[f"region-{part.region.id}"] = part.html
        return found


def render_clock(
    game: Game, *, oob: bool = False, countdown: bool = False
) -> SafeString:
    """The turn clock of the current decision, the same on every screen (the server
    decides the deadline; static/js/table.js counts it down from ``data-deadline``,
    corrected by ``data-now`` for a device whose clock is off). Hidden without a
    running clock; with ``countdown`` (the page shows a family's countdown,
    :func:`render_countdown`) it still says the server's time, for that count.

    Every seat's push draws it, so it is put together from escaped text directly
    (``html.escape``, what Django's ``escape`` does) rather than by ``format_html``,
    which checks each argument for lazy text."""
    swap = ' hx-swap-oob="true"' if oob else ""
    now = timezone.now()
    if game.status != Game.Status.PLAYING or game.deadline is None:
        if not countdown:
            return SafeString(  # constants only
                f'<p id="table-clock" class="table-clock" hidden{swap}></p>'
            )
        return SafeString(  # numbers and constants only
            f'<p id="table-clock" class="table-clock" hidden{swap} '
            f'data-now="{int(now.timestamp() * 1000)}"></p>'
        )
    left = max(0, int((game.deadline - now).total_seconds() + 0.999))
    numerals = numerals_for()
    digits = escape(numerals.digits) if numerals else ""
    return SafeString(  # every text in it is escaped
        f'<p id="table-clock" class="table-clock{"" if left else " expired"}" '
        f'role="timer"{swap} data-deadline="{int(game.deadline.timestamp() * 1000)}" '
        f'data-now="{int(now.timestamp() * 1000)}" data-digits="{digits}" '
        f'data-expired="{escape(_("Time is up: the bot is playing."))}">'
        f"{escape(_('Time left for this decision:'))} <strong data-clock-left>"
        f"{escape(localize_text(f'{left // 60}:{left % 60:02d}'))}</strong></p>"
    )


def countdown_deadline(game: Game, view: Mapping[str, Any]) -> dt.datetime | None:
    """When the countdown a move started (``Family.countdown``) ends: that move's
    time in the log plus its length. The same for every viewer, and after a reload
    or a restart."""
    found = family_of(game.ruleset).countdown(view)
    if found is None or game.status != Game.Status.PLAYING:
        return None
    step, seconds = found
    number = step + 1
    started = _started.get((game.pk, game.code, number))
    if started is None:
        started = (
            GameAction.objects.filter(game=game, number=number)
            .values_list("created_at", flat=True)
            .first()
        )
        if started is None:
            return None
        _started.put((game.pk, game.code, number), started)
    return started + dt.timedelta(seconds=seconds)


def render_countdown(game: Game, view: Mapping[str, Any]) -> SafeString:
    """A move's countdown (a speech timer) for a family template: the end time as
    text (all a page without JavaScript shows) and the seconds left, which
    static/js/table.js counts down from ``data-deadline`` like the turn clock
    (:func:`render_clock`, whose ``data-now`` corrects a device's clock). Nothing in
    it depends on the moment it is drawn, so every screen gets the same markup and a
    push does not resend it; empty without a countdown."""
    deadline = countdown_deadline(game, view)
    if deadline is None:
        return SafeString("")
    numerals = numerals_for()
    return format_html(
        '<span class="table-countdown" role="timer" data-countdown '
        'data-deadline="{}" data-digits="{}" data-expired="{}">'
        '{} <time datetime="{}">{}</time> <strong data-clock-left></strong></span>',
        int(deadline.timestamp() * 1000),
        numerals.digits if numerals else "",
        _("Time is up."),
        _("ends at"),
        deadline.isoformat(),
        localize_text(timezone.localtime(deadline).strftime("%H:%M:%S")),
    )


def render_state(
    game: Game, *, oob: bool = False, countdown: bool = False
) -> SafeString:
    """The table's state (status, version, turn: what static/js/table.js reads) and
    its clock."""
    swap = ' hx-swap-oob="true"' if oob else ""
    return SafeString(  # the status is one of the model's choices
        f'<div id="table-state" hidden{swap} data-status="{escape(game.status)}" '
        f'data-version="{int(game.version)}" data-turn="{int(game.turn)}"></div>'
        + render_clock(game, oob=oob, countdown=countdown)
    )


EXTRAS = "games/_extras.html"
"""The viewer's extras: host tools, the rematch, a finished game's side chats."""


def live_parts(
    context: Mapping[str, Any],
    memo: dict[Any, Any] | None = None,
    *,
    own: _Own | None = None,
) -> LiveParts:
    game: Game = context["game"]
    own = own if own is not None else _Own(context, memo)
    key = _shared_key(game, own.language)
    regions = render_regions(context, shared_key=key, own=own)
    extras = pieces.marked(own.draw(EXTRAS))  # a template's output
    return LiveParts(
        game=game,
        countdown=bool(context.get("countdown")),
        regions=regions,
        extras=extras,
    )


def render_live(
    ctx: TableContext, *, origin: str = "", csrf_token: str | None = None
) -> str:
    """The whole live area, marked for an out-of-band swap by htmx's ws extension."""
    context = table_page_context(ctx, origin=origin, csrf_token=csrf_token)
    context["oob"] = True
    return render_to_string("games/_live.html", context)


def render_whole(
    ctx: TableContext,
    *,
    origin: str = "",
    csrf_token: str | None = None,
    memo: dict[Any, Any] | None = None,
) -> tuple[str, dict[str, str]]:
    """The whole live area, and its parts (``LiveParts.shown``; none before the
    start)."""
    context = table_page_context(ctx, origin=origin, csrf_token=csrf_token, memo=memo)
    context["oob"] = True
    html = render_to_string("games/_live.html", context)
    parts: LiveParts | None = context.get("live")
    return html, parts.shown() if parts is not None else {}


def render_update(
    ctx: TableContext,
    sent: Mapping[str, str],
    *,
    origin: str = "",
    csrf_token: str | None = None,
    memo: dict[Any, Any] | None = None,
    presence: bool = False,
) -> tuple[str, dict[str, str]]:
    """What a socket that last sent the parts ``sent`` (``LiveParts.shown``) must
    send now for the page to equal a fresh load: the changed parts only, each
    swapped in by its id; the table's state every time, and with ``presence`` (the
    game's status changed) the notice of who is away, which the whole area holds
    but its own push keeps up to date otherwise. Returns the frame and the parts
    now shown. A screen whose own parts all come out as they were (most screens
    after most votes) is answered without going through them: ``_own_unchanged``."""
    context = _page_context(ctx, origin=origin, csrf_token=csrf_token, memo=memo)
    own = _Own(context, memo)
    if not presence and memo is not None:
        unchanged = _own_unchanged(context, sent, own)
        if unchanged is not None:
            return unchanged
    parts = live_parts(context, memo, own=own)
    shown = parts.shown()
    frame = [render_state(ctx.game, oob=True, countdown=parts.countdown)]
    if presence:
        frame.append(render_notice(of_table(ctx.game), oob=True))
    for part in parts.regions:
        _send_region(
            frame, part.region, sent.get(f"region-{part.region.id}"), part.html
        )
    if sent.get("table-extras") != shown["table-extras"]:
        frame.append(f'<div id="table-extras" hx-swap-oob="true">{parts.extras}</div>')
    return "".join(frame), shown


def _send_region(frame: list[str], region: Region, last: str | None, html: str) -> None:
    """Onto ``frame``, what turns a region a socket last sent as ``last`` into
    ``html``: nothing, the rows that changed, or the whole region. The parts are
    the templates' own HTML and the ids are the family's constants: nothing here
    needs escaping."""
    if last == html:
        return
    # Only some rows changed (games.pieces): those rows, each by its id.
    rows = pieces.swaps(last, html)
    if rows is not None:
        frame.extend(rows)
        return
    frame.append(
        f'<div id="region-{region.id}" class="region" hx-swap-oob="true">{html}</div>'
    )


def _own_unchanged(
    context: Mapping[str, Any], sent: Mapping[str, str], own: _Own
) -> tuple[str, dict[str, str]] | None:
    """The push of a screen none of whose own parts changed (after most votes and
    mission cards, every seat but the mover's), made without going through the
    parts one by one: the table's state and the shared regions' changes, which
    are the same for every such screen of this version (the regions' drawings,
    and their changed rows, are made once: ``render_regions``, ``pieces.swaps``).

    It is the frame :func:`render_update` would send, by the same test it would
    make: each own part must be what its template's drawing for this screen held
    last time (:meth:`_Own.as_last_drawn`), and equal to what the socket sent.
    None, and the parts are drawn as usual, when any of them is not, or when this
    version's shared regions are not drawn yet (a first screen draws them)."""
    game: Game = context["game"]
    shared = _shared.get(_shared_key(game, own.language))
    if shared is None:
        return None
    regions: Sequence[Region] = context["regions"]
    for region in regions:
        if not region.shared and not _sent_as_drawn(
            own, region.template, sent.get(f"region-{region.id}")
        ):
            return None
    if not _sent_as_drawn(own, EXTRAS, sent.get("table-extras")):
        return None
    return _shared_frame(game, regions, sent, shared, bool(context.get("countdown")))


def _shared_frame(
    game: Game,
    regions: Sequence[Region],
    sent: Mapping[str, str],
    shared: Mapping[str, str],
    countdown: bool,
) -> tuple[str, dict[str, str]] | None:
    """The push of a screen whose own parts are as they were: the table's state and
    the changes of the shared regions (``shared``: this version's, drawn once for
    every screen) from what the socket was sent; and the parts it then shows. None
    if a shared region is not drawn."""
    frame = [render_state(game, oob=True, countdown=countdown)]
    shown = dict(sent)
    for region in regions:
        if region.shared:
            html = shared.get(region.id)
            if html is None:
                return None
            key = f"region-{region.id}"
            _send_region(frame, region, sent.get(key), html)
            shown[key] = html
    return "".join(frame), shown


def render_quiet(
    game: Game, public_view: Mapping[str, Any] | None, sent: Mapping[str, str]
) -> tuple[str, dict[str, str]] | None:
    """The push of a seat whose own parts the moves since its socket's last frame
    (``sent``) left as they were (``Family.quiet_seats``, ``Snapshot.quiet``): what
    :func:`render_update` would find by drawing the seat's view and page, made
    without them. None, and the seat's push is drawn
    as usual, when this version's shared regions are not drawn yet in the active
    language (a first screen draws them) or a countdown runs (a family's timer,
    drawn with the seat's page)."""
    if public_view is None:
        return None
    family = family_of(game.ruleset)
    if family.countdown(public_view) is not None:
        return None
    shared = _shared.get(_shared_key(game, translation.get_language()))
    if shared is None:
        return None
    return _shared_frame(game, family.regions, sent, shared, False)


def _sent_as_drawn(own: _Own, template: str, sent: str | None) -> bool:
    made = own.as_last_drawn(template)
    return made is not None and made == sent


def drawings_kept() -> tuple[int, int]:
    """How many drawings this process keeps, and their HTML's size in bytes (the
    values they read are mostly shared with the boards and views they came from)."""
    made = [d for shelf in _shelves.values() for d in shelf.drawings()]
    return len(made), sum(len(d.html) for d in made)


_BY_TABLE: tuple[LRU[Any, Any], ...] = (_shelves, _shared_memos, _shared, _started)
"""The caches filed by table id first: what this process keeps to draw a table."""


def tables_kept() -> set[int]:
    """The tables this process keeps drawings or boards of (for tests and benches)."""
    return {
        key[0]
        for cache in _BY_TABLE
        for key in cache.keys()  # noqa: SIM118 - an LRU, not a dict
    }


def forget_table(game_id: int) -> None:
    """Let go of what this process keeps to draw one table's screens (its shelves,
    its shared regions' boards and drawings): its last socket here has closed
    (``games.consumers.table_left``). Kept, some two thousand objects a table stayed
    until the caches' bounds pushed them out, and each full collection of Python's
    collector walked them again: about 2 ms more a pause for every table played on
    a two-core machine. A screen that opens there again draws afresh, as the first
    one did."""

    def at_table(key: tuple[Any, ...]) -> bool:
        return key[0] == game_id

    for cache in _BY_TABLE:
        cache.discard_where(at_table)


def forget_all() -> None:
    """Tests call this between runs that reuse table ids."""
    pieces.forget_all()
    selectors.forget_all()
    _shared.clear()
    _shared_memos.clear()
    _started.clear()
    _shelves.clear()


def render_chat_line(message: ChatMessage) -> str:
    return render_to_string("games/_chat_append.html", {"message": message})


def render_error(text: str, *, private: bool = False) -> str:
    """An error frame for the socket. A private refusal (``GameError.private``)
    empties the page's error line and fills the seat card's ``#card-error``."""
    if not private:
        return render_to_string("games/_error.html", {"error": text, "oob": True})
    return render_to_string(
        "games/_error.html", {"error": "", "oob": True}
    ) + format_html(
        # No role="alert": a screen reader would say it aloud, out of the card.
        '<p id="card-error" class="message error" hx-swap-oob="true">{}</p>',
        text,
    )
