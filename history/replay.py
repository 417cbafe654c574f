"""Step-through replays of a finished game, as everyone or as one player saw it.

Step ``k`` is the game after its first ``k`` actions (0: the deal). The board at a
step is always the engine's own ``view()`` of ``games.state.state_at(game, k)``,
rendered by the live table's template, so a replay cannot disagree with what a
player saw during the game. Two adjustments, both made to the view before it is
rendered, never to the state:

* **as one player**: exactly that seat's view, except that who played which mission
  card stays secret forever (RULES.md §1), so the seat's own cards are removed unless
  the person watching *is* that player;
* **as everyone**: the spectator's view, with what became public at the end laid over
  it (every role and side, the check results, the sniper's seat). A vote in progress
  stays "voted / not yet", and no card is ever attributed to a seat.

An abandoned game never ended, so nothing of it became public: it replays only as a
spectator saw it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.models import Game
from games.state import action_log, game_setup, load_state, state_at
from games.words import phrases_for, side_name

EVERYONE = "all"
"""The ``as`` value of the view with every role turned up."""

MILESTONES = frozenset(
    {"propose", "votes_revealed", "mission_done", "check", "claim", "shoot"}
)

_CACHE_SIZE = 256
_events_cache: OrderedDict[tuple[str, int], list[list[engine.Event]]] = OrderedDict()
_lock = threading.Lock()


@dataclass(frozen=True)
class Step:
    """One point of the replay: after ``number`` actions, and what that action did,
    in words anyone may read (never how a vote in progress went or whose card)."""

    number: int
    kind: str
    label: str
    milestone: bool


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
    with _lock:
        cached = _events_cache.get(key)
        if cached is not None:
            _events_cache.move_to_end(key)
            return cached
    steps = _compute_public_events(game)
    if game.is_over:
        with _lock:
            _events_cache[key] = steps
            while len(_events_cache) > _CACHE_SIZE:
                _events_cache.popitem(last=False)
    return steps


def _team(names: Mapping[int, str], seats: Sequence[int]) -> str:
    return ", ".join(names.get(seat, "?") for seat in seats)


def _sentence(event: engine.Event, ruleset: str, names: Mapping[int, str]) -> str:
    """One public event in the game's own words; "" for those a step label skips."""
    data = event.data
    name = names.get
    kind = event.kind
    if kind == "game_started":
        return phrases_for(ruleset).dealt % {"name": name(data["leader"], "?")}
    if kind == "proposed":
        return phrases_for(ruleset).proposed % {
            "mission": data["mission"],
            "attempt": data["attempt"],
            "leader": name(data["leader"], "?"),
            "team": _team(names, data["team"]),
        }
    if kind == "voted":
        return _("%(name)s votes.") % {"name": name(data["seat"], "?")}
    if kind == "votes_revealed":
        votes = list(data["votes"].values())
        numbers = {"yes": votes.count(True), "no": votes.count(False)}
        if data["approved"]:
            return phrases_for(ruleset).approved % numbers
        return phrases_for(ruleset).rejected % numbers
    if kind == "leader_changed":
        return phrases_for(ruleset).new_leader % {"name": name(data["leader"], "?")}
    if kind == "card_played":
        return phrases_for(ruleset).card_played % {"name": name(data["seat"], "?")}
    if kind == "mission_done":
        fails = data["fails"]
        phrases = phrases_for(ruleset)
        text = phrases.mission_succeeds if data["success"] else phrases.mission_fails
        return text % {"mission": data["mission"], "fails": fails}
    if kind == "sniper_phase":
        return _("The sniper gets one shot at the scout.")
    if kind == "check_started":
        return _("%(name)s holds the check token.") % {
            "name": name(data["holder"], "?")
        }
    if kind == "checked":
        return _("%(holder)s checks %(target)s.") % {
            "holder": name(data["holder"], "?"),
            "target": name(data["target"], "?"),
        }
    if kind == "claimed":
        return _("%(holder)s announces: %(target)s is %(side)s.") % {
            "holder": name(data["holder"], "?"),
            "target": name(data["target"], "?"),
            "side": side_name(ruleset, data["claim"]),
        }
    if kind == "shot":
        text = (
            _("The sniper %(sniper)s shoots %(target)s: the scout is hit.")
            if data["hit"]
            else _("The sniper %(sniper)s shoots %(target)s and misses the scout.")
        )
        return text % {
            "sniper": name(data["sniper"], "?"),
            "target": name(data["target"], "?"),
        }
    if kind == "game_over":
        return _("%(side)s win.") % {
            "side": str(side_name(ruleset, data["winner"])).capitalize()
        }
    return ""


