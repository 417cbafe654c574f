"""The rules of the «پارتیزان» scenario (RULES.md §3): the deal, every move, the end.

One function per move.  Each checks the move against the rules, raising the rule's
own :class:`~games.engine.core.IllegalAction` subclass before anything is built, so a
refused move leaves no trace; then it makes the new state with
:func:`~.state.evolve` and says what happened in events.  The night's steps, who is
awake and what a night comes to are in :mod:`.night`; the house decisions chosen for
the table are fields of :class:`~.state.House`, read here and never looked up by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING, Any

from games.engine.core import (
    MODERATOR,
    Event,
    GameIsOver,
    GameSetup,
    IllegalAction,
    MalformedAction,
    NotSeated,
    Outcome,
)
from games.families.mafia.engine.actions import (
    MODERATOR_MOVES,
    Action,
    CloseVote,
    ConfirmNight,
    EndDay,
    Inquiry,
    Kick,
    MiddaySleep,
    NightMove,
    StartTimer,
    StartVote,
    Vote,
    Warn,
    parse_action,
)
from games.families.mafia.engine.errors import (
    AlreadyActed,
    AlreadyKicked,
    AlreadyVoted,
    ChoiceRequired,
    DayOnly,
    DefenceVoteDone,
    ExitVoteDone,
    ExitVoteFirst,
    HasLeft,
    InquiryAlreadyToday,
    InquiryTooLate,
    MiddayFirst,
    ModeratorOnly,
    MustChoose,
    NobodyHasLeft,
    NoExitVote,
    NoInquiriesLeft,
    NoMidday,
    NoSleepNow,
    NotACandidate,
    NotACitizen,
    NotATarget,
    NotAwake,
    NotDawn,
    NotDay,
    NotNamed,
    NoVoteFirstDay,
    NoVoteOpen,
    NurseRepeat,
    NurseSelf,
    OneCandidateOnly,
    PassNotAllowed,
    PlayersOnly,
    RecruitmentNotAllowed,
    SelfTarget,
    SlaughterNotAllowed,
    TargetLeft,
    TimerNotNow,
    TimerSubject,
    WrongCount,
    WrongForm,
)
from games.families.mafia.engine.knowledge import (
    mafia_team,
    read_side,
    team_known_to,
)
from games.families.mafia.engine.night import (
    COLONEL_SPEECH_SECONDS,
    CONFER_SECONDS,
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
from games.families.mafia.engine.roles import DEALT, Role, Side
from games.families.mafia.engine.state import (
    FORM_KEYS,
    FORMS,
    RECRUIT,
    SLAUGHTER,
    Day,
    Discipline,
    Exit,
    Form,
    GameState,
    House,
    Midday,
    Morning,
    NightRecord,
    Phase,
    Pick,
    Reading,
    Step,
    Table,
    Timer,
    VoteRecord,
    evolve,
)

if TYPE_CHECKING:
    from games.families.mafia.engine.rulesets import MafiaRuleset

__all__ = [
    "INQUIRIES",
    "apply",
    "deal",
    "legal_actions",
    "moderator_actions",
    "replay",
    "start",
    "threshold",
    "waiting_for",
]

INQUIRIES = 2
""""Two rounds of inquiry are provided for" (the seed)."""

Events = list[Event]
_PUBLIC_CAUSES = {
    "shot": "night",
    "slaughtered": "night",
    "sniped": "night",
    "sniper_missed": "night",
    "colonel_due": "night",
    "kicked": "kick",
    "voted_out": "vote",
    "colonel_shot": "colonel",
}
"""How the table is told a cause of leaving: the night's dead are names only."""


def public_causes(causes: Iterable[str]) -> list[str]:
    """The public words for a leaver's causes (no cause of a night exit is told)."""
    told: list[str] = []
    for cause in causes:
        word = _PUBLIC_CAUSES[cause]
        if word not in told:
            told.append(word)
    return told


def threshold(state: GameState, alive: int) -> int:
    """Votes needed, to defence or to leave: 8–10 alive: 4; 6–7: 3; 4–5: 2 (the
    seed); fewer: the house's number."""
    if alive >= 8:
        return 4
    if alive >= 6:
        return 3
    if alive >= 4:
        return 2
    return state.house.threshold_below_four


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


