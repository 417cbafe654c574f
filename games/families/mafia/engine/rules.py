"""The rules of the «پارتیزان» scenario (docs/rules.md §3): the deal, the night's moves,
who is awaited and may do what, and ``apply``.

One function per move.  Each checks the move against the rules, raising the rule's
own :class:`~games.engine.core.IllegalAction` subclass before anything is built, so a
refused move leaves no trace; then it makes the new state with
:func:`~.state.evolve` and says what happened in events.  Who is awake at a step and
what a night comes to are in :mod:`.night`; the day's and the moderator's moves in
:mod:`.day`; leaving and the end in :mod:`.leaving`.  The house decisions chosen for
the table are fields of :class:`~.state.House`, read and never looked up by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING, Any

from games.engine.core import (
    MODERATOR,
    Event,
    GameIsOver,
    GameSetup,
    NotSeated,
)
from games.families.mafia.engine import day
from games.families.mafia.engine.actions import (
    MODERATOR_MOVES,
    Action,
    NightMove,
    parse_action,
)
from games.families.mafia.engine.day import INQUIRIES, moderator_actions
from games.families.mafia.engine.errors import (
    AlreadyActed,
    ChoiceRequired,
    HasLeft,
    ModeratorOnly,
    MustChoose,
    NoSleepNow,
    NotACitizen,
    NotATarget,
    NotAwake,
    NotNamed,
    NurseRepeat,
    NurseSelf,
    PassNotAllowed,
    PlayersOnly,
    RecruitmentNotAllowed,
    SelfTarget,
    SlaughterNotAllowed,
    TargetLeft,
    WrongCount,
    WrongForm,
)
from games.families.mafia.engine.knowledge import (
    mafia_team,
    team_known_to,
)
from games.families.mafia.engine.leaving import check_end, remove
from games.families.mafia.engine.night import (
    awake_at,
    disrupted,
    living,
    mafia_steps,
    next_step,
    radio_reading,
    resolve,
    shield_up,
    spec,
    suspended_now,
)
from games.families.mafia.engine.records import resolution_dict
from games.families.mafia.engine.roles import DEALT, Role, Side
from games.families.mafia.engine.state import (
    FORM_KEYS,
    FORMS,
    RECRUIT,
    SLAUGHTER,
    Form,
    GameState,
    House,
    NightRecord,
    Phase,
    Pick,
    Step,
    Table,
    evolve,
)

if TYPE_CHECKING:
    from games.families.mafia.engine.rulesets import MafiaRuleset

__all__ = [
    "apply",
    "deal",
    "house_of",
    "legal_actions",
    "start",
    "waiting_for",
]


Events = list[Event]


# --- the deal -------------------------------------------------------------------------


def house_of(options: Mapping[str, Any]) -> House:
    """The house decisions of a table, from its normalised options."""
    return House(**{name: options[name] for name in House.__slots__})


def deal(
    ruleset: MafiaRuleset,
    game_setup: GameSetup,
    roles: Sequence[Role] | None = None,
) -> GameState:
    """Deal the seed's ten cards: ``random.Random(seed).shuffle`` of :data:`DEALT`,
    seat ``i`` taking card ``i``.  ``roles`` deals given cards instead (tests build
    particular tables with it); they must be the same ten cards.

    The order of draws is part of the stored games' meaning: changing it would change
    every recorded game.
    """
    players = game_setup.players
    if roles is None:
        cards = list(DEALT)
        Random(game_setup.seed).shuffle(cards)
        roles = cards
    if sorted(roles) != sorted(DEALT) or len(roles) != players:
        raise ValueError("a deal is the seed's ten cards")
    dealt = tuple(Role(role) for role in roles)
    seat_of = {
        role: dealt.index(role) for role in set(dealt) if role is not Role.SOLDIER
    }
    soldiers = tuple(seat for seat, role in enumerate(dealt) if role is Role.SOLDIER)
    mafia = tuple(
        seat
        for seat, role in enumerate(dealt)
        if role in (Role.GENERAL, Role.DEMOLISHER, Role.TRAITOR)
    )
    table = Table(
        ruleset=ruleset,
        setup=game_setup,
        players=players,
        roles=dealt,
        house=house_of(game_setup.options),
        general=seat_of[Role.GENERAL],
        demolisher=seat_of[Role.DEMOLISHER],
        traitor=seat_of[Role.TRAITOR],
        partisan=seat_of[Role.PARTISAN],
        radio=seat_of[Role.RADIO],
        colonel=seat_of[Role.COLONEL],
        nurse=seat_of[Role.NURSE],
        sniper=seat_of[Role.SNIPER],
        soldiers=soldiers,
        mafia=mafia,
        partisan_sees=tuple(sorted((*soldiers, seat_of[Role.TRAITOR]))),
    )
    sides = tuple(Side.MAFIA if seat in mafia else Side.CITIZENS for seat in range(10))
    return GameState(
        table=table,
        step=0,
        turn=0,
        phase=Phase.NIGHT,
        night=0,
        sleep=Step.MEET,
        awake=frozenset(mafia),
        tapped=frozenset(),
        in_game=(True,) * players,
        sides=sides,
        exits=(),
        kicks=frozenset(),
        warnings=(0,) * players,
        discipline=(),
        code=None,
        guess=None,
        recruit=None,
        recruit_night=0,
        recruit_met=False,
        recruitment_used=False,
        slaughters_used=0,
        bullet=True,
        suspended_since=0,
        colonel_hit_night=0,
        last_saved=None,
        current=NightRecord(0),
        nights=(),
        day=None,
        midday=None,
        middays=(),
        colonel_reading=None,
        inquiries_left=INQUIRIES,
        readings=(),
        mornings=(),
        vote=None,
        votes=(),
        timer=None,
        outcome=None,
    )


def start(ruleset: MafiaRuleset, game_setup: GameSetup) -> tuple[GameState, Events]:
    """The dealt state and the public ``game_started`` event (no role in it)."""
    state = deal(ruleset, game_setup)
    data = {
        "ruleset": ruleset.code,
        "players": state.players,
        "options": dict(game_setup.options),
        "night": 0,
        "step": Step.MEET.value,
    }
    return state, [Event("game_started", data)]


# --- who is awaited, what each seat may do --------------------------------------------


def waiting_for(state: GameState) -> frozenset[int]:
    """The seats whose move the game awaits, :data:`MODERATOR` included.

    At a night step and a midday sleep every player in the game who has not tapped
    (the view shows a player only himself); the moderator whenever he has a move
    (always by day; at the confer step, the mafia's minute).
    """
    phase = state.phase
    if phase is Phase.OVER:
        return frozenset()
    if phase is Phase.NIGHT or phase is Phase.MIDDAY:
        tapped = state.tapped
        waiting = {seat for seat in living(state) if seat not in tapped}
        if phase is Phase.MIDDAY or state.sleep is Step.CONFER:
            waiting.add(MODERATOR)
        return frozenset(waiting)
    if phase is Phase.VOTE:
        vote = state.vote
        assert vote is not None
        ballots = vote.ballots
        waiting = {seat for seat in vote.voters if ballots[seat] is None}
        waiting.add(MODERATOR)
        return frozenset(waiting)
    return frozenset((MODERATOR,))


def legal_actions(state: GameState, seat: int | None) -> tuple[dict[str, Any], ...]:
    """What ``seat`` may do now, in the JSON shapes of the README."""
    if seat == MODERATOR:
        return moderator_actions(state)
    if (
        type(seat) is not int
        or not 0 <= seat < state.players
        or state.outcome is not None
        or not state.in_game[seat]
    ):
        return ()
    phase = state.phase
    if phase is Phase.NIGHT or phase is Phase.MIDDAY:
        if seat in state.tapped:
            return ()
        return (spec(state, seat),)
    if phase is Phase.VOTE:
        vote = state.vote
        assert vote is not None
        if seat in vote.voters and vote.ballots[seat] is None:
            most = 1 if state.house.ballot == "one" else len(vote.candidates)
            return (
                {
                    "type": "vote",
                    "kind": vote.kind,
                    "candidates": list(vote.candidates),
                    "most": most,
                },
            )
    return ()


# --- the night ------------------------------------------------------------------------


def _check_target(state: GameState, seat: int, step: Step, target: int) -> None:
    """Refuse a real choice's target with the rule it breaks (the chooser's words)."""
    house = state.house
    if not state.in_game[target]:
        raise TargetLeft(target=target)
    if step is Step.NURSE:
        if target == seat and not house.nurse_self:
            raise NurseSelf()
        if target == state.last_saved and not house.nurse_repeat:
            raise NurseRepeat()
        return
    if step is Step.COLONEL_SHOOTS:
        assert state.midday is not None
        if target not in state.midday.named:
            raise NotNamed(target=target)
        return
    if target == seat:
        raise SelfTarget()
    if step is Step.DEMOLISHER and target in team_known_to(state, seat):
        raise NotACitizen(target=target)


def _check_move(
    state: GameState, seat: int, move: NightMove, screen: dict[str, Any]
) -> None:
    """Check a choose or tap against the seat's screen; a real choice's refusal names
    the rule it breaks, a tap's only what every screen shows."""
    step = state.sleep
    assert step is not None
    form = FORMS[step]
    if form is Form.GENERAL:
        modes = screen["modes"]
        if move.mode not in modes:
            if move.mode == SLAUGHTER:
                raise SlaughterNotAllowed()
            if move.mode == RECRUIT:
                raise RecruitmentNotAllowed()
            raise PassNotAllowed()
    if form is Form.PAIR:
        if len(move.targets) != screen["count"]:
            raise WrongCount(count=screen["count"])
        picked: Sequence[int] = move.targets
    elif form is Form.SEAT or form is Form.GENERAL:
        if move.target is None:
            if form is Form.SEAT and not screen["skip"]:
                raise ChoiceRequired()
            return
        picked = (move.target,)
    else:
        return
    allowed = screen["targets"]
    for target in picked:
        if target in allowed:
            continue
        if not state.in_game[target]:
            raise TargetLeft(target=target)
        if move.choose:
            _check_target(state, seat, step, target)
        raise NotATarget(target=target)


