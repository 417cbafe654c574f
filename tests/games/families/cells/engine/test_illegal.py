"""Every move the rules of ``cells`` refuse: its own error class with a stable code, a
message a player can read, and the state left exactly as it was."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine import (
    MODERATOR,
    BadTarget,
    GameIsOver,
    GameSetup,
    IllegalAction,
    MalformedAction,
    NotSeated,
    WrongPhase,
    apply,
    parse_action,
    replay,
)
from games.families.cells.engine import (
    AlreadyConfirmed,
    CardNotHeld,
    GameState,
    NoSwapPending,
    NotStarted,
    NotYourTurn,
    Peek,
    ProtectedCentre,
    SelfPartner,
    Swap,
    SwapWithYourself,
    UntouchedSlot,
)
from tests.games.families.cells.engine.support import (
    act,
    laid_out,
    mission,
    new_game,
    revealing,
    started,
    swap,
)

ALL_ERRORS: dict[str, type[IllegalAction]] = {
    "not_started": NotStarted,
    "already_confirmed": AlreadyConfirmed,
    "not_your_turn": NotYourTurn,
    "no_swap_pending": NoSwapPending,
    "protected_centre": ProtectedCentre,
    "swap_with_yourself": SwapWithYourself,
    "untouched_slot": UntouchedSlot,
    "self_partner": SelfPartner,
    "card_not_held": CardNotHeld,
    "wrong_phase": WrongPhase,
    "game_over": GameIsOver,
    "malformed": MalformedAction,
    "bad_target": BadTarget,
    "not_seated": NotSeated,
}

MOVES: list[dict[str, Any]] = [
    {"type": "swap", "mine": "left", "player": 1, "theirs": "right"},
    {"type": "exchange", "exchange": True},
    {"type": "mission", "partner": 1},
    {"type": "peek", "slot": "left"},
    {"type": "discard", "card": "red"},
]
"""One well-formed move of each kind but the confirmation (made by seat 0)."""


def refused(
    state: GameState, seat: Any, action: Any, error: type[IllegalAction]
) -> IllegalAction:
    """Apply a move that must be refused with exactly ``error``; check that nothing
    changed and that the message is a sentence built from its template, naming no
    card."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, seat, action)
    exc = caught.value
    assert type(exc) is error, f"{type(exc).__name__}: {exc}"
    assert exc.code == error.code
    message = str(exc)
    assert message == exc.template % exc.params
    assert message[:1].isupper() and message.endswith("."), message
    assert "blue" not in message and "red" not in message
    assert exc.to_dict()["code"] == error.code
    assert state == before
    return exc


def on_turn(current: int = 0) -> GameState:
    """Play has started; seat ``current`` is on turn; seat 0 holds "BRB"."""
    return laid_out(started(3, seed=1), "BRB RRB BBR", current=current)


def test_each_code_is_its_own_class() -> None:
    assert len(set(ALL_ERRORS.values())) == len(ALL_ERRORS)
    for code, cls in ALL_ERRORS.items():
        assert cls.code == code
        assert issubclass(cls, IllegalAction)
    assert issubclass(NotStarted, WrongPhase) and issubclass(NoSwapPending, WrongPhase)
    assert issubclass(BadTarget, MalformedAction)


# --- before play starts ---------------------------------------------------------------


@pytest.mark.parametrize("action", MOVES, ids=lambda a: a["type"])
def test_no_move_before_everyone_has_confirmed(action: dict[str, Any]) -> None:
    state = new_game(3, seed=1)
    first = state.table.first
    refused(state, first, action, NotStarted)
    state = act(act(state, 0, {"type": "confirm"}), 1, {"type": "confirm"})
    refused(state, first, action, NotStarted)
    refused(state, 0, action, NotStarted)


def test_a_second_confirmation_is_refused() -> None:
    state = act(new_game(3, seed=1), 0, {"type": "confirm"})
    refused(state, 0, {"type": "confirm"}, AlreadyConfirmed)
    refused(on_turn(), 1, {"type": "confirm"}, AlreadyConfirmed)


# --- out of turn ----------------------------------------------------------------------


@pytest.mark.parametrize("action", [MOVES[0], MOVES[2], MOVES[3]], ids=str)
def test_turn_moves_by_anyone_but_the_current_player(action: dict[str, Any]) -> None:
    state = on_turn(current=2)
    for seat in (0, 1):
        refused(state, seat, action, NotYourTurn)


def test_an_exchange_decision_by_anyone_but_the_swapper() -> None:
    state = swap(on_turn(), "left", 1, "left")
    for seat in (1, 2):
        refused(state, seat, {"type": "exchange", "exchange": False}, NotYourTurn)


def test_discards_by_anyone_but_the_one_deciding() -> None:
    state = mission(laid_out(on_turn(), deck="BRR"), 1)
    for seat in (1, 2):  # the partner has nothing yet, the third player never
        refused(state, seat, {"type": "discard", "card": "red"}, NotYourTurn)
    state = act(state, 0, {"type": "discard", "card": "red"})
    for seat in (0, 2):
        refused(state, seat, {"type": "discard", "card": "red"}, NotYourTurn)


# --- swaps ----------------------------------------------------------------------------


def test_the_centre_card_is_protected() -> None:
    exc = refused(
        on_turn(),
        0,
        {"type": "swap", "mine": "left", "player": 1, "theirs": "centre"},
        ProtectedCentre,
    )
    assert str(exc) == (
        "The centre card is protected: you can take only another player's left or "
        "right card."
    )