def _discipline_actions(state: GameState) -> list[dict[str, Any]]:
    among = living(state)
    kickable = [seat for seat in among if seat not in state.kicks]
    actions: list[dict[str, Any]] = [{"type": "warn", "among": among}]
    if kickable:
        actions.append({"type": "kick", "among": kickable})
    return actions


def timers(state: GameState) -> list[dict[str, Any]]:
    """The countdowns the moderator may start now, with their subjects and lengths."""
    phase = state.phase
    if phase is Phase.NIGHT and state.sleep is Step.CONFER:
        return [{"kind": "confer", "subject": None, "seconds": CONFER_SECONDS}]
    if phase is not Phase.DAY:
        return []
    midday = state.midday
    if midday is not None and midday.stage == "named":
        return [
            {
                "kind": "colonel_speech",
                "subject": seat,
                "seconds": COLONEL_SPEECH_SECONDS,
            }
            for seat in midday.named
        ]
    day = state.day
    assert day is not None
    if day.defence_done and day.defended and not day.exit_done:
        seconds = state.house.defence_seconds
        return [
            {"kind": "defence", "subject": seat, "seconds": seconds}
            for seat in day.defended
        ]
    return []


def _midday_pending(state: GameState) -> bool:
    midday = state.midday
    return midday is not None and midday.stage != "done"


def moderator_actions(state: GameState) -> tuple[dict[str, Any], ...]:
    """The moderator's legal moves now."""
    phase = state.phase
    if phase is Phase.OVER:
        return ()
    if phase is Phase.DAWN:
        return ({"type": "confirm_night"},)
    if phase is Phase.NIGHT:
        countdowns = timers(state)
        return ({"type": "timer", "timers": countdowns},) if countdowns else ()
    if phase is Phase.MIDDAY:
        return tuple(_discipline_actions(state))
    if phase is Phase.VOTE:
        return ({"type": "close_vote"}, *_discipline_actions(state))
    day = state.day
    assert day is not None
    actions: list[dict[str, Any]] = []
    if _inquiry_refusal(state) is None:
        actions.append({"type": "inquiry"})
    pending = _midday_pending(state)
    if pending:
        actions.append({"type": "midday"})
    countdowns = timers(state)
    if countdowns:
        actions.append({"type": "timer", "timers": countdowns})
    if not pending:
        for kind in ("defence", "exit"):
            if _vote_refusal(state, kind) is None:
                actions.append({"type": "start_vote", "vote": kind})
        if not (day.defended and not day.exit_done):
            actions.append({"type": "end_day"})
    actions.extend(_discipline_actions(state))
    return tuple(actions)


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
    if form_is_ok(step):
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


def form_is_ok(step: Step) -> bool:
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


def resolution_dict(resolution: Any) -> dict[str, Any]:
    """A resolution as JSON (the moderator's ledger, the post-game reveal)."""
    return {
        "night": resolution.night,
        "exits": [
            {"seat": seat, "causes": list(causes)} for seat, causes in resolution.exits
        ],
        "colonel_hit": resolution.colonel_hit,
        "saved": list(resolution.saved),
        "shielded": resolution.shielded,
        "slaughter": None
        if resolution.slaughter is None
        else {
            "target": resolution.slaughter[0],
            "guess": resolution.slaughter[1],
            "correct": resolution.slaughter[2],
        },
        "recruitment": resolution.recruitment,
        "recruited": resolution.recruited,
        "demolition": resolution.demolition,
        "suspension_began": resolution.suspension_began,
        "sniper": resolution.sniper,
    }


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
    new = _remove(new, [(target, ("colonel_shot",))], "day", midday.day, events)
    new = evolve(new, colonel_reading=target)
    return _check_end(new, events)


# --- leaving and the end --------------------------------------------------------------


