"""Team sizes, the two-fail mission and the growing patrol, cell by cell."""

from __future__ import annotations

import pytest

from games.engine import legal_actions, view
from games.families.resistance.engine import Phase, WrongTeamSize
from tests.games.families.resistance.engine.support import (
    CLASSIC_SIZES,
    WEREWOLF_SIZES,
    mission,
    new_game,
    play_through,
    propose,
    size_now,
    vote_all,
)

BEFORE = ["", "S", "SF", "SFS", "FSFS"]
"""Results that bring a game to mission 1..5 with both sides still short of three."""


@pytest.mark.parametrize(
    ("code", "table"),
    [
        ("partisans", CLASSIC_SIZES),
        ("trust_no_one", CLASSIC_SIZES),
        ("werewolves", WEREWOLF_SIZES),
    ],
)
@pytest.mark.parametrize("players", range(5, 11))
@pytest.mark.parametrize("number", range(1, 6))
def test_every_cell_of_the_team_size_table(
    code: str, table: dict[int, tuple[int, ...]], players: int, number: int
) -> None:
    state = play_through(new_game(code, players, seed=number), BEFORE[number - 1])
    assert state.phase is Phase.PROPOSAL and state.mission == number
    expected = table[players][number - 1]
    assert size_now(state) == expected
    assert view(state, None)["missions"][number - 1]["size"] == expected
    for wrong in (expected - 1, expected + 1):
        before = state
        with pytest.raises(WrongTeamSize) as caught:
            propose(state, range(wrong))
        assert caught.value.params == {"size": expected, "given": wrong}
        assert state == before
    assert propose(state, range(expected)).phase is Phase.VOTE


@pytest.mark.parametrize(
    ("code", "table"),
    [
        ("partisans", CLASSIC_SIZES),
        ("trust_no_one", CLASSIC_SIZES),
        ("werewolves", WEREWOLF_SIZES),
    ],
)
@pytest.mark.parametrize("players", range(5, 11))
def test_the_track_shows_the_whole_row_from_the_start(
    code: str, table: dict[int, tuple[int, ...]], players: int
) -> None:
    track = view(new_game(code, players), None)["missions"]
    assert [entry["size"] for entry in track] == list(table[players])
    assert [entry["number"] for entry in track] == [1, 2, 3, 4, 5]
    starred = [entry["number"] for entry in track if entry["two_fails"]]
    assert starred == ([4] if code != "werewolves" and players >= 7 else [])


@pytest.mark.parametrize("code", ["partisans", "trust_no_one"])
@pytest.mark.parametrize("players", [7, 8, 9, 10])
def test_one_fail_on_mission_four_at_seven_or_more_still_succeeds(
    code: str, players: int
) -> None:
    state = play_through(new_game(code, players, seed=4), "SFS")
    assert state.mission == 4
    state = mission(state, fails=1)
    fourth = view(state, None)["missions"][3]
    assert fourth == {
        "number": 4,
        "size": CLASSIC_SIZES[players][3],
        "two_fails": True,
        "result": "success",
        "fails": 1,
    }
    assert state.missions[3].fails == 1 and state.missions[3].success
    assert state.outcome is not None and state.outcome.reason == "three_successes"


@pytest.mark.parametrize("code", ["partisans", "trust_no_one"])
@pytest.mark.parametrize("players", [7, 8, 9, 10])
def test_two_fails_on_mission_four_fail_it(code: str, players: int) -> None:
    state = play_through(new_game(code, players, seed=4), "SFS")
    state = mission(state, fails=2)
    fourth = view(state, None)["missions"][3]
    assert (fourth["result"], fourth["fails"]) == ("fail", 2)
    assert state.outcome is None and state.mission == 5


@pytest.mark.parametrize("players", [5, 6])
def test_one_fail_on_mission_four_fails_it_below_seven(players: int) -> None:
    state = play_through(new_game("partisans", players, seed=4), "SFS")
    state = mission(state, fails=1)
    assert view(state, None)["missions"][3]["two_fails"] is False
    assert (state.missions[3].fails, state.missions[3].success) == (1, False)


@pytest.mark.parametrize("players", [7, 8, 9, 10])
def test_werewolves_have_no_two_fail_patrol(players: int) -> None:
    state = play_through(new_game("werewolves", players, seed=4), "SFS")
    state = mission(state, fails=1)
    assert (state.missions[3].fails, state.missions[3].success) == (1, False)


@pytest.mark.parametrize("players", [7, 10])
def test_only_mission_four_needs_two_fails(players: int) -> None:
    for results in ("", "S", "SF", "FSFS"):
        state = play_through(new_game("partisans", players, seed=2), results)
        state = mission(state, fails=1)
        assert state.missions[-1].success is False


# The growing patrol: base 2 (5-7 players) or 3 (8-10) plus the successes so far,
# at most three with five players.  Failures do not grow it.
GROWING = [
    (5, "", 2),
    (5, "F", 2),
    (5, "S", 3),
    (5, "SF", 3),
    (5, "SFS", 3),  # 2 + 2 capped at three with five players
    (5, "FSF", 3),
    (6, "", 2),
    (6, "S", 3),
    (6, "SFS", 4),
    (6, "FF", 2),
    (7, "SF", 3),
    (7, "SFS", 4),
    (7, "SFSF", 4),
    (8, "", 3),
    (8, "F", 3),
    (8, "S", 4),
    (8, "SFS", 5),
    (9, "FSFS", 5),
    (10, "", 3),
    (10, "SF", 4),
    (10, "SFSF", 5),
]


@pytest.mark.parametrize(("players", "results", "size"), GROWING)
def test_growing_patrol(players: int, results: str, size: int) -> None:
    state = new_game("werewolves", players, seed=6, growing_patrol=True)
    state = play_through(state, results)
    assert state.outcome is None
    assert size_now(state) == size
    future = view(state, None)["missions"][state.mission - 1 :]
    assert all(entry["size"] == size for entry in future)  # as it would be now


def test_growing_patrol_keeps_the_size_each_patrol_was_played_with() -> None:
    state = new_game("werewolves", 8, seed=6, growing_patrol=True)
    state = play_through(state, "SFS")
    assert [entry["size"] for entry in view(state, None)["missions"]] == [3, 4, 4, 5, 5]


def test_growing_patrol_is_off_by_default() -> None:
    state = play_through(new_game("werewolves", 5, seed=6), "SS")
    assert size_now(state) == WEREWOLF_SIZES[5][2]


def test_legal_proposal_offers_every_seat() -> None:
    state = new_game("partisans", 8)
    (spec,) = legal_actions(state, state.leader)
    assert spec == {"type": "propose", "size": 3, "among": list(range(8))}
    # the leader may leave themselves out
    team = [seat for seat in range(8) if seat != state.leader][:3]
    assert vote_all(propose(state, team), True).team == tuple(team)
