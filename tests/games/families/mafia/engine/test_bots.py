"""The bot plays a seat from that seat's view alone, always legally; the random table
(the moderator included) plays games to the end."""

from __future__ import annotations

import copy
import inspect
import json
from collections import Counter
from collections.abc import Mapping
from random import Random
from typing import Any

import pytest

from games.engine import (
    MODERATOR,
    GameSetup,
    apply,
    bot_action,
    final_roles,
    legal_actions,
    setup,
    view,
    waiting_for,
)
from games.families.mafia.engine import PlayersOnly, Role, Step, bots
from games.families.mafia.engine.bots import (
    MODERATOR_ASIDE,
    random_moderator,
    random_move,
)
from tests.games.families.mafia.engine.invariants import matches_some
from tests.games.families.mafia.engine.support import (
    DEMOLISHER,
    GENERAL,
    NURSE,
    RADIO,
    SNIPER,
    SOLDIER_A,
    TRAITOR,
    act,
    intro,
    moderator,
    night,
    step,
    table,
)


@pytest.mark.parametrize("seed", range(6))
def test_bots_play_every_seat_legally_to_the_end(seed: int) -> None:
    """Every player is a bot deciding from its own view; the moderator is random."""
    state = setup(GameSetup("mafia_partisan", 10, {}, seed))
    rng = Random(seed)
    moves = 0
    while state.outcome is None:
        players = sorted(seat for seat in waiting_for(state) if seat != MODERATOR)
        if players and (MODERATOR not in waiting_for(state) or rng.random() < 0.9):
            seat = players[int(rng.random() * len(players))]
            action = bot_action(view(state, seat), rng)
            assert matches_some(state, seat, action), (seat, action)
        else:
            seat, action = MODERATOR, random_moderator(state, rng)
        state, _ = apply(state, seat, action)
        moves += 1
        assert moves < 3000
    assert state.outcome.winner in ("citizens", "mafia")


def test_the_moderator_is_always_a_person() -> None:
    with pytest.raises(PlayersOnly):
        bot_action(view(table(), MODERATOR), Random(0))


def test_the_radio_bot_asks_about_someone_new_and_the_sniper_waits_for_proof() -> None:
    state = night(intro(table(), guess=1, code=2), radio=GENERAL)
    state = moderator(state, "end_day")
    while state.sleep is not Step.RADIO:
        state = step(state)
    rng = Random(1)
    for _ in range(20):
        move = bot_action(view(state, RADIO), rng)
        assert move["type"] == "choose" and move["target"] != GENERAL
    state = step(state)
    (spec,) = legal_actions(state, SNIPER)
    assert spec["type"] == "choose"
    assert bot_action(view(state, SNIPER), rng)["target"] is None  # no positive yet


def test_the_bot_takes_a_view_and_a_random_generator_only() -> None:
    """``bot_action(view, rng)``: no state comes in, so it cannot read one."""
    assert list(inspect.signature(bots.bot_action).parameters) == ["view", "rng"]


ARMS = {"citizens": {"citizens"}, "mafia": {"mafia"}, "both": {"citizens", "mafia"}}


def _bot_games(arm: str, seeds: range) -> Counter[tuple[str, str]]:
    """Whole games, the bot on the seats dealt to the arm's sides (random moves
    elsewhere, the random moderator throughout).  At every step every awaited
    player's bot move is accepted by the engine, is the same from the view sent as
    JSON (nothing but the view's data), and leaves the view as it was.  Returns how
    often each role made each kind of move."""
    made: Counter[tuple[str, str]] = Counter()
    for seed in seeds:
        state = setup(GameSetup("mafia_partisan", 10, {}, seed))
        dealt = [side for _role, side in final_roles(state)]
        roles = [role for role, _side in final_roles(state)]
        rng = Random(seed)
        while state.outcome is None:
            waiting = waiting_for(state)
            players = sorted(s for s in waiting if s != MODERATOR)
            for seat in players:
                seen = view(state, seat)
                before = copy.deepcopy(seen)
                action = bot_action(seen, Random(state.step))
                assert seen == before
                again = bot_action(json.loads(json.dumps(seen)), Random(state.step))
                assert again == action
                assert matches_some(state, seat, action), (seat, action)
                apply(state, seat, action)  # raises if the rules refuse it
                made[(roles[seat], action["type"])] += 1
            if MODERATOR in waiting and (not players or rng.random() < MODERATOR_ASIDE):
                state, _ = apply(state, MODERATOR, random_moderator(state, rng))
                continue
            seat = players[int(rng.random() * len(players))]
            policy = bot_action if dealt[seat] in ARMS[arm] else random_play
            state, _ = apply(state, seat, policy(view(state, seat), rng))
            assert state.step < 5000
    return made


def random_play(seen: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """A random move from the view's legal specs."""
    legal = seen["legal"]
    return random_move(legal[int(rng.random() * len(legal))], rng)


@pytest.mark.parametrize("arm", list(ARMS))
def test_every_bot_move_is_accepted_and_comes_from_the_view_alone(arm: str) -> None:
    made = _bot_games(arm, range(6))
    every = {role.value for role in Role}
    assert {role for role, kind in made if kind == "vote"} == every
    chose = {role for role, kind in made if kind == "choose"}
    assert chose >= every - {Role.SOLDIER.value, Role.COLONEL.value}, chose


def test_citizens_pile_onto_the_radio_operators_positive_reading() -> None:
    state = night(intro(table(), guess=1, code=2), radio=GENERAL)
    assert [p["reading"] for p in view(state, RADIO)["me"]["picks"]][-1] == "positive"
    state = moderator(state, "start_vote", vote="defence")
    rng = Random(3)
    ballot = bot_action(view(state, RADIO), rng)
    assert ballot == {"type": "vote", "candidates": [GENERAL]}
    state = act(state, RADIO, ballot)
    # The nurse knows nothing, but the table is leaning to the General: she follows.
    assert bot_action(view(state, NURSE), rng)["candidates"] == [GENERAL]
    # A mafia member never names a teammate; one name, so the mafia's votes count.
    for seat in (GENERAL, DEMOLISHER, TRAITOR):
        (named,) = bot_action(view(state, seat), rng)["candidates"]
        assert named not in (GENERAL, DEMOLISHER, TRAITOR)


def test_a_side_names_the_same_seat_before_anyone_has_voted() -> None:
    """With nothing to go on, every citizen follows the day's public order and every
    mafia member the same order among the citizens: each side's votes add up."""
    state = moderator(intro(table()), "start_vote", vote="defence")
    rng = Random(4)
    citizens = {
        tuple(bot_action(view(state, seat), rng)["candidates"])
        for seat in (NURSE, SNIPER, SOLDIER_A)
    }
    mafia = {
        tuple(bot_action(view(state, seat), rng)["candidates"])
        for seat in (GENERAL, DEMOLISHER, TRAITOR)
    }
    assert len(citizens) == 1 and len(next(iter(citizens))) == 1
    assert len(mafia) == 1 and next(iter(mafia))[0] not in (
        GENERAL,
        DEMOLISHER,
        TRAITOR,
    )