def _remove(
    state: GameState,
    leaving: Sequence[tuple[int, tuple[str, ...]]],
    at: str,
    number: int,
    events: Events,
) -> GameState:
    """Take players out of the game (public: who, and the public word for how)."""
    if not leaving:
        return state
    in_game = list(state.in_game)
    exits = list(state.exits)
    for seat, causes in leaving:
        in_game[seat] = False
        exits.append(Exit(seat, at, number, causes))
        events.append(
            Event(
                "left",
                {
                    "seat": seat,
                    "at": at,
                    "number": number,
                    "how": public_causes(causes),
                },
            )
        )
    kicks = state.kicks - {seat for seat, _ in leaving}
    return evolve(state, in_game=tuple(in_game), exits=tuple(exits), kicks=kicks)


def winner(state: GameState) -> Outcome | None:
    """Citizens win when no mafia is left; the mafia when they are at least as many
    as the citizens.  Players due to leave still count (they are in the game)."""
    mafia = citizens = 0
    for seat, present in enumerate(state.in_game):
        if present:
            if state.sides[seat] is Side.MAFIA:
                mafia += 1
            else:
                citizens += 1
    if mafia == 0:
        return Outcome(Side.CITIZENS.value, "no_mafia_left")
    if mafia >= citizens:
        return Outcome(Side.MAFIA.value, "mafia_parity")
    return None


def _check_end(state: GameState, events: Events) -> tuple[GameState, Events]:
    """The end is checked after a night's resolution, the colonel's shot and an exit
    vote (not at a kick)."""
    result = winner(state)
    if result is None:
        return state, events
    table = state.table
    roles = [
        {"seat": seat, "side": state.sides[seat].value, "role": table.roles[seat].value}
        for seat in range(table.players)
    ]
    events.append(
        Event(
            "game_over",
            {"winner": result.winner, "reason": result.reason, "roles": roles},
        )
    )
    over = evolve(
        state,
        phase=Phase.OVER,
        outcome=result,
        sleep=None,
        awake=frozenset(),
        tapped=frozenset(),
        vote=None,
        timer=None,
    )
    return over, events


# --- the moderator --------------------------------------------------------------------


def _confirm_night(
    state: GameState, seat: int, move: ConfirmNight
) -> tuple[GameState, Events]:
    if state.phase is not Phase.DAWN:
        raise NotDawn(action=move.type, phase=state.phase.value)
    current = state.current
    assert current is not None and current.resolution is not None
    resolution = current.resolution
    night = state.night
    table = state.table
    events: Events = []
    changes: dict[str, Any] = {"step": state.step + 1}
    if resolution.colonel_hit is not None:
        changes["colonel_hit_night"] = night
    if resolution.suspension_began:
        changes["suspended_since"] = night
    sniper = current.pick(Step.SNIPER)
    if sniper is not None and sniper.effective and sniper.target is not None:
        changes["bullet"] = False
    if night:
        nurse = current.pick(Step.NURSE)
        changes["last_saved"] = None if nurse is None else nurse.target
    reading = None
    if state.colonel_reading is not None:
        reading = (state.colonel_reading, read_side(state, state.colonel_reading))
    new = evolve(state, **changes)
    new = _remove(new, resolution.exits, "night", night, events)
    colonel_stays = resolution.colonel_hit is not None and new.in_game[table.colonel]
    announce = state.house.announce_recruitment
    morning = Morning(
        night=night,
        left=tuple(
            seat
            for seat, causes in resolution.exits
            if any(cause != "kicked" for cause in causes)
        ),
        kicked=tuple(seat for seat, causes in resolution.exits if "kicked" in causes),
        midday=colonel_stays,
        recruitment=(resolution.recruitment is not None)
        if announce and night
        else None,
        colonel_reading=reading,
    )
    day = Day(number=night + 1)
    new = evolve(
        new,
        phase=Phase.DAY,
        current=None,
        nights=(*state.nights, current),
        mornings=(*state.mornings, morning),
        colonel_reading=None,
        day=day,
        midday=Midday(day.number, table.colonel, "owed") if colonel_stays else None,
        timer=None,
    )
    events.append(Event("morning", morning_dict(morning)))
    return _check_end(new, events)


