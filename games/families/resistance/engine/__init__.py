"""The Resistance family: ``partisans``, ``trust_no_one`` and ``werewolves``.

One set of rules (:mod:`.rules`) and three rulesets that differ only in data
(:mod:`.rulesets`).  Importing this package registers the three codes with
:mod:`games.engine.core`.
"""

from __future__ import annotations

from games.families.resistance.engine.actions import (
    Action,
    Check,
    Claim,
    Play,
    Propose,
    Shoot,
    Vote,
)
from games.families.resistance.engine.errors import (
    AlreadyPlayed,
    AlreadyVoted,
    DuplicateMember,
    FormerHolder,
    GoodCannotFail,
    NotAVoter,
    NotHolder,
    NotLeader,
    NotOnTeam,
    NotSniper,
    SelfCheck,
    SelfShot,
    WrongTeamSize,
)
from games.families.resistance.engine.oracle import Leak, Secret
from games.families.resistance.engine.rulesets import (
    PARTISANS,
    TRUST_NO_ONE,
    WEREWOLVES,
    ResistanceRuleset,
)
from games.families.resistance.engine.sides import SIDES, Side
from games.families.resistance.engine.state import GameState, Phase, Table

__all__ = [
    "PARTISANS",
    "SIDES",
    "TRUST_NO_ONE",
    "WEREWOLVES",
    "Action",
    "AlreadyPlayed",
    "AlreadyVoted",
    "Check",
    "Claim",
    "DuplicateMember",
    "FormerHolder",
    "GameState",
    "GoodCannotFail",
    "Leak",
    "NotAVoter",
    "NotHolder",
    "NotLeader",
    "NotOnTeam",
    "NotSniper",
    "Phase",
    "Play",
    "Propose",
    "ResistanceRuleset",
    "Secret",
    "SelfCheck",
    "SelfShot",
    "Shoot",
    "Side",
    "Table",
    "Vote",
    "WrongTeamSize",
]
