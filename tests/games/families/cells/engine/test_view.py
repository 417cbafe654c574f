"""``view()`` of ``cells``: the schema, and what each seat sees at each phase, checked
for presence and for absence.  A card appears in a view only where docs/rules.md §2
allows it; the tests find every colour in a view by walking it, so a card in any other
place fails them."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from games.engine import (
    MODERATOR,
    GameSetup,
    NotSeated,
    legal_actions,
    replay,
    view,
    waiting_for,
)
from games.families.cells.engine import BLUE, RED, GameState, Phase
from tests.games.families.cells.engine.support import (
    act,
    colours,
    confirm_all,
    laid_out,
    mission,
    new_game,
    revealing,
    started,
    swap,
)

TOP_KEYS = {
    "ruleset", "players", "options", "step", "phase", "first", "current",
    "confirmed", "cells", "touches", "mission", "missions", "successes", "failures",
    "deck", "me", "legal", "waiting_for", "outcome", "roles",
}  # fmt: skip
ME_KEYS = {
    "seat", "side", "role", "confirmed", "cards", "touched", "swap", "peek", "hand",
    "channels",
}  # fmt: skip
LAYOUT = "BRB RRB BBR"


def slots(cards: tuple[str, ...]) -> dict[str, str]:
    """One seat's three cards as the view names them."""
    left, centre, right = cards
    return {"left": left, "centre": centre, "right": right}


def _plain_json(value: object) -> bool:
    """Only dict (str keys), list, str, int, bool and None, all the way down."""
    if value is None or type(value) in (str, int, bool):
        return True
    if type(value) is list:
        return all(_plain_json(item) for item in value)
    if type(value) is dict:
        return all(type(k) is str and _plain_json(v) for k, v in value.items())
    return False


def colour_paths(node: Any, path: str = "$") -> dict[str, str]:
    """Every place in a view that names a card colour, and the colour."""
    found: dict[str, str] = {}
    if isinstance(node, dict):
        for key, value in node.items():
            found.update(colour_paths(value, f"{path}.{key}"))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.update(colour_paths(value, f"{path}[{index}]"))
    elif node in (BLUE, RED):
        found[path] = node
    return found


def cards_shown(seen: dict[str, Any]) -> dict[str, str]:
    """The colours in a view outside the public mission record and the legal list
    (where they are mission cards, public or one's own to choose from)."""
    return {
        path: colour
        for path, colour in colour_paths(seen).items()
        if not path.startswith(("$.missions", "$.legal"))
    }


def on_turn(players: int = 3, current: int = 0) -> GameState:
    layout = LAYOUT if players == 3 else "BRB RRB BBR BRB"
    return laid_out(started(players, seed=1), layout, current=current)


def every_phase() -> list[GameState]:
    """One state in each phase, through a whole game."""
    looking = act(new_game(3, seed=1), 0, {"type": "confirm"})
    turn = on_turn()
    exchange = swap(turn, "left", 1, "left")
    leader = mission(laid_out(turn, deck="BRR B"), 1)
    partner = act(leader, 0, {"type": "discard", "card": RED})
    over = turn
    for _ in range(3):
        over = revealing(over, (over.current + 1) % 3, RED)
    return [looking, turn, exchange, leader, partner, over]


# --- the schema -----------------------------------------------------------------------


def test_every_phase_has_every_key_and_plain_json() -> None:
    phases = set()
    for state in every_phase():
        phases.add(state.phase.value)
        for seat in [None, 0, 1, 2]:
            seen = view(state, seat)
            assert set(seen) == TOP_KEYS
            assert _plain_json(seen) and json.loads(json.dumps(seen)) == seen
            assert seen["phase"] == state.phase.value
            assert seen["legal"] == list(legal_actions(state, seat))
            assert seen["waiting_for"] == sorted(waiting_for(state))
            if seat is None:
                assert seen["me"] is None and seen["legal"] == []
            else:
                assert set(seen["me"]) == ME_KEYS and seen["me"]["seat"] == seat
    assert phases == {"look", "turn", "exchange", "leader", "partner", "over"}


@pytest.mark.parametrize("seat", [3, -1, MODERATOR, True, "1"])
def test_view_for_a_seat_that_is_not_at_the_table(seat: object) -> None:
    with pytest.raises(NotSeated):
        view(on_turn(), seat)  # type: ignore[arg-type]


