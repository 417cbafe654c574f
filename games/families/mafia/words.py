"""The words of ``mafia_partisan`` (seed 004, «پارتیزان»): the engine speaks in codes
("general", "citizens", "demolisher"), players in the game's language.

Every word is translated with the context ``"mafia"``; the Persian catalogue gives the
seed's own words (ژنرال، تخریبچی، سرباز خائن، پارتیزان، بیسیمچی، سرهنگ، پرستار،
تکتیرانداز، سرباز ساده).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.kit import GameWords, Text


@dataclass(frozen=True, kw_only=True)
class Words(GameWords):
    """The platform's words and the board's own: the night's steps, the mafia's
    modes, the ways of leaving the game, the votes and the moderator's timers."""

    steps: Mapping[str, Text] = field(default_factory=dict)
    modes: Mapping[str, Text] = field(default_factory=dict)
    exits: Mapping[str, Text] = field(default_factory=dict)
    votes: Mapping[str, Text] = field(default_factory=dict)
    timers: Mapping[str, Text] = field(default_factory=dict)
    moderator: Text = ""

    def step(self, code: str | None) -> Text:
        return self.steps.get(code or "", code or "")

    def mode(self, code: str) -> Text:
        return self.modes.get(code, code)

    def exit(self, code: str) -> Text:
        return self.exits.get(code, code)

    def vote(self, code: str) -> Text:
        return self.votes.get(code, code)

    def timer(self, code: str) -> Text:
        return self.timers.get(code, code)


WORDS = Words(
    game=pgettext_lazy("mafia", "Partisan (Mafia)"),
    tagline=_(
        "Mafia with a moderator for exactly ten players: the General's mafia against "
        "the Partisan's citizens, every phone tapped at every step of the night."
    ),
    sides={
        "citizens": pgettext_lazy("mafia", "citizens"),
        "mafia": pgettext_lazy("mafia", "mafia"),
    },
    roles={
        "general": pgettext_lazy("mafia", "General"),
        "demolisher": pgettext_lazy("mafia", "Demolisher"),
        "traitor_soldier": pgettext_lazy("mafia", "Traitor soldier"),
        "partisan": pgettext_lazy("mafia", "Partisan"),
        "radio_operator": pgettext_lazy("mafia", "Radio operator"),
        "colonel": pgettext_lazy("mafia", "Colonel"),
        "nurse": pgettext_lazy("mafia", "Nurse"),
        "sniper": pgettext_lazy("mafia", "Sniper"),
        "soldier": pgettext_lazy("mafia", "Plain soldier"),
    },
    channels={
        "table": pgettext_lazy("mafia", "table"),
        "mafia": pgettext_lazy("mafia", "the mafia's channel"),
    },
    steps={
        "meet": pgettext_lazy("mafia step", "The mafia meet"),
        "code": pgettext_lazy("mafia step", "The code"),
        "partisan": pgettext_lazy("mafia step", "The Partisan's three"),
        "confer": pgettext_lazy("mafia step", "The mafia confer"),
        "demolisher": pgettext_lazy("mafia step", "The demolisher"),
        "general": pgettext_lazy("mafia step", "The mafia's action"),
        "nurse": pgettext_lazy("mafia step", "The nurse"),
        "radio": pgettext_lazy("mafia step", "The radio operator"),
        "sniper": pgettext_lazy("mafia step", "The sniper"),
        "colonel_names": pgettext_lazy("mafia step", "The colonel names two"),
        "colonel_shoots": pgettext_lazy("mafia step", "The colonel shoots"),
    },
    modes={
        "shoot": pgettext_lazy("mafia", "Shoot"),
        "slaughter": pgettext_lazy("mafia", "Slaughter"),
        "recruit": pgettext_lazy("mafia", "Recruit"),
        "pass": pgettext_lazy("mafia", "No action"),
    },
    exits={
        "night": pgettext_lazy("mafia left", "at night"),
        "kick": pgettext_lazy("mafia left", "kicked"),
        "vote": pgettext_lazy("mafia left", "voted out"),
        "colonel": pgettext_lazy("mafia left", "shot by the colonel"),
        "shot": pgettext_lazy("mafia left", "shot"),
        "slaughtered": pgettext_lazy("mafia left", "slaughtered"),
        "sniped": pgettext_lazy("mafia left", "sniped"),
        "sniper_missed": pgettext_lazy("mafia left", "sniper hit a citizen"),
        "colonel_due": pgettext_lazy("mafia left", "hit colonel's exit"),
        "kicked": pgettext_lazy("mafia left", "kicked"),
        "voted_out": pgettext_lazy("mafia left", "voted out"),
        "colonel_shot": pgettext_lazy("mafia left", "shot by the colonel"),
    },
    votes={
        "defence": pgettext_lazy("mafia", "defence vote"),
        "exit": pgettext_lazy("mafia", "exit vote"),
    },
    timers={
        "confer": pgettext_lazy("mafia timer", "the mafia's minute"),
        "colonel_speech": pgettext_lazy("mafia timer", "a speech before the colonel"),
        "defence": pgettext_lazy("mafia timer", "a defence speech"),
    },
    moderator=pgettext_lazy("mafia", "moderator"),
)


def words_for(ruleset: str) -> Words:
    """The words of a game of this family (one game today: ``mafia_partisan``)."""
    return WORDS
