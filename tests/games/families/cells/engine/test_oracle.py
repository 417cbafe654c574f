"""The leak oracle of ``cells`` itself: it must catch planted leaks of each kind in
dicts, JSON and HTML, and pass what a seat may be shown (its first look, its swap's
two cards, a card it just peeked at, its own mission cards, the public record, the
post-game reveal)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.engine import view
from games.engine.oracle import find_leaks, secrets
from games.families.cells.engine import BLUE, RED, GameState, Leak, Secret
from tests.games.families.cells.engine.support import (
    act,
    laid_out,
    mission,
    new_game,
    revealing,
    started,
    swap,
)

LAYOUT = "BRB RRB BBR"


def _played() -> GameState:
    """Three players.  Seat 0 swapped its left (blue) for seat 1's left (red) and
    exchanged; seat 1 swapped its centre with seat 2's right and did not; seat 2
    led mission 1 with seat 0 (drew B R R, discarded R; seat 0 discarded B and
    revealed R); seat 0 now leads mission 2 with seat 1 and holds B B R."""
    state = laid_out(started(3, seed=1), LAYOUT, current=0)
    state = swap(state, "left", 1, "left", True)  # cards: RRB BRB BBR
    state = swap(state, "centre", 2, "right", False)
    state = mission(laid_out(state, deck="BRR BBR RB"), 0, RED, BLUE)
    return mission(state, 1)


PLAYED = _played()
SWAP_STEP = PLAYED.touches[0].step
NO_SWAP_STEP = PLAYED.touches[1].step


def kinds(leaks: list[Leak]) -> set[tuple[str, int | None]]:
    return {(leak.kind, leak.seat) for leak in leaks}


def both(payload: Any) -> list[Any]:
    return [payload, json.dumps(payload)]


def caught(state: GameState, seat: int | None, payload: Any) -> set[Any]:
    """The leaks found in ``payload``, which must be the same as dict and as JSON."""
    found = [kinds(find_leaks(state, seat, form)) for form in both(payload)]
    assert found[0] == found[1]
    return found[0]


def planted(state: GameState, seat: int | None, plant: Any) -> dict[str, Any]:
    """The seat's own clean view with one extra entry planted in it."""
    seen = copy.deepcopy(view(state, seat))
    seen["touches"].append({"extra": plant})
    return seen


# --- secrets --------------------------------------------------------------------------


def test_during_play_a_seat_may_be_shown_none_of_the_cards_its_own_included() -> None:
    found = secrets(PLAYED, 2)
    assert all(isinstance(secret, Secret) for secret in found)
    cards = {(s.seat, s.note): s.value for s in found if s.kind == "card"}
    assert cards == {
        (seat, slot): PLAYED.cards[3 * seat + index]
        for seat in range(3)
        for index, slot in enumerate(("left", "centre", "right"))
    }
    assert {s.seat for s in found if s.kind == "side"} == {0, 1, 2}
    assert {s.seat for s in found if s.kind == "role"} == {0, 1, 2}
    assert {(s.seat, s.value) for s in found if s.kind == "exchanged"} == {
        (0, True),
        (1, False),
    }
    assert {s.seat for s in found if s.kind == "seen"} == {0, 1}
    assert {(s.seat, s.value) for s in found if s.kind == "hand"} == {
        (0, (BLUE, BLUE, RED))
    }
    assert {(s.seat, s.value) for s in found if s.kind == "discard"} == {
        (2, RED),
        (0, BLUE),
    }
    assert {(s.seat, s.value) for s in found if s.kind == "held"} == {
        (2, (BLUE, RED, RED)),
        (0, (BLUE, RED)),
    }
    (deck,) = [s for s in found if s.kind == "deck"]
    assert deck.seat is None and deck.value == PLAYED.deck


def test_the_holder_may_see_the_hand_and_the_swapper_the_two_cards() -> None:
    assert not [s for s in secrets(PLAYED, 0) if s.kind == "hand"]
    deciding = swap(laid_out(started(3, seed=1), LAYOUT, current=0), "left", 1, "right")
    found = secrets(deciding, 0)
    cards = {(s.seat, s.note) for s in found if s.kind == "card"}
    assert (0, "left") not in cards and (1, "right") not in cards
    assert (0, "centre") in cards and (1, "left") in cards
    assert not [s for s in found if s.kind == "seen"]
    assert [s.seat for s in secrets(deciding, 1) if s.kind == "seen"] == [0]


