"""A random player: any legal move of any awaited seat, for bots, the bench and tests.

The moves are drawn from the caller's ``rng`` only, so a seeded ``random.Random``
gives the same game every time.  Every move returned is legal; property tests rely on
that to walk through every rule, the benchmark on it being cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from games.engine.core import GameIsOver
from games.families.resistance.engine.rules import eligible_for_check, team_size
from games.families.resistance.engine.sides import Side
from games.families.resistance.engine.state import FAIL, SUCCESS, GameState, Phase

__all__ = ["APPROVE", "bot_action", "random_action", "random_move"]

APPROVE = 0.6
"""How often the random voter approves.  A fair coin would make a ten-player table
reject five teams in a row in a third of the games, before the presets ever come
into play; 0.6 plays longer, more varied games."""


def random_action(state: GameState, rng: Random) -> tuple[int, dict[str, Any]]:
    """``(seat, action)``: a uniformly random awaited seat and one of its legal moves.

    Votes approve with probability :data:`APPROVE`; an evil team member fails half
    the time.
    """
    table = state.table
    phase = state.phase
    if phase is Phase.VOTE:
        leader = -1 if table.leader_votes else state.leader
        waiting = [
            s for s, vote in enumerate(state.votes) if vote is None and s != leader
        ]
        seat = waiting[int(rng.random() * len(waiting))]
        return seat, {"type": "vote", "approve": rng.random() < APPROVE}
    if phase is Phase.MISSION:
        team = state.team
        waiting = [s for s, card in zip(team, state.cards, strict=True) if card is None]
        seat = waiting[int(rng.random() * len(waiting))]
        fail = table.sides[seat] is Side.EVIL and rng.random() < 0.5
        return seat, {"type": "play", "card": FAIL if fail else SUCCESS}
    if phase is Phase.PROPOSAL:
        chosen = rng.sample(range(table.players), team_size(state))
        return state.leader, {"type": "propose", "team": sorted(chosen)}
    if phase is Phase.CHECK:
        assert state.token is not None
        return state.token, {
            "type": "check",
            "target": rng.choice(eligible_for_check(state)),
        }
    if phase is Phase.CLAIM:
        assert state.token is not None
        side = Side.GOOD if rng.random() < 0.5 else Side.EVIL
        return state.token, {"type": "claim", "side": side.value}
    if phase is Phase.SNIPER:
        sniper = table.sniper
        assert sniper is not None
        target = rng.choice([s for s in range(table.players) if s != sniper])
        return sniper, {"type": "shoot", "target": target}
    raise GameIsOver()


def random_move(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """A uniformly random legal move of the seat whose ``view`` this is, read from the
    view's ``legal`` list alone: the baseline a sensible bot is measured against."""
    legal = view["legal"]
    if not legal:
        raise GameIsOver()
    spec = legal[int(rng.random() * len(legal))]
    kind = spec["type"]
    if kind == "propose":
        return {"type": kind, "team": sorted(rng.sample(spec["among"], spec["size"]))}
    if kind == "vote":
        return {"type": kind, "approve": rng.random() < APPROVE}
    if kind == "play":
        return {"type": kind, "card": rng.choice(spec["cards"])}
    if kind == "claim":
        return {"type": kind, "side": rng.choice(spec["sides"])}
    return {"type": kind, "target": rng.choice(spec["among"])}


def bot_action(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """The seat's move when a bot plays it; for now the random move."""
    return random_move(view, rng)
