"""A socket keeps its seat's board while what the board read is unchanged
(games.recorded): what it notes, when it lets a board be reused, and, over random
complete games of every family, that a push drawn with the kept board is the very
HTML a fresh page would show, for every seat at every step."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation

from accounts.models import User
from games import engine, recorded, rendering, services
from games.models import Game
from games.selectors import table_context
from games.state import load_state
from tests.games import conftest as resistance
from tests.games.families.mafia import support as mafia


def _read(view: dict[str, Any], reads: Callable[[Any], Any]) -> recorded.Recorder:
    recorder = recorded.Recorder(view)
    reads(recorder.root)
    return recorder


def test_a_read_is_noted_by_its_path_and_holds_while_that_value_is_unchanged() -> None:
    view = {"phase": "vote", "me": {"seat": 2, "vote": None}, "log": [1, 2]}
    recorder = _read(view, lambda v: (v["me"]["seat"], v["phase"]))
    assert recorder.notes[("me", "seat")] == 2
    assert recorder.notes[("phase",)] == "vote"
    # What the board did not read may change: the vote, the log.
    assert recorder.holds({"phase": "vote", "me": {"seat": 2, "vote": True}})
    assert not recorder.holds({"phase": "mission", "me": {"seat": 2}})
    assert not recorder.holds({"phase": "vote", "me": {"seat": 3}})
    assert not recorder.holds({"phase": "vote", "me": None})  # no longer a mapping
    assert not recorder.holds({"phase": "vote"})


def test_a_whole_read_notes_the_whole_value_and_a_truth_only_the_truth() -> None:
    view = {"me": {"seat": 1, "vote": None}, "checks": {"a": 1}, "gone": None}
    recorder = _read(view, lambda v: (bool(v["me"]), list(v["checks"])))
    assert recorder.holds({**view, "me": {"seat": 1, "vote": False}})
    assert not recorder.holds({**view, "checks": {"a": 1, "b": 2}})
    assert not recorder.holds({**view, "me": {}})  # its truth changed
    measured = _read(view, len)
    assert not measured.holds({**view, "extra": 1})


def test_a_missing_key_is_noted_as_missing() -> None:
    recorder = _read({"a": 1}, lambda v: (v.get("b"), "c" in v))
    assert recorder.holds({"a": 2})
    assert not recorder.holds({"a": 1, "b": None})
    assert not recorder.holds({"a": 1, "c": 0})


def test_a_kept_board_reads_the_new_view_from_then_on() -> None:
    old = {"phase": "vote", "me": {"seat": 1, "cards": ["x"]}}
    new = {"phase": "vote", "me": {"seat": 1, "cards": ["y"]}}
    recorder = recorded.Recorder(old)
    me = recorder.root["me"]
    assert me["seat"] == 1
    assert recorder.holds(new)
    recorder.rebind(new)
    # A part worked out only now reads the new view, through what was handed out.
    assert me["cards"] == ["y"]
    assert recorder.root["phase"] == "vote"


class _Family:
    """Counts the boards made."""

    def __init__(self) -> None:
        self.made = 0

    def board(self, view: Any, names: Any, *, playing: bool) -> dict[str, Any]:
        self.made += 1
        return {"phase": view["phase"]}


def test_kept_gives_the_same_board_only_to_the_same_socket_while_it_holds() -> None:
    family = _Family()
    names = {0: "Ann"}
    memo: dict[Any, Any] = {}
    with translation.override("en"):
        first = recorded.kept(memo, family, {"phase": "a", "x": 1}, names, playing=True)
        again = recorded.kept(memo, family, {"phase": "a", "x": 2}, names, playing=True)
        assert again is first and family.made == 1
        other: dict[Any, Any] = {}
        recorded.kept(other, family, {"phase": "a"}, names, playing=True)
        assert family.made == 2  # another socket's memo: a board of its own
        recorded.kept(memo, family, {"phase": "b"}, names, playing=True)
        recorded.kept(memo, family, {"phase": "b"}, {0: "Bo"}, playing=True)
        recorded.kept(memo, family, {"phase": "b"}, {0: "Bo"}, playing=False)
        assert family.made == 5
    with translation.override("ru"):
        recorded.kept(memo, family, {"phase": "b"}, {0: "Bo"}, playing=False)
    assert family.made == 6  # its words are in another language
    recorded.kept(None, family, {"phase": "b"}, {0: "Bo"}, playing=False)
    assert family.made == 7  # no memo, nothing kept


class _Board:
    """A board as the families' are: it keeps the view it was built from."""

    def __init__(self, view: Any) -> None:
        self.view = view
        self.me = view["me"]
        self.seat = self.me["seat"]


