"""``mafia_partisan``: the «پارتیزان» scenario as a ruleset, with its house decisions.

Every point docs/rules.md §3 lists as left open by the seed is here: as an option of the
table (:data:`OPTIONS`, chosen by the host before the start and shown to every
player, its default the docs/rules.md decision) where another reading is a real choice a
club could make, and as a fixed sentence of :data:`HOUSE_DECISIONS` where any other
answer would be a rule the seed does not have (or would give a secret away).  The
rules read the chosen values from :class:`~.state.House`, never by option name.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import ClassVar

from games.engine.core import (
    OptionSpec,
    register,
)
from games.engine.rulesets import RulesetBase
from games.engine.text import gettext_noop
from games.families.mafia.engine import bots, rules, view
from games.families.mafia.engine.actions import Action, parse_action
from games.families.mafia.engine.roles import ROLE_CODES, SIDES, Role
from games.families.mafia.engine.state import GameState, House

__all__ = ["HOUSE_DECISIONS", "MAFIA_PARTISAN", "OPTIONS", "MafiaRuleset"]


def _bool(name: str, default: bool, label: str, help: str) -> OptionSpec:
    return OptionSpec(name, default, label, help)


OPTIONS: tuple[OptionSpec, ...] = (
    _bool(
        "chat",
        True,
        gettext_noop("Table chat"),
        gettext_noop("Players can write to each other in a chat during the day."),
    ),
    OptionSpec(
        "defence_seconds",
        60,
        gettext_noop("Defence speech (seconds)"),
        gettext_noop("How long each defended player speaks before the exit vote."),
        minimum=15,
        maximum=300,
    ),
    OptionSpec(
        "slaughters",
        1,
        gettext_noop("Slaughters per game"),
        gettext_noop("How many times the General may slaughter in a game."),
        choices=(
            (1, gettext_noop("One")),
            (2, gettext_noop("Two")),
            (0, gettext_noop("Unlimited")),
        ),
    ),
    _bool(
        "shield_counts_recruit",
        True,
        gettext_noop("A recruited soldier keeps the shield up"),
        gettext_noop(
            "The Partisan's shield stands while a plain soldier is in the game, "
            "recruited or not. Off: a recruited soldier no longer counts."
        ),
    ),
    OptionSpec(
        "inquiry_reading",
        "sides",
        gettext_noop("What an inquiry reads out"),
        gettext_noop("An inquiry of those who have left the game reads out:"),
        choices=(
            ("sides", gettext_noop("The side of each player who has left")),
            ("counts", gettext_noop("How many citizens and mafia have left")),
        ),
    ),
    OptionSpec(
        "exit_several",
        "most",
        gettext_noop("Several defended players reach the exit threshold"),
        gettext_noop("When more than one defended player has enough exit votes:"),
        choices=(
            ("most", gettext_noop("The one with most votes leaves")),
            ("all", gettext_noop("All of them leave")),
        ),
    ),
    OptionSpec(
        "exit_tie",
        "nobody",
        gettext_noop("A tie for most exit votes"),
        gettext_noop("When two or more share the most exit votes:"),
        choices=(
            ("nobody", gettext_noop("Nobody leaves")),
            ("all", gettext_noop("All of them leave")),
        ),
    ),
    OptionSpec(
        "threshold_below_four",
        2,
        gettext_noop("Votes needed with fewer than four players"),
        gettext_noop(
            "The seed gives 4 votes with 8–10 players, 3 with 6–7, 2 with 4–5; this "
            "is the number below four."
        ),
        minimum=1,
        maximum=3,
    ),
    _bool(
        "announce_recruitment",
        False,
        gettext_noop("Announce a recruitment"),
        gettext_noop(
            "The morning announcement says that the General used his recruitment "
            "(not whom he named, nor whether it worked)."
        ),
    ),
    _bool(
        "nurse_self",
        True,
        gettext_noop("The nurse may save herself"),
        gettext_noop("The nurse may choose herself as the player she saves."),
    ),
    _bool(
        "nurse_repeat",
        True,
        gettext_noop("The nurse may save the same player twice running"),
        gettext_noop("The nurse may save the same player two nights running."),
    ),
    _bool(
        "successor_shoots",
        True,
        gettext_noop("The mafia shoot after the General has left"),
        gettext_noop(
            "When the General has left, the next mafia member in the game (the "
            "demolisher, then the traitor soldier, then a recruit) shoots each "
            "night; no slaughter or recruitment. Off: the mafia's night action "
            "ends with the General."
        ),
    ),
    _bool(
        "successor_keeps_own_action",
        True,
        gettext_noop("A successor keeps his own action"),
        gettext_noop(
            "A demolisher who shoots in the General's place still disrupts too."
        ),
    ),
    OptionSpec(
        "recruit_counts_from",
        "next_night",
        gettext_noop("When a recruit reads as mafia"),
        gettext_noop(
            "From when the radio operator and the sniper see a recruited soldier as "
            "mafia:"
        ),
        choices=(
            ("next_night", gettext_noop("From the night after the recruitment")),
            ("same_night", gettext_noop("From the recruitment night itself")),
        ),
    ),
    _bool(
        "first_day_votes",
        True,
        gettext_noop("Votes on the first day"),
        gettext_noop(
            "The day after the introduction night has votes like any other day. "
            "Off: talk only."
        ),
    ),
    OptionSpec(
        "ballot",
        "many",
        gettext_noop("How votes are cast"),
        gettext_noop("In each vote a player may vote for:"),
        choices=(
            ("many", gettext_noop("Any number of candidates, themselves included")),
            ("one", gettext_noop("One candidate at most")),
        ),
    ),
    _bool(
        "blocked_woken",
        True,
        gettext_noop("A blocked player is woken as usual"),
        gettext_noop(
            "A disrupted nurse or sniper, and a suspended demolisher, are woken as "
            "usual and not told; their choice has no effect (the sniper keeps his "
            "bullet). Off: they are not woken that night."
        ),
    ),
    _bool(
        "sniper_saveable",
        False,
        gettext_noop("The nurse can save a sniper who shot a citizen"),
        gettext_noop(
            "A sniper who shot a citizen leaves unless the nurse saved him that "
            "night. Off: he leaves whatever the nurse did."
        ),
    ),
    _bool(
        "colonel_shot_shielded",
        False,
        gettext_noop("The shield stops the colonel's shot"),
        gettext_noop(
            "The Partisan's shield also stops the colonel's midday shot. Off: "
            "nothing stops it."
        ),
    ),
    _bool(
        "mafia_may_pass",
        False,
        gettext_noop("The mafia may pass a night"),
        gettext_noop(
            "Whoever announces the mafia's action may choose no action. Off: one "
            "action is required."
        ),
    ),
    OptionSpec(
        "left_recruit_reads",
        "mafia",
        gettext_noop("A recruit who has left reads as"),
        gettext_noop("An inquiry reads a recruited soldier who has left as:"),
        choices=(
            ("mafia", gettext_noop("Mafia (his side when he left)")),
            ("citizens", gettext_noop("Citizen (his card)")),
        ),
    ),
    _bool(
        "wrong_slaughter_spends",
        True,
        gettext_noop("A wrong slaughter guess uses up a slaughter"),
        gettext_noop(
            "A slaughter with a wrong role guess counts against the slaughters of "
            "the game. Off: only a correct guess counts."
        ),
    ),
    _bool(
        "demolisher_must_pick",
        False,
        gettext_noop("The demolisher must pick"),
        gettext_noop(
            "The demolisher must pick a citizen each night he acts. Off: he may "
            "pick nobody."
        ),
    ),
    _bool(
        "failed_recruit_spends",
        True,
        gettext_noop("A failed recruitment uses up the recruitment"),
        gettext_noop(
            "Naming a player who is not a plain soldier spends the one recruitment. "
            "Off: it is spent only when a soldier joins."
        ),
    ),
    OptionSpec(
        "suspension_ends",
        "colonel_left",
        gettext_noop("The demolisher's suspension ends"),
        gettext_noop(
            "A demolisher who picked the colonel is suspended until the colonel:"
        ),
        choices=(
            ("colonel_left", gettext_noop("Has left the game")),
            ("colonel_hit", gettext_noop("Has been hit by the mafia's shot")),
        ),
    ),
)
"""The table's options: one per house decision a club could take either way; the
defaults are docs/rules.md's decisions."""