def morning_dict(morning: Morning) -> dict[str, Any]:
    return {
        "night": morning.night,
        "left": list(morning.left),
        "kicked": list(morning.kicked),
        "midday": morning.midday,
        "recruitment": morning.recruitment,
        "colonel_reading": None
        if morning.colonel_reading is None
        else {
            "seat": morning.colonel_reading[0],
            "side": morning.colonel_reading[1].value,
        },
    }


def _day(state: GameState, move: Action) -> Day:
    if state.phase is not Phase.DAY:
        raise NotDay(action=move.type, phase=state.phase.value)
    assert state.day is not None
    return state.day


def _inquiry_refusal(state: GameState) -> IllegalAction | None:
    day = state.day
    assert day is not None
    if day.opened:
        return InquiryTooLate()
    if day.inquiry:
        return InquiryAlreadyToday()
    if not state.inquiries_left:
        return NoInquiriesLeft()
    if not state.exits:
        return NobodyHasLeft()
    return None


def reading_dict(state: GameState, reading: Reading) -> dict[str, Any]:
    """An inquiry as the table hears it: each side, or the counts (house option)."""
    shown: dict[str, Any] = {"day": reading.day, "number": reading.number}
    if state.house.inquiry_reading == "sides":
        shown["reading"] = [
            {"seat": seat, "side": side.value} for seat, side in reading.entries
        ]
        shown["counts"] = None
    else:
        shown["reading"] = None
        sides = [side for _, side in reading.entries]
        shown["counts"] = [
            {"side": side.value, "count": sides.count(side)}
            for side in (Side.CITIZENS, Side.MAFIA)
        ]
    return shown


def _inquiry(state: GameState, seat: int, move: Inquiry) -> tuple[GameState, Events]:
    day = _day(state, move)
    refusal = _inquiry_refusal(state)
    if refusal is not None:
        raise refusal
    number = INQUIRIES - state.inquiries_left + 1
    entries = tuple((left.seat, read_side(state, left.seat)) for left in state.exits)
    reading = Reading(day.number, number, entries)
    new = evolve(
        state,
        step=state.step + 1,
        inquiries_left=state.inquiries_left - 1,
        readings=(*state.readings, reading),
        day=day._replace(inquiry=True),
    )
    return new, [Event("inquiry", reading_dict(state, reading))]


def _midday(state: GameState, seat: int, move: MiddaySleep) -> tuple[GameState, Events]:
    day = _day(state, move)
    midday = state.midday
    if midday is None or midday.stage not in ("owed", "named"):
        raise NoMidday()
    if midday.stage == "owed":
        step, stage = Step.COLONEL_NAMES, "naming"
    else:
        step, stage = Step.COLONEL_SHOOTS, "shooting"
    new = evolve(
        state,
        step=state.step + 1,
        phase=Phase.MIDDAY,
        sleep=step,
        tapped=frozenset(),
        midday=midday._replace(stage=stage),
        day=day._replace(opened=True),
        timer=None,
    )
    new = evolve(new, awake=awake_at(new, step))
    event = Event("step", {"phase": "midday", "number": day.number, "step": step.value})
    return new, [event]


def _timer(state: GameState, seat: int, move: StartTimer) -> tuple[GameState, Events]:
    phase = state.phase
    if phase is not Phase.DAY and not (
        phase is Phase.NIGHT and state.sleep is Step.CONFER
    ):
        raise TimerNotNow()
    offered = [entry for entry in timers(state) if entry["kind"] == move.kind]
    if not offered:
        raise TimerNotNow()
    chosen = next((e for e in offered if e["subject"] == move.subject), None)
    if chosen is None:
        raise TimerSubject(target=move.subject)
    timer = Timer(move.kind, move.subject, chosen["seconds"], state.step)
    changes: dict[str, Any] = {"step": state.step + 1, "timer": timer}
    if phase is Phase.DAY:
        assert state.day is not None
        changes["day"] = state.day._replace(opened=True)
    data = {"kind": timer.kind, "subject": timer.subject, "seconds": timer.seconds}
    return evolve(state, **changes), [Event("timer", data)]


