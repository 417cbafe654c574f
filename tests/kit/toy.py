"""Pebbles, a fourth family made from the kit alone (docs/adding-a-game.md).

Three or four players take one to three pebbles in turn from one pile; whoever takes
the last one wins for their colour. Each seat's colour (one black, the rest white)
is dealt in secret and turned up at the end. The engine is pure Python on
``games.engine``; the family is ``games.kit`` parts; its live regions' templates
are in ``tests/kit/jinja2/toy/``, its review's in ``tests/kit/templates/toy/``.
Nothing here is installed: a test makes it known with :func:`installed`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from random import Random
from typing import Any

from pydantic import RootModel

from games import engine, kit
from games.engine.rulesets import RulesetBase

TEMPLATES = Path(__file__).with_name("templates")
JINJA = Path(__file__).with_name("jinja2")
WHITE, BLACK = "white", "black"

# --- the engine ---------------------------------------------------------------------


class NotYourTurn(engine.IllegalAction):
    code = "not_your_turn"
    template = "It is not your turn."


class TooMany(engine.IllegalAction):
    code = "too_many"
    template = "There are only %(pile)d pebbles left."


@dataclass(frozen=True, slots=True)
class State:
    ruleset: PebblesRuleset
    colours: tuple[str, ...]
    size: int
    pile: int
    mover: int = 0
    step: int = 0
    outcome: engine.Outcome | None = None

    @property
    def players(self) -> int:
        return len(self.colours)

    @property
    def turn(self) -> int:
        return self.step


PILE = engine.OptionSpec(
    "pile",
    7,
    "Pebbles",
    "How many pebbles the pile starts with.",
    minimum=4,
    maximum=15,
)


@dataclass(frozen=True, slots=True)
class PebblesRuleset(RulesetBase):
    """The game as data; :class:`RulesetBase` checks the options, replays a log and
    answers ``turn`` and ``outcome``; the rest is here."""

    code: str = "pebbles"
    family: str = "toy"
    sides: tuple[str, ...] = (WHITE, BLACK)
    role_codes: tuple[str, ...] = (WHITE, BLACK)
    has_moderator: bool = False
    min_players: int = 3
    max_players: int = 4
    options: tuple[engine.OptionSpec, ...] = (PILE,)
    house_decisions: tuple[str, ...] = ()
    chat_default: bool = False
    chat_optional: bool = False

    def setup(self, game_setup: engine.GameSetup) -> State:
        black = Random(game_setup.seed).randrange(game_setup.players)
        colours = tuple(
            BLACK if seat == black else WHITE for seat in range(game_setup.players)
        )
        size = int(game_setup.options["pile"])
        return State(self, colours, size, size)

    def start(self, game_setup: engine.GameSetup) -> tuple[State, list[engine.Event]]:
        state = self.setup(game_setup)
        data = {"ruleset": self.code, "players": state.players, "pile": state.pile}
        return state, [engine.Event("game_started", data)]

    def parse_action(self, state: State, action: Any) -> int:
        """The number of pebbles a ``take`` takes."""
        if not isinstance(action, Mapping) or set(action) != {"type", "count"}:
            raise engine.MalformedAction(detail="a take is {type, count}")
        count = action["count"]
        if action["type"] != "take" or type(count) is not int or not 1 <= count <= 3:
            raise engine.MalformedAction(detail="take 1 to 3")
        return count

    def apply(
        self, state: State, seat: int, action: Any
    ) -> tuple[State, list[engine.Event]]:
        if type(seat) is not int or not 0 <= seat < state.players:
            raise engine.NotSeated(seat=repr(seat))
        count = self.parse_action(state, action)
        if state.outcome is not None:
            raise engine.GameIsOver()
        if seat != state.mover:
            raise NotYourTurn()
        if count > state.pile:
            raise TooMany(pile=state.pile)
        pile = state.pile - count
        outcome = (
            engine.Outcome(state.colours[seat], "last_pebble") if not pile else None
        )
        after = replace(
            state,
            pile=pile,
            mover=(seat + 1) % state.players,
            step=state.step + 1,
            outcome=outcome,
        )
        return after, [engine.Event("took", {"seat": seat, "count": count})]

    def legal_actions(
        self, state: State, seat: int | None
    ) -> tuple[dict[str, Any], ...]:
        if state.outcome is not None or seat != state.mover:
            return ()
        return ({"type": "take", "counts": list(range(1, min(3, state.pile) + 1))},)

    def waiting_for(self, state: State) -> frozenset[int]:
        return frozenset() if state.outcome is not None else frozenset({state.mover})

    def final_roles(self, state: State) -> tuple[tuple[str, str], ...]:
        return tuple((colour, colour) for colour in state.colours)

    def view(
        self,
        state: State,
        seat: int | None,
        *,
        after: Any = None,
        own: bool = True,
        memo: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        over = state.outcome is not None
        shown = after if after is not None and after.outcome is not None else state
        me = None
        if seat is not None and 0 <= seat < state.players:
            colour = state.colours[seat]
            me = {"seat": seat, "side": colour, "role": colour, "channels": []}
        return {
            "ruleset": self.code,
            "players": state.players,
            "options": {"pile": state.size},
            "step": state.step,
            "phase": "over" if over else "taking",
            "me": me,
            "legal": list(self.legal_actions(state, seat)),
            "waiting_for": sorted(self.waiting_for(state)),
            "outcome": state.outcome.to_dict() if state.outcome else None,
            "roles": [
                {"seat": s, "side": c, "role": c} for s, c in enumerate(state.colours)
            ]
            if shown.outcome is not None
            else None,
            "pile": state.pile,
            "mover": None if over else state.mover,
        }

    def random_action(self, state: State, rng: Random) -> tuple[int, dict[str, Any]]:
        count = rng.randint(1, min(3, state.pile))
        return state.mover, {"type": "take", "count": count}

    def bot_action(self, view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
        counts = view["legal"][0]["counts"]
        # Leave a multiple of four when one can.
        best = [c for c in counts if (view["pile"] - c) % 4 == 0]
        return {"type": "take", "count": (best or counts)[0]}


PEBBLES = PebblesRuleset()

# --- the family ---------------------------------------------------------------------


class Live(kit.LivePage):
    """A public board with the pile, and each seat's card with its colour and the
    take form."""

    regions = (
        kit.Region(
            "board",
            "toy/board.html",
            reads=("pile", "mover", "outcome", "phase"),
            public=True,
        ),
        kit.Region(
            "card", "toy/card.html", reads=("me", "legal", "phase"), facts=("turn",)
        ),
    )

    def board(
        self, view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool
    ) -> Board:
        return Board(view, names, playing)


class Board:
    """What the templates show beyond the view's own values; each property reads
    only the keys of the region that asks for it."""

    def __init__(
        self, view: Mapping[str, Any], names: Mapping[int, str], playing: bool
    ) -> None:
        self.view, self.names, self.playing = view, names, playing

    @property
    def mover(self) -> str | None:
        mover = self.view["mover"]
        return None if mover is None else self.names.get(mover, "?")

    @property
    def counts(self) -> list[int]:
        legal = self.view["legal"] if self.playing else []
        return list(legal[0]["counts"]) if legal else []


class Moves(kit.MoveCodec):
    def parse(self, fields: Any) -> dict[str, Any]:
        kit.field_choice(fields, "action", ("take",))
        return {"type": "take", "count": kit.field_int(kit.field_one(fields, "count"))}


class History(kit.History):
    review_template = "toy/review.html"

    def sentence(
        self, event: engine.Event, ruleset: str, names: Mapping[int, str]
    ) -> str:
        if event.kind != "took":
            return ""
        name = names.get(event.data["seat"], "?")
        return f"{name} took {event.data['count']}."

    def step_kind(self, events: Sequence[engine.Event]) -> tuple[str, bool]:
        return ("take", False) if events and events[0].kind == "took" else ("", False)

    def review(
        self, game: kit.Game, names: Mapping[int, str], states: kit.States
    ) -> dict[str, Any]:
        final = kit.final_view(game, states)
        colours = [(names.get(r["seat"], "?"), r["role"]) for r in final["roles"]]
        return {"colours": colours}


class PebblesView(kit.Answer):
    ruleset: str
    players: int
    options: dict[str, kit.OptionValue]
    step: int
    phase: str
    me: dict[str, Any] | None
    legal: list[dict[str, Any]]
    waiting_for: list[int]
    outcome: dict[str, str] | None
    roles: list[dict[str, Any]] | None
    pile: int
    mover: int | None


class Take(kit.Request):
    type: str
    count: int


class PebblesMove(RootModel[Take]):
    """A take."""


WORDS = kit.GameWords(
    game="Pebbles",
    tagline="Take the last pebble.",
    sides={WHITE: "white", BLACK: "black"},
    roles={WHITE: "white stone", BLACK: "black stone"},
)


class ToyFamily(kit.Family):
    code = "toy"
    live = Live()
    moves = Moves()
    history = History()
    programs = kit.Programs(PebblesView, PebblesMove)

    def words(self, ruleset: str) -> kit.GameWords:
        return WORDS


FAMILY = ToyFamily()


@contextmanager
def installed() -> Iterator[kit.Family]:
    """The toy known to the engine and the platform for the block."""
    with engine.registered(PEBBLES), kit.registered(FAMILY) as family:
        yield family
