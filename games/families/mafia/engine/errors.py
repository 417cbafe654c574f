"""The rules of the «پارتیزان» scenario a move can break, one class per rule.

Every message speaks to the seat that tried the move about itself and public facts
only: a sleeper's tap is refused for reasons every player's screen shares, and a
role's own choice is refused in words only that role reads.  The generic refusals
(malformed action, no such seat, game over) live in :mod:`games.engine.core`.
"""

from __future__ import annotations

from games.engine.core import IllegalAction, MalformedAction, WrongPhase
from games.engine.text import gettext_noop

__all__ = [
    "AlreadyActed",
    "AlreadyKicked",
    "AlreadyVoted",
    "ChoiceRequired",
    "DayOnly",
    "DefenceVoteDone",
    "DuplicateTarget",
    "ExitVoteDone",
    "ExitVoteFirst",
    "GuessMismatch",
    "HasLeft",
    "InquiryAlreadyToday",
    "InquiryTooLate",
    "MiddayFirst",
    "ModeratorOnly",
    "MustChoose",
    "NoExitVote",
    "NoInquiriesLeft",
    "NoMidday",
    "NoSleepNow",
    "NoVoteFirstDay",
    "NoVoteOpen",
    "NobodyHasLeft",
    "NotACandidate",
    "NotACitizen",
    "NotATarget",
    "NotAwake",
    "NotDawn",
    "NotDay",
    "NotNamed",
    "NurseRepeat",
    "NurseSelf",
    "OneCandidateOnly",
    "PassNotAllowed",
    "PlayersOnly",
    "RecruitmentNotAllowed",
    "SelfTarget",
    "SlaughterNotAllowed",
    "TargetLeft",
    "TimerNotNow",
    "TimerSubject",
    "WrongCount",
    "WrongForm",
]


# --- shape (parse) --------------------------------------------------------------------


class DuplicateTarget(MalformedAction):
    code = "duplicate_target"
    template = gettext_noop("A player can be named only once.")


class GuessMismatch(MalformedAction):
    code = "guess_mismatch"
    template = gettext_noop(
        "A slaughter names a player and a role; a shot or a recruitment names a "
        "player only; passing names nobody."
    )


# --- who may act ----------------------------------------------------------------------


class ModeratorOnly(IllegalAction):
    code = "moderator_only"
    template = gettext_noop("Only the moderator can do that.")


class PlayersOnly(IllegalAction):
    code = "players_only"
    template = gettext_noop("The moderator does not play: that is a player's move.")


class HasLeft(IllegalAction):
    code = "has_left"
    template = gettext_noop("You have left the game.")


# --- night steps and midday sleeps ----------------------------------------------------


class NoSleepNow(WrongPhase):
    code = "no_sleep_now"
    template = gettext_noop("Nobody is asleep now: there is no night step to tap.")


class NotAwake(IllegalAction):
    """A real choice sent by a seat that sleeps at this step."""

    code = "not_awake"
    template = gettext_noop("You have no choice to make at this step: just tap.")


class MustChoose(IllegalAction):
    """A sleeper's tap sent by the seat that is awake at this step."""

    code = "must_choose"
    template = gettext_noop("You are awake at this step: make your choice.")


class AlreadyActed(IllegalAction):
    code = "already_acted"
    template = gettext_noop("You have already acted at this step.")


class WrongForm(IllegalAction):
    code = "wrong_form"
    template = gettext_noop("This step asks for something else (%(form)s).")


class ChoiceRequired(IllegalAction):
    code = "choice_required"
    template = gettext_noop("Pick someone: this step cannot be skipped.")


class TargetLeft(IllegalAction):
    code = "target_left"
    template = gettext_noop("Player %(target)s has left the game.")


class NotATarget(IllegalAction):
    code = "not_a_target"
    template = gettext_noop("Player %(target)s cannot be picked at this step.")


class SelfTarget(IllegalAction):
    code = "self_target"
    template = gettext_noop("You cannot pick yourself here.")


class NotACitizen(IllegalAction):
    code = "not_a_citizen"
    template = gettext_noop("Pick a citizen: player %(target)s is on your side.")


class NurseSelf(IllegalAction):
    code = "nurse_self"
    template = gettext_noop("At this table the nurse cannot save herself.")


