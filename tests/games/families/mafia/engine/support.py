"""Helpers that drive «پارتیزان» games to a chosen point, for the engine tests.

They act only through the public API (``apply``, ``legal_actions``, ``view``), so a
test that uses them tests the engine as the web layer uses it.  Most tests deal the
cards to known seats (:data:`SEATS`) with ``rules.deal(..., roles=...)``; the seat of
each role is then a constant below.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.engine import MODERATOR, GameSetup, apply, legal_actions, setup
from games.families.mafia.engine import MAFIA_PARTISAN, GameState, Phase, Role, Step
from games.families.mafia.engine.rules import deal

GENERAL, DEMOLISHER, TRAITOR = 0, 1, 2
PARTISAN, RADIO, COLONEL, NURSE, SNIPER, SOLDIER_A, SOLDIER_B = 3, 4, 5, 6, 7, 8, 9
SEATS: tuple[Role, ...] = (
    Role.GENERAL,
    Role.DEMOLISHER,
    Role.TRAITOR,
    Role.PARTISAN,
    Role.RADIO,
    Role.COLONEL,
    Role.NURSE,
    Role.SNIPER,
    Role.SOLDIER,
    Role.SOLDIER,
)
"""The hand-built deal: seat -> card."""
MAFIA = (GENERAL, DEMOLISHER, TRAITOR)
CITIZENS = (PARTISAN, RADIO, COLONEL, NURSE, SNIPER, SOLDIER_A, SOLDIER_B)

Move = dict[str, Any]


def new_game(seed: int = 1, **options: Any) -> GameState:
    """A game dealt from the seed, as the site deals it."""
    state: GameState = setup(GameSetup("mafia_partisan", 10, options, seed))
    return state


def table(roles: Iterable[Role] = SEATS, **options: Any) -> GameState:
    """A game with the cards at known seats (default :data:`SEATS`)."""
    return deal(
        MAFIA_PARTISAN, GameSetup("mafia_partisan", 10, options, 0), tuple(roles)
    )


def act(state: GameState, seat: int, action: Mapping[str, Any]) -> GameState:
    new, _ = apply(state, seat, dict(action))
    return new


def moderator(state: GameState, move: str, **fields: Any) -> GameState:
    """The moderator's move ``move`` (its type) with ``fields``."""
    return act(state, MODERATOR, {"type": move, **fields})


def awake(state: GameState) -> list[int]:
    """Who has a real choice at the current step (read from legal_actions)."""
    return [
        seat
        for seat in range(10)
        if any(spec["type"] == "choose" for spec in legal_actions(state, seat))
    ]


def tap_for(state: GameState, seat: int) -> Move:
    """A sleeper's tap with the step's fields (the first thing its screen offers)."""
    (spec,) = legal_actions(state, seat)
    assert spec["type"] == "tap", spec
    return _fill(spec, "tap")


def _fill(spec: Mapping[str, Any], kind: str) -> Move:
    move: Move = {"type": kind}
    form = spec["form"]
    if form == "number":
        move["number"] = spec["numbers"][0]
    elif form == "seat":
        move["target"] = None if spec["skip"] else spec["targets"][0]
    elif form == "pair":
        move["targets"] = spec["targets"][:2]
    elif form == "general":
        move.update(mode="shoot", target=spec["targets"][0], guess=None)
    return move


def step(
    state: GameState, choices: Mapping[int, Mapping[str, Any]] | None = None
) -> GameState:
    """Everyone in the game acts once at the current step: the seats in ``choices``
    choose (the given fields), every other awake seat chooses the first thing offered
    (the mafia shoot the Partisan), every sleeper taps."""
    choices = choices or {}
    assert state.phase in (Phase.NIGHT, Phase.MIDDAY), state.phase
    current = (state.phase, state.night, state.sleep)
    for seat in range(10):
        if not state.in_game[seat]:
            continue
        specs = legal_actions(state, seat)
        if not specs:
            continue
        (spec,) = specs
        if seat in choices:
            assert spec["type"] == "choose", (seat, spec)
            move = {"type": "choose", **choices[seat]}
        elif spec["type"] == "choose":
            move = _fill(spec, "choose")
            partisan = state.table.partisan
            if spec["form"] == "general" and partisan in spec["targets"]:
                move["target"] = partisan  # stopped while his shield stands
        else:
            move = _fill(spec, "tap")
        state = act(state, seat, move)
        if (state.phase, state.night, state.sleep) != current:
            break
    assert (state.phase, state.night, state.sleep) != current, "the step did not end"
    return state


