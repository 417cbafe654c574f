"""The nights (docs/rules.md §3 "Introduction night", "Each main night", "Resolution").

A night is a row of steps in the seed's order.  At every step each player still in
the game gets the same screen (its :class:`~.state.Form`) and taps once; the roles
awake at that step send a real choice (``choose``), everyone else a tap with the same
fields (``tap``) that has no effect.  The step ends when the last tap is in, so the
table learns nothing from who is still busy.  The two midday sleeps of a hit colonel
are steps of the same kind.

This module says who is awake at a step, what each seat's screen offers, what a real
choice does, and what the night comes to once its last step ends.
"""

from __future__ import annotations

from typing import Any

from games.families.mafia.engine.knowledge import (
    mafia_team,
    reads_as_mafia,
    team_known_to,
)
from games.families.mafia.engine.roles import ROLE_CODES, Role, Side
from games.families.mafia.engine.state import (
    FORMS,
    INTRO_STEPS,
    MAIN_STEPS,
    NUMBERS,
    PASS,
    RECRUIT,
    SHOOT,
    SLAUGHTER,
    Form,
    GameState,
    NightRecord,
    Pick,
    Resolution,
    Step,
)

__all__ = [
    "NEGATIVE",
    "POSITIVE",
    "awake_at",
    "disrupted",
    "general_actor",
    "grid",
    "living",
    "mafia_steps",
    "next_step",
    "radio_reading",
    "recruitment_allowed",
    "resolve",
    "shield_up",
    "skip_allowed",
    "slaughter_allowed",
    "spec",
    "suspended_now",
    "targets_for",
]

POSITIVE, NEGATIVE = "positive", "negative"
CONFER_SECONDS = 60
"""The mafia confer for one minute (the seed)."""
COLONEL_SPEECH_SECONDS = 30
"""Each of the two players the colonel names speaks 30 seconds (the seed)."""

_NAMES: dict[Step | Form, str] = {
    **{step: step.value for step in Step},
    **{form: form.value for form in Form},
}
"""Plain ``str`` names, looked up once (an enum's ``.value`` is a slow property)."""

mafia_steps = frozenset({Step.MEET, Step.CONFER, Step.DEMOLISHER, Step.GENERAL})
"""Steps at which the mafia are awake together: each of them sees the choices."""


def living(state: GameState) -> list[int]:
    in_game = state.in_game
    return [seat for seat in range(state.table.players) if in_game[seat]]


def next_step(state: GameState) -> Step | None:
    """The step after the current one in this night, ``None`` after the last."""
    steps = INTRO_STEPS if state.night == 0 else MAIN_STEPS
    step = state.sleep
    assert step is not None
    index = steps.index(step) + 1
    return steps[index] if index < len(steps) else None


# --- powers ---------------------------------------------------------------------------


def general_actor(state: GameState) -> int | None:
    """Who announces the mafia's action tonight: the General while he is in the game,
    else (when the house says so) the next mafia member in the game: the demolisher,
    the traitor soldier, then a recruit who has woken with them."""
    table = state.table
    in_game = state.in_game
    if in_game[table.general]:
        return table.general
    if not state.house.successor_shoots:
        return None
    for seat in (table.demolisher, table.traitor):
        if in_game[seat]:
            return seat
    recruit = state.recruit
    if recruit is not None and state.recruit_met and in_game[recruit]:
        return recruit
    return None


def suspended_now(state: GameState) -> bool:
    """Whether the demolisher's power is suspended: he hit the colonel, who has not
    left yet (or, when the house says so, has not yet been hit by a shot)."""
    if not state.suspended_since:
        return False
    table = state.table
    if not state.in_game[table.colonel]:
        return False
    return not (
        state.house.suspension_ends == "colonel_hit" and state.colonel_hit_night
    )


def disrupted(state: GameState, seat: int) -> bool:
    """Whether the demolisher's effective pick tonight is ``seat``."""
    current = state.current
    if current is None:
        return False
    pick = current.pick(Step.DEMOLISHER)
    return pick is not None and pick.effective and pick.target == seat


def slaughter_allowed(state: GameState, actor: int) -> bool:
    """Only the General slaughters, as many times per game as the house allows."""
    if actor != state.table.general:
        return False
    allowed = state.house.slaughters
    return allowed == 0 or state.slaughters_used < allowed


def recruitment_allowed(state: GameState, actor: int) -> bool:
    """Once per game, by the General himself, after the demolisher or the traitor
    soldier has left."""
    table = state.table
    return (
        actor == table.general
        and not state.recruitment_used
        and not (state.in_game[table.demolisher] and state.in_game[table.traitor])
    )