def _vote_refusal(state: GameState, kind: str) -> IllegalAction | None:
    day = state.day
    assert day is not None
    if _midday_pending(state):
        return MiddayFirst()
    if kind == "defence":
        if day.number == 1 and not state.house.first_day_votes:
            return NoVoteFirstDay()
        if day.defence_done:
            return DefenceVoteDone()
        return None
    if day.exit_done:
        return ExitVoteDone()
    if not day.defence_done or not day.defended:
        return NoExitVote()
    return None


def _start_vote(
    state: GameState, seat: int, move: StartVote
) -> tuple[GameState, Events]:
    day = _day(state, move)
    refusal = _vote_refusal(state, move.vote)
    if refusal is not None:
        raise refusal
    voters = tuple(living(state))
    candidates = voters if move.vote == "defence" else day.defended
    vote = VoteRecord(
        kind=move.vote,
        day=day.number,
        candidates=candidates,
        voters=voters,
        threshold=threshold(state, len(voters)),
        ballots=(None,) * state.players,
    )
    new = evolve(
        state,
        step=state.step + 1,
        phase=Phase.VOTE,
        vote=vote,
        day=day._replace(opened=True),
        timer=None,
    )
    data = {
        "kind": vote.kind,
        "day": vote.day,
        "candidates": list(candidates),
        "voters": list(voters),
        "threshold": vote.threshold,
    }
    return new, [Event("vote_started", data)]


def _vote(state: GameState, seat: int, move: Vote) -> tuple[GameState, Events]:
    vote = state.vote
    if state.phase is not Phase.VOTE or vote is None:
        raise NoVoteOpen(action=move.type, phase=state.phase.value)
    # Voters are everyone in the game when the vote opened; nobody leaves during a
    # vote, and a player who has left was refused before (HasLeft).
    assert seat in vote.voters
    if vote.ballots[seat] is not None:
        raise AlreadyVoted()
    for candidate in move.candidates:
        if candidate not in vote.candidates:
            raise NotACandidate(target=candidate)
    if state.house.ballot == "one" and len(move.candidates) > 1:
        raise OneCandidateOnly()
    ballots = list(vote.ballots)
    ballots[seat] = move.candidates
    vote = vote._replace(ballots=tuple(ballots))
    events = [Event("voted", {"seat": seat, "candidates": list(move.candidates)})]
    if any(vote.ballots[voter] is None for voter in vote.voters):
        return evolve(state, step=state.step + 1, vote=vote), events
    return _close(evolve(state, step=state.step + 1), vote, False, events)


def _close_vote(
    state: GameState, seat: int, move: CloseVote
) -> tuple[GameState, Events]:
    vote = state.vote
    if state.phase is not Phase.VOTE or vote is None:
        raise NoVoteOpen(action=move.type, phase=state.phase.value)
    return _close(evolve(state, step=state.step + 1), vote, True, [])


def exit_chosen(state: GameState, vote: VoteRecord) -> tuple[int, ...]:
    """Who leaves after an exit vote: those at the threshold; of several, the one with
    most votes (a tie: nobody), or as the house decides."""
    counts = vote.counts()
    reached = [seat for seat in vote.candidates if counts[seat] >= vote.threshold]
    house = state.house
    if len(reached) <= 1 or house.exit_several == "all":
        return tuple(reached)
    top = max(counts[seat] for seat in reached)
    leaders = [seat for seat in reached if counts[seat] == top]
    if len(leaders) == 1 or house.exit_tie == "all":
        return tuple(leaders)
    return ()