def test_at_the_first_look_the_own_cards_and_side_may_be_shown() -> None:
    state = laid_out(new_game(3, seed=1), LAYOUT)
    found = secrets(state, 1)
    assert not {s.note for s in found if s.kind == "card" and s.seat == 1}
    assert 1 not in {s.seat for s in found if s.kind in ("side", "role")}
    confirmed = act(state, 1, {"type": "confirm"})
    assert 1 in {s.seat for s in secrets(confirmed, 1) if s.kind == "side"}


def test_after_the_game_only_mission_cards_stay_secret() -> None:
    over = act(PLAYED, 0, {"type": "discard", "card": RED})
    over = act(over, 1, {"type": "discard", "card": BLUE})
    for _ in range(2):
        over = revealing(over, (over.current + 1) % 3, RED)
    assert over.outcome is not None
    for seat in [None, 0, 1, 2]:
        found = {s.kind for s in secrets(over, seat)}
        assert found <= {"discard", "held", "deck"} and "discard" in found


def test_the_replay_perspectives() -> None:
    final = PLAYED  # any later state works as "after"
    review = {s.kind for s in secrets(PLAYED, None, after=final)}
    assert review == {"hand", "held", "discard", "deck"}
    assert secrets(PLAYED, 0, after=final) == secrets(PLAYED, 0)
    watched = secrets(PLAYED, 0, after=final, own=False)
    assert [s for s in watched if s.kind == "hand"] == [
        Secret("hand", 0, (BLUE, BLUE, RED), "mission 2")
    ]


# --- what may be shown passes ---------------------------------------------------------


def test_every_view_is_clean_for_its_own_seat() -> None:
    deciding = swap(laid_out(started(3, seed=1), LAYOUT, current=0), "left", 1, "right")
    peeked = act(deciding, 0, {"type": "exchange", "exchange": True})
    peeked = act(peeked, 1, {"type": "peek", "slot": "right"})
    looking = laid_out(new_game(3, seed=1), LAYOUT)
    passing = act(PLAYED, 0, {"type": "discard", "card": RED})
    for state in (PLAYED, deciding, peeked, looking, passing):
        for seat in [None, 0, 1, 2]:
            assert caught(state, seat, view(state, seat)) == set()


def test_a_false_statement_gives_nothing_away() -> None:
    truth = PLAYED.cards[3]  # seat 1's left
    wrong = RED if truth == BLUE else BLUE
    assert caught(PLAYED, 2, {"seat": 1, "slot": "left", "card": wrong}) == set()
    assert caught(PLAYED, 2, {"seat": 1, "side": "evil"}) == set()  # seat 1 is good
    kept = {"kind": "swap", "step": SWAP_STEP, "exchanged": False}
    assert caught(PLAYED, 2, kept) == set()
    assert caught(PLAYED, 2, {"hand": [RED, RED]}) == set()


def test_public_facts_are_not_leaks() -> None:
    public = {
        "missions": [{"number": 1, "leader": 2, "partner": 0, "card": RED}],
        "deck": {"cards": 4, "discards": 2, "reshuffles": 0},
        "touches": view(PLAYED, None)["touches"],
        "winner": "good",
        "options": {"chat": True},
    }
    assert caught(PLAYED, 2, public) == set()


# --- planted leaks are caught: dicts and JSON -----------------------------------------


def test_planted_cards() -> None:
    truth = PLAYED.cards
    assert ("card", 1) in caught(
        PLAYED, 2, planted(PLAYED, 2, {"seat": 1, "slot": "left", "card": truth[3]})
    )
    layout = {"left": truth[6], "centre": truth[7], "right": truth[8]}
    own = copy.deepcopy(view(PLAYED, 2))
    own["me"]["cards"] = layout  # a reminder of one's own cards
    assert ("card", 2) in caught(PLAYED, 2, own)
    assert ("card", 0) in caught(PLAYED, None, {"seat": "0", "cards": list(truth[:3])})


def test_planted_sides_and_roles() -> None:
    own = copy.deepcopy(view(PLAYED, 1))
    own["me"]["side"] = "good"  # seat 1 holds B R B now
    own["me"]["role"] = "resistance"
    assert caught(PLAYED, 1, own) == {("side", 1), ("role", 1)}
    assert ("side", 0) in caught(
        PLAYED, 2, planted(PLAYED, 2, {"sides": {"0": "evil"}})
    )
    assert ("role", 0) in caught(PLAYED, None, planted(PLAYED, None, {"spy": [0]}))


def test_planted_exchange_decisions() -> None:
    leaked = copy.deepcopy(view(PLAYED, 1))
    leaked["touches"][0]["exchanged"] = True
    leaked["touches"][1]["exchanged"] = False
    assert caught(PLAYED, 1, leaked) == {("exchanged", 0), ("exchanged", 1)}
    assert caught(PLAYED, 0, {"seat": 0, "exchanged": "true"}) == {("exchanged", 0)}


