"""The platform's side of a game family: what the site asks of a family, and where it
finds it.

The rules of a game are its engine (``games.engine``, pure Python). Everything else
that knows one family (its records, its board, its words, how a form names a move, its
sentences in the log and the replay, its stats and its API schemas) lives in the
family's folder, behind one :class:`Family` object that the family's app registers in
its ``ready()``. The platform (tables, services, consumers, history, the API, the
admin) reaches a family only through :func:`family_of` and never names a family's
fields: adding a game is a folder and one line in ``games.families.FAMILIES``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils.functional import Promise
from pydantic import BaseModel, RootModel

from games import engine
from games.kit.regions import Region

if TYPE_CHECKING:
    from django.db.models import Q, QuerySet

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


@dataclass(frozen=True)
class Figure:
    """One of a family's figures on a player's profile: "``count`` of ``total``",
    each number linked to the list of the games behind it."""

    key: str
    caption: Text
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


class Family:
    """One game family as the platform sees it. A family subclasses this in its
    folder's ``family.py`` and fills in what its games need; the defaults here are
    what a family without that feature gets.
    """

    code: ClassVar[str]
    """The family's folder name (``games/families/<code>/``)."""
    regions: ClassVar[tuple[Region, ...]]
    """The regions of a table's live page (``games.kit.regions.Region``: each a
    template and the view's keys and table's facts it reads; its template gets
    ``board``, this family's :meth:`board` of those keys)."""
    review_template: ClassVar[str] = ""
    """The template of the family's part of a finished game's review page."""

    # --- words ---------------------------------------------------------------------

    def words(self, ruleset: str) -> GameWords:
        """The words of one of the family's games."""
        raise NotImplementedError

    def rules_context(self, ruleset: str) -> dict[str, Any]:
        """What the Rules page shows of a game beyond its words and house decisions
        (tables of numbers read from the engine's data)."""
        return {}

    rules_template: ClassVar[str] = ""

    # --- programs: the API and the JSON socket --------------------------------------

    view_schema: ClassVar[type[BaseModel]]
    """The pydantic model of what the family's ``view()`` returns (the keys every view
    has, see ``games/engine/README.md``, and the family's own): its ``ruleset`` field is
    a ``Literal`` of the family's game codes, which the API's view union is
    discriminated on. Answers are validated and serialised with it, and the OpenAPI
    document describes views with it, so its field names must be the view's keys,
    with ``extra="forbid"``. Name the family's models after it (``ResistanceView``,
    ``ResistanceMission``): model names are the document's component names."""
    move_schema: ClassVar[type[RootModel[Any]]]
    """The pydantic model of one move as a program sends it (the engine's action
    dict): a ``RootModel`` over the family's moves, discriminated on ``"type"``, with
    ``strict=True`` and ``extra="forbid"`` on each. A move sent to one of the
    family's tables (API or JSON socket) is checked against it before the engine sees
    it; what it returns (``model_dump()``) is what the engine gets."""

    # --- the live table ------------------------------------------------------------

    def board(
        self, view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool
    ) -> Any:
        """What a region shows of ``view``: the keys of the engine's view the region
        declares (``Region.reads``; reading any other raises), and nothing else
        (no database). Built when the region's template first reads ``board``.
        ``playing`` is False once a game is abandoned: nothing may be offered then."""
        raise NotImplementedError

    def countdown(self, view: Mapping[str, Any]) -> tuple[int, int] | None:
        """A countdown a move started and every screen shows (a moderator's speech
        timer): ``(step, seconds)``, the engine step at which that move was made (the
        log's action number ``step + 1``) and its length; ``None`` without one. The
        engine has no clock: the platform counts from that action's time in the log,
        so a reload or a restart shows the same end (``games.rendering``)."""
        return None

    def table_voices(self, view: Mapping[str, Any]) -> tuple[int, ...]:
        """The seats that may speak to the whole table in the voice room now, from
        public facts of ``view`` only (its phase, who is out of the game), so every
        viewer's view gives the same answer (``voice.rights``). The moderator, who
        is no seat, is not among them. Default: every seat, always."""
        return tuple(range(int(view["players"])))

    def parse_move(self, fields: Any) -> dict[str, Any]:
        """The engine action a page's form fields (a QueryDict, or the same fields
        sent as JSON over the socket) ask for; raises ``games.errors.BadAction``."""
        raise NotImplementedError

    def complete_move(
        self, action: dict[str, Any], legal: Sequence[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """The action to apply for a page's move, given the seat's legal moves now (a
        page may leave to the server what only the seat's secrets decide, such as
        whether a night tap is a real choice). The default: the move as it came."""
        return action

    def private_refusal(self, action: Mapping[str, Any]) -> bool:
        """Whether the engine's refusal of ``action`` is said on the seat's card only
        (``games.errors.GameError.private``)."""
        return False

    def project(
        self,
        *,
        game: Game,
        seats: Mapping[int, Seat],
        events: Sequence[engine.Event],
        state: Any,
    ) -> None:
        """Write the family's own records for one move (or the deal) from the
        engine's events, in the move's transaction. ``seats`` maps positions to
        seats; ``state`` is the state after the move."""

    def admin_action(self, payload: dict[str, Any], finished: bool) -> dict[str, Any]:
        """A logged move as the admin may show it: with every secret it carries
        blanked (a vote until the game is over, a card forever...)."""
        return payload

    # --- history -------------------------------------------------------------------

    def sentence(
        self, event: engine.Event, ruleset: str, names: Mapping[int, str]
    ) -> str:
        """One public event in the game's own words ("" to leave it out)."""
        return ""

    def step_kind(self, events: Sequence[engine.Event]) -> tuple[str, bool]:
        """``(kind, milestone)`` of a replay step from its public events: the kind
        names the move; milestones are the steps the replay's quick links jump to."""
        return "", False

    replay_notes: ClassVar[Mapping[str, Text]] = {}
    """The replay's line under the step for a perspective, where the platform's
    (worded for the Resistance games' cards and votes) does not fit the family:
    ``everyone`` (a finished game seen by everyone), ``own`` (a player watching
    their own seat), ``other`` (someone else's seat)."""

    def review(self, game: Game, names: Mapping[int, str]) -> dict[str, Any]:
        """What the family's part of a finished game's review page shows (from its
        records)."""
        return {}

    def analysis(self, game: Game, seat: int | None) -> Any:
        """The analysis board's odds of a finished game (``history.analysis.Odds``):
        at every step, the chance that each seat is evil as everyone could know it
        from public facts (``seat=None``) or as ``seat`` knew it. ``None``: the
        family has no exact analysis (docs/analysis.md says why)."""
        return None

    # --- stats ---------------------------------------------------------------------

    facts: ClassVar[Mapping[str, Text]] = {}
    """The history list's ``fact`` filters the family offers: code -> meaning."""

    def fact_condition(self, fact: str, player_id: int) -> Q:
        """The games behind one of the family's figures of ``player_id``."""
        raise NotImplementedError

    def player_figures(
        self, seats: QuerySet[Seat], url: Callable[..., str]
    ) -> list[Figure]:
        """The family's figures over a player's ``seats`` (in the games a viewer may
        see); ``url(fact=...)`` links a figure to its games."""
        return []

    # --- export --------------------------------------------------------------------

    def export(self, game: Game, seats: Sequence[Seat]) -> dict[str, Any]:
        """The family's records of a finished game for the JSON export, merged into
        the document's top level."""
        return {}

    def export_setup(self, setup: engine.GameSetup) -> dict[str, Any]:
        """The deal as the export's ``setup`` shows it. By default the engine's
        ``GameSetup.to_dict()``, seed included: with the action log it replays the
        whole game. A family whose deal decides something that stays secret forever
        (an order of cards nobody may ever learn) leaves the seed out, says instead
        what is public of the deal, and deals stand-ins in :meth:`import_start`."""
        return setup.to_dict()

    def import_start(self, export: Mapping[str, Any]) -> Any:
        """The state an export's replay starts from (``rebuild``). By default the
        engine's deal of the exported setup; a family whose :meth:`export_setup`
        left the seed out deals stand-ins consistent with the export's record
        (raising ``ValueError`` when none is), which nothing may present as the
        real deal."""
        return engine.setup(engine.GameSetup.from_dict(export["setup"]))

    def export_action(self, action: dict[str, Any]) -> dict[str, Any]:
        """A logged move as the export shows it, with whatever stays secret forever
        left out (the Resistance's mission cards)."""
        return action

    def import_action(
        self, state: Any, seat: int, action: dict[str, Any], export: Mapping[str, Any]
    ) -> dict[str, Any]:
        """An exported move made playable again (a stand-in for what the export left
        out, consistent with its record); ``rebuild`` replays these."""
        return action

    def verify_export(
        self, final_view: Mapping[str, Any], export: Mapping[str, Any]
    ) -> list[str]:
        """Differences between the export's family records and its replay."""
        return []


_FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Make ``family`` known to the platform (from the family app's ``ready``)."""
    known = _FAMILIES.get(family.code)
    if known is not None and type(known) is not type(family):
        raise ValueError(f"family {family.code!r} is already registered")
    _FAMILIES[family.code] = family
    return family


def known_families() -> list[Family]:
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
    """Every game the site offers: the engine's registered codes whose family app is
    installed, in registration order."""
    return tuple(
        code
        for code in engine.ruleset_codes()
        if engine.get_ruleset(code).family in _FAMILIES
    )