_KIND_OF_ACTION = {
    "game_started": "deal",
    "proposed": "propose",
    "voted": "vote",
    "card_played": "play",
    "checked": "check",
    "claimed": "claim",
    "shot": "shoot",
}


def steps(game: Game, names: Mapping[int, str]) -> list[Step]:
    """Every step of the game, labelled from its public events only."""
    ruleset = game.ruleset
    result = []
    for number, events in enumerate(public_events(game)):
        kinds = {event.kind for event in events}
        kind = next(
            (_KIND_OF_ACTION[e.kind] for e in events if e.kind in _KIND_OF_ACTION), ""
        )
        label = " ".join(
            text for text in (_sentence(e, ruleset, names) for e in events) if text
        )
        milestone = kind in MILESTONES or bool(kinds & MILESTONES) or number == 0
        result.append(Step(number=number, kind=kind, label=label, milestone=milestone))
    return result


# --- the board at a step ----------------------------------------------------------


def parse_seat(value: str | None, players: int) -> int | None:
    """The seat named by a query string's ``as``; None for everyone or nonsense."""
    if value is None or not value.isdigit():
        return None
    seat = int(value)
    return seat if 0 <= seat < players else None


def clamp_step(value: str | None, last: int, default: int) -> int:
    if value is None or not value.lstrip("-").isdigit():
        return default
    return max(0, min(int(value), last))


def _without_cards(view: dict[str, Any]) -> dict[str, Any]:
    """The seat's view minus the cards it played: those stay its own secret."""
    me = view.get("me")
    if me:
        view["me"] = {**me, "card": None, "cards": {}}
    return view


def _with_reveal(view: dict[str, Any], final: Mapping[str, Any]) -> dict[str, Any]:
    """A spectator's view with what the end of the game made public laid over it.

    Only facts that the final spectator view itself states are copied: every role
    and side, each check's true result, the sniper's seat. Nothing else changes, so
    votes in progress and mission cards stay as the spectator saw them.
    """
    view["roles"] = final["roles"]
    final_checks = final["checks"]
    view["checks"] = [
        {**check, "result": final_checks[index]["result"]}
        for index, check in enumerate(view["checks"])
    ]
    if view["sniper"] and final["sniper"]:
        view["sniper"] = {**view["sniper"], "sniper": final["sniper"]["sniper"]}
    return view


def view_at(
    game: Game, step: int, seat: int | None, *, viewer_seat: int | None = None
) -> dict[str, Any]:
    """What the replay shows at ``step``: as ``seat`` (None: everyone), for a person
    sitting at ``viewer_seat`` (None: anyone else)."""
    state = state_at(game, step)
    finished = game.status == Game.Status.FINISHED
    if seat is not None and finished:
        view = engine.view(state, seat)
        return view if viewer_seat == seat else _without_cards(view)
    view = engine.view(state, None)
    if not finished:
        return view
    return _with_reveal(view, engine.view(load_state(game), None))


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
    perspectives: list[tuple[str, str]]
    """(``as`` value, label): everyone, then each player; only everyone for an
    abandoned game."""

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def perspective(self) -> str:
        return EVERYONE if self.seat is None else str(self.seat)

    @property
    def milestones(self) -> list[Step]:
        return [step for step in self.steps if step.milestone]


def perspectives(game: Game, names: Mapping[int, str]) -> list[tuple[str, str]]:
    choices = [(EVERYONE, _("Everyone (every role turned up)"))]
    if game.status == Game.Status.FINISHED:
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
    position = parse_seat(seat, game.seat_count)
    if game.status != Game.Status.FINISHED:
        position = None
    return Screen(
        game=game,
        steps=all_steps,
        step=all_steps[number],
        seat=position,
        viewer_seat=viewer_seat,
        view=view_at(game, number, position, viewer_seat=viewer_seat),
        perspectives=perspectives(game, names),
    )


def forget_all() -> None:
    """Tests call this between runs that reuse table codes."""
    with _lock:
        _events_cache.clear()
