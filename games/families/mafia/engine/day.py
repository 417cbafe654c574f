"""The day and the moderator (docs/rules.md §3 "Day"): the confirmed morning, inquiries,
the colonel's midday, timers, the defence and exit votes, warnings, kicks, the night.

One function per move, like :mod:`.rules`; the moderator's legal moves are here too
(:func:`moderator_actions`), so what he is offered and what he may do are one piece
of code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine.core import Event, IllegalAction
from games.families.mafia.engine.actions import (
    Action,
    CloseVote,
    ConfirmNight,
    EndDay,
    Inquiry,
    Kick,
    MiddaySleep,
    StartTimer,
    StartVote,
    Vote,
    Warn,
)
from games.families.mafia.engine.errors import (
    AlreadyKicked,
    AlreadyVoted,
    DayOnly,
    DefenceVoteDone,
    ExitVoteDone,
    ExitVoteFirst,
    InquiryAlreadyToday,
    InquiryTooLate,
    MiddayFirst,
    NobodyHasLeft,
    NoExitVote,
    NoInquiriesLeft,
    NoMidday,
    NotACandidate,
    NotDawn,
    NotDay,
    NoVoteFirstDay,
    NoVoteOpen,
    OneCandidateOnly,
    TargetLeft,
    TimerNotNow,
    TimerSubject,
)
from games.families.mafia.engine.knowledge import read_side
from games.families.mafia.engine.leaving import check_end, remove
from games.families.mafia.engine.night import (
    COLONEL_SPEECH_SECONDS,
    CONFER_SECONDS,
    awake_at,
    living,
)
from games.families.mafia.engine.records import morning_dict, reading_dict
from games.families.mafia.engine.state import (
    Day,
    Discipline,
    GameState,
    Midday,
    Morning,
    NightRecord,
    Phase,
    Reading,
    Step,
    Timer,
    VoteRecord,
    evolve,
)

__all__ = [
    "INQUIRIES",
    "MOVES",
    "exit_chosen",
    "midday_pending",
    "moderator_actions",
    "threshold",
    "timers",
]

INQUIRIES = 2
""""Two rounds of inquiry are provided for" (the seed)."""

Events = list[Event]


# --- what the moderator may do --------------------------------------------------------


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


def _discipline_actions(state: GameState) -> list[dict[str, Any]]:
    among = living(state)
    kickable = [seat for seat in among if seat not in state.kicks]
    actions: list[dict[str, Any]] = [{"type": "warn", "among": among}]
    if kickable:
        actions.append({"type": "kick", "among": kickable})
    return actions


def midday_pending(state: GameState) -> bool:
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
    pending = midday_pending(state)
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


# --- the morning ----------------------------------------------------------------------


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
    new = remove(new, resolution.exits, "night", night, events)
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
    return check_end(new, events)


# --- inquiries, the colonel's midday, timers ------------------------------------------


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


# --- votes ----------------------------------------------------------------------------


def _vote_refusal(state: GameState, kind: str) -> IllegalAction | None:
    day = state.day
    assert day is not None
    if midday_pending(state):
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
    new = remove(new, leaving, "day", day.number, events)
    return check_end(new, events)


# --- the night; warnings and kicks ----------------------------------------------------


def _end_day(state: GameState, seat: int, move: EndDay) -> tuple[GameState, Events]:
    day = _day(state, move)
    if midday_pending(state):
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


MOVES: dict[type, Callable[[GameState, int, Any], tuple[GameState, Events]]] = {
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
"""The day's moves (the ballots and the moderator's), by action class."""