def _night_move(
    state: GameState, seat: int, move: NightMove
) -> tuple[GameState, Events]:
    phase = state.phase
    if phase is not Phase.NIGHT and phase is not Phase.MIDDAY:
        raise NoSleepNow(action=move.type, phase=phase.value)
    if seat in state.tapped:
        raise AlreadyActed()
    awake = seat in state.awake
    if move.choose and not awake:
        raise NotAwake()
    if awake and not move.choose:
        raise MustChoose()
    step = state.sleep
    assert step is not None
    form = FORMS[step]
    if move.keys != FORM_KEYS[form]:
        raise WrongForm(form=form.value)
    if form is not Form.OK and form is not Form.NUMBER:
        # A number was checked by the parser; the other forms name seats.
        _check_move(state, seat, move, spec(state, seat))
    number = state.night
    if phase is Phase.MIDDAY:
        assert state.day is not None
        number = state.day.number
    events = [
        Event(
            "acted",
            {"seat": seat, "phase": phase.value, "number": number, "step": step.value},
            frozenset((seat, MODERATOR)),
        )
    ]
    changes: dict[str, Any] = {
        "step": state.step + 1,
        "tapped": state.tapped | {seat},
    }
    if move.choose:
        _choose(state, seat, step, move, changes, events)
    new = evolve(state, **changes)
    if len(new.tapped) < sum(new.in_game):
        return new, events
    return _step_over(new, events)


