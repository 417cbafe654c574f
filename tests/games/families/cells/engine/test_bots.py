"""The random player (reads the state) and the sensible bot (reads its view only)."""

from __future__ import annotations

import copy
import inspect
import json
from random import Random
from typing import Any

import pytest

from games.engine import (
    GameIsOver,
    apply,
    bot_action,
    final_roles,
    random_action,
    view,
    waiting_for,
)
from games.families.cells.engine import BLUE, RED, GameState, bots
from games.families.cells.engine.bots import random_move, wanted_colour
from tests.games.families.cells.engine.support import (
    act,
    laid_out,
    mission,
    new_game,
    revealing,
    started,
    swap,
)


def moves(state: GameState, seat: int, tries: int = 200) -> list[dict[str, Any]]:
    """The bot's move for ``seat`` under ``tries`` different random generators."""
    return [bot_action(view(state, seat), Random(seed)) for seed in range(tries)]


def test_the_bot_confirms_its_first_look() -> None:
    state = new_game(3, seed=1)
    assert all(move == {"type": "confirm"} for move in moves(state, 2))


def test_the_bot_plays_for_the_side_ahead_blue_at_a_tie() -> None:
    state = laid_out(started(3, seed=1), "BRB RRB BBR", current=0)
    assert wanted_colour(view(state, 0)) == BLUE
    behind = revealing(state, 1, RED)
    assert wanted_colour(view(behind, 1)) == RED
    level = revealing(behind, 2, BLUE)
    assert wanted_colour(view(level, 2)) == BLUE


@pytest.mark.parametrize(
    ("cards", "exchange"),
    [
        ("RRB BRB BBR", True),  # its red left for seat 1's blue left
        ("BRB RRB BBR", False),  # its blue for a red: no
        ("BRB BRB BBR", False),  # blue for blue: nothing to gain
    ],
)
def test_the_bot_exchanges_only_to_gain_the_wanted_colour(
    cards: str, exchange: bool
) -> None:
    state = swap(laid_out(started(3, seed=1), cards, current=0), "left", 1, "left")
    assert all(
        move == {"type": "exchange", "exchange": exchange} for move in moves(state, 0)
    )


def test_the_bot_discards_the_unwanted_mission_colour_when_it_can() -> None:
    state = laid_out(started(3, seed=1), "BRB RRB BBR", current=0)
    leading = mission(laid_out(state, deck="RBR"), 1)
    assert all(move == {"type": "discard", "card": RED} for move in moves(leading, 0))
    only_blue = mission(laid_out(state, deck="BBB"), 1)
    assert all(move["card"] == BLUE for move in moves(only_blue, 0))
    behind = laid_out(revealing(state, 1, RED), current=0)  # now it wants red
    leading = mission(laid_out(behind, deck="RBR"), 2)
    assert all(move == {"type": "discard", "card": BLUE} for move in moves(leading, 0))


def test_the_bot_avoids_partners_the_record_suspects() -> None:
    state = laid_out(started(4, seed=1), "BRB RRB BBR BRB", current=2)
    state = revealing(state, 1, RED)  # seat 1 (and seat 2) on a failed mission
    state = revealing(laid_out(state, current=0), 2, BLUE)  # seat 2 cleared
    state = laid_out(state, current=0)
    chosen = {move.get("partner") for move in moves(state, 0)} - {None}
    assert chosen and 1 not in chosen
    swapped_with = {move.get("player") for move in moves(state, 0)} - {None}
    assert swapped_with and 1 not in swapped_with


def test_the_bot_offers_a_touched_card_of_its_own_and_never_peeks() -> None:
    state = laid_out(started(3, seed=1), "BRB RRB BBR", current=2)
    state = swap(state, "left", 0, "right", False)  # seat 0's right touched
    chosen = moves(state, 0)
    swaps = [move for move in chosen if move["type"] == "swap"]
    assert swaps and all(move["mine"] == "right" for move in swaps)
    # A look would be forgotten by its next turn: the bot spends no turn on it.
    assert "peek" in {spec["type"] for spec in view(state, 0)["legal"]}
    assert all(move["type"] != "peek" for move in chosen)
    # Mostly swaps (to gather the wanted colour), now and then a mission.
    assert {move["type"] for move in chosen} == {"swap", "mission"}
    assert len(swaps) > len(chosen) / 2


