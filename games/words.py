"""Each game's own words, for the pages: the engine speaks in codes ("propose",
"evil", "traitor"), players in their game's language ("командир", "срыв").

Words that differ by game are translated with a context named after the ruleset
(``pgettext_lazy("trust_no_one", "team")``), so the Russian catalogue can say
«группа» for Партизаны and «состав» for Никому не верь.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

Text = str | Promise


@dataclass(frozen=True)
class Words:
    game: Text
    tagline: Text
    leader: Text
    team: Text
    mission: Text
    missions: Text
    success_card: Text
    fail_card: Text
    mission_success: Text
    mission_fail: Text
    good: Text
    evil: Text
    roles: dict[str, Text] = field(default_factory=dict)
    # Card colours where the game has them (werewolves: black guards, red attacks).
    success_colour: Text = ""
    fail_colour: Text = ""


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
        good=pgettext_lazy("partisans", "partisans"),
        evil=pgettext_lazy("partisans", "traitors"),
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
        good=pgettext_lazy("trust_no_one", "agents"),
        evil=pgettext_lazy("trust_no_one", "spies"),
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
        good=pgettext_lazy("werewolves", "townsfolk"),
        evil=pgettext_lazy("werewolves", "werewolves"),
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
    return WORDS[ruleset].roles.get(role, role)


def side_name(ruleset: str, side: str) -> Text:
    words = WORDS[ruleset]
    return words.good if side == "good" else words.evil