def _choose(
    state: GameState,
    seat: int,
    step: Step,
    move: NightMove,
    changes: dict[str, Any],
    events: Events,
) -> None:
    """What a real choice does at the moment it is made (most effects wait for the
    night's resolution)."""
    table = state.table
    night = state.night
    told = {seat, MODERATOR}
    if step in mafia_steps:
        # The mafia in the game are awake together at their steps.
        told.update(m for m in mafia_team(state) if state.in_game[m])
    chosen: dict[str, Any] = {"night": night, "step": step.value, "seat": seat}
    chosen.update((key, getattr(move, key)) for key in sorted(move.keys))
    if "targets" in chosen:
        chosen["targets"] = list(move.targets)
    if step is Step.COLONEL_NAMES or step is Step.COLONEL_SHOOTS:
        midday = state.midday
        assert midday is not None
        if step is Step.COLONEL_NAMES:
            changes["midday"] = midday._replace(named=tuple(sorted(move.targets)))
        else:
            changes["midday"] = midday._replace(target=move.target)
        del chosen["night"]
        chosen["day"] = midday.day
        events.append(Event("chose", chosen, frozenset(told)))
        return
    if _form_is_ok(step):
        events.append(Event("chose", chosen, frozenset(told)))
        return
    pick = Pick(step, seat, target=move.target, number=move.number)
    if step is Step.CODE:
        if seat == table.general:
            changes["guess"] = move.number
        else:
            changes["code"] = move.number
    elif step is Step.DEMOLISHER:
        pick = pick._replace(effective=not suspended_now(state))
    elif step is Step.GENERAL:
        pick = pick._replace(mode=move.mode, guess=move.guess)
        _general(state, seat, move, changes, events)
    elif step is Step.NURSE or step is Step.SNIPER:
        pick = pick._replace(effective=not disrupted(state, seat))
    elif step is Step.RADIO:
        assert move.target is not None
        reading = radio_reading(state, move.target)
        pick = pick._replace(reading=reading)
        events.append(
            Event(
                "reading",
                {"night": night, "target": move.target, "reading": reading},
                frozenset(told),
            )
        )
    current = state.current
    assert current is not None
    changes["current"] = current._replace(picks=(*current.picks, pick))
    events.append(Event("chose", chosen, frozenset(told)))


def _form_is_ok(step: Step) -> bool:
    return FORMS[step] is Form.OK


