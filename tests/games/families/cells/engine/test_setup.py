"""Dealing a ``cells`` game: the registry, options, house decisions, the character
deal (3N cards, N+1 spies), the mission deck, the first player (seed 003)."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from games.engine import (
    BadOptionValue,
    GameSetup,
    IllegalSetup,
    UnknownOption,
    WrongPlayerCount,
    final_roles,
    get_ruleset,
    ruleset_codes,
    setup,
    start,
    view,
)
from games.families import FAMILIES
from games.families.cells.engine import (
    BLUE,
    CELLS,
    HOUSE_DECISIONS,
    RED,
    GameState,
    Phase,
)
from games.families.cells.engine.rules import side_of
from tests.games.families.cells.engine.support import new_game

SEEDS = range(300)


def test_cells_is_registered_as_its_own_family() -> None:
    assert "cells" in FAMILIES
    assert "cells" in ruleset_codes()
    ruleset = get_ruleset("cells")
    assert ruleset is CELLS
    assert ruleset.family == "cells"
    assert ruleset.sides == ("good", "evil")
    assert (ruleset.min_players, ruleset.max_players) == (3, 4)
    assert not ruleset.has_moderator
    assert CELLS.role_codes == ("resistance", "spy")


@pytest.mark.parametrize("players", [0, 1, 2, 5, 10, -3])
def test_only_three_or_four_players(players: int) -> None:
    with pytest.raises(WrongPlayerCount) as caught:
        GameSetup("cells", players)
    assert isinstance(caught.value, IllegalSetup)
    assert caught.value.params == {
        "players": players,
        "min_players": 3,
        "max_players": 4,
    }


def test_the_chat_is_an_option_on_by_default() -> None:
    assert [spec.name for spec in CELLS.options] == ["chat"]
    assert (CELLS.chat_default, CELLS.chat_optional) == (True, True)
    assert GameSetup("cells", 3).options == {"chat": True}
    assert GameSetup("cells", 3, {"chat": False}).options == {"chat": False}
    with pytest.raises(UnknownOption):
        GameSetup("cells", 3, {"scout": True})
    with pytest.raises(BadOptionValue):
        GameSetup("cells", 3, {"chat": "no"})


def test_every_house_decision_of_rules_md_is_shown_before_the_start() -> None:
    """docs/rules.md §2: the first player, play after every confirmation, which slots
    may be
    peeked, a public peek, how long cards are shown, the touched marks, the reshuffle,
    the winners, what stays hidden after the game."""
    assert CELLS.house_decisions == HOUSE_DECISIONS
    text = " ".join(HOUSE_DECISIONS)
    for point in (
        "first player is chosen at random",
        "every player has confirmed",
        "exchanged or not",
        "you choose which",
        "everyone sees that you looked",
        "until you decide whether to exchange",
        "until the next move",
        "public record of swaps",
        "fewer than three mission cards",
        "revealed mission cards stay out",
        "mostly blue wins",
        "mostly red wins",
        "undrawn mission deck stay hidden",
    ):
        assert point in text, point
    for sentence in HOUSE_DECISIONS:
        assert sentence[:1].isupper() and sentence.endswith("."), sentence


@pytest.mark.parametrize("players", [3, 4])
def test_the_deal_has_3n_cards_and_n_plus_1_spies(players: int) -> None:
    for seed in SEEDS:
        state = new_game(players, seed)
        cards = state.cards
        assert len(cards) == 3 * players
        assert Counter(cards) == {RED: players + 1, BLUE: 2 * players - 1}
        spies = [s for s in range(players) if side_of(cards, s).value == "evil"]
        assert 1 <= len(spies) <= 2, (seed, cards)


@pytest.mark.parametrize("players", [3, 4])
def test_the_deal_varies_with_the_seed(players: int) -> None:
    layouts = {new_game(players, seed).cards for seed in SEEDS}
    assert len(layouts) > 50
    spies = Counter(
        sum(
            side_of(new_game(players, seed).cards, s).value == "evil"
            for s in range(players)
        )
        for seed in SEEDS
    )
    assert set(spies) == {1, 2}  # both happen


def test_the_mission_deck_is_five_blue_and_five_red_shuffled() -> None:
    decks = set()
    for seed in SEEDS:
        state = new_game(3, seed)
        assert Counter(state.deck) == {BLUE: 5, RED: 5}
        assert state.discards == () and state.reshuffles == 0
        decks.add(state.deck)
    assert len(decks) > 100


@pytest.mark.parametrize("players", [3, 4])
def test_the_first_player_is_random(players: int) -> None:
    firsts = Counter(new_game(players, seed).table.first for seed in range(400))
    assert set(firsts) == set(range(players))
    assert min(firsts.values()) > 50
    state = new_game(players, 7)
    assert state.current == state.table.first


def test_the_deal_is_deterministic_from_the_seed() -> None:
    game = GameSetup("cells", 4, {}, seed=2**62 + 11)
    assert setup(game) == setup(game)


def test_a_new_game_waits_for_every_first_look() -> None:
    state = new_game(4, 3)
    assert state.phase is Phase.LOOK
    assert state.confirmed == (False,) * 4
    assert state.touched == (False,) * 12 and state.touches == ()
    assert (state.step, state.turn, state.successes, state.failures) == (0, 0, 0, 0)
    assert state.mission is None and state.hand == () and state.missions == ()
    assert state.outcome is None


def test_start_announces_the_game_without_any_card() -> None:
    game = GameSetup("cells", 3, {}, seed=5)
    state, events = start(game)
    assert state == setup(game)
    (event,) = events
    assert event.kind == "game_started" and event.visible_to is None
    assert event.data == {
        "ruleset": "cells",
        "players": 3,
        "options": {"chat": True},
        "first": state.table.first,
        "deck": 10,
    }


def test_final_roles_follow_the_majority_of_each_cell() -> None:
    state = new_game(4, 9)
    roles = final_roles(state)
    for seat, (role, side) in enumerate(roles):
        reds = state.cards[3 * seat : 3 * seat + 3].count(RED)
        assert (role, side) == (
            ("spy", "evil") if reds >= 2 else ("resistance", "good")
        )


def test_states_pickle_back_to_equal_states() -> None:
    state = new_game(4, 2)
    copy = pickle.loads(pickle.dumps(state))  # noqa: S301  (our own bytes)
    assert isinstance(copy, GameState)
    assert copy == state
    assert copy.ruleset is state.ruleset
    assert view(copy, 0) == view(state, 0)
