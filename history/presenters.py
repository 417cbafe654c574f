"""What history pages print, worked out in Python so templates only print.

* list rows: every label and link of a row once (a page of 25 games has some 200
  player links, and resolving each through template tags costs more than the
  queries);
* the replay section: the board of the step (the live table's own presenter), and
  the links of its controls, each both as a page address and as the fragment htmx
  swaps in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.kit.family import family_of, known_words
from games.kit.regions import Board, Facts, Region, draw
from games.models import Game
from history import analysis, replay
from history.selectors import GameRow

URL_SAFE = "!$&'()*+,;=/~:@"
"""What ``reverse()`` leaves unquoted in a path argument (RFC 3986 sub-delims)."""


def profile_url_maker() -> Callable[[str], str]:
    """A function giving a player's profile path, resolving the pattern once."""
    head, tail = reverse("profile", kwargs={"username": "PROBE"}).split("PROBE")
    return lambda username: f"{head}{quote(username, safe=URL_SAFE)}{tail}"


@dataclass(frozen=True)
class ListedPlayer:
    name: str
    url: str


@dataclass(frozen=True)
class ListedGame:
    """One line of a history list, ready to print."""

    code: str
    url: str
    title: str
    game_name: str
    badges: list[str]
    private: bool
    finished_at: dt.datetime | None
    abandoned: bool
    winner: str
    winner_label: str
    players: list[ListedPlayer]
    subject_role: str
    subject_side: str
    subject_won: bool | None
    notes: tuple[str, ...] = ()


def _option_labels(ruleset: str, options: dict[str, object]) -> list[str]:
    from games import engine

    try:
        specs = engine.get_ruleset(ruleset).options
    except engine.UnknownRuleset:
        return []
    return [
        _(spec.label)
        for spec in specs
        if spec.name != "chat" and options.get(spec.name)
    ]


def _winner_label(ruleset: str, winner: str) -> str:
    words = known_words(ruleset)
    if not winner or words is None:
        return winner
    return _("%(side)s win") % {"side": str(words.side(winner)).capitalize()}


def listed_games(rows: Iterable[GameRow]) -> list[ListedGame]:
    profile_url = profile_url_maker()
    game_url = reverse("history:game", args=["PROBE"])
    listed = []
    for row in rows:
        game = row.game
        words = known_words(game.ruleset)
        game_name = str(words.game) if words else game.ruleset
        subject = row.subject
        role = ""
        if subject is not None and subject.role and words:
            role = str(words.role(subject.role))
        listed.append(
            ListedGame(
                code=game.code,
                url=game_url.replace("PROBE", quote(game.code, safe=URL_SAFE)),
                title=game.name or game_name,
                game_name=game_name if game.name else "",
                badges=_option_labels(game.ruleset, game.options),
                private=game.is_private,
                finished_at=game.finished_at,
                abandoned=game.status == game.Status.ABANDONED,
                winner=game.winner,
                winner_label=_winner_label(game.ruleset, game.winner),
                players=[
                    ListedPlayer(seat.name, profile_url(seat.username))
                    for seat in row.seats
                ],
                subject_role=role,
                subject_side=subject.side if subject is not None else "",
                subject_won=subject.won if subject is not None else None,
                notes=row.notes,
            )
        )
    return listed


# --- the replay section -------------------------------------------------------------


def replay_url(
    game: Game, *, step: int, perspective: str, fragment: bool = False
) -> str:
    """The address of one replay screen: the page (``#replay``) or its fragment."""
    query = urlencode({"step": step, "as": perspective})
    if fragment:
        return f"{reverse('history:replay', args=[game.code])}?{query}"
    return f"{reverse('history:game', args=[game.code])}?{query}#replay"


def replay_context(
    game: Game,
    names: dict[int, str],
    *,
    step: str | None,
    perspective: str | None,
    viewer_seat: int | None,
) -> dict[str, Any]:
    """The template context of the replay section (``history/_replay.html``, which
    includes the family's live board template read-only)."""
    shown = replay.screen(
        game, names, step=step, seat=perspective, viewer_seat=viewer_seat
    )
    family = family_of(game.ruleset)

    def link(number: int) -> dict[str, str]:
        number = max(0, min(number, shown.last))
        where = {"step": number, "perspective": shown.perspective}
        return {
            "href": replay_url(game, **where),
            "fragment": replay_url(game, **where, fragment=True),
        }

    number = shown.step.number
    context: dict[str, Any] = {
        "screen": shown,
        "game": game,
        "view": shown.view,
        "family": family.history,
        "regions": family.live.regions,
        "board": family.live.board(shown.view, names, playing=True),
        "public_board": family.live.board(shown.public_view, names, playing=True),
        "words": family.words(game.ruleset),
        "readonly": True,
        "links": {
            "first": link(0),
            "prev": link(number - 1),
            "next": link(number + 1),
            "last": link(shown.last),
        },
        "milestone_links": [
            (
                milestone,
                link(milestone.number)["href"],
                link(milestone.number)["fragment"],
            )
            for milestone in shown.milestones
        ],
    }
    perspective_seat = shown.seat if shown.seat is None or shown.seat >= 0 else None
    board = analysis.board_for(game, names, perspective_seat)
    context["analysis"] = board
    context["analysis_column"] = board.current(number) if board else None
    context["analysis_viewer"] = (
        "" if perspective_seat is None else names.get(perspective_seat, "")
    )
    context["analysis_links"] = [
        (column, link(column.first)["href"], link(column.first)["fragment"])
        for column in (board.columns if board else [])
    ]
    context["region_parts"] = draw_regions(
        family.live.regions,
        lambda view, names, playing: family.live.board(view, names, playing=playing),
        shown.view,
        shown.public_view,
        Facts(code=game.code, status=game.status),
        names,
        readonly=True,
    )
    return context


def draw_regions(
    regions: tuple[Region, ...],
    board: Board,
    view: Mapping[str, Any],
    public_view: Mapping[str, Any],
    facts: Facts,
    names: Mapping[int, str],
    *,
    readonly: bool = False,
) -> list[tuple[Region, SafeString]]:
    """Every region of a replay's step drawn from ``view`` (a public one from
    ``public_view``), as the live page draws them, with nothing kept."""
    drawn = []
    for region in regions:
        inputs = region.inputs(
            public_view if region.public else view, facts, readonly=readonly
        )
        drawn.append((region, draw(region, inputs, facts, names, board).html))
    return drawn
