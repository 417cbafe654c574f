"""What every game on the site shares: setups, errors, events, outcomes, the registry.

Nothing here knows a particular game.  A game family (the Resistance family today;
``cells`` and ``mafia_partisan`` later) supplies :class:`Ruleset` objects and registers
them by code; the module-level functions at the bottom (``setup``, ``apply``, ``view``
...) find the ruleset through the state or the setup and hand over to it.  The web layer
only ever calls those functions, so adding a game never changes its code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar, Final, NamedTuple, Protocol

from games.engine.text import gettext_noop

__all__ = [
    "MODERATOR",
    "BadOptionValue",
    "BadTarget",
    "Event",
    "GameIsOver",
    "GameSetup",
    "IllegalAction",
    "IllegalOption",
    "IllegalSetup",
    "MalformedAction",
    "NotSeated",
    "OptionSpec",
    "OptionValue",
    "Outcome",
    "Ruleset",
    "SetupError",
    "UnknownOption",
    "UnknownRuleset",
    "WrongPhase",
    "WrongPlayerCount",
    "apply",
    "bot_action",
    "events_for",
    "final_roles",
    "get_ruleset",
    "legal_actions",
    "outcome",
    "parse_action",
    "random_action",
    "register",
    "replay",
    "ruleset_codes",
    "setup",
    "start",
    "turn",
    "view",
    "waiting_for",
]

OptionValue = bool | int | str
"""The value of one table option, as stored in the database and sent as JSON."""


MODERATOR: Final = -1
"""The seat number of a table's moderator: a person at the table who is not a player
(the ``mafia_partisan`` scenario's گرداننده).  Moves and views take it where they take
a player's seat; a game without a moderator refuses it like any unknown seat."""

Viewer = int | None
"""Whose eyes a view is for: a player's seat, :data:`MODERATOR`, or ``None`` for a
spectator."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winning side and a stable reason code.

    A side is a code of the game's family (``good``/``evil`` in the Resistance games,
    ``citizens``/``mafia`` in the Mafia scenario); the family's words name it.
    """

    winner: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        """The JSON shape used in views and events."""
        return {"winner": str(self.winner), "reason": self.reason}


class Event(NamedTuple):
    """Something that happened, for logs and animations (pages render ``view()``).

    ``visible_to`` is ``None`` for a public event, else the seats that may see it.  A
    named tuple rather than a dataclass because a game emits one or two per action and
    the benchmark plays a thousand games a second.
    """

    kind: str
    data: Mapping[str, Any]
    visible_to: frozenset[int] | None = None

    def visible(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may see this event."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see, in order: every push goes through this redaction."""
    return [event for event in events if event.visible(seat)]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a table, as the create-table page offers it.

    ``label`` and ``help`` are English, marked with ``gettext_noop``; the web layer
    translates them.  The type of the option is the type of ``default``.  An option
    with ``choices`` takes one of them (each with an English label); an int option
    without choices takes any value from ``minimum`` to ``maximum``.
    """

    name: str
    default: OptionValue
    label: str
    help: str
    choices: tuple[tuple[OptionValue, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is a value this option can take."""
        if type(value) is not type(self.default):
            return False
        if self.choices:
            return any(value == choice for choice, _label in self.choices)
        if isinstance(value, int) and not isinstance(value, bool):
            low = self.minimum if self.minimum is not None else value
            high = self.maximum if self.maximum is not None else value
            return low <= value <= high
        return True


# --- errors ---------------------------------------------------------------------------


class SetupError(ValueError):
    """A table that cannot be created: wrong game, player count or options.

    Like :class:`IllegalAction` it carries a stable ``code``, an English ``template``
    (marked for translation) and ``params``, so the create-table page can say what is
    wrong in the player's language.
    """

    code: ClassVar[str] = "setup_error"
    template: ClassVar[str] = gettext_noop("This table cannot be set up.")

    def __init__(self, **params: Any) -> None:
        self.params: dict[str, Any] = params
        super().__init__(self.template % params)

    def __str__(self) -> str:
        return self.template % self.params


class IllegalSetup(SetupError):
    """The game or the number of players is not one the site can deal."""

    code = "illegal_setup"
    template = gettext_noop("This game cannot be played with these settings.")


class UnknownRuleset(IllegalSetup):
    code = "unknown_ruleset"
    template = gettext_noop("There is no game called “%(ruleset)s”.")


class WrongPlayerCount(IllegalSetup):
    code = "wrong_player_count"
    template = gettext_noop(
        "This game needs %(min_players)d to %(max_players)d players, not %(players)d."
    )


class IllegalOption(SetupError):
    """An option the game does not have, or a value it does not accept."""

    code = "illegal_option"
    template = gettext_noop("This option is not available.")


class UnknownOption(IllegalOption):
    code = "unknown_option"
    template = gettext_noop("This game has no option “%(option)s”.")


class BadOptionValue(IllegalOption):
    code = "bad_option_value"
    template = gettext_noop("The option “%(option)s” cannot be set to %(value)s.")


class IllegalAction(Exception):
    """A move the rules do not allow; ``apply`` raises it and the state is unchanged.

    Each rule broken has its own subclass with a stable snake_case ``code`` (for the
    API and tests) and an English ``template`` addressed to the player who tried the
    move, with %-style named ``params``: ``str(exc) == exc.template % exc.params``.  A
    message names no hidden fact; in particular it never mentions another player's
    role.  ``step`` is set by :func:`replay` to the index of the offending action.
    """

    code: ClassVar[str] = "illegal"
    template: ClassVar[str] = gettext_noop("That move is not allowed.")

    def __init__(self, **params: Any) -> None:
        self.params: dict[str, Any] = params
        self.step: int | None = None
        super().__init__(self.template % params)

    def __str__(self) -> str:
        return self.template % self.params

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape an API answer carries: code, message and its parts."""
        return {
            "code": self.code,
            "message": str(self),
            "template": self.template,
            "params": dict(self.params),
        }


class MalformedAction(IllegalAction):
    """The action is not one the game understands (shape, type, field or value).

    ``params["detail"]`` says what is wrong for a developer; the template does not use
    it, because it is English-only.
    """

    code = "malformed"
    template = gettext_noop("That action could not be understood.")


class BadTarget(MalformedAction):
    """A seat named in the action does not exist at this table."""

    code = "bad_target"
    template = gettext_noop("There is no seat %(target)s at this table.")


class NotSeated(IllegalAction):
    """The acting seat is not a seat of this table (a spectator cannot act)."""

    code = "not_seated"
    template = gettext_noop("You do not have a seat at this table.")


class WrongPhase(IllegalAction):
    """The action exists but the game is not at the point where it is made."""

    code = "wrong_phase"
    template = gettext_noop("You cannot do that at this point of the game.")


class GameIsOver(IllegalAction):
    """Nothing can be played once the game has ended."""

    code = "game_over"
    template = gettext_noop("The game is over.")


# --- setups and rulesets --------------------------------------------------------------


class Ruleset(Protocol):
    """What a game family provides for one game code.

    States are the family's own frozen dataclasses; this protocol speaks of them as
    ``Any`` because each family has its own state type and the registry holds them all.
    Every state has a ``ruleset`` attribute pointing back here, which is how the
    module-level functions dispatch.
    """

    @property
    def code(self) -> str: ...
    @property
    def family(self) -> str:
        """The family (a folder under ``games/families/``) this game belongs to."""
        ...

    @property
    def sides(self) -> tuple[str, ...]:
        """The codes of the sides a player can win with, in the family's order."""
        ...

    @property
    def has_moderator(self) -> bool:
        """Whether a moderator (:data:`MODERATOR`) sits at the table."""
        ...

    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def options(self) -> tuple[OptionSpec, ...]: ...
    @property
    def house_decisions(self) -> tuple[str, ...]: ...
    @property
    def chat_default(self) -> bool: ...
    @property
    def chat_optional(self) -> bool: ...

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, OptionValue]:
        """All options with defaults filled in; raises :class:`IllegalOption`."""
        ...

    def setup(self, game_setup: GameSetup) -> Any: ...
    def start(self, game_setup: GameSetup) -> tuple[Any, list[Event]]: ...
    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]: ...
    def replay(self, game_setup: GameSetup, log: Iterable[tuple[int, Any]]) -> Any: ...
    def parse_action(self, state: Any, action: Any) -> Any: ...
    def legal_actions(
        self, state: Any, seat: int | None
    ) -> tuple[dict[str, Any], ...]: ...
    def waiting_for(self, state: Any) -> frozenset[int]: ...
    def turn(self, state: Any) -> int:
        """The step at which the decision now asked of the table began."""
        ...

    def outcome(self, state: Any) -> Outcome | None: ...
    def final_roles(self, state: Any) -> tuple[tuple[str, str], ...]:
        """``(role, side)`` of every seat as the game ends (only asked once over)."""
        ...

    def view(
        self,
        state: Any,
        seat: Viewer,
        *,
        after: Any = None,
        own: bool = True,
        memo: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """``memo``: parts of a view that depend on the state alone, kept there by
        the first view of ``state`` for the next ones made with the same memo."""
        ...

    def random_action(self, state: Any, rng: Random) -> tuple[int, dict[str, Any]]: ...
    def bot_action(self, view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
        """A sensible legal move for the seat whose ``view`` this is, decided from
        that view alone (a bot may not read hidden state)."""
        ...


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` findable by its code; a code can be registered once."""
    if ruleset.code in _REGISTRY and _REGISTRY[ruleset.code] is not ruleset:
        raise ValueError(f"ruleset {ruleset.code!r} is already registered")
    _REGISTRY[ruleset.code] = ruleset
    return ruleset


@contextmanager
def registered(ruleset: Ruleset) -> Iterator[Ruleset]:
    """``ruleset`` findable by its code for the block only (a game outside the
    installed families, in tests)."""
    register(ruleset)
    try:
        yield ruleset
    finally:
        _REGISTRY.pop(ruleset.code, None)


def get_ruleset(code: str) -> Ruleset:
    """The ruleset for a game code; raises :class:`UnknownRuleset`."""
    try:
        return _REGISTRY[code]
    except (KeyError, TypeError):
        raise UnknownRuleset(ruleset=str(code)) from None


def ruleset_codes() -> tuple[str, ...]:
    """Every registered game code, in registration order."""
    return tuple(_REGISTRY)


def _is_int(value: object) -> bool:
    """True for a real int; ``True``/``False`` are ints to Python but never a count."""
    return type(value) is int


@dataclass(frozen=True)
class GameSetup:
    """Everything needed to deal a game: with the action log it rebuilds any state.

    Options are normalised on construction (unknown keys raise :class:`IllegalOption`,
    missing keys get their defaults), so two setups that deal the same game compare
    equal and ``GameSetup.from_dict(s.to_dict()) == s``.
    """

    ruleset: str
    players: int
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    seed: int = 0

    def __post_init__(self) -> None:
        rules = get_ruleset(self.ruleset)
        if not _is_int(self.players):
            raise IllegalSetup(detail="the number of players must be an int")
        if not rules.min_players <= self.players <= rules.max_players:
            raise WrongPlayerCount(
                players=self.players,
                min_players=rules.min_players,
                max_players=rules.max_players,
            )
        if not _is_int(self.seed):
            raise IllegalSetup(detail="the seed must be an int")
        if not isinstance(self.options, Mapping):
            raise IllegalOption(detail="options must be a mapping")
        object.__setattr__(self, "options", rules.normalise_options(self.options))

    def __hash__(self) -> int:
        return hash(
            (self.ruleset, self.players, tuple(sorted(self.options.items())), self.seed)
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape stored with a game."""
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSetup:
        """Rebuild a setup stored with :meth:`to_dict`; raises :class:`SetupError`."""
        if not isinstance(data, Mapping):
            raise IllegalSetup(detail="a setup is a mapping")
        extra = set(data) - {"ruleset", "players", "options", "seed"}
        if extra or "ruleset" not in data or "players" not in data:
            raise IllegalSetup(detail=f"bad setup keys: {sorted(map(str, data))}")
        return cls(
            ruleset=data["ruleset"],
            players=data["players"],
            options=data.get("options", {}),
            seed=data.get("seed", 0),
        )


# --- the public functions: each finds the ruleset and hands over ----------------------


def setup(game_setup: GameSetup) -> Any:
    """Deal a new game; the same setup (seed included) always deals the same game."""
    return get_ruleset(game_setup.ruleset).setup(game_setup)


def start(game_setup: GameSetup) -> tuple[Any, list[Event]]:
    """Like :func:`setup`, with the ``game_started`` event for the table's log."""
    return get_ruleset(game_setup.ruleset).start(game_setup)


def apply(state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]:
    """Play ``action`` (a JSON dict or a parsed action) for ``seat``.

    Returns the new state and the events it caused; raises an :class:`IllegalAction`
    subclass and leaves ``state`` as it was when the move is not allowed.
    """
    ruleset: Ruleset = state.ruleset
    return ruleset.apply(state, seat, action)


def parse_action(state: Any, action: Any) -> Any:
    """Turn a JSON action into the game's action object, checking its shape.

    Raises :class:`MalformedAction` (or a subclass) for anything the game does not
    understand; whether the move is allowed now is :func:`apply`'s business.
    """
    ruleset: Ruleset = state.ruleset
    return ruleset.parse_action(state, action)


def legal_actions(state: Any, seat: int | None) -> tuple[dict[str, Any], ...]:
    """What ``seat`` may do now, as JSON shapes; empty when nothing is asked of it."""
    ruleset: Ruleset = state.ruleset
    return ruleset.legal_actions(state, seat)


def waiting_for(state: Any) -> frozenset[int]:
    """The seats whose action the game awaits now (empty once it is over)."""
    ruleset: Ruleset = state.ruleset
    return ruleset.waiting_for(state)


def outcome(state: Any) -> Outcome | None:
    """``None`` while the game runs, else who won and why."""
    ruleset: Ruleset = state.ruleset
    return ruleset.outcome(state)


def turn(state: Any) -> int:
    """The step at which the decision now asked of the table began.

    While it stays the same (several players voting on one team) a move sent from an
    older step still means what its player meant; once it changes, the table has moved
    on and the platform refuses a move made before (the stale-move check).
    """
    ruleset: Ruleset = state.ruleset
    return ruleset.turn(state)


def final_roles(state: Any) -> tuple[tuple[str, str], ...]:
    """``(role, side)`` of every seat in order, as the finished game turns them up."""
    ruleset: Ruleset = state.ruleset
    return ruleset.final_roles(state)


def view(
    state: Any,
    seat: Viewer,
    *,
    after: Any = None,
    own: bool = True,
    memo: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything ``seat`` may know, as JSON-ready data; ``None`` is a spectator and
    :data:`MODERATOR` the moderator.

    This is the only way state leaves the engine for a page, a socket, the API or a
    replay.  For a replay of a finished game, ``after`` is the final state: what the
    end of the game made public (every role, every private result) is laid over the
    view at this step; ``own=False`` says the person watching is not this seat's player,
    so what stays that player's own secret forever (who played which card) is left out.
    Several views of one state may share ``memo`` (a dict the caller keeps with that
    state, empty at first): what does not depend on the seat is made once.
    """
    ruleset: Ruleset = state.ruleset
    return ruleset.view(state, seat, after=after, own=own, memo=memo)


def replay(game_setup: GameSetup, log: Iterable[tuple[int, Any]]) -> Any:
    """Rebuild the state from the setup and the ``(seat, action)`` log.

    Equal to applying each action in turn; an illegal entry raises its
    :class:`IllegalAction` with ``step`` set to the entry's index.
    """
    return get_ruleset(game_setup.ruleset).replay(game_setup, log)


def random_action(state: Any, rng: Random) -> tuple[int, dict[str, Any]]:
    """A random legal move of some awaited seat, for bots, the benchmark and tests."""
    ruleset: Ruleset = state.ruleset
    return ruleset.random_action(state, rng)


def bot_action(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """A sensible legal move for the seat whose ``view`` this is (``view["legal"]`` is
    not empty), decided from the view alone: what a bot knows is what its seat knows."""
    return get_ruleset(view["ruleset"]).bot_action(view, rng)
