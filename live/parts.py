"""A viewer's live area, part by part, and the frame a screen is sent when it changes.

The area of a started table is made of parts, each swapped in by its id: the table's
state (its version, turn and clock: every frame carries it), the family's regions
(``games.kit.regions``), who is away, and the viewer's extras (host tools, the
rematch, the moves the bot made for players, a finished game's private channels).
Each region and the extras are drawn from declared inputs; a screen keeps the inputs
of what it shows (:class:`Shown`), and its next frame holds only the parts whose
inputs changed. A room's :class:`Drawings` finds a drawing made for equal inputs
(another seat's, or a public region's, drawn once for every screen), so equal
inputs are drawn once. Before the start the area is the waiting room, drawn whole.

A page (``live.views``) draws the same parts from the same table, so a pushed screen
equals a fresh load by construction.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.template import engines
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.kit.family import family_of
from games.kit.regions import (
    CSRF_PLACEHOLDER,
    Drawing,
    Facts,
    Inputs,
    Region,
    catalogue,
    changed_rows,
    compact,
    draw,
    with_token,
)
from games.models import ChatMessage, Game
from games.presence import Away, bot_moves, render_notice
from games.words import house_decisions, option_labels, option_settings
from live.table import Table, Viewer
from numerals.digits import numerals_for

KEPT_PER_REGION = 12
"""A room's drawings kept per region and language: one per seat of a full table and
a spare, so that every seat's own region is found again."""


class Drawings:
    """A room's recent drawings, per part and language, found by equal inputs
    (most recent first). Its room's pushes and the pages of its table (drawn in
    request threads) share it, hence the lock."""

    def __init__(self) -> None:
        self._made: dict[tuple[str, str], list[tuple[Any, Drawing]]] = {}
        self._lock = threading.Lock()

    def get(self, part: str, inputs: Any, make: Callable[[], Drawing]) -> Drawing:
        key = (part, translation.get_language() or "")
        with self._lock:
            made = self._made.setdefault(key, [])
            for index, (known, drawing) in enumerate(made):
                if known == inputs:
                    if index:
                        made.insert(0, made.pop(index))
                    return drawing
        drawing = make()
        with self._lock:
            made.insert(0, (inputs, drawing))
            del made[KEPT_PER_REGION:]
        return drawing

    def forget(self) -> None:
        self._made.clear()


@dataclass
class Shown:
    """What one screen shows: the table's status its area was drawn at, and for
    each part, the inputs it was drawn from and the region's drawing."""

    status: str = ""
    parts: dict[str, Any] = field(default_factory=dict)
    drawn: dict[str, Drawing] = field(default_factory=dict)


# --- the parts ----------------------------------------------------------------------


def facts(table: Table, viewer: Viewer) -> Facts:
    game = table.game
    return Facts(
        code=game.code,
        turn=game.turn,
        status=game.status,
        version=game.version,
        chats=side_chats(table, viewer) if game.status == Game.Status.PLAYING else (),
        countdown=table.countdown.isoformat() if table.countdown else "",
        ended_by=game.host.display_name if game.status == Game.Status.ABANDONED else "",
    )


def side_chats(table: Table, viewer: Viewer) -> tuple[tuple[Any, ...], ...]:
    """The private channels ``viewer`` reads, as the side chat template shows them:
    (channel, label, lines, may write)."""
    private = table.private_lines(viewer)
    if not private:
        return ()
    words = family_of(table.game.ruleset).words(table.game.ruleset)
    writing = (viewer.seated or viewer.moderating) and (
        table.game.status == Game.Status.PLAYING
    )
    return tuple(
        (channel, words.channel(channel), lines, writing) for channel, lines in private
    )


@dataclass(frozen=True)
class Rematch:
    status: str
    url: str

    def get_absolute_url(self) -> str:
        return self.url


@dataclass(frozen=True)
class ExtrasFacts:
    """What the extras template reads of the table."""

    code: str
    status: str
    next_game: Rematch | None


@dataclass(frozen=True)
class Extras:
    """The inputs of a viewer's extras."""

    game: ExtrasFacts
    is_host: bool
    is_seated: bool
    bot_moves: tuple[tuple[int, str], ...]
    side_chats: tuple[tuple[Any, ...], ...]
    readonly: bool = False


EXTRAS = "games/_extras.html"