def test_the_table_chat_is_a_channel_when_on() -> None:
    assert view(new_game(3), 0)["me"]["channels"] == ["table"]
    assert view(new_game(3, chat=False), 0)["me"]["channels"] == []
    assert view(new_game(3, chat=False), 0)["options"] == {"chat": False}


# --- the first look -------------------------------------------------------------------


def test_at_the_first_look_each_player_sees_only_their_own_three_cards() -> None:
    state = laid_out(new_game(3, seed=1), LAYOUT)
    expected = [
        ("BRB", "good", "resistance"),
        ("RRB", "evil", "spy"),
        ("BBR", "good", "resistance"),
    ]
    for seat, (cards, side, role) in enumerate(expected):
        me = view(state, seat)["me"]
        assert me["cards"] == slots(colours(cards))
        assert (me["side"], me["role"], me["confirmed"]) == (side, role, False)
        assert set(cards_shown(view(state, seat))) == {
            "$.me.cards.left",
            "$.me.cards.centre",
            "$.me.cards.right",
        }
    assert cards_shown(view(state, None)) == {}


def test_after_confirming_a_player_no_longer_sees_their_cards_or_side() -> None:
    state = act(laid_out(new_game(3, seed=1), LAYOUT), 1, {"type": "confirm"})
    me = view(state, 1)["me"]
    assert (me["cards"], me["side"], me["role"], me["confirmed"]) == (
        None,
        None,
        None,
        True,
    )
    assert cards_shown(view(state, 1)) == {}
    assert view(state, 0)["me"]["cards"] is not None  # still looking
    assert view(state, None)["confirmed"] == [1]
    assert view(state, None)["waiting_for"] == [0, 2]


def test_no_card_is_shown_to_anyone_once_play_has_started() -> None:
    state = on_turn()
    for seat in [None, 0, 1, 2]:
        seen = view(state, seat)
        assert cards_shown(seen) == {}
        assert seen["roles"] is None and seen["outcome"] is None
        if seat is not None:
            assert seen["me"]["side"] is None and seen["me"]["role"] is None


# --- swaps ----------------------------------------------------------------------------


def test_the_swapper_sees_both_cards_until_deciding_and_nobody_else_does() -> None:
    state = swap(on_turn(), "left", 1, "left")
    step = state.step
    assert view(state, 0)["me"]["swap"] == {
        "kind": "swap",
        "step": step,
        "mine": {"seat": 0, "slot": "left", "card": BLUE},
        "theirs": {"seat": 1, "slot": "left", "card": RED},
    }
    assert set(cards_shown(view(state, 0))) == {
        "$.me.swap.mine.card",
        "$.me.swap.theirs.card",
    }
    for seat in [None, 1, 2]:
        seen = view(state, seat)
        assert cards_shown(seen) == {}
        assert seen["me"] is None or seen["me"]["swap"] is None
    public = {
        "step": step,
        "kind": "swap",
        "seat": 0,
        "slot": "left",
        "player": 1,
        "theirs": "left",
        "exchanged": None,
    }
    for seat in [None, 0, 1, 2]:
        assert view(state, seat)["touches"] == [public]


@pytest.mark.parametrize("exchange", [True, False])
def test_after_the_decision_nobody_sees_the_cards_nor_the_decision(
    exchange: bool,
) -> None:
    decision = {"type": "exchange", "exchange": exchange}
    state = act(swap(on_turn(), "left", 1, "left"), 0, decision)
    for seat in [None, 0, 1, 2]:
        seen = view(state, seat)
        assert cards_shown(seen) == {}
        assert seen["touches"][0]["exchanged"] is None
        assert seen["me"] is None or seen["me"]["swap"] is None


def test_touched_marks_are_public_and_the_holders_own() -> None:
    state = swap(on_turn(), "centre", 2, "right", False)
    for seat in [None, 0, 1, 2]:
        cells = view(state, seat)["cells"]
        assert [cell["touched"] for cell in cells] == [[], [], ["right"]]
        assert all(cell["cards"] is None for cell in cells)
    assert view(state, 2)["me"]["touched"] == ["right"]
    assert view(state, 0)["me"]["touched"] == []


# --- peeks ----------------------------------------------------------------------------


