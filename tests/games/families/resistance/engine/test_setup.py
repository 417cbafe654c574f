"""Dealing a game: the registry, options, side counts, roles, first leader, token."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from games.engine import (
    BadOptionValue,
    GameSetup,
    IllegalOption,
    IllegalSetup,
    OptionSpec,
    SetupError,
    UnknownOption,
    UnknownRuleset,
    WrongPlayerCount,
    get_ruleset,
    ruleset_codes,
    setup,
    start,
    view,
)
from games.families.resistance.engine import GameState, Phase, Side
from tests.games.families.resistance.engine.support import (
    CLASSIC_SIZES,
    EVIL,
    GOOD,
    new_game,
)

ROLE_CODES = {
    "partisans": ("partisan", "traitor"),
    "trust_no_one": ("agent", "spy"),
    "werewolves": ("villager", "werewolf"),
}


def test_the_three_resistance_games_are_registered_by_code() -> None:
    assert set(ruleset_codes()) >= {"partisans", "trust_no_one", "werewolves"}
    for code in ("partisans", "trust_no_one", "werewolves"):
        ruleset = get_ruleset(code)
        assert ruleset.code == code
        assert (ruleset.min_players, ruleset.max_players) == (5, 10)


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(UnknownRuleset) as caught:
        get_ruleset("chess")
    assert caught.value.code == "unknown_ruleset"
    assert "chess" in str(caught.value)
    with pytest.raises(IllegalSetup):
        GameSetup("chess", 5)


def test_rulesets_differ_only_in_data() -> None:
    partisans = get_ruleset("partisans")
    trust = get_ruleset("trust_no_one")
    werewolves = get_ruleset("werewolves")
    assert type(partisans) is type(trust) is type(werewolves)
    assert partisans.two_fail_mission and trust.two_fail_mission
    assert not werewolves.two_fail_mission
    assert partisans.leader_votes and not werewolves.leader_votes
    assert werewolves.leader_stays_after_mission
    assert not partisans.leader_stays_after_mission


@pytest.mark.parametrize(
    ("code", "names", "chat_default", "chat_optional"),
    [
        ("partisans", ["scout", "check"], True, False),
        ("trust_no_one", ["chat"], False, True),
        ("werewolves", ["growing_patrol", "chat"], True, True),
    ],
)
def test_options_on_offer(
    code: str, names: list[str], chat_default: bool, chat_optional: bool
) -> None:
    ruleset = get_ruleset(code)
    assert [spec.name for spec in ruleset.options] == names
    assert (ruleset.chat_default, ruleset.chat_optional) == (
        chat_default,
        chat_optional,
    )
    for spec in ruleset.options:
        assert isinstance(spec, OptionSpec)
        assert spec.label and spec.help and "\n" not in spec.help
        assert type(spec.default) is bool
    assert ruleset.house_decisions
    assert all(isinstance(text, str) and text for text in ruleset.house_decisions)


def test_options_are_normalised_with_defaults() -> None:
    assert GameSetup("partisans", 5).options == {
        "scout": False,
        "check": False,
        "chat": True,
    }
    assert GameSetup("trust_no_one", 5).options == {"chat": False}
    assert GameSetup("werewolves", 5).options == {"growing_patrol": False, "chat": True}
    with_scout = GameSetup("partisans", 5, {"scout": True})
    assert with_scout.options["scout"] is True
    assert with_scout == GameSetup("partisans", 5, {"scout": True, "chat": True})
    assert hash(with_scout) == hash(GameSetup("partisans", 5, {"scout": True}))


@pytest.mark.parametrize(
    ("code", "options", "error"),
    [
        ("partisans", {"growing_patrol": True}, UnknownOption),
        ("trust_no_one", {"scout": True}, UnknownOption),
        ("trust_no_one", {"check": True}, UnknownOption),
        ("werewolves", {"scout": True}, UnknownOption),
        ("partisans", {"chat": False}, BadOptionValue),
        ("partisans", {"scout": 1}, BadOptionValue),
        ("werewolves", {"growing_patrol": "yes"}, BadOptionValue),
        ("trust_no_one", {"chat": None}, BadOptionValue),
        ("partisans", {"nonsense": True}, UnknownOption),
    ],
)
def test_inapplicable_or_bad_options_are_refused(
    code: str, options: dict[str, object], error: type[IllegalOption]
) -> None:
    with pytest.raises(error) as caught:
        GameSetup(code, 5, options)
    assert isinstance(caught.value, SetupError) and isinstance(caught.value, ValueError)
    assert caught.value.code in {"unknown_option", "bad_option_value"}
    assert str(caught.value) == caught.value.template % caught.value.params


@pytest.mark.parametrize("players", [0, 4, 11, 3, 100, -5])
def test_wrong_player_counts_are_refused(players: int) -> None:
    for code in ("partisans", "trust_no_one", "werewolves"):
        with pytest.raises(WrongPlayerCount) as caught:
            GameSetup(code, players)
        assert isinstance(caught.value, IllegalSetup)
        assert str(players) in str(caught.value)


@pytest.mark.parametrize("players", [True, 5.0, "5", None])
def test_a_player_count_must_be_an_int(players: object) -> None:
    with pytest.raises(IllegalSetup):
        GameSetup("partisans", players)


def test_the_seed_must_be_an_int() -> None:
    with pytest.raises(IllegalSetup):
        GameSetup("partisans", 5, seed="12")


def test_setup_round_trips_through_a_dict() -> None:
    original = GameSetup("werewolves", 8, {"growing_patrol": True}, seed=99)
    stored = original.to_dict()
    assert stored == {
        "ruleset": "werewolves",
        "players": 8,
        "options": {"growing_patrol": True, "chat": True},
        "seed": 99,
    }
    assert GameSetup.from_dict(stored) == original
    with pytest.raises(IllegalSetup):
        GameSetup.from_dict({**stored, "extra": 1})
    with pytest.raises(IllegalSetup):
        GameSetup.from_dict({"players": 5})


@pytest.mark.parametrize("code", ["partisans", "trust_no_one", "werewolves"])
@pytest.mark.parametrize("players", range(5, 11))
def test_side_counts_follow_the_seed_table(code: str, players: int) -> None:
    good_role, evil_role = ROLE_CODES[code]
    for seed in range(25):
        state = new_game(code, players, seed)
        sides = Counter(state.table.sides)
        assert sides[Side.GOOD] == GOOD[players]
        assert sides[Side.EVIL] == EVIL[players]
        roles = Counter(state.table.roles)
        assert roles == {good_role: GOOD[players], evil_role: EVIL[players]}


@pytest.mark.parametrize("players", range(5, 11))
def test_scout_is_good_and_sniper_is_evil(players: int) -> None:
    for seed in range(25):
        state = new_game("partisans", players, seed, scout=True)
        table = state.table
        roles = Counter(table.roles)
        assert roles == {
            "partisan": GOOD[players] - 1,
            "scout": 1,
            "traitor": EVIL[players] - 1,
            "sniper": 1,
        }
        assert table.scout is not None and table.sides[table.scout] is Side.GOOD
        assert table.sniper is not None and table.sides[table.sniper] is Side.EVIL
        assert table.roles[table.scout] == "scout"
        assert table.roles[table.sniper] == "sniper"


def test_the_deal_is_deterministic_from_the_seed() -> None:
    game = GameSetup("partisans", 10, {"scout": True, "check": True}, seed=12345)
    assert setup(game) == setup(game)
    deals = {setup(GameSetup("partisans", 10, {"scout": True}, seed)).table.roles
             for seed in range(40)}  # fmt: skip
    assert len(deals) > 30


def test_the_first_leader_is_random_across_seeds() -> None:
    for code in ("partisans", "trust_no_one", "werewolves"):
        leaders = Counter(new_game(code, 7, seed).leader for seed in range(400))
        assert set(leaders) == set(range(7))
        assert min(leaders.values()) > 20  # roughly uniform, not a fixed seat


def test_a_new_game_waits_for_the_first_proposal() -> None:
    state = new_game("partisans", 6, 3)
    assert state.phase is Phase.PROPOSAL
    assert (state.mission, state.rejections, state.step) == (1, 0, 0)
    assert state.outcome is None and state.token is None
    assert state.leader == state.table.first_leader


@pytest.mark.parametrize("players", range(5, 11))
def test_check_token_starts_before_the_first_leader(players: int) -> None:
    for seed in range(15):
        state = new_game("partisans", players, seed, check=True)
        assert state.token is not None
        assert (state.token + 1) % players == state.leader
        assert state.former_holders == (state.token,)


def test_start_announces_the_game_without_roles() -> None:
    state, events = start(GameSetup("partisans", 7, {"check": True}, seed=5))
    assert state == setup(GameSetup("partisans", 7, {"check": True}, seed=5))
    (event,) = events
    assert event.kind == "game_started" and event.visible_to is None
    assert event.data["leader"] == state.leader
    assert event.data["token"] == state.token
    assert [m["size"] for m in event.data["missions"]] == list(CLASSIC_SIZES[7])
    two_fails = [m["two_fails"] for m in event.data["missions"]]
    assert two_fails == [False, False, False, True, False]
    assert "roles" not in event.data and "sides" not in event.data


def test_states_pickle_back_to_equal_states() -> None:
    state = new_game("partisans", 8, 2, scout=True, check=True)
    copy = pickle.loads(pickle.dumps(state))  # noqa: S301  (our own bytes)
    assert isinstance(copy, GameState)
    assert copy == state
    assert copy.ruleset is state.ruleset  # the registered ruleset, not a copy
    assert view(copy, 0) == view(state, 0)
