"""Step-through replays of a finished game, as everyone or as one player saw it.

Step ``k`` is the game after its first ``k`` actions (0: the deal). The board at a
step is always the engine's own ``view()`` of ``games.state.state_at(game, k)``,
rendered by the live table's template, so a replay cannot disagree with what a
player saw during the game. The engine gives the replay's perspectives itself
(``view(state, seat, after=final, own=...)``), so the leak oracle covers them:

* **as one player**: exactly what that seat knew at the step, minus what stays the
  player's own secret forever (the family's ``own`` facts: who played which
  card, say) unless the person watching *is* that player;
* **as the moderator** (a game with one, ``Ruleset.has_moderator``): his view at
  the step, which holds everything;
* **as everyone**: the spectator's view, with what became public at the end laid over
  it by the engine.

An abandoned game never ended, so nothing of it became public: it replays only as a
spectator saw it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.kit.family import family_of
from games.models import Game
from games.presence import bot_moves
from games.state import action_log, game_setup, load_state, state_at
from history import analysis
from history.cache import LRU

EVERYONE = "all"
"""The ``as`` value of the view with every role turned up."""
MODERATOR = "moderator"
"""The ``as`` value of the moderator's view, in a game that has one."""

_events_cache: LRU[tuple[str, int], list[list[engine.Event]]] = LRU(256)


@dataclass(frozen=True)
class Step:
    """One point of the replay: after ``number`` actions, and what that action did,
    in words anyone may read (never how a vote in progress went or whose card)."""

    number: int
    kind: str
    label: str
    milestone: bool
    bot_for: str = ""
    """The name of the person for whom the bot made this step's move (the clock or
    the grace ran out), when the table saw that seat awaited: only that it did."""


# --- the public story of the game -------------------------------------------------


def _compute_public_events(game: Game) -> list[list[engine.Event]]:
    """The public events of each step, step 0 being the deal."""
    state, events = engine.start(game_setup(game))
    steps = [engine.events_for(events, None)]
    for seat, action in action_log(game):
        state, events = engine.apply(state, seat, action)
        steps.append(engine.events_for(events, None))
    return steps


def public_events(game: Game) -> list[list[engine.Event]]:
    """The public events per step. A game that is over never changes, so they are
    kept per process by (table code, version)."""
    key = (game.code, game.version)
    cached = _events_cache.get(key)
    if cached is not None:
        return cached
    steps = _compute_public_events(game)
    if game.is_over:
        _events_cache.put(key, steps)
    return steps


def steps(game: Game, names: Mapping[int, str]) -> list[Step]:
    """Every step of the game, labelled from its public events only."""
    ruleset = game.ruleset
    family = family_of(ruleset)
    by_bot = dict(bot_moves(game, names))
    result = []
    for number, events in enumerate(public_events(game)):
        kind, milestone = family.history.step_kind(events)
        label = " ".join(
            text
            for text in (family.history.sentence(e, ruleset, names) for e in events)
            if text
        )
        result.append(
            Step(
                number=number,
                kind=kind,
                label=label,
                milestone=milestone or not number,
                bot_for=by_bot.get(number, ""),
            )
        )
    return result


# --- the board at a step ----------------------------------------------------------


def parse_seat(
    value: str | None, players: int, *, moderated: bool = False
) -> int | None:
    """The seat named by a query string's ``as`` (``engine.MODERATOR`` for the
    moderator of a game that has one); None for everyone or nonsense."""
    if moderated and value == MODERATOR:
        return engine.MODERATOR
    if value is None or not value.isdigit():
        return None
    seat = int(value)
    return seat if 0 <= seat < players else None


def clamp_step(value: str | None, last: int, default: int) -> int:
    if value is None or not value.lstrip("-").isdigit():
        return default
    return max(0, min(int(value), last))


def view_at(
    game: Game, step: int, seat: int | None, *, viewer_seat: int | None = None
) -> dict[str, Any]:
    """What the replay shows at ``step``: as ``seat`` (None: everyone), for a person
    sitting at ``viewer_seat`` (None: anyone else)."""
    state = state_at(game, step)
    if game.status != Game.Status.FINISHED:
        return engine.view(state, None)
    return engine.view(
        state,
        seat,
        after=load_state(game),
        own=seat is not None and viewer_seat == seat,
    )


def public_view_at(game: Game, step: int, seat: int | None) -> dict[str, Any]:
    """The shared board's view at ``step`` when watching as ``seat``: what the table
    saw then, or, seen by everyone after the end, with every card turned up."""
    state = state_at(game, step)
    if seat is None and game.status == Game.Status.FINISHED:
        return engine.view(state, None, after=load_state(game))
    return engine.view(state, None)


# --- one screen of the replay -----------------------------------------------------


@dataclass(frozen=True)
class Screen:
    """Everything the replay section shows at one step from one perspective."""

    game: Game
    steps: list[Step]
    step: Step
    seat: int | None
    viewer_seat: int | None
    view: dict[str, Any]
    public_view: dict[str, Any]
    perspectives: list[tuple[str, str]]
    """(``as`` value, label): everyone, the moderator (in a game that has one),
    then each player; only everyone for an abandoned game."""

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def perspective(self) -> str:
        if self.seat is None:
            return EVERYONE
        return MODERATOR if self.seat == engine.MODERATOR else str(self.seat)

    @property
    def moderator(self) -> bool:
        return self.seat == engine.MODERATOR

    @property
    def milestones(self) -> list[Step]:
        return [step for step in self.steps if step.milestone]


def _moderated(game: Game) -> bool:
    try:
        return engine.get_ruleset(game.ruleset).has_moderator
    except engine.UnknownRuleset:
        return False


def perspectives(game: Game, names: Mapping[int, str]) -> list[tuple[str, str]]:
    choices = [(EVERYONE, _("Everyone (every role turned up)"))]
    if game.status == Game.Status.FINISHED:
        if _moderated(game):
            choices.append((MODERATOR, _("The moderator")))
        choices += [(str(seat), name) for seat, name in sorted(names.items())]
    else:
        choices = [(EVERYONE, _("A spectator"))]
    return choices


def screen(
    game: Game,
    names: Mapping[int, str],
    *,
    step: str | None,
    seat: str | None,
    viewer_seat: int | None,
) -> Screen:
    """The replay at the requested step and perspective (query-string values; a
    bad one falls back to the deal, seen by everyone)."""
    all_steps = steps(game, names)
    number = clamp_step(step, len(all_steps) - 1, default=0)
    position = parse_seat(seat, game.seat_count, moderated=_moderated(game))
    if game.status != Game.Status.FINISHED:
        position = None
    return Screen(
        game=game,
        steps=all_steps,
        step=all_steps[number],
        seat=position,
        viewer_seat=viewer_seat,
        view=view_at(game, number, position, viewer_seat=viewer_seat),
        public_view=public_view_at(game, number, position),
        perspectives=perspectives(game, names),
    )


def forget_all() -> None:
    """Tests call this between runs that reuse table codes: the public events and
    the analysis board's odds."""
    _events_cache.clear()
    analysis.forget_all()