def test_a_peeked_card_is_shown_to_the_peeker_until_the_next_move() -> None:
    state = swap(on_turn(), "left", 1, "right", True)  # seat 1's right is now blue
    state = act(state, 1, {"type": "peek", "slot": "right"})
    assert view(state, 1)["me"]["peek"] == {
        "kind": "peek",
        "step": state.step,
        "seat": 1,
        "slot": "right",
        "card": BLUE,
    }
    assert set(cards_shown(view(state, 1))) == {"$.me.peek.card"}
    for seat in [None, 0, 2]:
        assert cards_shown(view(state, seat)) == {}
    assert view(state, None)["touches"][-1] == {
        "step": state.step,
        "kind": "peek",
        "seat": 1,
        "slot": "right",
        "player": None,
        "theirs": None,
        "exchanged": None,
    }
    later = mission(laid_out(state, deck="BBB"), 0)  # seat 2 plays: the next move
    assert view(later, 1)["me"]["peek"] is None
    assert cards_shown(view(later, 1)) == {}


# --- missions -------------------------------------------------------------------------


def test_mission_cards_are_seen_by_the_one_deciding_only() -> None:
    leading = mission(laid_out(on_turn(), deck="RBR B"), 1)
    assert view(leading, 0)["me"]["hand"] == [BLUE, RED, RED]  # sorted
    assert set(cards_shown(view(leading, 0))) == {
        "$.me.hand[0]",
        "$.me.hand[1]",
        "$.me.hand[2]",
    }
    for seat in [None, 1, 2]:
        assert cards_shown(view(leading, seat)) == {}
    assert view(leading, None)["mission"] == {
        "number": 1,
        "step": leading.step,
        "leader": 0,
        "partner": 1,
        "stage": "leader",
    }
    passing = act(leading, 0, {"type": "discard", "card": RED})
    assert view(passing, 1)["me"]["hand"] == [BLUE, RED]
    for seat in [None, 0, 2]:
        assert cards_shown(view(passing, seat)) == {}
    assert view(passing, None)["mission"]["stage"] == "partner"
    done = act(passing, 1, {"type": "discard", "card": BLUE})
    for seat in [None, 0, 1, 2]:
        seen = view(done, seat)
        assert cards_shown(seen) == {}
        assert seen["mission"] is None
        assert seen["missions"] == [
            {
                "number": 1,
                "step": leading.step,
                "leader": 0,
                "partner": 1,
                "card": RED,
                "result": "fail",
            },
        ]
        assert (seen["successes"], seen["failures"]) == (0, 1)
        assert seen["deck"] == {"cards": 1, "discards": 2, "reshuffles": 0}


# --- after the game -------------------------------------------------------------------


def test_after_the_game_every_character_card_is_turned_up_for_everyone() -> None:
    state = swap(on_turn(), "right", 1, "left", True)
    for _ in range(3):
        state = revealing(state, (state.current + 1) % 3, RED)
    layout = colours("BRR BRB BBR")
    for seat in [None, 0, 1, 2]:
        seen = view(state, seat)
        assert [list(cell["cards"].values()) for cell in seen["cells"]] == [
            list(layout[i : i + 3]) for i in (0, 3, 6)
        ]
        assert seen["touches"][0]["exchanged"] is True
        assert seen["roles"] == [
            {"seat": 0, "side": "evil", "role": "spy"},
            {"seat": 1, "side": "good", "role": "resistance"},
            {"seat": 2, "side": "good", "role": "resistance"},
        ]
        assert seen["outcome"] == {"winner": "evil", "reason": "three_failures"}
        assert seen["deck"]["cards"] >= 0 and "discard" not in json.dumps(
            seen["missions"]
        )
        if seat is not None:
            assert seen["me"]["side"] == seen["roles"][seat]["side"]
            assert seen["me"]["hand"] is None


# --- states a seat cannot tell apart --------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_whether_a_swap_exchanged_cannot_be_told_by_anyone(players: int) -> None:
    state = swap(on_turn(players), "left", 1, "left")  # a blue for a red
    kept = act(state, 0, {"type": "exchange", "exchange": False})
    traded = act(state, 0, {"type": "exchange", "exchange": True})
    assert kept.cards != traded.cards
    for seat in [None, *range(players)]:
        assert view(kept, seat) == view(traded, seat)
    # A peek at the touched card shows it to the peeker alone.
    kept, traded = (act(s, 1, {"type": "peek", "slot": "left"}) for s in (kept, traded))
    assert view(kept, 1) != view(traded, 1)
    for seat in [None, *(s for s in range(players) if s != 1)]:
        assert view(kept, seat) == view(traded, seat)