def extras(table: Table, viewer: Viewer) -> Extras:
    game = table.game
    rematch = None
    if game.status == Game.Status.FINISHED and game.next_game_id is not None:
        following = game.next_game
        rematch = Rematch(following.status, following.get_absolute_url())
    return Extras(
        game=ExtrasFacts(code=game.code, status=game.status, next_game=rematch),
        is_host=viewer.is_host,
        is_seated=viewer.seated,
        bot_moves=tuple(bot_moves(game, table.names)),
        side_chats=side_chats(table, viewer)
        if game.status == Game.Status.FINISHED
        else (),
    )


def _draw_extras(inputs: Extras) -> Drawing:
    context = {
        "game": inputs.game,
        "is_host": inputs.is_host,
        "is_seated": inputs.is_seated,
        "readonly": inputs.readonly,
        "bot_moves": inputs.bot_moves,
        "side_chats": _draw_side_chats(inputs),
        "csrf_token": CSRF_PLACEHOLDER,
    }
    return Drawing(mark_safe(compact(render_to_string(EXTRAS, context))))  # noqa: S308


def _draw_side_chats(inputs: Extras) -> SafeString:
    """A finished game's private channels, open to every screen, read only."""
    if not inputs.side_chats:
        return SafeString("")
    chats = [(*chat[:3], False) for chat in inputs.side_chats]
    template = engines["jinja2"].get_template("games/_side_chat.html")
    return mark_safe(template.render({"chats": chats, "game": inputs.game}))  # noqa: S308


def _public(table: Table) -> dict[str, Inputs]:
    """The public regions' inputs, the same for every screen of ``table``."""
    found: dict[str, Inputs] | None = table.shared.get("public")
    if found is None:
        view = table.public_view
        assert view is not None
        spectator = facts(table, Viewer(user_id=None))
        playing = table.game.status != Game.Status.ABANDONED
        found = table.shared["public"] = {
            region.id: region.inputs(view, spectator, playing=playing)
            for region in family_of(table.game.ruleset).live.regions
            if region.public
        }
    return found


@dataclass
class Parts:
    """A started table's parts for one viewer, each found or drawn."""

    countdown: bool
    regions: list[Part]
    extras: tuple[Extras, SafeString | None]


@dataclass(frozen=True)
class Part:
    """A region as a screen is sent it: its inputs and drawing, and its HTML (None:
    the screen shows it already), the whole region or (``rows``) the rows of it
    that changed, each swapped in by its own id."""

    region: Region
    inputs: Inputs
    drawing: Drawing | None
    html: SafeString | None
    rows: bool = False


def parts(
    table: Table,
    viewer: Viewer,
    drawings: Drawings,
    token: str | None,
    *,
    shown: Shown | None = None,
    extra: dict[str, Any] | None = None,
) -> Parts:
    """Every part of a started table's area for ``viewer``, drawn or found; with
    ``shown``, a part whose inputs are those it shows is left undrawn (its HTML
    None; an empty region is drawn as "")."""
    game = table.game
    family = family_of(game.ruleset)
    own = facts(table, viewer)
    public = _public(table)
    playing = game.status != Game.Status.ABANDONED
    view = table.view_of(viewer)
    assert view is not None

    def board(view: Any, names: Any, playing: bool) -> Any:
        return family.live.board(view, names, playing=playing)

    regions = []
    for region in family.live.regions:
        if region.public:
            inputs = public[region.id]
        else:
            inputs = region.inputs(view, own, playing=playing)
        if shown is not None and shown.parts.get(region.id) == inputs:
            regions.append(Part(region, inputs, shown.drawn.get(region.id), None))
            continue
        drawn = (
            draw(region, inputs, own, table.names, board, extra=extra)
            if extra
            else drawings.get(
                region.id,
                inputs,
                lambda region=region, inputs=inputs: draw(
                    region, inputs, own, table.names, board
                ),
            )
        )
        before = shown.drawn.get(region.id) if shown is not None else None
        rows = changed_rows(before, drawn) if before is not None else None
        if rows is not None:
            html = "".join(with_token(Drawing(mark_safe(row)), token) for row in rows)  # noqa: S308
            regions.append(Part(region, inputs, drawn, mark_safe(html), rows=True))  # noqa: S308
        else:
            html = with_token(drawn, token)
            regions.append(Part(region, inputs, drawn, mark_safe(html)))  # noqa: S308
    mine = extras(table, viewer)
    if shown is not None and shown.parts.get("extras") == mine:
        extras_html = None
    else:
        made = drawings.get("extras", mine, lambda: _draw_extras(mine))
        extras_html = mark_safe(with_token(made, token))  # noqa: S308
    return Parts(
        countdown=bool(own.countdown), regions=regions, extras=(mine, extras_html)
    )