class _Keeping:
    def board(self, view: Any, names: Any, *, playing: bool) -> _Board:
        return _Board(view)


def test_a_replaced_board_is_freed_at_once_not_by_the_collector() -> None:
    # A board and its recorder point at each other only weakly: a cycle would leave
    # every replaced board, and all it refers to, for the next full collection
    # (bench.live: those collections were the slowest moves).
    memo: dict[Any, Any] = {}
    family = _Keeping()
    gc.collect()
    gc.disable()
    try:
        with translation.override("en"):
            board = recorded.kept(memo, family, {"me": {"seat": 1}}, {}, playing=True)
            gone = [weakref.ref(board), weakref.ref(memo[recorded.BOARD].recorder)]
            del board
            new = recorded.kept(memo, family, {"me": {"seat": 2}}, {}, playing=True)
        assert new.seat == 2
        assert [ref() for ref in gone] == [None, None]
    finally:
        gc.enable()


def _viewers(game: Game) -> dict[int, User]:
    seats = {seat.position: seat.user for seat in game.seats.select_related("user")}
    if game.moderator_id is not None:
        seats[engine.MODERATOR] = game.moderator
    return seats


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("start", "seed", "keeps"),
    [
        (
            lambda: resistance.start_table(
                "partisans", 7, {"scout": True, "check": True}
            ),
            1,
            True,
        ),
        (lambda: resistance.start_table("trust_no_one", 6), 2, True),
        (lambda: resistance.start_table("werewolves", 8), 3, True),
        # The cells' board reads, at once, what changes on every move: it is
        # checked, and made anew.
        (lambda: resistance.start_table("cells", 4), 4, False),
        (lambda: mafia.start_table()[0], 5, True),
    ],
    ids=["partisans", "trust_no_one", "werewolves", "cells", "mafia"],
)
def test_a_push_with_the_kept_board_is_what_a_fresh_page_shows(
    start: Callable[[], Game],
    seed: int,
    keeps: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = start()
    rng = random.Random(seed)
    memos: dict[int, dict[Any, Any]] = {}
    sent: dict[int, dict[str, str]] = {}
    checked = reused = 0
    kept = recorded.Recorder.holds

    def holds(self: recorded.Recorder, view: Any) -> bool:
        nonlocal checked, reused
        found = kept(self, view)
        checked += 1
        reused += found
        return found

    monkeypatch.setattr(recorded.Recorder, "holds", holds)
    for _step in range(600):
        game.refresh_from_db()
        for position, user in _viewers(game).items():
            memo = memos.setdefault(position, {})
            shown = resistance.draw_push(game, user, sent.get(position), memo)
            with translation.override("ru"):
                rendering.forget_all()  # the fresh page draws everything anew
                fresh = table_context(game, user, with_chat=False)
                _html, expected = rendering.render_whole(fresh, csrf_token="t")
            assert shown == expected, (game.ruleset, game.version, position)
            sent[position] = shown
        if game.status != Game.Status.PLAYING:
            break
        seat, action = engine.random_action(load_state(game), rng)
        services.game_act(
            game=game, user=_viewers(game)[seat], action=action, turn=game.turn
        )
    assert game.status == Game.Status.FINISHED
    assert checked > 0
    # Boards were kept, so the comparison was of kept boards.
    assert (reused > 0) is keeps
