"""A glance at a phone tells a neighbour nothing (UX.md), at a cells table.

Outside the face-down card every seat's screen has the same shape whatever cards it
holds, and a seat's own part of the screen depends only on what the whole table can
see: whose turn it is, who leads a mission and who goes with them, who has confirmed
the first look, which of its slots were touched. Random complete games of three and
four players are played through the services; at every step each seat's live area is
rendered as its socket would push it, and:

* the shared regions (the board, the record) are the same bytes for every seat;
* the top region (the news, the banner and the action area) has one structure for
  each public position, at every step and at every seat whatever its cards: the same
  tags, classes and attribute names, the same buttons with the same words;
* the closed card (its summary) looks the same for everyone.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games import engine
from games.models import Game
from games.state import load_state
from tests.games.conftest import live_area, play_one, seated_users, start_table
from tests.games.families.resistance.test_glance import _region, _skeleton, _summary

pytestmark = pytest.mark.django_db


def _position(view: dict[str, Any], seat: int) -> tuple[Any, ...]:
    """What anyone can see about a seat's place in the current decision."""
    mission = view["mission"] or {}
    touched = next(cell["touched"] for cell in view["cells"] if cell["seat"] == seat)
    return (
        view["players"],
        view["phase"],
        seat == view["current"],
        seat in view["waiting_for"],
        seat in view["confirmed"],
        seat == mission.get("leader"),
        seat == mission.get("partner"),
        len(touched),
    )


def _private(state: Any, seat: int) -> tuple[Any, ...]:
    """What only this seat holds or sees: its cards, and what is on show to it."""
    me = engine.view(state, seat)["me"]
    shown = (me["cards"], me["swap"], me["peek"], me["hand"])
    return (tuple(state.cards[3 * seat : 3 * seat + 3]), repr(shown))


def _without_news(top: str) -> str:
    """The top region without the news line: public, and the same for every seat at
    a step, it tells of the last happening, not of this seat."""
    return re.sub(r'<p class="news[^"]*" data-news>.*?</p>', "", top, flags=re.S)


GAMES = [(3, seed) for seed in range(40, 46)] + [(4, seed) for seed in range(50, 56)]


def test_outside_the_card_every_seat_looks_alike() -> None:
    shapes: dict[tuple[Any, ...], tuple[Any, Any]] = {}
    compared = 0
    for players, seed in GAMES:
        compared += _play_and_compare(players, seed, shapes)
    # Seats with other cards (or other cards on show) were seen in each position
    # where a decision depends on them.
    assert compared > 100


def _play_and_compare(
    players: int, seed: int, shapes: dict[tuple[Any, ...], tuple[Any, Any]]
) -> int:
    game = start_table("cells", players)
    users = seated_users(game)
    names = [str(user.display_name) for user in users.values()]
    rng = random.Random(seed)
    compared = 0
    while True:
        game.refresh_from_db()
        state = load_state(game)
        public = engine.view(state, None)
        pages = {seat: live_area(game, user) for seat, user in users.items()}
        for name in ("board", "record"):
            assert len({_region(html, name) for html in pages.values()}) == 1, name
        summaries = {
            str(_skeleton(_summary(_region(html, "card")))) for html in pages.values()
        }
        assert len(summaries) == 1
        if game.status != Game.Status.PLAYING:
            break
        for seat, html in pages.items():
            top = _without_news(_region(html, "top"))
            for name in names:
                top = top.replace(name, "NAME")
            key = _position(public, seat)
            private = _private(state, seat)
            shape = _skeleton(top)
            known_shape, known_private = shapes.setdefault(key, (shape, private))
            assert shape == known_shape, (key, seed, game.version, seat)
            compared += private != known_private
        play_one(game, rng)
    assert game.status == Game.Status.FINISHED
    return compared
