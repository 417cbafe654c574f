"""Each game's own words, for the pages: the engine speaks in codes ("propose",
"evil", "traitor"), players in their game's language ("командир", "срыв").

Words that differ by game are translated with a context named after the ruleset
(``pgettext_lazy("trust_no_one", "team")``), so the Russian catalogue can say
«группа» for Партизаны and «состав» for Никому не верь.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import npgettext_lazy, pgettext_lazy

from games.kit import GameWords, Text


@dataclass(frozen=True)
class Phrases:
    """Sentences that name the game's own things. Each is written out per game with a
    literal context so makemessages finds it; the plural ones take their count from
    the ``n`` key of the % mapping."""

    three_successes: Text
    three_failures: Text
    five_rejections: Text
    fails: Text
    fails_still_success: Text
    mission_aria: Text
    log_title: Text
    you_pick: Text
    leader_picking: Text
    vote_on: Text
    table_votes_on: Text
    you_on_mission: Text
    team_on_mission: Text
    on_team: Text
    # The replay's step labels.
    dealt: Text
    proposed: Text
    approved: Text
    rejected: Text
    new_leader: Text
    card_played: Text
    mission_succeeds: Text
    mission_fails: Text
    # The board's own.
    propose_button: Text
    mission_number: Text
    claimed: Text
    good_one: Text
    evil_one: Text
    cards_secret: Text


PHRASES: dict[str, Phrases] = {
    "partisans": Phrases(
        three_successes=pgettext_lazy("partisans", "three operations succeeded"),
        three_failures=pgettext_lazy("partisans", "three operations failed"),
        five_rejections=pgettext_lazy(
            "partisans", "five groups in a row were turned down"
        ),
        fails=npgettext_lazy("partisans", "%(n)d sabotage", "%(n)d sabotages", "n"),
        fails_still_success=npgettext_lazy(
            "partisans",
            "%(n)d sabotage, still a success",
            "%(n)d sabotages, still a success",
            "n",
        ),
        mission_aria=pgettext_lazy(
            "partisans", "Operation %(number)d: a group of %(size)d"
        ),
        log_title=pgettext_lazy(
            "partisans", "Operation %(mission)d, group %(attempt)d"
        ),
        you_pick=npgettext_lazy(
            "partisans",
            "You are the commander: pick %(n)d player for the group",
            "You are the commander: pick %(n)d players for the group",
            "n",
        ),
        leader_picking=pgettext_lazy(
            "partisans", "Commander %(leader)s is picking a group"
        ),
        vote_on=pgettext_lazy("partisans", "Vote on %(leader)s's group: %(team)s"),
        table_votes_on=pgettext_lazy(
            "partisans", "The table votes on %(leader)s's group: %(team)s"
        ),
        you_on_mission=pgettext_lazy(
            "partisans", "You are on the operation: play your card"
        ),
        team_on_mission=pgettext_lazy("partisans", "The group is on the operation"),
        on_team=pgettext_lazy("partisans", "in the group"),
        dealt=pgettext_lazy(
            "partisans", "The cards are dealt; %(name)s is the first commander."
        ),
        proposed=pgettext_lazy(
            "partisans",
            "Operation %(mission)d, group %(attempt)d: "
            "commander %(leader)s proposes %(team)s.",
        ),
        approved=pgettext_lazy(
            "partisans", "The group is approved: %(yes)d for, %(no)d against."
        ),
        rejected=pgettext_lazy(
            "partisans", "The group is turned down: %(yes)d for, %(no)d against."
        ),
        new_leader=pgettext_lazy("partisans", "%(name)s is the commander now."),
        card_played=pgettext_lazy("partisans", "%(name)s plays a card."),
        mission_succeeds=npgettext_lazy(
            "partisans",
            "Operation %(mission)d succeeds with %(fails)d sabotage.",
            "Operation %(mission)d succeeds with %(fails)d sabotages.",
            "fails",
        ),
        mission_fails=npgettext_lazy(
            "partisans",
            "Operation %(mission)d fails with %(fails)d sabotage.",
            "Operation %(mission)d fails with %(fails)d sabotages.",
            "fails",
        ),
        propose_button=pgettext_lazy("partisans", "Propose this group"),
        mission_number=pgettext_lazy("partisans", "Operation %(n)d"),
        claimed=pgettext_lazy(
            "partisans", "%(holder)s announced: %(target)s is %(one)s."
        ),
        good_one=pgettext_lazy("partisans", "one of the partisans"),
        evil_one=pgettext_lazy("partisans", "one of the traitors"),
        cards_secret=pgettext_lazy(
            "partisans",
            "Nobody will ever see which card you played: only the number of "
            "sabotages is shown.",
        ),
    ),
    "trust_no_one": Phrases(
        three_successes=pgettext_lazy("trust_no_one", "three operations completed"),
        three_failures=pgettext_lazy("trust_no_one", "three operations sabotaged"),
        five_rejections=pgettext_lazy(
            "trust_no_one", "five teams in a row were rejected"
        ),
        fails=npgettext_lazy("trust_no_one", "%(n)d sabotage", "%(n)d sabotages", "n"),
        fails_still_success=npgettext_lazy(
            "trust_no_one",
            "%(n)d sabotage, still completed",
            "%(n)d sabotages, still completed",
            "n",
        ),
        mission_aria=pgettext_lazy(
            "trust_no_one", "Operation %(number)d: a team of %(size)d"
        ),
        log_title=pgettext_lazy(
            "trust_no_one", "Operation %(mission)d, team %(attempt)d"
        ),
        you_pick=npgettext_lazy(
            "trust_no_one",
            "You are the leader: pick %(n)d player for the team",
            "You are the leader: pick %(n)d players for the team",
            "n",
        ),
        leader_picking=pgettext_lazy(
            "trust_no_one", "Leader %(leader)s is picking a team"
        ),
        vote_on=pgettext_lazy("trust_no_one", "Vote on %(leader)s's team: %(team)s"),
        table_votes_on=pgettext_lazy(
            "trust_no_one", "The table votes on %(leader)s's team: %(team)s"
        ),
        you_on_mission=pgettext_lazy(
            "trust_no_one", "You are on the operation: complete it or sabotage it"
        ),
        team_on_mission=pgettext_lazy("trust_no_one", "The team is on the operation"),
        on_team=pgettext_lazy("trust_no_one", "in the team"),
        dealt=pgettext_lazy(
            "trust_no_one", "The cards are dealt; %(name)s is the first leader."
        ),
        proposed=pgettext_lazy(
            "trust_no_one",
            "Operation %(mission)d, team %(attempt)d: "
            "leader %(leader)s proposes %(team)s.",
        ),
        approved=pgettext_lazy(
            "trust_no_one", "The team is approved: %(yes)d for, %(no)d against."
        ),
        rejected=pgettext_lazy(
            "trust_no_one", "The team is rejected: %(yes)d for, %(no)d against."
        ),
        new_leader=pgettext_lazy("trust_no_one", "%(name)s is the leader now."),
        card_played=pgettext_lazy("trust_no_one", "%(name)s has decided."),
        mission_succeeds=npgettext_lazy(
            "trust_no_one",
            "Operation %(mission)d is completed with %(fails)d sabotage.",
            "Operation %(mission)d is completed with %(fails)d sabotages.",
            "fails",
        ),
        mission_fails=npgettext_lazy(
            "trust_no_one",
            "Operation %(mission)d is sabotaged: %(fails)d sabotage.",
            "Operation %(mission)d is sabotaged: %(fails)d sabotages.",
            "fails",
        ),
        propose_button=pgettext_lazy("trust_no_one", "Propose this team"),
        mission_number=pgettext_lazy("trust_no_one", "Operation %(n)d"),
        claimed=pgettext_lazy(
            "trust_no_one", "%(holder)s announced: %(target)s is %(one)s."
        ),
        good_one=pgettext_lazy("trust_no_one", "one of the agents"),
        evil_one=pgettext_lazy("trust_no_one", "one of the spies"),
        cards_secret=pgettext_lazy(
            "trust_no_one",
            "Nobody will ever see which card you played: only the number of "
            "sabotages is shown.",
        ),
    ),
    "werewolves": Phrases(
        three_successes=pgettext_lazy("werewolves", "three curses were lifted"),
        three_failures=pgettext_lazy("werewolves", "the townsfolk were devoured"),
        five_rejections=pgettext_lazy(
            "werewolves", "five patrols in a row were turned down"
        ),
        fails=npgettext_lazy("werewolves", "%(n)d attack", "%(n)d attacks", "n"),
        fails_still_success=npgettext_lazy(
            "werewolves",
            "%(n)d attack, still lifted",
            "%(n)d attacks, still lifted",
            "n",
        ),
        mission_aria=pgettext_lazy(
            "werewolves", "Night %(number)d: a patrol of %(size)d"
        ),
        log_title=pgettext_lazy("werewolves", "Night %(mission)d, patrol %(attempt)d"),
        you_pick=npgettext_lazy(
            "werewolves",
            "You are the headman: send %(n)d player on patrol",
            "You are the headman: send %(n)d players on patrol",
            "n",
        ),
        leader_picking=pgettext_lazy(
            "werewolves", "Headman %(leader)s is choosing a patrol"
        ),
        vote_on=pgettext_lazy("werewolves", "Vote on %(leader)s's patrol: %(team)s"),
        table_votes_on=pgettext_lazy(
            "werewolves", "The town votes on %(leader)s's patrol: %(team)s"
        ),
        you_on_mission=pgettext_lazy(
            "werewolves",
            "You are on patrol: play a black card (guard) or a red one (attack)",
        ),
        team_on_mission=pgettext_lazy("werewolves", "The patrol is out in the night"),
        on_team=pgettext_lazy("werewolves", "on patrol"),
        dealt=pgettext_lazy(
            "werewolves", "The cards are dealt; %(name)s is the first headman."
        ),
        proposed=pgettext_lazy(
            "werewolves",
            "Night %(mission)d, patrol %(attempt)d: headman %(leader)s sends %(team)s.",
        ),
        approved=pgettext_lazy(
            "werewolves", "The patrol is approved: %(yes)d for, %(no)d against."
        ),
        rejected=pgettext_lazy(
            "werewolves", "The patrol is turned down: %(yes)d for, %(no)d against."
        ),
        new_leader=pgettext_lazy("werewolves", "%(name)s is the headman now."),
        card_played=pgettext_lazy("werewolves", "%(name)s lays a card."),
        mission_succeeds=npgettext_lazy(
            "werewolves",
            "Night %(mission)d: a curse is lifted, with %(fails)d attack.",
            "Night %(mission)d: a curse is lifted, with %(fails)d attacks.",
            "fails",
        ),
        mission_fails=npgettext_lazy(
            "werewolves",
            "Night %(mission)d: the werewolves strike, %(fails)d attack.",
            "Night %(mission)d: the werewolves strike, %(fails)d attacks.",
            "fails",
        ),
        propose_button=pgettext_lazy("werewolves", "Send this patrol"),
        mission_number=pgettext_lazy("werewolves", "Night %(n)d"),
        claimed=pgettext_lazy(
            "werewolves", "%(holder)s announced: %(target)s is %(one)s."
        ),
        good_one=pgettext_lazy("werewolves", "one of the townsfolk"),
        evil_one=pgettext_lazy("werewolves", "one of the werewolves"),
        cards_secret=pgettext_lazy(
            "werewolves",
            "Nobody will ever see which card you laid: only the number of attacks "
            "is shown.",
        ),
    ),
}


def phrases_for(ruleset: str) -> Phrases:
    return PHRASES[ruleset]


@dataclass(frozen=True, kw_only=True)
class Words(GameWords):
    """A Resistance game's words: the platform's (name, sides, roles, channels) and
    the board's own (leader, team, mission, cards...)."""

    leader: Text
    team: Text
    mission: Text
    missions: Text
    success_card: Text
    fail_card: Text
    mission_success: Text
    mission_fail: Text
    fail_cards: Text
    """The fail cards of a mission, as a column heading ("Sabotages")."""
    # Card colours where the game has them (werewolves: black guards, red attacks).
    success_colour: Text = ""
    fail_colour: Text = ""

    @property
    def good(self) -> Text:
        return self.side("good")

    @property
    def evil(self) -> Text:
        return self.side("evil")