def intro(state: GameState, guess: int = 1, code: int = 2) -> GameState:
    """The introduction night: the General guesses ``guess``, the radio operator
    records ``code``; then the moderator confirms the dawn (day 1 begins)."""
    table_ = state.table
    assert state.sleep is Step.MEET
    state = step(state)
    state = step(
        state, {table_.general: {"number": guess}, table_.radio: {"number": code}}
    )
    state = step(state)
    assert state.phase is Phase.DAWN
    return moderator(state, "confirm_night")


def night(
    state: GameState,
    *,
    demolisher: int | None = None,
    general: tuple[str, int | None, str | None] | None = None,
    nurse: int | None = None,
    radio: int | None = None,
    sniper: int | None = None,
    confirm: bool = True,
) -> GameState:
    """A main night with the given choices (``None``: nobody for the demolisher and
    the sniper, the first offered seat for the nurse and the radio operator).
    ``general`` is ``(mode, target, guess)``, made by whoever announces (a successor
    too); by default the mafia shoot the Partisan (stopped while his shield stands).
    Ends at the dawn, or (``confirm``) with the moderator's confirmation."""
    if general is None and state.in_game[state.table.partisan]:
        general = ("shoot", state.table.partisan, None)
    if state.phase is Phase.DAY:
        state = moderator(state, "end_day")
    assert state.sleep is Step.CONFER, state.sleep
    state = step(state)
    table_ = state.table
    picks: dict[Step, dict[int, Move]] = {
        Step.DEMOLISHER: {table_.demolisher: {"target": demolisher}},
        Step.NURSE: {} if nurse is None else {table_.nurse: {"target": nurse}},
        Step.RADIO: {} if radio is None else {table_.radio: {"target": radio}},
        Step.SNIPER: {table_.sniper: {"target": sniper}},
    }
    while state.phase is Phase.NIGHT:
        sleep = state.sleep
        assert sleep is not None
        chosen = {
            seat: fields
            for seat, fields in picks.get(sleep, {}).items()
            if seat in awake(state)
        }
        if sleep is Step.GENERAL and general is not None:
            (actor,) = awake(state)
            mode, target, guess = general
            chosen = {actor: {"mode": mode, "target": target, "guess": guess}}
        state = step(state, chosen)
    assert state.phase is Phase.DAWN
    return moderator(state, "confirm_night") if confirm else state


def vote(state: GameState, kind: str, ballots: Mapping[int, list[int]]) -> GameState:
    """The moderator opens a vote; every voter casts (``ballots``, others empty)."""
    state = moderator(state, "start_vote", vote=kind)
    assert state.vote is not None
    for seat in state.vote.voters:
        state = act(state, seat, {"type": "vote", "candidates": ballots.get(seat, [])})
    return state


def vote_out(state: GameState, seat: int) -> GameState:
    """Send ``seat`` to defence and vote him out with four votes from the others."""
    voters = [s for s in range(10) if state.in_game[s] and s != seat][:4]
    state = vote(state, "defence", {v: [seat] for v in voters})
    assert state.day is not None and state.day.defended == (seat,)
    state = vote(state, "exit", {v: [seat] for v in voters})
    assert not state.in_game[seat]
    return state


def to_day(state: GameState) -> GameState:
    """From the dawn or a day: the moderator confirms / nothing to do."""
    if state.phase is Phase.DAWN:
        state = moderator(state, "confirm_night")
    return state