def shield_up(state: GameState) -> bool:
    """The Partisan's shield stands until both plain soldiers have left; a recruited
    soldier keeps it up unless the house says otherwise."""
    counts_recruit = state.house.shield_counts_recruit
    return any(
        state.in_game[seat] and (counts_recruit or state.sides[seat] is Side.CITIZENS)
        for seat in state.table.soldiers
    )


def awake_at(state: GameState, step: Step) -> frozenset[int]:
    """Who makes a real choice at ``step`` (computed when the step begins)."""
    table = state.table
    in_game = state.in_game
    house = state.house
    if step is Step.MEET:
        return frozenset(table.mafia)
    if step is Step.CODE:
        return frozenset((table.general, table.radio))
    if step is Step.PARTISAN:
        return frozenset((table.partisan,))
    if step is Step.CONFER:
        return frozenset(seat for seat in mafia_team(state) if in_game[seat])
    if step is Step.DEMOLISHER:
        seat = table.demolisher
        if not in_game[seat]:
            return frozenset()
        if general_actor(state) == seat and not house.successor_keeps_own_action:
            return frozenset()
        if suspended_now(state) and not house.blocked_woken:
            return frozenset()
        return frozenset((seat,))
    if step is Step.GENERAL:
        actor = general_actor(state)
        return frozenset() if actor is None else frozenset((actor,))
    if step is Step.NURSE:
        seat = table.nurse
        assert state.current is not None
        general = state.current.pick(Step.GENERAL)
        if not in_game[seat] or (general is not None and general.mode == SLAUGHTER):
            return frozenset()
        if disrupted(state, seat) and not house.blocked_woken:
            return frozenset()
        return frozenset((seat,))
    if step is Step.RADIO:
        return frozenset((table.radio,)) if in_game[table.radio] else frozenset()
    if step is Step.SNIPER:
        seat = table.sniper
        if not in_game[seat] or not state.bullet:
            return frozenset()
        if disrupted(state, seat) and not house.blocked_woken:
            return frozenset()
        return frozenset((seat,))
    # The midday sleeps: the hit colonel.
    assert state.midday is not None
    return frozenset((state.midday.colonel,))


# --- the screens ----------------------------------------------------------------------


def skip_allowed(state: GameState, step: Step) -> bool:
    """Whether a step's pick may be left empty (public: the same on every screen)."""
    if step is Step.DEMOLISHER:
        return not state.house.demolisher_must_pick
    return step is Step.SNIPER


def grid(state: GameState, step: Step) -> list[int]:
    """The seats every screen offers at ``step``: the players in the game (the two
    named at ``colonel_shoots``). Public, the same on every screen, one's own seat
    included; a sleeper may tap any of them."""
    if step is Step.COLONEL_SHOOTS:
        assert state.midday is not None
        return list(state.midday.named)
    return living(state)


def targets_for(state: GameState, seat: int, step: Step, awake: bool) -> list[int]:
    """The seats ``seat`` may tap at ``step``: the real choices when awake (never
    oneself but at the nurse step when the house allows it, never the demolisher's
    team, never the nurse's last save when the house forbids it), else the public
    :func:`grid`, so that a sleeper's tap is never refused for what it names."""
    if not awake:
        return grid(state, step)
    if step is Step.COLONEL_SHOOTS:
        return grid(state, step)
    others = [other for other in living(state) if other != seat]
    house = state.house
    if step is Step.NURSE:
        chosen = living(state) if house.nurse_self else others
        if not house.nurse_repeat and state.last_saved is not None:
            chosen = [other for other in chosen if other != state.last_saved]
        return chosen
    if step is Step.DEMOLISHER:
        team = team_known_to(state, seat)
        return [other for other in others if other not in team]
    return others


def general_modes(state: GameState, seat: int, awake: bool) -> list[str]:
    """The mafia's action at this step: every mode on a sleeper's screen, the ones
    open tonight on the chooser's."""
    may_pass = [PASS] if state.house.mafia_may_pass else []
    if not awake:
        return [SHOOT, SLAUGHTER, RECRUIT, *may_pass]
    modes = [SHOOT]
    if slaughter_allowed(state, seat):
        modes.append(SLAUGHTER)
    if recruitment_allowed(state, seat):
        modes.append(RECRUIT)
    return modes + may_pass