WORDS: dict[str, Words] = {
    "partisans": Words(
        game=_("Partisans"),
        tagline=_(
            "The classic: partisans run five operations while traitors hidden "
            "among them sabotage."
        ),
        leader=pgettext_lazy("partisans", "commander"),
        team=pgettext_lazy("partisans", "group"),
        mission=pgettext_lazy("partisans", "operation"),
        missions=pgettext_lazy("partisans", "Operations"),
        success_card=pgettext_lazy("partisans", "Success"),
        fail_card=pgettext_lazy("partisans", "Sabotage"),
        mission_success=pgettext_lazy("partisans", "success"),
        mission_fail=pgettext_lazy("partisans", "failed"),
        fail_cards=pgettext_lazy("partisans", "Sabotages"),
        sides={
            "good": pgettext_lazy("partisans", "partisans"),
            "evil": pgettext_lazy("partisans", "traitors"),
        },
        channels={"evil": pgettext_lazy("partisans", "the traitors' channel")},
        roles={
            "partisan": pgettext_lazy("partisans", "Partisan"),
            "traitor": pgettext_lazy("partisans", "Traitor"),
            "scout": pgettext_lazy("partisans", "Scout"),
            "sniper": pgettext_lazy("partisans", "Sniper"),
        },
    ),
    "trust_no_one": Words(
        game=_("Trust No One"),
        tagline=_("Agents and spies, strict secrecy, all talk by voice."),
        leader=pgettext_lazy("trust_no_one", "leader"),
        team=pgettext_lazy("trust_no_one", "team"),
        mission=pgettext_lazy("trust_no_one", "operation"),
        missions=pgettext_lazy("trust_no_one", "Operations"),
        success_card=pgettext_lazy("trust_no_one", "Complete"),
        fail_card=pgettext_lazy("trust_no_one", "Sabotage"),
        mission_success=pgettext_lazy("trust_no_one", "completed"),
        mission_fail=pgettext_lazy("trust_no_one", "sabotaged"),
        fail_cards=pgettext_lazy("trust_no_one", "Sabotages"),
        sides={
            "good": pgettext_lazy("trust_no_one", "agents"),
            "evil": pgettext_lazy("trust_no_one", "spies"),
        },
        channels={"evil": pgettext_lazy("trust_no_one", "the spies' channel")},
        roles={
            "agent": pgettext_lazy("trust_no_one", "Agent"),
            "spy": pgettext_lazy("trust_no_one", "Spy"),
        },
    ),
    "werewolves": Words(
        game=_("Werewolves"),
        tagline=_(
            "The headman sends patrols out at night; werewolves among them attack "
            "the town."
        ),
        leader=pgettext_lazy("werewolves", "headman"),
        team=pgettext_lazy("werewolves", "patrol"),
        mission=pgettext_lazy("werewolves", "patrol"),
        missions=pgettext_lazy("werewolves", "Patrols"),
        success_card=pgettext_lazy("werewolves", "Guard"),
        fail_card=pgettext_lazy("werewolves", "Attack"),
        mission_success=pgettext_lazy("werewolves", "curse lifted"),
        mission_fail=pgettext_lazy("werewolves", "townsfolk killed"),
        fail_cards=pgettext_lazy("werewolves", "Attacks"),
        sides={
            "good": pgettext_lazy("werewolves", "townsfolk"),
            "evil": pgettext_lazy("werewolves", "werewolves"),
        },
        channels={"evil": pgettext_lazy("werewolves", "the werewolves' channel")},
        roles={
            "villager": pgettext_lazy("werewolves", "Townsperson"),
            "werewolf": pgettext_lazy("werewolves", "Werewolf"),
        },
        success_colour=_("black"),
        fail_colour=_("red"),
    ),
}


def words_for(ruleset: str) -> Words:
    return WORDS[ruleset]


def role_name(ruleset: str, role: str) -> Text:
    return WORDS[ruleset].role(role)


def side_name(ruleset: str, side: str) -> Text:
    return WORDS[ruleset].side(side)