def test_what_the_swapper_saw_cannot_be_told_by_the_others() -> None:
    state = on_turn()
    other = laid_out(state, "RRB BRB BBR")  # seats 0 and 1 trade their left cards
    a, b = (swap(s, "left", 1, "left") for s in (state, other))
    assert view(a, 0) != view(b, 0)
    for seat in [None, 1, 2]:
        assert view(a, seat) == view(b, seat)


def test_the_discards_cannot_be_told_once_the_mission_is_done() -> None:
    first = mission(laid_out(on_turn(), deck="RRB B"), 1, RED, RED)
    second = mission(laid_out(on_turn(), deck="BRB B"), 1, BLUE, RED)
    assert first.missions[0].card == second.missions[0].card == BLUE
    assert first.discards != second.discards
    for seat in [None, 0, 1, 2]:
        assert view(first, seat) == view(second, seat)


def test_nobody_can_tell_the_undrawn_deck() -> None:
    state = on_turn()
    other = dataclasses.replace(state, deck=tuple(reversed(state.deck)))
    for seat in [None, 0, 1, 2]:
        assert view(state, seat) == view(other, seat)


# --- replays --------------------------------------------------------------------------


def _game() -> tuple[GameSetup, list[GameState]]:
    """A short game played through the API; every state on the way."""
    game = GameSetup("cells", 3, {}, seed=1)
    state = replay(game, [])
    states = [state]
    state = confirm_all(state)
    states.append(state)
    moves: list[tuple[int, dict[str, Any]]] = []
    first = state.current
    other = (first + 1) % 3
    moves.append(
        (first, {"type": "swap", "mine": "centre", "player": other, "theirs": "left"})
    )
    moves.append((first, {"type": "exchange", "exchange": True}))
    for seat, action in moves:
        state = act(state, seat, action)
        states.append(state)
    while state.outcome is None:
        leader = state.current
        partner = (leader + 1) % 3
        state = act(state, leader, {"type": "mission", "partner": partner})
        states.append(state)
        state = act(state, leader, {"type": "discard", "card": state.hand[0]})
        states.append(state)
        state = act(state, partner, {"type": "discard", "card": state.hand[0]})
        states.append(state)
    return game, states


def test_a_player_replay_shows_exactly_what_the_player_saw() -> None:
    _, states = _game()
    final = states[-1]
    for state in states:
        for seat in range(3):
            assert view(state, seat, after=final) == view(state, seat)
            hidden = view(state, seat, after=final, own=False)
            assert hidden["me"]["hand"] is None
            assert {k: v for k, v in hidden["me"].items() if k != "hand"} == {
                k: v for k, v in view(state, seat)["me"].items() if k != "hand"
            }


def test_someone_elses_replay_shows_neither_the_hand_nor_its_colours() -> None:
    """Watched by anyone else after the game, a leader or partner deciding shows
    nothing of their mission cards: not the hand, not the colours they could
    discard. Two steps that differ only in the hand look the same."""
    _, states = _game()
    final = states[-1]
    deciding = [s for s in states if s.phase in (Phase.LEADER, Phase.PARTNER)]
    assert deciding
    for state in deciding:
        holder = state.mission.leader if state.phase is Phase.LEADER else (
            state.mission.partner
        )  # fmt: skip
        watched = view(state, holder, after=final, own=False)
        assert watched["me"]["hand"] is None
        assert watched["legal"] == [{"type": "discard", "cards": []}]
        for hand in ((BLUE,) * len(state.hand), (RED,) * len(state.hand)):
            other = dataclasses.replace(state, hand=hand)
            assert view(other, holder, after=final, own=False) == watched
        # The player themself still sees the hand they decided on.
        assert view(state, holder, after=final)["me"]["hand"] == sorted(state.hand)


def test_the_review_turns_every_card_up_at_every_step() -> None:
    _, states = _game()
    final = states[-1]
    for state in states:
        review = view(state, None, after=final)
        assert [cell["cards"] for cell in review["cells"]] == [
            slots(state.cards[3 * s : 3 * s + 3]) for s in range(3)
        ]
        assert [t["exchanged"] for t in review["touches"]] == [
            t.exchanged for t in state.touches
        ]
        assert review["roles"] == view(final, None)["roles"]
        assert not {
            path
            for path in colour_paths(review)
            if not path.startswith(("$.missions", "$.cells"))
        }
