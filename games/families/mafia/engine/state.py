"""The state of a «پارتیزان» game: immutable values, nothing but data.

A :class:`GameState` is a frozen dataclass; every action makes a new one with
:func:`evolve`, which copies the instance dictionary instead of going through
``dataclasses.replace`` (a game is several hundred actions: every living player taps
at every night step).  What the deal fixed (roles, the house decisions chosen for the
table) sits in one shared :class:`Table`; the records of what happened are named
tuples, cheap to build and compare.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from games.engine.core import GameSetup, Outcome
from games.engine.states import evolve as evolve
from games.families.mafia.engine.roles import Role, Side

if TYPE_CHECKING:
    from games.families.mafia.engine.rulesets import MafiaRuleset

__all__ = [
    "INTRO_STEPS",
    "MAIN_STEPS",
    "MODES",
    "NUMBERS",
    "Day",
    "Discipline",
    "Exit",
    "Form",
    "GameState",
    "House",
    "Midday",
    "Morning",
    "NightRecord",
    "Phase",
    "Pick",
    "Reading",
    "Resolution",
    "Step",
    "Table",
    "Timer",
    "VoteRecord",
    "evolve",
]


class Phase(StrEnum):
    """What the table is doing; the value is what the view shows."""

    NIGHT = "night"
    """A night step: every living player taps; the awake role chooses."""
    DAWN = "dawn"
    """The night is over; the moderator confirms its resolution before it is told."""
    DAY = "day"
    """Talk, inquiries, the moderator's calls between votes."""
    MIDDAY = "midday"
    """A midday sleep of the hit colonel: a short night of one step."""
    VOTE = "vote"
    """A vote (to send to defence, or to leave) is open."""
    OVER = "over"


class Step(StrEnum):
    """A night (or midday sleep) step, in the seed's order."""

    MEET = "meet"
    """Introduction night 1: the mafia learn each other."""
    CODE = "code"
    """Introduction night 2: the General's guess; the radio operator's code."""
    PARTISAN = "partisan"
    """Introduction night 3: the Partisan is shown three seats."""
    CONFER = "confer"
    DEMOLISHER = "demolisher"
    GENERAL = "general"
    NURSE = "nurse"
    RADIO = "radio"
    SNIPER = "sniper"
    COLONEL_NAMES = "colonel_names"
    """First midday sleep: the hit colonel names two players."""
    COLONEL_SHOOTS = "colonel_shoots"
    """Second midday sleep: the colonel shoots one of the two."""


INTRO_STEPS = (Step.MEET, Step.CODE, Step.PARTISAN)
MAIN_STEPS = (
    Step.CONFER,
    Step.DEMOLISHER,
    Step.GENERAL,
    Step.NURSE,
    Step.RADIO,
    Step.SNIPER,
)


class Form(StrEnum):
    """The screen of a step: what every tap at it carries (awake or not)."""

    OK = "ok"
    NUMBER = "number"
    SEAT = "seat"
    PAIR = "pair"
    GENERAL = "general"


FORMS: dict[Step, Form] = {
    Step.MEET: Form.OK,
    Step.CODE: Form.NUMBER,
    Step.PARTISAN: Form.OK,
    Step.CONFER: Form.OK,
    Step.DEMOLISHER: Form.SEAT,
    Step.GENERAL: Form.GENERAL,
    Step.NURSE: Form.SEAT,
    Step.RADIO: Form.SEAT,
    Step.SNIPER: Form.SEAT,
    Step.COLONEL_NAMES: Form.PAIR,
    Step.COLONEL_SHOOTS: Form.SEAT,
}

FORM_KEYS: dict[Form, frozenset[str]] = {
    Form.OK: frozenset(),
    Form.NUMBER: frozenset({"number"}),
    Form.SEAT: frozenset({"target"}),
    Form.PAIR: frozenset({"targets"}),
    Form.GENERAL: frozenset({"mode", "target", "guess"}),
}
"""The keys (besides ``type``) of a tap at a step of each form."""

NUMBERS = (1, 2, 3, 4, 5)
"""The radio operator's code and the General's guess: a number from 1 to 5."""

SHOOT, SLAUGHTER, RECRUIT, PASS = "shoot", "slaughter", "recruit", "pass"
MODES = (SHOOT, SLAUGHTER, RECRUIT, PASS)