def _general(
    state: GameState,
    seat: int,
    move: NightMove,
    changes: dict[str, Any],
    events: Events,
) -> None:
    """The mafia's action: a slaughter or a recruitment is spent (and a recruit told)
    at once; a shot waits for the resolution."""
    table = state.table
    house = state.house
    target = move.target
    if move.mode == SLAUGHTER:
        assert target is not None
        correct = table.roles[target].value == move.guess
        if correct or house.wrong_slaughter_spends:
            changes["slaughters_used"] = state.slaughters_used + 1
    elif move.mode == RECRUIT:
        assert target is not None
        joins = (
            table.roles[target] is Role.SOLDIER and state.sides[target] is Side.CITIZENS
        )
        if joins or house.failed_recruit_spends:
            changes["recruitment_used"] = True
        if joins:
            sides = list(state.sides)
            sides[target] = Side.MAFIA
            changes["sides"] = tuple(sides)
            changes["recruit"] = target
            changes["recruit_night"] = state.night
            events.append(
                Event(
                    "recruited",
                    {"night": state.night, "seat": target},
                    frozenset((target, MODERATOR)),
                )
            )
    del seat


def _step_over(state: GameState, events: Events) -> tuple[GameState, Events]:
    """The last tap of a step is in: the next step, the dawn, or back to the day."""
    if state.phase is Phase.MIDDAY:
        return _midday_step_over(state, events)
    following = next_step(state)
    if following is not None:
        new = evolve(state, sleep=following, tapped=frozenset())
        new = evolve(new, awake=awake_at(new, following))
        events.append(
            Event(
                "step",
                {"phase": "night", "number": state.night, "step": following.value},
            )
        )
        return new, events
    current = state.current
    assert current is not None
    resolution = resolve(state, current)
    new = evolve(
        state,
        phase=Phase.DAWN,
        sleep=None,
        awake=frozenset(),
        tapped=frozenset(),
        timer=None,
        current=current._replace(resolution=resolution),
    )
    events.append(Event("dawn", {"night": state.night}))
    events.append(
        Event(
            "night_resolved",
            {"night": state.night, "resolution": resolution_dict(resolution)},
            frozenset((MODERATOR,)),
        )
    )
    return new, events


def _midday_step_over(state: GameState, events: Events) -> tuple[GameState, Events]:
    midday = state.midday
    assert midday is not None and state.day is not None
    base: dict[str, Any] = {
        "phase": Phase.DAY,
        "sleep": None,
        "awake": frozenset(),
        "tapped": frozenset(),
    }
    if state.sleep is Step.COLONEL_NAMES:
        events.append(
            Event("colonel_named", {"day": midday.day, "named": list(midday.named)})
        )
        return evolve(state, midday=midday._replace(stage="named"), **base), events
    target = midday.target
    assert target is not None
    table = state.table
    stopped = (
        state.house.colonel_shot_shielded
        and target == table.partisan
        and shield_up(state)
    )
    done = midday._replace(stage="done", left=not stopped)
    events.append(
        Event(
            "colonel_shot",
            {"day": midday.day, "target": target, "left": not stopped},
        )
    )
    new = evolve(state, midday=done, **base)
    if stopped:
        return new, events
    new = remove(new, [(target, ("colonel_shot",))], "day", midday.day, events)
    new = evolve(new, colonel_reading=target)
    return check_end(new, events)


_MOVES: dict[type, Callable[[GameState, int, Any], tuple[GameState, Events]]] = {
    NightMove: _night_move,
    **day.MOVES,
}


def apply(
    state: GameState, seat: int, action: Mapping[str, Any] | Action
) -> tuple[GameState, Events]:
    """Play ``action`` for ``seat``; see :func:`games.engine.core.apply`.

    Checks in this order: the seat exists, the action is well formed, the game is not
    over, the move is the moderator's (or a player's) and the player is still in the
    game, the phase is right, then the move's own rules.
    """
    if seat != MODERATOR and (type(seat) is not int or not 0 <= seat < state.players):
        raise NotSeated(seat=repr(seat))
    move = parse_action(action, state.players)
    if state.outcome is not None:
        raise GameIsOver()
    kind = type(move)
    if kind in MODERATOR_MOVES:
        if seat != MODERATOR:
            raise ModeratorOnly()
    elif seat == MODERATOR:
        raise PlayersOnly()
    elif not state.in_game[seat]:
        raise HasLeft()
    new, events = _MOVES[kind](state, seat, move)
    if _decision(new) != _decision(state):
        new = evolve(new, turn=new.step)
    return new, events


def _decision(state: GameState) -> tuple[Any, ...]:
    """What a move is about: while this stays the same (players tapping at one step,
    voting in one vote) a move sent a step earlier still means what it meant."""
    midday = state.midday
    day = state.day
    return (
        state.phase,
        state.night,
        state.sleep,
        None if day is None else day.number,
        len(state.votes),
        None if midday is None else midday.stage,
    )
