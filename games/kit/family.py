"""A game family as the platform sees it, and the registry where the platform finds it.

The rules of a game are its engine (``games.engine``, pure Python). Everything else
that knows one family lives in the family's folder, behind one :class:`Family`: its
code, its words, and a few small parts, each with defaults, so that a family fills in
only the parts its games use:

- :class:`LivePage`: the regions of a table's page and the board they show;
- :class:`MoveCodec`: a page's form fields as an engine action;
- :class:`Records`: the family's own database records of each move;
- :class:`History`: the log's sentences, the replay's steps, the review page;
- :class:`Stats`: the history list's filters and a player's figures;
- :class:`Export`: the JSON export of a finished game and its replay;
- :class:`Rules`: the family's part of the Rules page;
- :class:`Programs`: the pydantic shapes of a view and a move for the API.

The family's app registers its ``Family`` in ``ready()``; the platform reaches a family
only through :func:`family_of` and never names a family's fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils.functional import Promise
from pydantic import BaseModel, RootModel

from games import engine
from games.kit.moves import field_one
from games.kit.regions import Region

if TYPE_CHECKING:
    from django.db.models import Q, QuerySet

    from games.kit.records import States
    from games.models import Game, Seat

Text = str | Promise
"""A translatable string: lazy until rendered in the reader's language."""


@dataclass(frozen=True)
class GameWords:
    """The words the platform needs for any game: its name, a one-line description,
    and the names of its sides, roles and chat channels (codes from the engine)."""

    game: Text
    tagline: Text
    sides: Mapping[str, Text] = field(default_factory=dict)
    roles: Mapping[str, Text] = field(default_factory=dict)
    channels: Mapping[str, Text] = field(default_factory=dict)

    def side(self, code: str) -> Text:
        return self.sides.get(code, code)

    def role(self, code: str) -> Text:
        return self.roles.get(code, code)

    def channel(self, code: str) -> Text:
        return self.channels.get(code, code)


@dataclass(frozen=True, kw_only=True)
class Ratio:
    """ "``count`` of ``total``", each number linked to the list of its games."""

    count: int
    total: int
    count_url: str
    total_url: str

    @property
    def rate(self) -> float | None:
        return self.count / self.total if self.total else None

    @property
    def percent(self) -> str:
        rate = self.rate
        return "—" if rate is None else f"{round(rate * 100)}%"


@dataclass(frozen=True, kw_only=True)
class Figure(Ratio):
    """One of a family's figures on a player's profile."""

    key: str
    caption: Text


@dataclass(frozen=True)
class Odds:
    """What a family's ``History.analysis`` gives for one perspective of one game
    (the history's analysis board draws it)."""

    steps: Sequence[Sequence[float]]
    """Per step (0: the deal), per seat, the probability that the seat is evil."""
    marks: Sequence[Text]
    """Per step, the name of the stage it begins ("" where it begins none); step 0
    always begins the first."""
    evil_one: Text
    """How a sentence names a member of the evil side ("one of the spies")."""
    good_one: Text
    """And of the good side ("one of the agents")."""
    explanation: Text
    """What a cell means and what the odds assume, for this family."""
    evil_percent: Text
    """A seat's chance of being on the evil side, with ``%(n)s`` for the whole
    percent ("%(n)s%% evil")."""


# --- the parts ---------------------------------------------------------------------


class LivePage:
    """A table's live page: its regions and the board their templates read."""

    regions: tuple[Region, ...] = ()
    """The regions of the page (``games.kit.regions.Region``: each a template and
    the view's keys and table's facts it reads; its template gets ``board``, this
    part's :meth:`board` of those keys)."""

    def board(
        self, view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool
    ) -> Any:
        """What a region shows of ``view``: built from the keys the region declares
        (``Region.reads``; reading any other raises) and nothing else (no database).
        ``playing`` is False once a game is abandoned: nothing may be offered then.
        The default: the view itself."""
        return view

    def countdown(self, view: Mapping[str, Any]) -> tuple[int, int] | None:
        """A countdown a move started and every screen shows (a moderator's speech
        timer): ``(step, seconds)``, the engine step at which that move was made and
        its length; ``None`` without one. The platform counts from that action's
        time in the log, so a reload or a restart shows the same end."""
        return None

    def table_voices(self, view: Mapping[str, Any]) -> tuple[int, ...]:
        """The seats that may speak to the whole table in the voice room now, from
        public facts of ``view`` only (its phase, who is out of the game), so every
        viewer's view gives the same answer (``voice.rights``). The moderator, who
        is no seat, is not among them. Default: every seat, always."""
        return tuple(range(int(view["players"])))


