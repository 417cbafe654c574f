"""Dealing a game: the registry, the ten players, options and house decisions, the
seed's composition."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from games.engine import (
    MODERATOR,
    BadOptionValue,
    GameSetup,
    NotSeated,
    OptionSpec,
    UnknownOption,
    WrongPlayerCount,
    final_roles,
    get_ruleset,
    ruleset_codes,
    setup,
    start,
    view,
    waiting_for,
)
from games.families import FAMILIES
from games.families.mafia.engine import (
    DEALT,
    HOUSE_DECISIONS,
    OPTIONS,
    House,
    Phase,
    Role,
    Step,
)
from tests.games.families.mafia.engine.support import (
    COLONEL,
    NURSE,
    RADIO,
    SOLDIER_A,
    SOLDIER_B,
    TRAITOR,
    intro,
    moderator,
    new_game,
    night,
    table,
    vote_out,
)


def test_mafia_partisan_is_registered_in_its_family() -> None:
    assert "mafia" in FAMILIES
    assert "mafia_partisan" in ruleset_codes()
    ruleset = get_ruleset("mafia_partisan")
    assert ruleset.code == "mafia_partisan"
    assert ruleset.family == "mafia"
    assert ruleset.sides == ("citizens", "mafia")
    assert ruleset.has_moderator is True
    assert (ruleset.min_players, ruleset.max_players) == (10, 10)
    assert (ruleset.chat_default, ruleset.chat_optional) == (True, True)


@pytest.mark.parametrize("players", [5, 9, 11])
def test_any_other_player_count_is_refused(players: int) -> None:
    with pytest.raises(WrongPlayerCount) as caught:
        GameSetup("mafia_partisan", players)
    assert caught.value.code == "wrong_player_count"
    assert str(caught.value) == f"This game needs 10 to 10 players, not {players}."


def test_every_house_field_is_an_option_with_its_default() -> None:
    ruleset = get_ruleset("mafia_partisan")
    assert ruleset.options == OPTIONS
    assert sorted(spec.name for spec in OPTIONS) == sorted(House.__slots__)
    normalised = GameSetup("mafia_partisan", 10).options
    assert normalised == {spec.name: spec.default for spec in OPTIONS}
    assert normalised["slaughters"] == 1 and normalised["chat"] is True
    for spec in OPTIONS:
        assert isinstance(spec, OptionSpec)
        assert spec.label and spec.help
        assert spec.accepts(spec.default)
        for value, label in spec.choices:
            assert label and spec.accepts(value)


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"lives": 3}, UnknownOption),
        ({"slaughters": 3}, BadOptionValue),
        ({"slaughters": True}, BadOptionValue),
        ({"defence_seconds": 5}, BadOptionValue),
        ({"defence_seconds": "60"}, BadOptionValue),
        ({"ballot": "both"}, BadOptionValue),
        ({"chat": "yes"}, BadOptionValue),
        ({"threshold_below_four": 4}, BadOptionValue),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        GameSetup("mafia_partisan", 10, options)


def test_options_round_trip_and_chosen_values_are_shown_to_everyone() -> None:
    game = GameSetup("mafia_partisan", 10, {"slaughters": 0, "ballot": "one"}, 3)
    assert GameSetup.from_dict(game.to_dict()) == game
    state = setup(game)
    for seat in (None, MODERATOR, 0, 9):
        shown = view(state, seat)["options"]
        assert shown["slaughters"] == 0 and shown["ballot"] == "one"


def test_house_decisions_are_plain_sentences() -> None:
    ruleset = get_ruleset("mafia_partisan")
    assert ruleset.house_decisions == HOUSE_DECISIONS
    assert len(HOUSE_DECISIONS) >= 10
    for sentence in HOUSE_DECISIONS:
        assert sentence[0].isupper() and sentence.endswith(".")
    text = " ".join(HOUSE_DECISIONS)
    assert "last-move" in text and "introduction night" in text


def test_the_deal_is_the_seeds_ten_cards_and_depends_on_the_seed_only() -> None:
    seen: Counter[tuple[int, Role]] = Counter()
    for seed in range(400):
        state = new_game(seed)
        assert sorted(state.table.roles) == sorted(DEALT)
        assert state.table.roles.count(Role.SOLDIER) == 2
        seen.update(enumerate(state.table.roles))
        assert new_game(seed) == state
    assert len(seen) == 10 * 9  # every seat gets every card sometimes
    assert new_game(1).table.roles != new_game(2).table.roles


def test_a_game_starts_with_the_introduction_night() -> None:
    game = GameSetup("mafia_partisan", 10, {}, 8)
    state, events = start(game)
    assert (state.phase, state.night, state.sleep) == (Phase.NIGHT, 0, Step.MEET)
    assert waiting_for(state) == frozenset(range(10))
    (event,) = events
    assert event.kind == "game_started" and event.visible_to is None
    assert "roles" not in event.data and event.data["players"] == 10


def test_states_pickle_and_views_refuse_unknown_seats() -> None:
    state = new_game(5)
    again = pickle.loads(pickle.dumps(state))  # noqa: S301  (our own bytes)
    assert again == state and again.ruleset is state.ruleset
    for seat in (10, -2, "1"):
        with pytest.raises(NotSeated):
            view(state, seat)  # type: ignore[arg-type]


def test_final_roles_show_a_recruit_on_the_mafia_side() -> None:
    state = vote_out(intro(table()), TRAITOR)
    for seat in (RADIO, COLONEL, NURSE):
        state = moderator(state, "kick", target=seat)
    state = night(state, general=("recruit", SOLDIER_A, None))
    assert state.outcome is not None and state.outcome.winner == "mafia"
    assert final_roles(state)[SOLDIER_A] == ("soldier", "mafia")
    assert final_roles(state)[SOLDIER_B] == ("soldier", "citizens")
    assert final_roles(state)[0] == ("general", "mafia")