def _close(
    state: GameState, vote: VoteRecord, early: bool, events: Events
) -> tuple[GameState, Events]:
    day = state.day
    assert day is not None
    counts = vote.counts()
    if vote.kind == "defence":
        chosen = tuple(s for s in vote.candidates if counts[s] >= vote.threshold)
        day = day._replace(defence_done=True, defended=chosen)
    else:
        chosen = exit_chosen(state, vote)
        day = day._replace(exit_done=True)
    # A closed-early vote is complete as it stands: a missing ballot is empty.
    done = vote._replace(chosen=chosen, closed_early=early)
    events.append(
        Event(
            "vote_closed",
            {
                "kind": vote.kind,
                "day": vote.day,
                "counts": {str(seat): n for seat, n in counts.items()},
                "threshold": vote.threshold,
                "chosen": list(chosen),
                "closed_early": early,
            },
        )
    )
    new = evolve(state, phase=Phase.DAY, vote=None, votes=(*state.votes, done), day=day)
    if vote.kind == "defence":
        return new, events
    leaving = [(seat, ("voted_out",)) for seat in chosen]
    new = _remove(new, leaving, "day", day.number, events)
    return _check_end(new, events)


def _end_day(state: GameState, seat: int, move: EndDay) -> tuple[GameState, Events]:
    day = _day(state, move)
    if _midday_pending(state):
        raise MiddayFirst()
    if day.defended and not day.exit_done:
        raise ExitVoteFirst()
    night = state.night + 1
    recruit = state.recruit
    met = state.recruit_met or (
        recruit is not None
        and state.recruit_night == night - 1
        and state.in_game[recruit]
    )
    middays = state.middays if state.midday is None else (*state.middays, state.midday)
    new = evolve(
        state,
        step=state.step + 1,
        phase=Phase.NIGHT,
        night=night,
        sleep=Step.CONFER,
        tapped=frozenset(),
        recruit_met=met,
        current=NightRecord(night),
        day=None,
        midday=None,
        middays=middays,
        timer=None,
    )
    new = evolve(new, awake=awake_at(new, Step.CONFER))
    events = [
        Event("night_began", {"night": night}),
        Event("step", {"phase": "night", "number": night, "step": Step.CONFER.value}),
    ]
    return new, events


def _check_discipline(state: GameState, move: Warn | Kick) -> None:
    if state.phase not in (Phase.DAY, Phase.MIDDAY, Phase.VOTE):
        raise DayOnly(action=move.type, phase=state.phase.value)
    if not state.in_game[move.target]:
        raise TargetLeft(target=move.target)


def _warn(state: GameState, seat: int, move: Warn) -> tuple[GameState, Events]:
    _check_discipline(state, move)
    assert state.day is not None
    target = move.target
    warnings = list(state.warnings)
    warnings[target] += 1
    record = Discipline(state.day.number, target, "warning")
    new = evolve(
        state,
        step=state.step + 1,
        warnings=tuple(warnings),
        discipline=(*state.discipline, record),
    )
    data = {"seat": target, "day": record.day, "warnings": warnings[target]}
    return new, [Event("warned", data)]


def _kick(state: GameState, seat: int, move: Kick) -> tuple[GameState, Events]:
    _check_discipline(state, move)
    assert state.day is not None
    target = move.target
    if target in state.kicks:
        raise AlreadyKicked(target=target)
    record = Discipline(state.day.number, target, "kick")
    new = evolve(
        state,
        step=state.step + 1,
        kicks=state.kicks | {target},
        discipline=(*state.discipline, record),
    )
    return new, [Event("kicked", {"seat": target, "day": record.day})]


_MOVES: dict[type, Callable[[GameState, int, Any], tuple[GameState, Events]]] = {
    NightMove: _night_move,
    Vote: _vote,
    ConfirmNight: _confirm_night,
    Inquiry: _inquiry,
    MiddaySleep: _midday,
    StartTimer: _timer,
    StartVote: _start_vote,
    CloseVote: _close_vote,
    EndDay: _end_day,
    Warn: _warn,
    Kick: _kick,
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


def replay(
    ruleset: MafiaRuleset, game_setup: GameSetup, log: Iterable[Any]
) -> GameState:
    """Deal again and apply every ``(seat, action)`` of the log in order."""
    state = deal(ruleset, game_setup)
    for index, entry in enumerate(log):
        try:
            seat, action = entry
            state, _ = apply(state, seat, action)
        except IllegalAction as error:
            error.step = index
            raise
        except (TypeError, ValueError):
            malformed = MalformedAction(detail="a log entry is a (seat, action) pair")
            malformed.step = index
            raise malformed from None
    return state