def test_the_bot_offers_what_it_swapped_in_for_a_colour_no_longer_wanted() -> None:
    state = laid_out(started(3, seed=1), "BRB RRB BBR", current=0)
    # Seat 0 swaps its left with seat 1's left at 0-0 (blue wanted): it kept or
    # took blue there, as far as the record tells.
    state = swap(state, "left", 1, "left", True)
    behind = laid_out(revealing(laid_out(state, current=1), 2, RED), current=0)
    assert wanted_colour(view(behind, 0)) == RED
    offered = {m["mine"] for m in moves(behind, 0) if m["type"] == "swap"}
    assert offered == {"left"}  # likely blue now that red is wanted
    # With blue still wanted, it keeps that slot and offers the others.
    level = laid_out(state, current=0)
    offered = {m["mine"] for m in moves(level, 0) if m["type"] == "swap"}
    assert offered == {"centre", "right"}


def test_the_bot_asks_for_a_card_the_record_says_is_the_wanted_colour() -> None:
    state = laid_out(started(3, seed=1), "BRB RRB BBR", current=1)
    state = swap(state, "right", 2, "left", True)  # seat 1's right: blue wanted
    state = laid_out(state, current=0)
    asked = {(m["player"], m["theirs"]) for m in moves(state, 0) if m["type"] == "swap"}
    assert (1, "right") in asked and (1, "left") not in asked


def test_the_bot_needs_a_move_to_make() -> None:
    state = act(new_game(3, seed=1), 0, {"type": "confirm"})
    with pytest.raises(GameIsOver):
        bot_action(view(state, 0), Random(1))
    with pytest.raises(GameIsOver):
        random_move(view(state, 0), Random(1))


def test_random_moves_are_legal_reproducible_and_stop_at_the_end() -> None:
    def game(seed: int) -> list[tuple[int, dict[str, Any]]]:
        state, rng, log = new_game(4, seed=seed), Random(seed), []
        while state.outcome is None:
            seat, action = random_action(state, rng)
            log.append((seat, action))
            state, _ = apply(state, seat, action)
        with pytest.raises(GameIsOver):
            random_action(state, rng)
        return log

    assert game(3) == game(3)
    assert game(3) != game(4)


def test_random_moves_from_a_view_are_legal() -> None:
    state = laid_out(started(3, seed=1), "BRB RRB BBR", current=2)
    state = swap(state, "left", 0, "right", True)
    rng = Random(5)
    kinds = set()
    for _ in range(200):
        move = random_move(view(state, 0), rng)
        kinds.add(move["type"])
        apply(state, 0, move)  # raises if it is not legal
    assert kinds == {"swap", "mission", "peek"}


def test_the_bot_takes_a_view_and_a_random_generator_only() -> None:
    """``bot_action(view, rng)``: no state comes in, so it cannot read one."""
    assert list(inspect.signature(bots.bot_action).parameters) == ["view", "rng"]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("bot_side", ["good", "evil", "both"])
def test_every_bot_move_is_accepted_and_comes_from_the_view_alone(
    players: int, bot_side: str
) -> None:
    """Whole games, the bot on the seats dealt one side (random moves elsewhere):
    at every step every awaited seat's bot move, sensible or not, is accepted by the
    engine; and the bot decides the same from the view sent as JSON (nothing but the
    view's data) and leaves the view as it was."""
    for seed in range(25):
        state = new_game(players, seed=seed)
        dealt = [side for _role, side in final_roles(state)]
        rng = Random(seed)
        while state.outcome is None:
            for seat in sorted(waiting_for(state)):
                seen = view(state, seat)
                before = copy.deepcopy(seen)
                action = bot_action(seen, Random(state.step))
                assert seen == before
                assert bot_action(json.loads(json.dumps(seen)), Random(state.step)) == (
                    action
                )
                apply(state, seat, action)  # raises if the rules refuse it
            seat = rng.choice(sorted(waiting_for(state)))
            mine = bot_side == "both" or dealt[seat] == bot_side
            policy = bot_action if mine else random_move
            state, _ = apply(state, seat, policy(view(state, seat), rng))
            assert state.step < 2000