HOUSE_DECISIONS: tuple[str, ...] = (
    gettext_noop(
        "Exactly ten players: the seed's one composition (three mafia, seven "
        "citizens with two plain soldiers). No last-move cards: the seed defines "
        "none and none are invented."
    ),
    gettext_noop(
        "The radio operator records his code (1 to 5) on the introduction night, "
        "when the General records his guess."
    ),
    gettext_noop(
        "The introduction night is followed by a full day (with votes unless the "
        "table says otherwise), then the first main night."
    ),
    gettext_noop(
        "At night every player in the game taps something at every step, on the "
        "same screen; only the role awake at that step makes a real choice."
    ),
    gettext_noop(
        "The demolisher picks a citizen he knows of (a recruit who has woken with "
        "the mafia cannot be picked). Picking a plain soldier or the Partisan has "
        "no effect."
    ),
    gettext_noop(
        "The mafia's target is any player in the game except the one shooting; "
        "teammates are allowed."
    ),
    gettext_noop(
        "A recruitment: the General names a player; only a plain soldier joins. "
        "The recruit is told at once and counts as mafia for the end at once; he "
        "wakes with the mafia from the next night, and that is when they learn who "
        "he is. Nobody is told at once whether the named player was a soldier."
    ),
    gettext_noop(
        "A wrong slaughter guess does nothing else; a correctly slaughtered colonel "
        "leaves at once, with no midday shot."
    ),
    gettext_noop(
        "The nurse's same player twice means two nights running; her choice counts "
        "for that rule even when it had no effect."
    ),
    gettext_noop(
        "A kicked player and a hit colonel stay in the game in every respect "
        "(they vote, count for thresholds and the end, act at night, keep the "
        "shield up) until the next night is resolved; they leave with that night's "
        "dead."
    ),
    gettext_noop(
        "The morning announcement gives two lists of names, no roles or sides: who "
        "left in the night, and whose kicks take effect."
    ),
    gettext_noop(
        "The two inquiries are the moderator's call, one a day at most, at the start "
        "of a day before the midday sleep, any timer and any vote. The reading owed "
        "after a colonel's shot opens the next day and is not one of the two."
    ),
    gettext_noop(
        "Votes are open: each ballot is shown as it is cast, like a raise of hands. "
        "The threshold is counted over the players in the game when the vote "
        "starts. One vote to send players to defence and one exit vote among the "
        "defended a day at most; the moderator may close a vote early (a missing "
        "ballot is empty)."
    ),
    gettext_noop(
        "The colonel names two other players. Warnings are recorded and shown; a "
        "kick is always the moderator's call, with or without a warning before."
    ),
    gettext_noop(
        "Citizens win when no mafia is left; the mafia win when the mafia in the "
        "game are at least as many as the citizens. This is checked after each "
        "night's resolution, after the colonel's shot and after an exit vote, not "
        "at a kick; players due to leave count as in the game."
    ),
    gettext_noop("After the game everything is shown to everyone."),
)
"""The decisions every table plays by, in plain English (the options are the rest)."""