@dataclass(frozen=True, slots=True)
class House:
    """The house decisions chosen for this table (the options, read once at the deal).

    Each field is one option of :mod:`.rulesets`; the rules read these fields and
    never the option dict.
    """

    chat: bool
    defence_seconds: int
    slaughters: int
    """Slaughters per game; 0 means unlimited."""
    shield_counts_recruit: bool
    inquiry_reading: str
    """``"sides"``: each leaver's side; ``"counts"``: how many of each side."""
    exit_several: str
    """``"most"`` or ``"all"``: several defended players reach the exit threshold."""
    exit_tie: str
    """``"nobody"`` or ``"all"``: a tie for most exit votes."""
    threshold_below_four: int
    announce_recruitment: bool
    nurse_self: bool
    nurse_repeat: bool
    successor_shoots: bool
    successor_keeps_own_action: bool
    recruit_counts_from: str
    """``"next_night"`` or ``"same_night"``: when the radio and the sniper see a
    recruit as mafia."""
    first_day_votes: bool
    ballot: str
    """``"many"`` (any number of candidates) or ``"one"``."""
    blocked_woken: bool
    sniper_saveable: bool
    colonel_shot_shielded: bool
    mafia_may_pass: bool
    left_recruit_reads: str
    """``"mafia"`` or ``"citizens"``: an inquiry's reading of a recruit who has left."""
    wrong_slaughter_spends: bool
    demolisher_must_pick: bool
    failed_recruit_spends: bool
    suspension_ends: str
    """``"colonel_left"`` or ``"colonel_hit"``."""


@dataclass(frozen=True, slots=True)
class Table:
    """What the deal fixed: who holds which card, and the house decisions."""

    ruleset: MafiaRuleset
    setup: GameSetup
    players: int
    roles: tuple[Role, ...]
    house: House
    general: int
    demolisher: int
    traitor: int
    partisan: int
    radio: int
    colonel: int
    nurse: int
    sniper: int
    soldiers: tuple[int, ...]
    mafia: tuple[int, ...]
    """The mafia as dealt (sorted); a recruit is :attr:`GameState.recruit`."""
    partisan_sees: tuple[int, ...]
    """The two soldiers and the traitor soldier, sorted: shown to the Partisan."""


class Pick(NamedTuple):
    """One real choice made at a night step (a tap by a sleeper is not recorded).

    ``effective`` is False when the choice had no effect (a disrupted nurse or sniper,
    a suspended demolisher): the chooser is not told.  ``reading`` is the radio
    operator's answer, ``"positive"`` or ``"negative"``.
    """

    step: Step
    seat: int
    target: int | None = None
    number: int | None = None
    mode: str | None = None
    guess: str | None = None
    effective: bool = True
    reading: str | None = None


class Resolution(NamedTuple):
    """What a night comes to, computed when its last step ends and shown to the
    moderator, who confirms it before the morning announcement.

    ``exits`` pairs each leaving seat with its causes (``shot``, ``slaughtered``,
    ``sniped``, ``sniper_missed``, ``colonel_due``, ``kicked``).
    """

    night: int
    exits: tuple[tuple[int, tuple[str, ...]], ...] = ()
    colonel_hit: int | None = None
    saved: tuple[int, ...] = ()
    """Seats the nurse's save kept in the game (from the shot or the sniper)."""
    shielded: bool = False
    slaughter: tuple[int, str, bool] | None = None
    """``(target, guess, correct)``."""
    recruitment: int | None = None
    """The seat the General named for recruitment."""
    recruited: int | None = None
    """The seat that joined the mafia (a plain soldier), if any."""
    demolition: str | None = None
    """What the demolisher's pick did: a role code it hit (``nurse``, ...),
    ``"none"`` or ``"suspended"``; ``None`` without a pick."""
    suspension_began: bool = False
    sniper: str | None = None
    """``no_effect`` (the General), ``hit``, ``saved``, ``missed`` (a citizen: the
    sniper leaves), ``blocked`` (disrupted), or ``None`` (no shot)."""


class NightRecord(NamedTuple):
    """One night: the real choices in order, and (once computed) its resolution."""

    number: int
    picks: tuple[Pick, ...] = ()
    resolution: Resolution | None = None

    def pick(self, step: Step) -> Pick | None:
        for pick in self.picks:
            if pick.step is step:
                return pick
        return None


class Exit(NamedTuple):
    """A player who has left the game, when (``at`` night/day ``number``) and why."""

    seat: int
    at: str
    number: int
    causes: tuple[str, ...]


