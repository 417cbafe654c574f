"""The course of a ``cells`` game (docs/rules.md §2): the first look, swaps, peeks,
missions, the reshuffle, the end and its winners, and the turn counter."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import (
    apply,
    final_roles,
    legal_actions,
    outcome,
    turn,
    waiting_for,
)
from games.families.cells.engine import BLUE, RED, GameState, Phase
from games.families.cells.engine.rules import reshuffled
from tests.games.families.cells.engine.support import (
    act,
    colours,
    laid_out,
    mission,
    new_game,
    peek,
    revealing,
    started,
    swap,
)

LAYOUT = "BRB RRB BBR"
"""Three players, four red cards: seat 1 is the one spy (two reds)."""


def table(players: int = 3, cards: str = LAYOUT, current: int = 0) -> GameState:
    """Play has started, with these cards and this player on turn."""
    if players == 4 and cards == LAYOUT:
        cards = "BRB RRB BBR BRB"
    return laid_out(started(players, seed=1), cards, current=current)


# --- the first look -------------------------------------------------------------------


def test_play_starts_once_every_player_has_confirmed() -> None:
    state = new_game(4, seed=3)
    first = state.table.first
    for count, seat in enumerate((2, 0, 3), start=1):
        state, events = apply(state, seat, {"type": "confirm"})
        assert [(e.kind, dict(e.data)) for e in events] == [
            ("confirmed", {"seat": seat})
        ]
        assert state.phase is Phase.LOOK and state.step == count
        assert waiting_for(state) == {s for s in range(4) if not state.confirmed[s]}
        assert turn(state) == 0  # the others are still asked the same thing
    state, events = apply(state, 1, {"type": "confirm"})
    assert [e.kind for e in events] == ["confirmed", "play_started"]
    assert events[1].data == {"current": first}
    assert state.phase is Phase.TURN and state.current == first
    assert waiting_for(state) == {first}
    assert turn(state) == 4


def test_during_the_look_only_unconfirmed_players_have_a_move() -> None:
    state = act(new_game(3, seed=2), 1, {"type": "confirm"})
    assert legal_actions(state, 1) == ()
    assert legal_actions(state, 0) == ({"type": "confirm"},)
    assert legal_actions(state, 2) == ({"type": "confirm"},)


# --- turn order -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_turns_go_to_the_next_seat(players: int) -> None:
    state = table(players, current=players - 1)
    seen = []
    for _ in range(players + 1):
        seen.append(state.current)
        state = swap(state, "left", (state.current + 1) % players, "right", False)
    assert seen == [players - 1, *range(players)]


def test_a_turn_offers_swap_mission_and_peek_only_when_something_was_touched() -> None:
    state = table()
    moves = legal_actions(state, 0)
    assert moves == (
        {
            "type": "swap",
            "mine": ["left", "centre", "right"],
            "among": [1, 2],
            "theirs": ["left", "right"],
        },
        {"type": "mission", "among": [1, 2]},
    )
    assert legal_actions(state, 1) == legal_actions(state, 2) == ()
    touched = swap(state, "left", 1, "right", True)
    assert [m["type"] for m in legal_actions(touched, 1)] == ["swap", "mission", "peek"]
    assert legal_actions(touched, 1)[2] == {"type": "peek", "slots": ["right"]}


# --- swaps ----------------------------------------------------------------------------


def test_a_swap_shows_both_cards_then_the_swapper_decides() -> None:
    state = table()
    state, events = apply(
        state, 0, {"type": "swap", "mine": "left", "player": 1, "theirs": "left"}
    )
    assert state.phase is Phase.EXCHANGE and state.current == 0
    assert waiting_for(state) == {0}
    assert legal_actions(state, 0) == ({"type": "exchange", "choices": [True, False]},)
    assert [(e.kind, dict(e.data), e.visible_to) for e in events] == [
        ("swapped", {"seat": 0, "mine": "left", "player": 1, "theirs": "left"}, None)
    ]
    touch = state.touches[-1]
    assert (touch.kind, touch.seat, touch.slot, touch.other, touch.other_slot) == (
        "swap",
        0,
        0,
        1,
        0,
    )
    assert touch.exchanged is None and touch.seen == (BLUE, RED)
    assert state.cards == colours(LAYOUT)  # nothing moved yet


def test_exchanging_moves_the_two_cards() -> None:
    state = swap(table(), "left", 1, "left", True)
    assert state.cards == colours("RRB BRB BBR")
    assert state.touches[-1].exchanged is True
    assert state.phase is Phase.TURN and state.current == 1


def test_not_exchanging_leaves_every_card_where_it_was() -> None:
    state, events = apply(
        swap(table(), "centre", 2, "right"), 0, {"type": "exchange", "exchange": False}
    )
    assert state.cards == colours(LAYOUT)
    assert state.touches[-1].exchanged is False
    assert [(e.kind, dict(e.data)) for e in events] == [
        ("swap_decided", {"seat": 0}),
        ("turn_passed", {"current": 1}),
    ]


def test_a_swap_can_change_both_players_sides() -> None:
    state = table()
    assert [side for _, side in final_roles(state)] == ["good", "evil", "good"]
    state = swap(state, "right", 1, "left", True)  # seat 0's blue for seat 1's red
    assert state.cards == colours("BRR BRB BBR")
    assert [side for _, side in final_roles(state)] == ["evil", "good", "good"]


@pytest.mark.parametrize("exchange", [True, False])
def test_the_other_players_slot_is_marked_touched_exchanged_or_not(
    exchange: bool,
) -> None:
    state = swap(table(), "centre", 2, "left", exchange)
    assert state.touched == (False,) * 6 + (True, False, False)


def test_the_swappers_own_slot_is_seen_so_no_longer_touched() -> None:
    state = swap(table(), "left", 1, "right", False)  # seat 1's right touched
    assert state.touched[5]
    state = swap(state, "right", 2, "left", True)  # seat 1 takes that card in hand
    assert not state.touched[5]
    assert state.touched[6]


# --- peeks ----------------------------------------------------------------------------


def test_a_peek_looks_at_a_touched_slot_and_costs_the_turn() -> None:
    state = swap(table(), "left", 1, "right", True)
    state, events = apply(state, 1, {"type": "peek", "slot": "right"})
    assert [(e.kind, dict(e.data), e.visible_to) for e in events] == [
        ("peeked", {"seat": 1, "slot": "right"}, None),  # public: who, which slot
        ("turn_passed", {"current": 2}, None),
    ]
    assert not state.touched[5]
    touch = state.touches[-1]
    assert (touch.kind, touch.seat, touch.slot, touch.seen) == ("peek", 1, 2, (BLUE,))
    assert state.current == 2 and state.phase is Phase.TURN


def test_a_slot_touched_without_an_exchange_may_be_peeked_too() -> None:
    state = swap(table(), "left", 1, "left", False)
    state = peek(state, "left")
    assert state.touches[-1].kind == "peek"


def test_with_several_touched_slots_the_player_chooses() -> None:
    state = swap(table(current=0), "left", 2, "left", False)
    state = swap(state, "left", 2, "right", True)
    assert legal_actions(state, 2)[2] == {"type": "peek", "slots": ["left", "right"]}
    state = peek(state, "right")
    assert state.touched[6] and not state.touched[8]


def test_a_slot_touched_twice_is_peeked_once() -> None:
    state = swap(table(current=0), "left", 2, "left", True)
    state = swap(state, "left", 2, "left", True)  # seat 1 touches it again
    state = peek(state, "left")
    assert not any(state.touched)
    assert not any(spec["type"] == "peek" for spec in legal_actions(state, 0))


# --- missions -------------------------------------------------------------------------


def test_a_mission_step_by_step() -> None:
    state = laid_out(table(current=2), deck="BRR BRBRB")
    state, events = apply(state, 2, {"type": "mission", "partner": 0})
    assert [(e.kind, dict(e.data)) for e in events] == [
        ("mission_started", {"number": 1, "leader": 2, "partner": 0})
    ]
    assert state.phase is Phase.LEADER and waiting_for(state) == {2}
    assert state.hand == colours("BRR") and state.deck == colours("BRBRB")
    assert legal_actions(state, 2) == ({"type": "discard", "cards": ["blue", "red"]},)
    assert legal_actions(state, 0) == ()

    state, events = apply(state, 2, {"type": "discard", "card": "red"})
    assert [(e.kind, dict(e.data)) for e in events] == [
        ("cards_passed", {"number": 1, "leader": 2, "partner": 0})
    ]
    assert state.phase is Phase.PARTNER and waiting_for(state) == {0}
    assert state.hand == colours("BR") and state.discards == (RED,)
    assert legal_actions(state, 0) == ({"type": "discard", "cards": ["blue", "red"]},)

    state, events = apply(state, 0, {"type": "discard", "card": "blue"})
    assert [(e.kind, dict(e.data)) for e in events] == [
        (
            "mission_done",
            {"number": 1, "leader": 2, "partner": 0, "card": "red", "success": False},
        ),
        ("turn_passed", {"current": 0}),  # the leader's turn is over: seat 2 + 1
    ]
    assert (state.successes, state.failures) == (0, 1)
    assert state.discards == (RED, BLUE) and state.hand == ()
    (record,) = state.missions
    assert (record.leader, record.partner, record.card) == (2, 0, RED)
    assert (record.drawn, record.leader_discard, record.partner_discard) == (
        colours("BRR"),
        RED,
        BLUE,
    )
    assert state.mission is None and state.phase is Phase.TURN


def test_a_blue_revealed_card_is_a_success() -> None:
    state = revealing(table(), 1, BLUE)
    assert (state.successes, state.failures) == (1, 0)
    assert state.missions[-1].card == BLUE


def test_a_hand_of_one_colour_can_discard_only_that_colour() -> None:
    state = mission(laid_out(table(), deck="BBB R"), 1)
    assert legal_actions(state, 0) == ({"type": "discard", "cards": ["blue"]},)


def test_the_partner_chooses_which_passed_card_is_revealed() -> None:
    for kept in (BLUE, RED):
        discard = RED if kept == BLUE else BLUE
        state = mission(laid_out(table(), deck="BRR"), 2, RED, discard)
        assert state.missions[-1].card == kept


# --- the mission deck and its reshuffle -----------------------------------------------


def test_fewer_than_three_cards_are_reshuffled_with_the_discards_before_a_draw() -> (
    None
):
    state = laid_out(table(), deck="RB", discards="BBRRR")
    state, events = apply(state, 0, {"type": "mission", "partner": 1})
    assert [e.kind for e in events] == ["mission_started", "deck_reshuffled"]
    assert events[1].data == {"deck": 7, "reshuffles": 1}
    new_deck = reshuffled(state.table.setup.seed, 1, colours("RBBBRRR"))
    assert Counter(new_deck) == {BLUE: 3, RED: 4}
    assert state.hand == new_deck[:3] and state.deck == new_deck[3:]
    assert state.discards == () and state.reshuffles == 1
    assert state.mission is not None and state.mission.reshuffled


def test_three_cards_left_are_drawn_without_a_reshuffle() -> None:
    state = mission(laid_out(table(), deck="BRB", discards="RR"), 1)
    assert state.deck == () and state.reshuffles == 0
    assert state.discards == colours("RR")
    assert state.mission is not None and not state.mission.reshuffled


def test_the_reshuffle_waits_for_the_next_draw() -> None:
    state = mission(laid_out(table(), deck="BRBRB"), 1, RED, BLUE)
    assert len(state.deck) == 2 and state.reshuffles == 0
    state = swap(state, "left", 2, "left", False)
    assert len(state.deck) == 2 and state.reshuffles == 0
    state = mission(state, 0)  # two left and two discards: four in the new deck
    assert state.reshuffles == 1
    assert (len(state.hand), len(state.deck), state.discards) == (3, 1, ())


def test_revealed_mission_cards_stay_out_of_the_new_deck() -> None:
    state = laid_out(table(), deck="BRB RBR BRB R")
    state = mission(state, 1, RED, BLUE)  # BRB: reveals blue
    state = mission(state, 2, BLUE, RED)  # RBR: reveals red
    state = mission(state, 0, RED, BLUE)  # BRB: reveals blue
    assert [record.card for record in state.missions] == [BLUE, RED, BLUE]
    assert len(state.deck) == 1 and Counter(state.discards) == {BLUE: 3, RED: 3}
    state = mission(state, 1)
    assert state.reshuffles == 1
    pool = Counter(state.deck) + Counter(state.hand)
    assert pool == {BLUE: 3, RED: 4}  # the deck's red and the six discards
    assert pool + Counter([BLUE, RED, BLUE]) == {BLUE: 5, RED: 5}


def test_the_reshuffle_depends_on_the_seed_and_the_cards_not_their_order() -> None:
    cards = colours("BBRRRBR")
    assert reshuffled(1, 1, cards) == reshuffled(1, 1, tuple(reversed(cards)))
    assert len({reshuffled(seed, 1, cards) for seed in range(30)}) > 10
    assert len({reshuffled(5, number, cards) for number in range(1, 30)}) > 10


# --- the end --------------------------------------------------------------------------


def test_three_successes_end_the_game_at_once_for_the_blue_majorities() -> None:
    state = table()
    for _ in range(2):
        state = revealing(state, (state.current + 1) % 3, BLUE)
    state = revealing(state, (state.current + 2) % 3, RED)
    assert state.outcome is None
    leader = state.current
    state, events = apply(
        mission(laid_out(state, deck="BBB"), (leader + 1) % 3, BLUE),
        (leader + 1) % 3,
        {"type": "discard", "card": BLUE},
    )
    result = outcome(state)
    assert result is not None
    assert (result.winner, result.reason) == ("good", "three_successes")
    assert state.phase is Phase.OVER
    assert waiting_for(state) == frozenset()
    assert all(legal_actions(state, seat) == () for seat in range(3))
    assert [e.kind for e in events] == ["mission_done", "game_over"]
    over = events[-1].data
    assert over["winner"] == "good" and over["reason"] == "three_successes"
    assert over["roles"] == [
        {"seat": 0, "side": "good", "role": "resistance"},
        {"seat": 1, "side": "evil", "role": "spy"},
        {"seat": 2, "side": "good", "role": "resistance"},
    ]
    assert over["cells"][1] == {
        "seat": 1,
        "cards": {"left": "red", "centre": "red", "right": "blue"},
    }


def test_three_failures_end_the_game_for_the_red_majorities() -> None:
    state = table()
    state = revealing(state, 1, BLUE)
    state = revealing(state, 2, BLUE)
    for _ in range(3):
        state = revealing(state, (state.current + 1) % 3, RED)
    result = outcome(state)
    assert result is not None and result.winner == "evil"
    assert result.reason == "three_failures"
    assert (state.successes, state.failures) == (2, 3)


def test_the_winners_are_judged_by_the_cards_at_the_end() -> None:
    state = table()
    # Seat 0 takes seat 1's left red card for its left blue one: both sides flip.
    state = swap(state, "right", 1, "left", True)
    assert state.cards == colours("BRR BRB BBR")
    assert [r for r, _ in final_roles(state)] == ["spy", "resistance", "resistance"]
    for _ in range(3):
        state = revealing(state, (state.current + 1) % 3, RED)
    assert outcome(state).winner == "evil"  # type: ignore[union-attr]
    assert final_roles(state)[0] == ("spy", "evil")


def test_the_game_over_event_lists_every_swap_decision() -> None:
    state = table()
    steps = (state.step + 1, state.step + 3)  # the swaps; the decisions follow
    state = swap(state, "left", 1, "left", True)
    state = swap(state, "left", 2, "right", False)
    state = peek(state, "right")
    for _ in range(2):
        state = revealing(state, (state.current + 1) % 3, RED)
    leader = state.current
    state = mission(laid_out(state, deck="RRR"), (leader + 1) % 3, RED)
    _, events = apply(state, (leader + 1) % 3, {"type": "discard", "card": RED})
    assert events[-1].data["exchanges"] == [
        {"step": steps[0], "seat": 0, "exchanged": True},
        {"step": steps[1], "seat": 1, "exchanged": False},
    ]


# --- the turn counter -----------------------------------------------------------------


def test_every_move_after_the_look_starts_a_new_decision() -> None:
    """A swap's exchange decision is a decision of its own: the swapper must have
    seen the two cards (shown from the swap's step on) to make it."""
    state = table()
    base = state.step
    for move in (
        lambda s: swap(s, "left", 1, "left"),
        lambda s: act(s, 0, {"type": "exchange", "exchange": False}),
        lambda s: mission(laid_out(s, deck="BRB"), 2),
        lambda s: act(s, 1, {"type": "discard", "card": "red"}),
        lambda s: act(s, 2, {"type": "discard", "card": "blue"}),
        lambda s: peek(swap(s, "left", 0, "left", True), "left"),
    ):
        state = move(state)
        assert turn(state) == state.step > base
        base = state.step


def test_no_event_names_a_character_card_before_the_end() -> None:
    state = table()
    events = []
    for step in (
        lambda s: apply(
            s, 0, {"type": "swap", "mine": "left", "player": 1, "theirs": "left"}
        ),
        lambda s: apply(s, 0, {"type": "exchange", "exchange": True}),
        lambda s: apply(s, 1, {"type": "peek", "slot": "left"}),
    ):
        state, new_events = step(state)
        events += new_events
    for event in events:
        assert event.visible_to is None
        text = repr(dict(event.data))
        assert "blue" not in text and "red" not in text and "exchanged" not in text