def _remember(parts_made: Parts, status: str) -> Shown:
    shown = Shown(status=status)
    for part in parts_made.regions:
        shown.parts[part.region.id] = part.inputs
        if part.drawing is not None:
            shown.drawn[part.region.id] = part.drawing
    shown.parts["extras"] = parts_made.extras[0]
    return shown


# --- the whole area, and a screen's next frame ----------------------------------------


def area(
    table: Table,
    viewer: Viewer,
    drawings: Drawings,
    *,
    token: str | None,
    origin: str = "",
    user: Any = None,
    card_error: str = "",
    oob: bool = True,
) -> tuple[str, Shown]:
    """The whole live area (a socket's first frame, marked ``oob`` for an
    out-of-band swap, or the table page's), and what it shows."""
    game = table.game
    context: dict[str, Any] = {"game": game, "oob": oob, "viewer_position": None}
    shown = Shown(status=game.status)
    if game.status == Game.Status.OPEN or not table.started:
        context |= waiting(table, viewer, origin=origin, user=user)
        if token:
            context["csrf_token"] = token
    else:
        made = parts(
            table,
            viewer,
            drawings,
            token,
            extra={"card_error": card_error} if card_error else None,
        )
        shown = _remember(made, game.status)
        context |= {
            "state_html": render_state(game, countdown=made.countdown),
            "region_parts": [(part.region, part.html) for part in made.regions],
            "presence_notice": render_notice(table.away),
            "extras_html": made.extras[1],
            "viewer_position": viewer.position,
        }
    return render_to_string("games/_live.html", context), shown


def frame(
    table: Table, viewer: Viewer, drawings: Drawings, shown: Shown, *, token: str | None
) -> tuple[str, Shown] | None:
    """What a screen showing ``shown`` is sent for ``table``: the table's state and
    each part whose inputs changed (None: the whole area must be sent, the table's
    status went from or to the waiting room)."""
    game = table.game
    if Game.Status.OPEN in (game.status, shown.status) or not table.started:
        return None
    made = parts(table, viewer, drawings, token, shown=shown)
    out = [render_state(game, oob=True, countdown=made.countdown)]
    if shown.status != game.status:
        # The end: the notice of who is away is emptied too.
        out.append(render_notice(table.away, oob=True))
    for part in made.regions:
        if part.rows:
            out.append(part.html or "")
        elif part.html is not None:
            out.append(
                f'<div id="region-{part.region.id}" class="region" hx-swap-oob="true">'
                f"{part.html}</div>"
            )
    if made.extras[1] is not None:
        out.append(f'<div id="table-extras" hx-swap-oob="true">{made.extras[1]}</div>')
    return "".join(out), _remember(made, game.status)


def waiting(table: Table, viewer: Viewer, *, origin: str, user: Any) -> dict[str, Any]:
    """The waiting room's context: the seats filling, the host's tools."""
    game = table.game
    taken = len(table.players)
    return {
        "players": table.players,
        "words": family_of(game.ruleset).words(game.ruleset),
        "taken": taken,
        "free_seats": range(max(0, game.seat_count - taken)),
        "is_full": taken >= game.seat_count,
        "is_host": viewer.is_host,
        "is_seated": viewer.seated,
        "is_moderator": viewer.moderating,
        "moderator_name": game.moderator.display_name
        if game.moderator_id is not None
        else "",
        "viewer": user if viewer.user_id is not None else None,
        "option_labels": option_labels(game),
        "option_settings": option_settings(game),
        "house_decisions": house_decisions(game),
        "origin": origin,
    }


# --- small parts ----------------------------------------------------------------


def render_state(
    game: Game, *, oob: bool = False, countdown: bool = False
) -> SafeString:
    """The table's state and its turn clock (``games/_state.html``)."""
    now = timezone.now()
    left = None
    if game.status == Game.Status.PLAYING and game.deadline is not None:
        left = max(0, int((game.deadline - now).total_seconds() + 0.999))
    numerals = numerals_for()
    context = {
        "game": game,
        "oob": oob,
        "countdown": countdown,
        "now": int(now.timestamp() * 1000),
        "left": left,
        "deadline": int(game.deadline.timestamp() * 1000) if game.deadline else 0,
        "digits": numerals.digits if numerals else "",
        "catalogue": catalogue(),
    }
    template = engines["jinja2"].get_template("games/_state.html")
    return mark_safe(template.render(context))  # noqa: S308 - a template's output


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


def notice(away: tuple[Away, ...]) -> str:
    """Who is away, for a push (swapped in out of band)."""
    return render_notice(away, oob=True)
