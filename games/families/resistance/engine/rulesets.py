"""The three Resistance-family games as data: what differs between them is a field here.

``partisans`` (Партизаны), ``trust_no_one`` (Никому не верь) and ``werewolves`` play
by one set of rules (:mod:`.rules`); a difference between them (a team-size table,
the two-fail mission, whether the leader votes or keeps the office after a mission,
presets, chat, role codes) is a field of :class:`ResistanceRuleset`, never an
``if code == ...``.  The numbers are the seeds' own (``../shared/seeds``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

from games.engine.core import (
    BadOptionValue,
    OptionSpec,
    OptionValue,
    register,
)
from games.engine.rulesets import RulesetBase
from games.engine.text import gettext_noop
from games.families.resistance.engine import bots, rules, view
from games.families.resistance.engine.actions import Action, parse_action
from games.families.resistance.engine.sides import SIDES
from games.families.resistance.engine.state import GameState

__all__ = [
    "CHECK_AFTER_MISSIONS",
    "CLASSIC_TEAM_SIZES",
    "EVIL_COUNTS",
    "GROWING_PATROL",
    "PARTISANS",
    "TRUST_NO_ONE",
    "TWO_FAIL_AT",
    "WEREWOLF_TEAM_SIZES",
    "WEREWOLVES",
    "ResistanceRuleset",
]

PlayerTable = tuple[tuple[int, int], ...]
"""``(players, number)`` pairs: a row of a seed's table, kept hashable."""

EVIL_COUNTS: PlayerTable = ((5, 2), (6, 2), (7, 3), (8, 3), (9, 3), (10, 4))
"""Evil players per player count; the same in all three seeds."""

CLASSIC_TEAM_SIZES: tuple[tuple[int, tuple[int, ...]], ...] = (
    (5, (2, 3, 2, 3, 3)),
    (6, (2, 3, 4, 3, 4)),
    (7, (2, 3, 3, 4, 4)),
    (8, (3, 4, 4, 5, 5)),
    (9, (3, 4, 4, 5, 5)),
    (10, (3, 4, 4, 5, 5)),
)
"""Seeds 000 and 002: team size per mission, by player count."""

WEREWOLF_TEAM_SIZES: tuple[tuple[int, tuple[int, ...]], ...] = (
    (5, (2, 2, 3, 3, 3)),
    (6, (2, 3, 3, 4, 4)),
    (7, (2, 3, 3, 4, 4)),
    (8, (3, 4, 4, 5, 5)),
    (9, (3, 4, 4, 5, 5)),
    (10, (3, 4, 4, 5, 5)),
)
"""Seed 001: patrol size per round, by player count."""

GROWING_PATROL: tuple[tuple[int, tuple[int, int]], ...] = (
    (5, (2, 3)),
    (6, (2, 6)),
    (7, (2, 7)),
    (8, (3, 8)),
    (9, (3, 9)),
    (10, (3, 10)),
)
"""Seed 001's prose, «дозор растёт»: ``(base, cap)``.  Two with 5–7 players, three
with 8–10, one more per successful patrol, at most three with five players and never
more than the table."""

TWO_FAIL_AT = (4, 7)
"""Where ``two_fail_mission`` is on: mission 4 with 7+ players needs two fails."""

CHECK_AFTER_MISSIONS = frozenset({2, 3, 4})
"""«С проверкой»: the token holder checks after these missions, if the game goes on."""