@dataclass(frozen=True, slots=True)
class MafiaRuleset(RulesetBase):
    """The «پارتیزان» scenario as data, plus the door to its rules.

    :class:`~games.engine.rulesets.RulesetBase` hands each question to the family's
    modules (:mod:`.rules`, :mod:`.view`, :mod:`.bots`), so that
    :mod:`games.engine.core` can dispatch on ``state.ruleset`` without knowing this
    family.
    """

    rules: ClassVar[ModuleType] = rules
    views: ClassVar[ModuleType] = view
    bots: ClassVar[ModuleType] = bots

    code: str
    options: tuple[OptionSpec, ...]
    house_decisions: tuple[str, ...]
    chat_default: bool = True
    chat_optional: bool = True
    min_players: int = 10
    max_players: int = 10
    family: str = "mafia"
    sides: tuple[str, ...] = SIDES
    has_moderator: bool = True

    def __post_init__(self) -> None:
        names = [spec.name for spec in self.options]
        if sorted(names) != sorted(House.__slots__):
            raise ValueError(f"{self.code}: every house field is an option")

    @property
    def role_codes(self) -> tuple[str, ...]:
        """Every role code this game deals."""
        return ROLE_CODES

    def parse_action(self, state: GameState, action: object) -> Action:
        return parse_action(action, state.players)

    def final_roles(self, state: GameState) -> tuple[tuple[str, str], ...]:
        roles: tuple[Role, ...] = state.table.roles
        return tuple(
            (role.value, side.value)
            for role, side in zip(roles, state.sides, strict=True)
        )


MAFIA_PARTISAN = MafiaRuleset(
    code="mafia_partisan", options=OPTIONS, house_decisions=HOUSE_DECISIONS
)

_BY_CODE = {MAFIA_PARTISAN.code: MAFIA_PARTISAN}
register(MAFIA_PARTISAN)