class Morning(NamedTuple):
    """The moderator's announcement at the start of a day: names only."""

    night: int
    left: tuple[int, ...]
    kicked: tuple[int, ...]
    midday: bool
    recruitment: bool | None
    """Whether a recruitment was made, when the house announces it; else ``None``."""
    colonel_reading: tuple[int, Side] | None
    """The side of the player the colonel shot the day before, as read out."""


class Reading(NamedTuple):
    """An inquiry of those who have left: each one's side as read out, in order."""

    day: int
    number: int
    entries: tuple[tuple[int, Side], ...]


class Midday(NamedTuple):
    """The hit colonel's midday of one day.

    ``stage``: ``owed`` (not begun), ``naming`` (first sleep), ``named`` (the two
    speak), ``shooting`` (second sleep), ``done``.
    """

    day: int
    colonel: int
    stage: str
    named: tuple[int, ...] = ()
    target: int | None = None
    left: bool = False


class Day(NamedTuple):
    """Where the current day stands."""

    number: int
    opened: bool = False
    """Something besides an inquiry, a warning or a kick happened: no inquiry now."""
    inquiry: bool = False
    defence_done: bool = False
    defended: tuple[int, ...] = ()
    exit_done: bool = False


class VoteRecord(NamedTuple):
    """A vote, open or finished.  Ballots are public as cast (a raise of hands)."""

    kind: str
    """``defence`` or ``exit``."""
    day: int
    candidates: tuple[int, ...]
    voters: tuple[int, ...]
    threshold: int
    ballots: tuple[tuple[int, ...] | None, ...]
    """One entry per seat; ``None``: not cast (or not a voter)."""
    chosen: tuple[int, ...] = ()
    """Defence: the defended; exit: who left."""
    closed_early: bool = False

    def counts(self) -> dict[int, int]:
        tally = dict.fromkeys(self.candidates, 0)
        for ballot in self.ballots:
            if ballot:
                for candidate in ballot:
                    tally[candidate] += 1
        return tally


class Timer(NamedTuple):
    """A countdown the moderator started: its length and subject, and the step of
    the action that started it (the platform counts from that action's time)."""

    kind: str
    subject: int | None
    seconds: int
    step: int


class Discipline(NamedTuple):
    """A warning or a kick the moderator gave."""

    day: int
    seat: int
    kind: str


@dataclass(frozen=True)
class GameState:
    """Where a game stands.  Compare two states with ``==``: replay relies on it."""

    table: Table
    step: int
    turn: int
    phase: Phase
    night: int
    """The current or last night: 0 is the introduction night."""
    sleep: Step | None
    """The step of the current night or midday sleep."""
    awake: frozenset[int]
    """Who chooses at this step (secret: the moderator's ledger shows it)."""
    tapped: frozenset[int]
    """Who has acted at this step."""
    in_game: tuple[bool, ...]
    sides: tuple[Side, ...]
    """Each seat's side now (a recruit's changes)."""
    exits: tuple[Exit, ...]
    kicks: frozenset[int]
    """Kicked players who leave with the next night's dead."""
    warnings: tuple[int, ...]
    discipline: tuple[Discipline, ...]
    code: int | None
    guess: int | None
    recruit: int | None
    recruit_night: int
    recruit_met: bool
    """The recruit has woken with the mafia: they know him, he knows them."""
    recruitment_used: bool
    slaughters_used: int
    bullet: bool
    suspended_since: int
    """The night the demolisher hit the colonel (0: never)."""
    colonel_hit_night: int
    """The night an ordinary shot hit the colonel (0: never); he leaves the next."""
    last_saved: int | None
    current: NightRecord | None
    nights: tuple[NightRecord, ...]
    day: Day | None
    midday: Midday | None
    middays: tuple[Midday, ...]
    colonel_reading: int | None
    """The seat the colonel shot, whose side opens the next day."""
    inquiries_left: int
    readings: tuple[Reading, ...]
    mornings: tuple[Morning, ...]
    vote: VoteRecord | None
    votes: tuple[VoteRecord, ...]
    timer: Timer | None
    outcome: Outcome | None

    @property
    def ruleset(self) -> MafiaRuleset:
        """The ruleset; the module-level API dispatches on it."""
        return self.table.ruleset

    @property
    def players(self) -> int:
        return self.table.players

    @property
    def house(self) -> House:
        return self.table.house
