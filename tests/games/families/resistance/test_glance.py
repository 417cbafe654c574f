"""A glance at a phone tells a neighbour nothing (UX.md).

Outside the face-down card, every seat's screen has the same shape whatever its side
or role. Random complete games of every ruleset are played through the services; at
every step each seat's live area is rendered as its socket would push it, and:

* the shared regions (the board, the record) are the same bytes for every seat;
* seats in the same *public* position (the leader, a voter who has or has not voted,
  a team member who has or has not played, the token holder, anyone else) get a top
  region (banner and action area) of the same structure: the same tags, classes and
  attribute names, the same buttons with the same labels, whatever their side;
* the closed card (its summary) looks the same for everyone.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from games import engine
from games.models import Game
from games.state import load_state
from tests.games.conftest import live_area, play_one, seated_users, start_table

pytestmark = pytest.mark.django_db

FORM_VALUES = {"csrfmiddlewaretoken", "turn"}


class _Skeleton(HTMLParser):
    """Tags, classes and attribute names in document order, and the buttons' words;
    the contents of hidden inputs (a form's own values) are not looked at: nobody
    sees them at a glance."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.shape: list[tuple[str, str, tuple[str, ...]]] = []
        self.buttons: list[str] = []
        self._in_button = False
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        marks = dict(attrs)
        names = tuple(sorted(name for name in marks if name != "value"))
        self.shape.append((tag, marks.get("class") or "", names))
        if tag == "button":
            self._in_button, self._text = True, []

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self._in_button:
            self.buttons.append(" ".join("".join(self._text).split()))
            self._in_button = False

    def handle_data(self, data: str) -> None:
        if self._in_button:
            self._text.append(data)


def _skeleton(html: str) -> tuple[list[Any], list[str]]:
    parser = _Skeleton()
    parser.feed(html)
    parser.close()
    return parser.shape, parser.buttons


def _region(html: str, name: str) -> str:
    """The inner HTML of ``<div id="region-name">`` (regions do not nest)."""
    start = html.index(f'<div id="region-{name}"')
    depth, index = 0, start
    for match in re.finditer(r"<(/?)div\b", html[start:]):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            index = start + match.end()
            break
    return html[start:index]


def _summary(html: str) -> str:
    match = re.search(r"<summary>.*?</summary>", html, re.S)
    return match.group(0) if match else ""


def _position(view: dict[str, Any], seat: int) -> tuple[Any, ...]:
    """What anyone can see about a seat's place in the current decision."""
    proposal = view["proposal"] or {}
    play = view["play"] or {}
    token = view["token"] or {}
    return (
        view["phase"],
        seat == view["leader"],
        seat in view["voters"],
        seat in (proposal.get("voted") or []),
        seat in (play.get("team") or []),
        seat in (play.get("played") or []),
        seat == token.get("holder"),
    )


def _render_all(game: Game) -> dict[int, str]:
    users = seated_users(game)
    pages = {}
    for position, user in users.items():
        pages[position] = live_area(game, user)
    return pages


@pytest.mark.parametrize(
    ("ruleset", "players", "options", "seed"),
    [
        ("partisans", 7, {"scout": True, "check": True}, 3),
        ("partisans", 5, {"scout": True}, 4),
        ("trust_no_one", 6, {}, 5),
        ("werewolves", 8, {}, 6),
    ],
)
def test_outside_the_card_every_seat_looks_alike(
    ruleset: str, players: int, options: dict[str, Any], seed: int
) -> None:
    game = start_table(ruleset, players, options)
    rng = random.Random(seed)
    compared_sides = 0
    for _step in range(400):
        game.refresh_from_db()
        state = load_state(game)
        public = engine.view(state, None)
        sides = {
            seat: engine.view(state, seat)["me"]["side"] for seat in range(players)
        }
        pages = _render_all(game)
        shared = {name: set() for name in ("board", "status", "record")}
        groups: dict[tuple[Any, ...], list[int]] = {}
        for seat, html in pages.items():
            for name in shared:
                shared[name].add(_region(html, name))
            groups.setdefault(_position(public, seat), []).append(seat)
            assert _skeleton(_summary(_region(html, "card"))) == _skeleton(
                _summary(_region(pages[0], "card"))
            )
        for name, seen in shared.items():
            assert len(seen) == 1, f"the {name} region differs between seats"
        for key, seats in groups.items():
            shapes = {
                seat: _skeleton(
                    _region(pages[seat], "top").replace(
                        str(game.seats.get(position=seat).user.display_name), "NAME"
                    )
                )
                for seat in seats
            }
            first = seats[0]
            for seat in seats[1:]:
                assert shapes[seat] == shapes[first], (key, first, seat)
            if len({sides[seat] for seat in seats}) > 1:
                compared_sides += 1
        if game.status != Game.Status.PLAYING:
            break
        play_one(game, rng)
    assert game.status == Game.Status.FINISHED
    assert compared_sides > 0  # good and evil seats were side by side in a group