def test_planted_cards_a_move_showed() -> None:
    stale = {
        "kind": "swap",
        "step": SWAP_STEP,
        "mine": {"seat": 0, "slot": "left", "card": BLUE},
        "theirs": {"seat": 1, "slot": "left", "card": RED},
    }
    # The swapper's own two cards, still on show after the decision: whatever
    # colours it states, it reminds them (and the other players never saw them).
    for seat in (0, 1):
        assert ("seen", 0) in caught(PLAYED, seat, planted(PLAYED, seat, stale))
    assert ("seen", 1) in caught(
        PLAYED, 0, {"kind": "swap", "step": NO_SWAP_STEP, "cards": ["red"]}
    )


def test_planted_mission_cards() -> None:
    assert caught(PLAYED, 1, planted(PLAYED, 1, {"hand": [BLUE, RED]})) == {("hand", 0)}
    assert caught(PLAYED, 0, {"number": 1, "drawn": [BLUE, RED, RED]}) == {("held", 2)}
    # Blue and red could be two of the leader's three as well as the partner's two.
    assert caught(PLAYED, 2, {"mission": 1, "passed": "blue red"}) == {
        ("held", 0),
        ("held", 2),
    }
    assert caught(PLAYED, 2, {"number": 1, "discard": "red"}) == {("discard", 2)}
    assert caught(PLAYED, None, {"discards": [BLUE]}) == {("discard", 0)}
    assert caught(PLAYED, 0, {"deck": {"top": PLAYED.deck[0]}}) == {("deck", None)}
    watched = view(PLAYED, 0)
    assert find_leaks(PLAYED, 0, watched) == []
    assert kinds(find_leaks(PLAYED, 0, watched, after=PLAYED, own=False)) == {
        ("hand", 0)
    }


# --- HTML -----------------------------------------------------------------------------


def _html(*rows: str) -> str:
    return "<section><ul>" + "".join(rows) + "</ul><p>footer</p></section>"


@pytest.mark.parametrize(
    ("row", "leak"),
    [
        ('<li data-seat="1" data-slot="left" data-card="{c3}">?</li>', ("card", 1)),
        ('<li data-seat="2" data-cards="{c6} {c7} {c8}"></li>', ("card", 2)),
        ('<li data-seat="0" data-side="evil">x</li>', ("side", 0)),
        ('<li data-seat="0" data-role="spy"/>', ("role", 0)),
        ('<li data-kind="swap" data-step="{swap}" data-exchanged="true"></li>',
         ("exchanged", 0)),
        ('<li data-kind="swap" data-step="{swap}"><b data-card="blue"></b></li>',
         ("seen", 0)),
        ('<div data-hand="blue red"></div>', ("hand", 0)),
        ('<div data-number="1" data-hand="blue red red"></div>', ("held", 2)),
        ('<div data-discard="red"></div>', ("discard", 2)),
        ('<div data-deck="{d0}"></div>', ("deck", None)),
    ],
)  # fmt: skip
def test_html_marks_are_caught(row: str, leak: tuple[str, int | None]) -> None:
    cards = {f"c{i}": colour for i, colour in enumerate(PLAYED.cards)}
    row = row.format(swap=SWAP_STEP, d0=PLAYED.deck[0], **cards)
    assert leak in kinds(find_leaks(PLAYED, 2, _html(row))), row


def test_html_words_in_the_text_of_a_seat() -> None:
    words = {"evil": ["шпионы"], "spy": ["шпион"], RED: ["красная"], BLUE: ["синяя"]}
    page = _html('<li data-seat="0"><span>Оля</span> — Шпион</li>')
    assert ("role", 0) in kinds(find_leaks(PLAYED, 2, page, words))
    colour = "красная" if PLAYED.cards[3] == RED else "синяя"
    page = _html(f'<li data-seat="1" data-slot="left">карта: {colour}</li>')
    assert kinds(find_leaks(PLAYED, 2, page, words)) == {("card", 1)}
    assert find_leaks(PLAYED, 2, _html('<li data-seat="1">Ира</li>'), words) == []


def test_clean_html_passes() -> None:
    rows = [
        f'<li data-kind="swap" data-step="{SWAP_STEP}" data-seat="0" '
        'data-slot="left">Оля ↔ Ира</li>',
        '<li data-seat="2" data-touched="left">отмечена</li>',
        '<li data-number="1" data-card="red">провал</li>',
        '<div data-deck="4" data-discards="2"></div>',
        f'<div data-seat="0" data-hand="{" ".join(sorted(PLAYED.hand))}"></div>',
    ]
    assert find_leaks(PLAYED, 0, _html(*rows)) == []