class MoveCodec:
    """A page's form fields (a QueryDict, or the same fields sent as JSON over the
    socket) as the engine's action."""

    def parse(self, fields: Any) -> dict[str, Any]:
        """The action the fields ask for; raises ``games.kit.NotAMove``. The
        default reads the ``action`` field as the move's ``type`` and nothing else."""
        return {"type": field_one(fields, "action")}

    def complete(
        self, action: dict[str, Any], legal: Sequence[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """The action to apply, given the seat's legal moves now (a page may leave
        to the server what only the seat's secrets decide). The default: as it came."""
        return action

    def private_refusal(self, action: Mapping[str, Any]) -> bool:
        """Whether the engine's refusal of ``action`` is said on the seat's card
        only (``games.errors.GameError.private``)."""
        return False


class Records:
    """The family's own database records, written from the engine's events."""

    def project(
        self,
        *,
        game: Game,
        seats: Mapping[int, Seat],
        events: Sequence[engine.Event],
        state: Any,
    ) -> None:
        """Write the records of one move (or the deal) in the move's transaction.
        ``seats`` maps positions to seats; ``state`` is the state after the move."""

    def admin_action(self, payload: dict[str, Any], finished: bool) -> dict[str, Any]:
        """A logged move as the admin may show it, with every secret it carries
        blanked (a vote until the game is over, a card forever...)."""
        return payload


class History:
    """The game told afterwards: the log's sentences, the replay and the review."""

    review_template: ClassVar[str] = "games/nothing.html"
    """The template of the family's part of a finished game's review page (by
    default none: the platform's reveal and replay only)."""
    replay_notes: ClassVar[Mapping[str, Text]] = {}
    """The replay's line under the step for a perspective, where the platform's
    does not fit the family: ``everyone``, ``own`` (a player watching their own
    seat), ``other`` (someone else's seat)."""

    def sentence(
        self, event: engine.Event, ruleset: str, names: Mapping[int, str]
    ) -> str:
        """One public event in the game's own words ("" to leave it out)."""
        return ""

    def step_kind(self, events: Sequence[engine.Event]) -> tuple[str, bool]:
        """``(kind, milestone)`` of a replay step from its public events: the kind
        names the move; milestones are the steps the replay's quick links jump to."""
        return "", False

    def review(
        self, game: Game, names: Mapping[int, str], states: States
    ) -> dict[str, Any]:
        """The context of the family's part of a finished game's review page, from
        its records or from the game's states (``states.load_state(game)``)."""
        return {}

    def analysis(self, game: Game, seat: int | None, states: States) -> Odds | None:
        """The analysis board's odds of a finished game: at every step, the chance
        that each seat is evil as everyone could know it from public facts
        (``seat=None``) or as ``seat`` knew it. ``None``: the family has no exact
        analysis (docs/analysis.md says why)."""
        return None


class Stats:
    """The history list's filters and a player's figures."""

    facts: ClassVar[Mapping[str, Text]] = {}
    """The history list's ``fact`` filters: code -> meaning."""

    def condition(self, fact: str, player_id: int) -> Q:
        """The games behind one of the family's figures of ``player_id``."""
        raise NotImplementedError

    def figures(self, seats: QuerySet[Seat], url: Callable[..., str]) -> list[Figure]:
        """The figures over a player's ``seats`` (in the games a viewer may see);
        ``url(fact=...)`` links a figure to its games."""
        return []


class Export:
    """The JSON export of a finished game, and its replay (``rebuild``)."""

    def records(
        self, game: Game, seats: Sequence[Seat], states: States
    ) -> dict[str, Any]:
        """The family's records for the export, merged into its top level."""
        return {}

    def setup(self, setup: engine.GameSetup) -> dict[str, Any]:
        """The deal as the export shows it. By default the engine's setup, seed
        included: with the action log it replays the whole game. A family whose deal
        decides something that stays secret forever leaves the seed out and deals
        stand-ins in :meth:`start`."""
        return setup.to_dict()

    def start(self, export: Mapping[str, Any]) -> Any:
        """The state an export's replay starts from: by default the engine's deal of
        the exported setup."""
        return engine.setup(engine.GameSetup.from_dict(export["setup"]))

    def action(self, action: dict[str, Any]) -> dict[str, Any]:
        """A logged move as the export shows it, with whatever stays secret forever
        left out."""
        return action

    def restore_action(
        self, state: Any, seat: int, action: dict[str, Any], export: Mapping[str, Any]
    ) -> dict[str, Any]:
        """An exported move made playable again (a stand-in for what the export
        left out, consistent with its record)."""
        return action

    def verify(
        self, final_view: Mapping[str, Any], export: Mapping[str, Any]
    ) -> list[str]:
        """Differences between the export's family records and its replay."""
        return []


class Rules:
    """The family's part of the Rules page."""

    template: ClassVar[str] = "games/nothing.html"
    """The template of the game's rules beyond its words and options."""

    def context(self, ruleset: str) -> dict[str, Any]:
        """What the template shows beyond the game's words (tables of numbers read
        from the engine's data)."""
        return {}


class Programs:
    """The pydantic shapes programs see (the API and the JSON socket)."""

    view_schema: type[BaseModel]
    """What the family's ``view()`` returns: its ``ruleset`` field is a ``Literal``
    of the family's game codes (the API's view union is discriminated on it), with
    ``extra="forbid"``. Name models after the family: they are the OpenAPI
    document's component names."""
    move_schema: type[RootModel[Any]]
    """One move as a program sends it: a ``RootModel`` over the family's moves,
    discriminated on ``"type"``, ``strict=True`` and ``extra="forbid"`` on each."""

    def __init__(
        self, view_schema: type[BaseModel], move_schema: type[RootModel[Any]]
    ) -> None:
        self.view_schema = view_schema
        self.move_schema = move_schema


class Family:
    """One game family: its code, its words and its parts. A family subclasses this
    in its folder's ``family.py``, naming the parts it has; each part left out is
    the default one."""

    code: ClassVar[str]
    """The family's folder name (``games/families/<code>/``)."""
    live: LivePage = LivePage()
    moves: MoveCodec = MoveCodec()
    records: Records = Records()
    history: History = History()
    stats: Stats = Stats()
    export: Export = Export()
    rules: Rules = Rules()
    programs: Programs

    def words(self, ruleset: str) -> GameWords:
        """The words of one of the family's games."""
        raise NotImplementedError


# --- the registry ------------------------------------------------------------------

_FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Make ``family`` known to the platform (from the family app's ``ready``)."""
    known = _FAMILIES.get(family.code)
    if known is not None and type(known) is not type(family):
        raise ValueError(f"family {family.code!r} is already registered")
    _FAMILIES[family.code] = family
    return family


@contextmanager
def registered(family: Family) -> Iterator[Family]:
    """``family`` known to the platform for the block (a family outside the
    installed apps, in tests)."""
    register(family)
    try:
        yield family
    finally:
        _FAMILIES.pop(family.code, None)


def families() -> list[Family]:
    """Every installed family, in the order of ``games.families.FAMILIES``."""
    return list(_FAMILIES.values())


def family_of(ruleset: str) -> Family:
    """The family of a game code; raises ``engine.UnknownRuleset`` for an unknown
    game and ``LookupError`` if its family's app is not installed."""
    code = engine.get_ruleset(ruleset).family
    try:
        return _FAMILIES[code]
    except KeyError:
        raise LookupError(f"the family {code!r} is not installed") from None


def words_of(ruleset: str) -> GameWords:
    """The words of a game, through its family."""
    return family_of(ruleset).words(ruleset)


def known_words(ruleset: str) -> GameWords | None:
    """The words of a game, or None for a game the site cannot name (its family is
    not installed, or the code is unknown): history still lists such games."""
    try:
        return words_of(ruleset)
    except (LookupError, engine.UnknownRuleset):
        return None


def playable_rulesets() -> tuple[str, ...]:
    """Every game the site offers: the engine's registered codes whose family is
    registered, in registration order."""
    return tuple(
        code
        for code in engine.ruleset_codes()
        if engine.get_ruleset(code).family in _FAMILIES
    )
