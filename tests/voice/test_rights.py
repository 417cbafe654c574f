"""``voice_rights``: who speaks and who listens, per room and phase, for every family,
from each seat's own view (pure: engine states, no database)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games import engine
from voice.rights import TABLE, TEAM, closed, table_speakers, voice_rights

MODERATOR = engine.MODERATOR


def _started(ruleset: str, players: int, options: dict[str, Any] | None = None) -> Any:
    state, _events = engine.start(
        engine.GameSetup(ruleset=ruleset, players=players, options=options or {})
    )
    return state


def _play_until(
    ruleset: str,
    players: int,
    wanted: Callable[[dict[str, Any]], bool],
    options: dict[str, Any] | None = None,
) -> Any:
    """A state whose public view is ``wanted``, from random games."""
    for seed in range(60):
        rng = random.Random(seed)
        state = _started(ruleset, players, options)
        for _ in range(2000):
            view = engine.view(state, None)
            if wanted(view):
                return state
            if view["outcome"] is not None:
                break
            seat, action = engine.random_action(state, rng)
            state, _events = engine.apply(state, seat, action)
    pytest.fail(f"no random {ruleset} game reached the wanted point")


def _rights(state: Any, seats: list[int]) -> dict[int, dict[str, Any]]:
    return {seat: voice_rights(engine.view(state, seat)) for seat in seats}


def _same_shape_and_public_table(state: Any, seats: list[int]) -> None:
    """Every seat's rights have one shape, and the table room's speakers are the
    public view's."""
    public = table_speakers(engine.view(state, None))
    for seat, rights in _rights(state, seats).items():
        assert set(rights) == {TABLE, TEAM}, seat
        assert set(rights[TABLE]) == {"talk", "hear", "speakers"}
        assert set(rights[TEAM]) == {"talk", "hear"}
        assert rights[TABLE]["speakers"] == public
        assert rights[TABLE]["talk"] == (seat in public)


def test_a_spectator_has_no_voice() -> None:
    state = _started("partisans", 5)
    assert voice_rights(engine.view(state, None)) == closed()
    assert voice_rights(None) == closed()


def test_a_mafia_night_silences_the_table_and_opens_the_team_room_to_the_mafia() -> (
    None
):
    state = _started("mafia_partisan", 10)
    assert engine.view(state, None)["phase"] == "night"
    seats = [*range(10), MODERATOR]
    _same_shape_and_public_table(state, seats)
    rights = _rights(state, seats)
    mafia = {
        seat
        for seat in range(10)
        if "mafia" in engine.view(state, seat)["me"]["channels"]
    }
    assert mafia, "the mafia wakes on the introduction night"
    for seat in range(10):
        assert rights[seat][TABLE] == {
            "talk": False,
            "hear": True,
            "speakers": [MODERATOR],
        }
        in_team = seat in mafia
        assert rights[seat][TEAM] == {"talk": in_team, "hear": in_team}
    # The moderator keeps the table's voice at night and hears the mafia's room.
    assert rights[MODERATOR][TABLE]["talk"] is True
    assert rights[MODERATOR][TEAM] == {"talk": True, "hear": True}


def test_a_mafia_day_gives_the_table_to_the_players_in_the_game_only() -> None:
    state = _play_until(
        "mafia_partisan",
        10,
        lambda view: (
            view["phase"] == "day"
            and not all(seat["in_game"] for seat in view["seats"])
        ),
    )
    seats = [*range(10), MODERATOR]
    _same_shape_and_public_table(state, seats)
    public = engine.view(state, None)
    out = {seat["seat"] for seat in public["seats"] if not seat["in_game"]}
    for seat, rights in _rights(state, seats).items():
        assert rights[TABLE]["talk"] == (seat not in out), seat
        assert rights[TABLE]["hear"] is True
        assert rights[TEAM] == {"talk": False, "hear": False}


@pytest.mark.parametrize("phase", ["vote", "midday"])
def test_a_mafia_vote_talks_and_a_midday_sleep_is_silent(phase: str) -> None:
    state = _play_until("mafia_partisan", 10, lambda view: view["phase"] == phase)
    seats = [*range(10), MODERATOR]
    _same_shape_and_public_table(state, seats)
    speakers = table_speakers(engine.view(state, None))
    if phase == "midday":
        assert speakers == [MODERATOR]
    else:
        assert len(speakers) > 1


def test_after_a_mafia_game_everyone_talks_and_the_team_room_is_shut() -> None:
    state = _play_until("mafia_partisan", 10, lambda view: view["outcome"] is not None)
    seats = [*range(10), MODERATOR]
    _same_shape_and_public_table(state, seats)
    for rights in _rights(state, seats).values():
        assert rights[TABLE]["talk"] is True
        assert rights[TEAM] == {"talk": False, "hear": False}


@pytest.mark.parametrize("ruleset", ["partisans", "trust_no_one", "werewolves"])
def test_a_resistance_table_talks_in_every_phase_and_its_evil_room_opens_at_the_shot(
    ruleset: str,
) -> None:
    state = _started(ruleset, 6)
    seats = list(range(6))
    _same_shape_and_public_table(state, seats)
    for rights in _rights(state, seats).values():
        assert rights[TABLE]["talk"] is True
        assert rights[TEAM] == {"talk": False, "hear": False}
    if ruleset != "partisans":
        return
    sniper = _play_until(
        ruleset, 6, lambda view: view["phase"] == "sniper", {"scout": True}
    )
    _same_shape_and_public_table(sniper, seats)
    for seat, rights in _rights(sniper, seats).items():
        evil = engine.view(sniper, seat)["me"]["side"] == "evil"
        assert rights[TEAM] == {"talk": evil, "hear": evil}, seat
        assert rights[TABLE]["talk"] is True


def test_cells_talks_at_the_table_in_every_phase_and_has_no_team_room() -> None:
    rng = random.Random(3)
    state = _started("cells", 4)
    seen = set()
    for _ in range(300):
        view = engine.view(state, None)
        seen.add(view["phase"])
        _same_shape_and_public_table(state, list(range(4)))
        for rights in _rights(state, list(range(4))).values():
            assert rights[TABLE]["talk"] is True
            assert rights[TEAM] == {"talk": False, "hear": False}
        if view["outcome"] is not None:
            break
        seat, action = engine.random_action(state, rng)
        state, _events = engine.apply(state, seat, action)
    assert len(seen) >= 3
