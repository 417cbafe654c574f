"""The state of a Resistance-family game: immutable values, nothing but data.

A :class:`GameState` is a frozen dataclass; every action makes a new one with
:func:`evolve`, which copies the instance dictionary instead of going through
``dataclasses.replace`` (that re-runs ``__init__`` and costs several times more, and the
benchmark applies ~150 actions per game).  What was fixed at the deal (roles, the
ruleset's numbers for this player count) sits in one shared :class:`Table`, so an action
copies the few things that move.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from games.engine.core import GameSetup, Outcome
from games.engine.states import evolve as evolve
from games.families.resistance.engine.sides import Side

if TYPE_CHECKING:
    from games.families.resistance.engine.rulesets import ResistanceRuleset

__all__ = [
    "CARDS",
    "FAIL",
    "SUCCESS",
    "CheckRecord",
    "GameState",
    "MissionRecord",
    "Phase",
    "Table",
    "VoteRecord",
    "evolve",
]

SUCCESS = "success"
FAIL = "fail"
CARDS = (SUCCESS, FAIL)


class Phase(StrEnum):
    """What the table is doing now; the value is what the view shows."""

    PROPOSAL = "proposal"
    VOTE = "vote"
    MISSION = "mission"
    CHECK = "check"
    CLAIM = "claim"
    SNIPER = "sniper"
    OVER = "over"


class VoteRecord(NamedTuple):
    """A finished vote on a proposed team: public once the last vote is in."""

    mission: int
    attempt: int
    leader: int
    team: tuple[int, ...]
    votes: tuple[bool | None, ...]
    """One entry per seat; ``None`` for a seat that does not vote (werewolf leader)."""
    approved: bool


class MissionRecord(NamedTuple):
    """A finished mission.  ``cards`` (aligned with ``team``) is kept only so each
    player can see their own card: nobody else ever learns who played what."""

    number: int
    team: tuple[int, ...]
    cards: tuple[str, ...]
    fails: int
    success: bool


class CheckRecord(NamedTuple):
    """One use of the check token: the private result and the public claim."""

    after_mission: int
    holder: int
    target: int
    result: Side
    claim: Side | None


@dataclass(frozen=True, slots=True)
class Table:
    """What the deal fixed for the whole game: who is who and this table's numbers.

    The ruleset's tables are resolved for this player count here once, so the rules
    read a field instead of looking a number up on every action.
    """

    ruleset: ResistanceRuleset
    setup: GameSetup
    players: int
    roles: tuple[str, ...]
    sides: tuple[Side, ...]
    evil: tuple[int, ...]
    scout: int | None
    sniper: int | None
    first_leader: int
    team_sizes: tuple[int, ...]
    growing_patrol: tuple[int, int] | None
    """``(base, cap)`` when the patrol grows with each success, else ``None``."""
    two_fails_mission: int
    """The mission that fails only with two fail cards; 0 when there is none."""
    check_after: frozenset[int]
    """The missions after which the check-token holder checks (empty without it)."""
    leader_votes: bool
    leader_stays: bool
    chat: bool


@dataclass(frozen=True)
class GameState:
    """Where a game stands.  Compare two states with ``==``: replay relies on it."""

    table: Table
    step: int
    turn: int
    """The step at which the decision now asked of the table began."""
    phase: Phase
    leader: int
    mission: int
    """1-based; the current mission, or the last one played once no other follows."""
    rejections: int
    """Rejected proposals in a row for the current mission."""
    team: tuple[int, ...]
    """The proposed team while voting, the approved team during the mission."""
    votes: tuple[bool | None, ...]
    """The vote in progress, one entry per seat (``None``: not yet); ``()`` if none."""
    cards: tuple[str | None, ...]
    """The mission in progress, aligned with ``team`` (``None``: not played)."""
    history: tuple[VoteRecord, ...]
    missions: tuple[MissionRecord, ...]
    successes: int
    failures: int
    token: int | None
    former_holders: tuple[int, ...]
    checks: tuple[CheckRecord, ...]
    shot: int | None
    outcome: Outcome | None

    @property
    def ruleset(self) -> ResistanceRuleset:
        """The ruleset; the module-level API dispatches on it."""
        return self.table.ruleset

    @property
    def players(self) -> int:
        return self.table.players