def spec(state: GameState, seat: int) -> dict[str, Any]:
    """The screen ``seat`` gets at the current step (its one legal action).

    Awake: ``{"type": "choose", ...}``; asleep: ``{"type": "tap", ...}`` with the same
    keys, so the two render as the same screen (see the README). ``grid`` (the seats
    every screen offers) and ``modes`` on a sleeper's screen are public; a chooser's
    ``targets`` and ``modes`` are his own and belong on his face-down card only.
    """
    step = state.sleep
    assert step is not None
    awake = seat in state.awake
    form = FORMS[step]
    shown: dict[str, Any] = {
        "type": "choose" if awake else "tap",
        "step": _NAMES[step],
        "form": _NAMES[form],
    }
    if form is Form.NUMBER:
        shown["numbers"] = list(NUMBERS)
    elif form is Form.SEAT:
        shown["grid"] = grid(state, step)
        shown["targets"] = targets_for(state, seat, step, awake)
        shown["skip"] = skip_allowed(state, step)
    elif form is Form.PAIR:
        shown["grid"] = grid(state, step)
        shown["targets"] = targets_for(state, seat, step, awake)
        shown["count"] = 2
    elif form is Form.GENERAL:
        shown["modes"] = general_modes(state, seat, awake)
        shown["grid"] = grid(state, step)
        shown["targets"] = targets_for(state, seat, step, awake)
        shown["guesses"] = list(ROLE_CODES)
    return shown


# --- what a night comes to ------------------------------------------------------------


def radio_reading(state: GameState, target: int) -> str:
    """The radio operator's answer: negative for anyone when he is disrupted; else
    positive for a player who reads as mafia, unless his code equals the General's
    guess (then every mafia player reads negative all game)."""
    table = state.table
    if disrupted(state, table.radio):
        return NEGATIVE
    if reads_as_mafia(state, target, state.night) and state.code != state.guess:
        return POSITIVE
    return NEGATIVE


def _demolition(state: GameState, pick: Pick | None) -> str | None:
    if pick is None or pick.target is None:
        return None
    if not pick.effective:
        return "suspended"
    role = state.table.roles[pick.target]
    if role in (Role.NURSE, Role.RADIO, Role.SNIPER, Role.COLONEL):
        return role.value
    return "none"


def resolve(state: GameState, record: NightRecord) -> Resolution:
    """What the night comes to (docs/rules.md §3 "Resolution"), for the moderator to
    confirm.  Nothing is changed here: :func:`.rules.confirm_night` applies it.

    Every effect is simultaneous: the shield, the save and the colonel's delayed
    exit are judged on the game as it stood when the night began.
    """
    night = record.number
    if night == 0:
        return Resolution(night=0)
    table = state.table
    house = state.house
    causes: dict[int, list[str]] = {}

    def leave(seat: int, cause: str) -> None:
        causes.setdefault(seat, []).append(cause)

    demolisher = record.pick(Step.DEMOLISHER)
    general = record.pick(Step.GENERAL)
    nurse = record.pick(Step.NURSE)
    sniper = record.pick(Step.SNIPER)
    protected = nurse.target if nurse is not None and nurse.effective else None
    saved: list[int] = []
    colonel_hit = None
    shielded = False
    slaughter = None
    recruitment = recruited = None
    if general is not None and general.target is not None:
        target = general.target
        if general.mode == SHOOT:
            if target == protected:
                saved.append(target)
            elif target == table.partisan and shield_up(state):
                shielded = True
            elif target == table.colonel and not state.colonel_hit_night:
                colonel_hit = target
            else:
                leave(target, "shot")
        elif general.mode == SLAUGHTER:
            assert general.guess is not None
            correct = table.roles[target].value == general.guess
            slaughter = (target, general.guess, correct)
            if correct:
                leave(target, "slaughtered")
        elif general.mode == RECRUIT:
            recruitment = target
            if state.recruit == target and state.recruit_night == night:
                recruited = target
    shot = None
    if sniper is not None and sniper.target is not None:
        target = sniper.target
        if not sniper.effective:
            shot = "blocked"
        elif target == table.general:
            shot = "no_effect"
        elif reads_as_mafia(state, target, night):
            if target == protected:
                saved.append(target)
                shot = "saved"
            else:
                leave(target, "sniped")
                shot = "hit"
        else:
            shot = "missed"
            if house.sniper_saveable and protected == table.sniper:
                saved.append(table.sniper)
            else:
                leave(table.sniper, "sniper_missed")
    colonel = table.colonel
    if state.colonel_hit_night and state.in_game[colonel]:
        leave(colonel, "colonel_due")
    for seat in sorted(state.kicks):
        leave(seat, "kicked")
    began = (
        demolisher is not None
        and demolisher.effective
        and demolisher.target == colonel
        and not state.suspended_since
    )
    return Resolution(
        night=night,
        exits=tuple((seat, tuple(causes[seat])) for seat in sorted(causes)),
        colonel_hit=colonel_hit,
        saved=tuple(saved),
        shielded=shielded,
        slaughter=slaughter,
        recruitment=recruitment,
        recruited=recruited,
        demolition=_demolition(state, demolisher),
        suspension_began=began,
        sniper=shot,
    )
