"""The rules of the Resistance family a move can break, one class per rule.

Every message is addressed to the player who tried the move and names only what that
player already knows (their own side, public facts), never another player's role.
The generic ones (malformed action, wrong phase, game over, no seat) live in
:mod:`games.engine.core`.
"""

from __future__ import annotations

from games.engine.core import IllegalAction, MalformedAction
from games.engine.text import gettext_noop

__all__ = [
    "AlreadyPlayed",
    "AlreadyVoted",
    "DuplicateMember",
    "FormerHolder",
    "GoodCannotFail",
    "NotAVoter",
    "NotHolder",
    "NotLeader",
    "NotOnTeam",
    "NotSniper",
    "SelfCheck",
    "SelfShot",
    "WrongTeamSize",
]


class DuplicateMember(MalformedAction):
    code = "duplicate_member"
    template = gettext_noop("A player can be on the team only once.")


class NotLeader(IllegalAction):
    code = "not_leader"
    template = gettext_noop("You are not the leader.")


class WrongTeamSize(IllegalAction):
    code = "wrong_team_size"
    template = gettext_noop(
        "This mission needs a team of exactly %(size)d players, not %(given)d."
    )


class NotAVoter(IllegalAction):
    code = "not_a_voter"
    template = gettext_noop("The leader does not vote in this game.")


class AlreadyVoted(IllegalAction):
    code = "already_voted"
    template = gettext_noop("You have already voted on this team.")


class NotOnTeam(IllegalAction):
    code = "not_on_team"
    template = gettext_noop("You are not on the team for this mission.")


class AlreadyPlayed(IllegalAction):
    code = "already_played"
    template = gettext_noop("You have already played your card for this mission.")


class GoodCannotFail(IllegalAction):
    code = "good_cannot_fail"
    template = gettext_noop("Your side can only play success.")


class NotHolder(IllegalAction):
    code = "not_holder"
    template = gettext_noop("You do not hold the check token.")


class SelfCheck(IllegalAction):
    code = "self_check"
    template = gettext_noop("You cannot check yourself.")


class FormerHolder(IllegalAction):
    code = "former_holder"
    template = gettext_noop(
        "That player has already held the check token and cannot be checked."
    )


class NotSniper(IllegalAction):
    code = "not_sniper"
    template = gettext_noop("You are not the sniper.")


class SelfShot(IllegalAction):
    code = "self_shot"
    template = gettext_noop("You cannot shoot yourself.")
