"""Helpers that drive Resistance-family games to a chosen point, for the engine tests.

They act only through the public API (``apply``, ``legal_actions``, ``view``), so a
test that uses them tests the engine as the web layer uses it.  Roles come from the
seed; the helpers read them from the state (``state.table``) to put the evil players
where a test needs them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from random import Random
from typing import Any

from games.engine import GameSetup, apply, legal_actions, setup, view, waiting_for
from games.families.resistance.engine import GameState, Phase

CLASSIC_SIZES = {
    5: (2, 3, 2, 3, 3),
    6: (2, 3, 4, 3, 4),
    7: (2, 3, 3, 4, 4),
    8: (3, 4, 4, 5, 5),
    9: (3, 4, 4, 5, 5),
    10: (3, 4, 4, 5, 5),
}
"""Seed 000's table (seed 002 gives the same numbers), typed out again on purpose."""

WEREWOLF_SIZES = {
    5: (2, 2, 3, 3, 3),
    6: (2, 3, 3, 4, 4),
    7: (2, 3, 3, 4, 4),
    8: (3, 4, 4, 5, 5),
    9: (3, 4, 4, 5, 5),
    10: (3, 4, 4, 5, 5),
}
"""Seed 001's table."""

EVIL = {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
GOOD = {5: 3, 6: 4, 7: 4, 8: 5, 9: 6, 10: 6}

COMBOS: list[tuple[str, dict[str, bool]]] = [
    ("partisans", {}),
    ("partisans", {"scout": True}),
    ("partisans", {"check": True}),
    ("partisans", {"scout": True, "check": True}),
    ("trust_no_one", {}),
    ("werewolves", {}),
    ("werewolves", {"growing_patrol": True}),
]
"""Every ruleset with every preset combination the brief names."""


def new_game(
    ruleset: str = "partisans", players: int = 5, seed: int = 1, **options: Any
) -> GameState:
    state: GameState = setup(GameSetup(ruleset, players, options, seed))
    return state


def find_game(ruleset: str, players: int, wanted: Any, **options: Any) -> GameState:
    """The first seed's game for which ``wanted(state)`` holds (deterministic)."""
    for seed in range(10_000):
        state = new_game(ruleset, players, seed, **options)
        if wanted(state):
            return state
    raise AssertionError("no seed deals such a game")


def act(state: GameState, seat: int, action: Mapping[str, Any]) -> GameState:
    new, _ = apply(state, seat, dict(action))
    return new


def size_now(state: GameState) -> int:
    """The team size the leader is asked for."""
    (spec,) = legal_actions(state, state.leader)
    assert spec["type"] == "propose"
    size: int = spec["size"]
    return size


def evil_seats(state: GameState) -> list[int]:
    return list(state.table.evil)


def good_seats(state: GameState) -> list[int]:
    return [s for s in range(state.players) if s not in state.table.evil]


def team_with(state: GameState, evil: int, size: int | None = None) -> list[int]:
    """A team of the current size with exactly ``evil`` evil players."""
    size = size_now(state) if size is None else size
    team = evil_seats(state)[:evil] + good_seats(state)[: size - evil]
    assert len(team) == size
    return sorted(team)


def voters_now(state: GameState) -> list[int]:
    if state.table.leader_votes:
        return list(range(state.players))
    return [s for s in range(state.players) if s != state.leader]


def propose(state: GameState, team: Iterable[int]) -> GameState:
    return act(state, state.leader, {"type": "propose", "team": list(team)})


def vote_all(state: GameState, approve: bool | Mapping[int, bool]) -> GameState:
    """Every voter votes; ``approve`` is one answer for all or one per seat."""
    for seat in voters_now(state):
        choice = approve if isinstance(approve, bool) else approve[seat]
        state = act(state, seat, {"type": "vote", "approve": choice})
    return state


def play_all(state: GameState, failing: Iterable[int] = ()) -> GameState:
    """Every team member plays: ``failing`` seats fail, the others succeed."""
    failing = set(failing)
    for seat in state.team:
        card = "fail" if seat in failing else "success"
        state = act(state, seat, {"type": "play", "card": card})
    return state


def mission(
    state: GameState, fails: int = 0, team: list[int] | None = None
) -> GameState:
    """Propose a team with ``fails`` evil players (or ``team``), approve, play."""
    if team is None:
        team = team_with(state, fails)
    state = vote_all(propose(state, team), True)
    assert state.phase is Phase.MISSION
    failing = [seat for seat in team if seat in state.table.evil][:fails]
    assert len(failing) == fails
    return play_all(state, failing)


def reject(state: GameState) -> GameState:
    """The leader proposes any team and everyone rejects it."""
    return vote_all(propose(state, range(size_now(state))), False)


def check(
    state: GameState, target: int | None = None, claim: str = "good"
) -> GameState:
    """The holder checks ``target`` (default: the first seat allowed) and claims."""
    holder = state.token
    assert holder is not None and state.phase is Phase.CHECK
    (spec,) = legal_actions(state, holder)
    target = spec["among"][0] if target is None else target
    state = act(state, holder, {"type": "check", "target": target})
    return act(state, holder, {"type": "claim", "side": claim})


def play_through(state: GameState, results: str) -> GameState:
    """Play missions by a string of ``S`` (success) and ``F`` (one fail), resolving
    any check on the way with the first allowed target."""
    for result in results:
        if state.phase is Phase.CHECK:
            state = check(state)
        state = mission(state, fails=1 if result == "F" else 0)
    return state


Policy = Callable[[Mapping[str, Any], Random], dict[str, Any]]


def play_game(
    game: GameSetup,
    good: Policy,
    evil: Policy,
    rng: Random,
    log: list[tuple[int, dict[str, Any]]] | None = None,
) -> list[GameState]:
    """Play ``game`` to the end, each seat's move chosen by its side's policy from
    the seat's own view; returns every state from the deal to the end (and appends
    each ``(seat, action)`` to ``log`` if given)."""
    state: GameState = setup(game)
    states = [state]
    while state.outcome is None:
        seat = rng.choice(sorted(waiting_for(state)))
        policy = evil if seat in state.table.evil else good
        action = policy(view(state, seat), rng)
        state = act(state, seat, action)
        states.append(state)
        if log is not None:
            log.append((seat, action))
        assert len(states) < 400
    return states


def allowed(action: dict[str, Any], spec: dict[str, Any]) -> bool:
    """Whether ``action`` is one of the moves ``spec`` (from ``legal_actions``)
    allows, with no other keys."""
    kind = spec["type"]
    if action["type"] != kind:
        return False
    if kind == "propose":
        team = action["team"]
        return (
            len(team) == spec["size"] == len(set(team))
            and set(team) <= set(spec["among"])
            and set(action) == {"type", "team"}
        )
    field, choices = {
        "vote": ("approve", "choices"),
        "play": ("card", "cards"),
        "check": ("target", "among"),
        "claim": ("side", "sides"),
        "shoot": ("target", "among"),
    }[kind]
    return set(action) == {"type", field} and action[field] in spec[choices]