class NurseRepeat(IllegalAction):
    code = "nurse_repeat"
    template = gettext_noop(
        "At this table you cannot save the same player two nights running."
    )


class WrongCount(IllegalAction):
    code = "wrong_count"
    template = gettext_noop("Name exactly %(count)d players.")


class NotNamed(IllegalAction):
    code = "not_named"
    template = gettext_noop("Shoot one of the two players you named.")


class RecruitmentNotAllowed(IllegalAction):
    code = "recruitment_not_allowed"
    template = gettext_noop(
        "Recruitment is not available now: once per game, by the General, after "
        "the demolisher or the traitor soldier has left."
    )


class SlaughterNotAllowed(IllegalAction):
    code = "slaughter_not_allowed"
    template = gettext_noop("Slaughter is not available now.")


class PassNotAllowed(IllegalAction):
    code = "pass_not_allowed"
    template = gettext_noop("The mafia must act tonight: passing is not allowed.")


# --- votes ----------------------------------------------------------------------------


class NoVoteOpen(WrongPhase):
    code = "no_vote_open"
    template = gettext_noop("No vote is open.")


class AlreadyVoted(IllegalAction):
    code = "already_voted"
    template = gettext_noop("You have already voted in this vote.")


class NotACandidate(IllegalAction):
    code = "not_a_candidate"
    template = gettext_noop("Player %(target)s is not a candidate in this vote.")


class OneCandidateOnly(IllegalAction):
    code = "one_candidate_only"
    template = gettext_noop("At this table you vote for one candidate at most.")


# --- the moderator --------------------------------------------------------------------


class NotDawn(WrongPhase):
    code = "nothing_to_confirm"
    template = gettext_noop("There is no night resolution to confirm now.")


class NotDay(WrongPhase):
    code = "not_day"
    template = gettext_noop(
        "That is done during the day, outside a vote and a midday sleep."
    )


class NoInquiriesLeft(IllegalAction):
    code = "no_inquiries_left"
    template = gettext_noop("Both inquiries of this game have been used.")


class InquiryTooLate(IllegalAction):
    code = "inquiry_too_late"
    template = gettext_noop(
        "An inquiry is called at the start of a day, before the midday sleep, any "
        "timer and any vote."
    )


class InquiryAlreadyToday(IllegalAction):
    code = "inquiry_already_today"
    template = gettext_noop("An inquiry has already been called today.")


class NobodyHasLeft(IllegalAction):
    code = "nobody_has_left"
    template = gettext_noop("Nobody has left the game yet: there is nothing to read.")


class NoMidday(IllegalAction):
    code = "no_midday"
    template = gettext_noop("There is no midday sleep to hold now.")


class MiddayFirst(IllegalAction):
    code = "midday_first"
    template = gettext_noop(
        "The colonel's midday shot comes first, before any vote and the night."
    )


class NoVoteFirstDay(IllegalAction):
    code = "no_vote_first_day"
    template = gettext_noop("At this table there is no vote on the first day.")


class DefenceVoteDone(IllegalAction):
    code = "defence_vote_done"
    template = gettext_noop("Today's vote to send players to defence has been held.")


class NoExitVote(IllegalAction):
    code = "no_exit_vote"
    template = gettext_noop(
        "An exit vote follows a defence vote that sent someone to defence."
    )


class ExitVoteDone(IllegalAction):
    code = "exit_vote_done"
    template = gettext_noop("Today's exit vote has been held.")


class ExitVoteFirst(IllegalAction):
    code = "exit_vote_first"
    template = gettext_noop(
        "Players are in defence: the exit vote comes before the night."
    )


class TimerNotNow(IllegalAction):
    code = "timer_not_now"
    template = gettext_noop("That timer cannot be started now.")


class TimerSubject(IllegalAction):
    code = "timer_subject"
    template = gettext_noop("That timer is not for player %(target)s now.")


class DayOnly(WrongPhase):
    code = "day_only"
    template = gettext_noop("Warnings and kicks are given during the day.")


class AlreadyKicked(IllegalAction):
    code = "already_kicked"
    template = gettext_noop("Player %(target)s has already been kicked.")