def test_a_swap_of_your_own_two_cards() -> None:
    refused(
        on_turn(),
        0,
        {"type": "swap", "mine": "left", "player": 0, "theirs": "right"},
        SwapWithYourself,
    )


@pytest.mark.parametrize("player", [3, 7, -1])
def test_a_swap_with_a_seat_that_does_not_exist(player: int) -> None:
    exc = refused(
        on_turn(),
        0,
        {"type": "swap", "mine": "left", "player": player, "theirs": "right"},
        BadTarget,
    )
    assert exc.params == {"target": player}


def test_a_swap_while_another_decision_is_pending() -> None:
    pending = swap(on_turn(), "left", 1, "left")
    refused(pending, 0, MOVES[0], WrongPhase)
    refused(pending, 0, MOVES[2], WrongPhase)


def test_an_exchange_when_no_swap_is_pending() -> None:
    refused(on_turn(), 0, {"type": "exchange", "exchange": True}, NoSwapPending)
    leading = mission(laid_out(on_turn(), deck="BRR"), 1)
    refused(leading, 0, {"type": "exchange", "exchange": True}, NoSwapPending)


# --- peeks ----------------------------------------------------------------------------


@pytest.mark.parametrize("slot", ["left", "centre", "right"])
def test_a_peek_at_an_untouched_slot(slot: str) -> None:
    refused(on_turn(), 0, {"type": "peek", "slot": slot}, UntouchedSlot)


def test_a_peek_at_a_slot_no_longer_touched() -> None:
    state = swap(on_turn(), "left", 1, "right", True)
    state = act(state, 1, {"type": "peek", "slot": "right"})
    state = swap(state, "left", 0, "left", False)  # seat 2 touches seat 0's left
    state = act(state, 0, {"type": "peek", "slot": "left"})
    state = laid_out(state, current=1)
    refused(state, 1, {"type": "peek", "slot": "right"}, UntouchedSlot)
    refused(state, 1, {"type": "peek", "slot": "left"}, UntouchedSlot)


# --- missions -------------------------------------------------------------------------


def test_a_mission_with_yourself() -> None:
    refused(on_turn(), 0, {"type": "mission", "partner": 0}, SelfPartner)


def test_a_mission_with_a_seat_that_does_not_exist() -> None:
    refused(on_turn(), 0, {"type": "mission", "partner": 3}, BadTarget)


def test_a_discard_you_do_not_hold() -> None:
    state = mission(laid_out(on_turn(), deck="BBB R"), 1)
    refused(state, 0, {"type": "discard", "card": "red"}, CardNotHeld)
    state = mission(laid_out(on_turn(), deck="BRR"), 1, "blue")
    refused(state, 1, {"type": "discard", "card": "blue"}, CardNotHeld)


def test_a_discard_with_no_mission_under_way() -> None:
    refused(on_turn(), 0, {"type": "discard", "card": "red"}, WrongPhase)


# --- after the end --------------------------------------------------------------------


def test_nothing_after_the_end() -> None:
    state = on_turn()
    for _ in range(3):
        state = revealing(state, (state.current + 1) % 3, "red")
    assert state.outcome is not None
    for seat in range(3):
        for action in [{"type": "confirm"}, *MOVES]:
            refused(state, seat, action, GameIsOver)


# --- malformed moves and seats --------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        None,
        "swap",
        [],
        {},
        {"type": "pass"},
        {"type": 3},
        {"type": "confirm", "now": True},
        {"type": "swap", "mine": "left", "player": 1},
        {"type": "swap", "mine": "middle", "player": 1, "theirs": "left"},
        {"type": "swap", "mine": "left", "player": True, "theirs": "left"},
        {"type": "swap", "mine": "left", "player": "1", "theirs": "left"},
        {"type": "swap", "mine": 0, "player": 1, "theirs": "left"},
        {"type": "swap", "mine": "left", "player": 1, "theirs": "left", "x": 1},
        {"type": "exchange", "exchange": 1},
        {"type": "exchange"},
        {"type": "mission", "partner": 1.0},
        {"type": "mission", "partner": None},
        {"type": "peek", "slot": "LEFT"},
        {"type": "peek"},
        {"type": "discard", "card": "green"},
        {"type": "discard", "card": ["red"]},
        {"type": "discard", "cards": "red"},
    ],
    ids=repr,
)
def test_malformed_actions(action: object) -> None:
    refused(on_turn(), 0, action, MalformedAction)


@pytest.mark.parametrize("seat", [3, -1, MODERATOR, None, True, "0"])
def test_a_seat_that_is_not_at_the_table(seat: object) -> None:
    refused(on_turn(), seat, {"type": "mission", "partner": 1}, NotSeated)


def test_action_objects_are_checked_like_json() -> None:
    state = on_turn()
    assert parse_action(state, {"type": "peek", "slot": "right"}) == Peek(2)
    refused(state, 0, Swap(0, 1, 1), ProtectedCentre)
    refused(state, 0, Swap(0, 9, 0), BadTarget)
    new, _ = apply(state, 0, Swap(0, 1, 2))
    assert new.phase.value == "exchange"


def test_replay_names_the_refused_entry() -> None:
    game = GameSetup("cells", 3, {}, seed=1)
    log = [(seat, {"type": "confirm"}) for seat in range(3)]
    with pytest.raises(AlreadyConfirmed) as caught:
        replay(game, [*log, (0, {"type": "confirm"})])
    assert caught.value.step == 3
    with pytest.raises(MalformedAction) as bad:
        replay(game, [*log, "junk"])
    assert bad.value.step == 3
