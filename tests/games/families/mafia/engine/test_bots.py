"""The bot plays a seat from that seat's view alone, always legally; the random table
(the moderator included) plays games to the end."""

from __future__ import annotations

from random import Random

import pytest

from games.engine import (
    MODERATOR,
    GameSetup,
    apply,
    bot_action,
    legal_actions,
    setup,
    view,
    waiting_for,
)
from games.families.mafia.engine import PlayersOnly, Step
from games.families.mafia.engine.bots import random_moderator
from tests.games.families.mafia.engine.invariants import matches_some
from tests.games.families.mafia.engine.support import (
    GENERAL,
    RADIO,
    SNIPER,
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