@dataclass(frozen=True, slots=True)
class ResistanceRuleset(RulesetBase):
    """One game of the Resistance family, as data, plus the door to its rules.

    :class:`~games.engine.rulesets.RulesetBase` hands each question to the family's
    modules (:mod:`.rules`, :mod:`.view`, :mod:`.bots`), so that
    :mod:`games.engine.core` can dispatch on ``state.ruleset`` without knowing this
    family.
    """

    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view
    bots: ClassVar[ModuleType] = bots

    code: str
    team_sizes: tuple[tuple[int, tuple[int, ...]], ...]
    two_fail_mission: bool
    """Mission 4 with 7+ players fails only with two fail cards."""
    leader_votes: bool
    """Whether the leader votes on their own proposal."""
    leader_stays_after_mission: bool
    """Whether the leader keeps the office after an approved mission."""
    good_role: str
    evil_role: str
    options: tuple[OptionSpec, ...]
    chat_default: bool
    chat_optional: bool
    house_decisions: tuple[str, ...]
    scout_role: str | None = None
    sniper_role: str | None = None
    evil_counts: PlayerTable = EVIL_COUNTS
    two_fail_at: tuple[int, int] = TWO_FAIL_AT
    """``(mission, minimum players)`` of the two-fail mission, when there is one."""
    check_after: frozenset[int] = CHECK_AFTER_MISSIONS
    """«С проверкой»: the missions after which the token holder checks."""
    growing_patrol: tuple[tuple[int, tuple[int, int]], ...] = GROWING_PATROL
    min_players: int = 5
    max_players: int = 10
    family: str = "resistance"
    sides: tuple[str, ...] = SIDES
    has_moderator: bool = False

    def __post_init__(self) -> None:
        names = {spec.name for spec in self.options}
        if "scout" in names and (self.scout_role is None or self.sniper_role is None):
            raise ValueError(f"{self.code}: the scout preset needs scout/sniper roles")
        if ("chat" in names) != self.chat_optional:
            raise ValueError(f"{self.code}: an optional chat is offered as an option")

    @property
    def role_codes(self) -> tuple[str, ...]:
        """Every role code this game can deal: good, evil, then the presets' roles."""
        extra = (self.scout_role, self.sniper_role)
        return (self.good_role, self.evil_role, *(r for r in extra if r is not None))

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, OptionValue]:
        """Every option with its default filled in; unknown names and values raise.
        A game whose chat is not an option still takes ``chat`` at its default."""
        options = dict(options)
        if "chat" in options and not self.chat_optional:
            value = options.pop("chat")
            if value is not self.chat_default:
                raise BadOptionValue(option="chat", value=repr(value))
        normalised = RulesetBase.normalise_options(self, options)
        normalised.setdefault("chat", self.chat_default)
        return normalised

    def parse_action(self, state: GameState, action: object) -> Action:
        return parse_action(action, state.table.players)

    def final_roles(self, state: GameState) -> tuple[tuple[str, str], ...]:
        table = state.table
        return tuple(
            (role, side.value)
            for role, side in zip(table.roles, table.sides, strict=True)
        )

    def view(
        self,
        state: GameState,
        seat: int | None,
        *,
        after: GameState | None = None,
        own: bool = True,
        memo: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return view.view(state, seat, after=after, own=own, memo=memo)


SCOUT = OptionSpec(
    "scout",
    False,
    gettext_noop("With the scout"),
    gettext_noop(
        "One good player knows the evil players; one evil player is a sniper who "
        "may shoot the scout at the end."
    ),
)
CHECK = OptionSpec(
    "check",
    False,
    gettext_noop("With the check"),
    gettext_noop(
        "After missions 2, 3 and 4 the token holder secretly learns a player's side "
        "and announces it, truthfully or not."
    ),
)
GROWING_PATROL_OPTION = OptionSpec(
    "growing_patrol",
    False,
    gettext_noop("Growing patrol"),
    gettext_noop(
        "Each successful patrol makes the next one bigger by one (at most three with "
        "five players) instead of following the table."
    ),
)


def _chat(default: bool) -> OptionSpec:
    return OptionSpec(
        "chat",
        default,
        gettext_noop("Table chat"),
        gettext_noop("Players can write to each other in a chat during the game."),
    )


PARTISANS = ResistanceRuleset(
    code="partisans",
    team_sizes=CLASSIC_TEAM_SIZES,
    two_fail_mission=True,
    leader_votes=True,
    leader_stays_after_mission=False,
    good_role="partisan",
    evil_role="traitor",
    scout_role="scout",
    sniper_role="sniper",
    options=(SCOUT, CHECK),
    chat_default=True,
    chat_optional=False,
    house_decisions=(
        gettext_noop("The first commander is chosen at random."),
        gettext_noop(
            "With the scout: the scout sees every evil player but not which of them "
            "is the sniper."
        ),
        gettext_noop("The scout and the check token may be played together."),
    ),
)

TRUST_NO_ONE = ResistanceRuleset(
    code="trust_no_one",
    team_sizes=CLASSIC_TEAM_SIZES,
    two_fail_mission=True,
    leader_votes=True,
    leader_stays_after_mission=False,
    good_role="agent",
    evil_role="spy",
    options=(_chat(False),),
    chat_default=False,
    chat_optional=True,
    house_decisions=(gettext_noop("The first leader is chosen at random."),),
)

WEREWOLVES = ResistanceRuleset(
    code="werewolves",
    team_sizes=WEREWOLF_TEAM_SIZES,
    two_fail_mission=False,
    leader_votes=False,
    leader_stays_after_mission=True,
    good_role="villager",
    evil_role="werewolf",
    options=(GROWING_PATROL_OPTION, _chat(True)),
    chat_default=True,
    chat_optional=True,
    house_decisions=(
        gettext_noop("A tie in the vote rejects the patrol."),
        gettext_noop(
            "The leader keeps the office after a patrol; it passes to the next "
            "player only when a patrol is rejected."
        ),
        gettext_noop(
            "Patrol sizes follow the table; a patrol that grows by one after each "
            "success is an option."
        ),
    ),
)

_BY_CODE = {ruleset.code: ruleset for ruleset in (PARTISANS, TRUST_NO_ONE, WEREWOLVES)}
for _ruleset in _BY_CODE.values():
    register(_ruleset)
