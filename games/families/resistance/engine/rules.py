"""The rules of the Resistance family (docs/rules.md §1): dealing, moves, the end.

One function per move.  Each checks the move against the rules, raising the rule's own
:class:`~games.engine.core.IllegalAction` subclass before anything is built, so a
refused move leaves no trace; then it makes the new state with
:func:`~games.families.resistance.engine.state.evolve` and says what happened in events.

Whatever differs between ``partisans``, ``trust_no_one`` and ``werewolves`` was read
from the ruleset into the :class:`.state.Table` at the deal; the code below only
reads those fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from random import Random
from typing import TYPE_CHECKING, Any, TypeVar, cast

from games.engine.core import (
    Event,
    GameIsOver,
    GameSetup,
    NotSeated,
    Outcome,
    WrongPhase,
)
from games.families.resistance.engine.actions import (
    Action,
    Check,
    Claim,
    Play,
    Propose,
    Shoot,
    Vote,
    parse_action,
)
from games.families.resistance.engine.errors import (
    AlreadyPlayed,
    AlreadyVoted,
    FormerHolder,
    GoodCannotFail,
    NotAVoter,
    NotHolder,
    NotLeader,
    NotOnTeam,
    NotSniper,
    SelfCheck,
    SelfShot,
    WrongTeamSize,
)
from games.families.resistance.engine.sides import Side
from games.families.resistance.engine.state import (
    FAIL,
    SUCCESS,
    CheckRecord,
    GameState,
    MissionRecord,
    Phase,
    Table,
    VoteRecord,
    evolve,
)

if TYPE_CHECKING:
    from games.families.resistance.engine.rulesets import ResistanceRuleset

__all__ = [
    "MISSIONS",
    "REJECTIONS_TO_LOSE",
    "WINS_NEEDED",
    "apply",
    "deal",
    "legal_actions",
    "start",
    "team_size",
    "voters",
    "waiting_for",
]

MISSIONS = 5
WINS_NEEDED = 3
"""Three successes or three failures decide the game."""
REJECTIONS_TO_LOSE = 5
"""The fifth rejected proposal in a row for one mission wins for evil."""

GOOD = Side.GOOD
EVIL = Side.EVIL
T = TypeVar("T")
Events = list[Event]


def _row(table: Iterable[tuple[int, Any]], players: int) -> Any:
    for count, value in table:
        if count == players:
            return value
    raise ValueError(f"no row for {players} players")  # GameSetup checked the count


# --- the deal -------------------------------------------------------------------------


def deal(ruleset: ResistanceRuleset, game_setup: GameSetup) -> GameState:
    """Deal roles and pick the first leader, all from ``random.Random(seed)``.

    The order of draws is part of the stored games' meaning: shuffle the seats (the
    first ``evil`` of them are evil), then the scout among the good and the sniper
    among the evil seats (in seat order) when «С разведчиком» is on, then the first
    leader.  Changing it would change every recorded game.
    """
    players = game_setup.players
    options = game_setup.options
    rng = Random(game_setup.seed)
    seats = list(range(players))
    rng.shuffle(seats)
    evil = tuple(sorted(seats[: _row(ruleset.evil_counts, players)]))
    sides = tuple(EVIL if seat in evil else GOOD for seat in range(players))
    roles = [ruleset.evil_role if side is EVIL else ruleset.good_role for side in sides]
    scout = sniper = None
    if options.get("scout") and ruleset.scout_role and ruleset.sniper_role:
        scout = rng.choice([seat for seat in range(players) if sides[seat] is GOOD])
        sniper = rng.choice(evil)
        roles[scout] = ruleset.scout_role
        roles[sniper] = ruleset.sniper_role
    first_leader = rng.randrange(players)
    checking = bool(options.get("check"))
    growing = (
        _row(ruleset.growing_patrol, players) if options.get("growing_patrol") else None
    )
    two_fail_mission, two_fail_min_players = ruleset.two_fail_at
    two_fails = (
        two_fail_mission
        if ruleset.two_fail_mission and players >= two_fail_min_players
        else 0
    )
    table = Table(
        ruleset=ruleset,
        setup=game_setup,
        players=players,
        roles=tuple(roles),
        sides=sides,
        evil=evil,
        scout=scout,
        sniper=sniper,
        first_leader=first_leader,
        team_sizes=_row(ruleset.team_sizes, players),
        growing_patrol=growing,
        two_fails_mission=two_fails,
        check_after=ruleset.check_after if checking else frozenset(),
        leader_votes=ruleset.leader_votes,
        leader_stays=ruleset.leader_stays_after_mission,
        chat=bool(options.get("chat")),
    )
    # «С проверкой»: the token starts with the seat whose next seat is the first leader.
    token = (first_leader - 1) % players if checking else None
    return GameState(
        table=table,
        step=0,
        turn=0,
        phase=Phase.PROPOSAL,
        leader=first_leader,
        mission=1,
        rejections=0,
        team=(),
        votes=(),
        cards=(),
        history=(),
        missions=(),
        successes=0,
        failures=0,
        token=token,
        former_holders=() if token is None else (token,),
        checks=(),
        shot=None,
        outcome=None,
    )


def start(
    ruleset: ResistanceRuleset, game_setup: GameSetup
) -> tuple[GameState, Events]:
    """The dealt state and the public ``game_started`` event (no role in it)."""
    state = deal(ruleset, game_setup)
    table = state.table
    data = {
        "ruleset": ruleset.code,
        "players": table.players,
        "options": dict(game_setup.options),
        "leader": state.leader,
        "token": state.token,
        "missions": [
            {
                "number": number,
                "size": team_size(state, number),
                "two_fails": number == table.two_fails_mission,
            }
            for number in range(1, MISSIONS + 1)
        ],
    }
    return state, [Event("game_started", data)]


# --- public facts derived from the state ----------------------------------------------


def team_size(state: GameState, mission: int | None = None) -> int:
    """The team size for ``mission`` (default: the current one) as things stand.

    With the growing patrol the size depends on the successes so far, so for a
    future mission this is the size it would have if it were played now.
    """
    table = state.table
    number = state.mission if mission is None else mission
    growing = table.growing_patrol
    if growing is None:
        size: int = table.team_sizes[number - 1]
        return size
    base, cap = growing
    return min(base + state.successes, cap, table.players)


def voters(state: GameState) -> tuple[int, ...]:
    """Who votes on proposals: everyone, or everyone but the leader (werewolves)."""
    table = state.table
    if table.leader_votes:
        return tuple(range(table.players))
    return tuple(seat for seat in range(table.players) if seat != state.leader)


def waiting_for(state: GameState) -> frozenset[int]:
    """The seats whose move the game awaits (the sniper's seat is not public: see
    :mod:`.view`, which hides it from those who may not know it)."""
    phase = state.phase
    if phase is Phase.PROPOSAL:
        return frozenset((state.leader,))
    if phase is Phase.VOTE:
        leader = -1 if state.table.leader_votes else state.leader
        return frozenset(
            seat
            for seat, vote in enumerate(state.votes)
            if vote is None and seat != leader
        )
    if phase is Phase.MISSION:
        return frozenset(
            seat
            for seat, card in zip(state.team, state.cards, strict=True)
            if card is None
        )
    if phase is Phase.CHECK or phase is Phase.CLAIM:
        assert state.token is not None
        return frozenset((state.token,))
    if phase is Phase.SNIPER:
        assert state.table.sniper is not None
        return frozenset((state.table.sniper,))
    return frozenset()


def eligible_for_check(state: GameState) -> list[int]:
    """Seats the holder may check: never held the token (the holder has)."""
    former = state.former_holders
    return [seat for seat in range(state.table.players) if seat not in former]


def legal_actions(state: GameState, seat: int | None) -> tuple[dict[str, Any], ...]:
    """What ``seat`` may do now, in the JSON shapes of the contract."""
    table = state.table
    if type(seat) is not int or not 0 <= seat < table.players or state.outcome:
        return ()
    phase = state.phase
    if phase is Phase.PROPOSAL:
        if seat == state.leader:
            among = list(range(table.players))
            return ({"type": "propose", "size": team_size(state), "among": among},)
    elif phase is Phase.VOTE:
        if state.votes[seat] is None and (table.leader_votes or seat != state.leader):
            return ({"type": "vote", "choices": [True, False]},)
    elif phase is Phase.MISSION:
        if seat in state.team and state.cards[state.team.index(seat)] is None:
            cards = [SUCCESS] if table.sides[seat] is GOOD else [SUCCESS, FAIL]
            return ({"type": "play", "cards": cards},)
    elif phase is Phase.CHECK:
        if seat == state.token:
            return ({"type": "check", "among": eligible_for_check(state)},)
    elif phase is Phase.CLAIM:
        if seat == state.token:
            return ({"type": "claim", "sides": [GOOD.value, EVIL.value]},)
    elif phase is Phase.SNIPER and seat == table.sniper:
        among = [other for other in range(table.players) if other != seat]
        return ({"type": "shoot", "among": among},)
    return ()


# --- moves ----------------------------------------------------------------------------


def _replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with one entry changed (the cheapest way for ten entries)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _wrong_phase(state: GameState, action: Action) -> WrongPhase:
    return WrongPhase(action=action.type, phase=state.phase.value)


def _finish(
    state: GameState, events: Events, winner: Side, reason: str, **changes: Any
) -> tuple[GameState, Events]:
    """End the game: the result, and the reveal of every role in the event."""
    result = Outcome(winner, reason)
    table = state.table
    roles = [
        {"seat": seat, "side": side.value, "role": table.roles[seat]}
        for seat, side in enumerate(table.sides)
    ]
    events.append(
        Event("game_over", {"winner": winner.value, "reason": reason, "roles": roles})
    )
    return evolve(state, phase=Phase.OVER, outcome=result, **changes), events


def _propose(state: GameState, seat: int, action: Propose) -> tuple[GameState, Events]:
    if state.phase is not Phase.PROPOSAL:
        raise _wrong_phase(state, action)
    if seat != state.leader:
        raise NotLeader()
    size = team_size(state)
    if len(action.team) != size:
        raise WrongTeamSize(size=size, given=len(action.team))
    team = tuple(sorted(action.team))
    event = Event(
        "proposed",
        {
            "mission": state.mission,
            "attempt": state.rejections + 1,
            "leader": seat,
            "team": list(team),
        },
    )
    new = evolve(
        state,
        step=state.step + 1,
        phase=Phase.VOTE,
        team=team,
        votes=(None,) * state.table.players,
    )
    return new, [event]


def _vote(state: GameState, seat: int, action: Vote) -> tuple[GameState, Events]:
    if state.phase is not Phase.VOTE:
        raise _wrong_phase(state, action)
    table = state.table
    if not table.leader_votes and seat == state.leader:
        raise NotAVoter()
    votes = state.votes
    if votes[seat] is not None:
        raise AlreadyVoted()
    approve = action.approve
    votes = _replaced(votes, seat, approve)
    events = [
        Event("voted", {"seat": seat}),
        Event("vote_cast", {"seat": seat, "approve": approve}, frozenset((seat,))),
    ]
    abstaining = 0 if table.leader_votes else 1  # the werewolf leader's empty slot
    if votes.count(None) > abstaining:
        return evolve(state, step=state.step + 1, votes=votes), events
    return _count_votes(state, votes, events)


def _count_votes(
    state: GameState, votes: tuple[bool | None, ...], events: Events
) -> tuple[GameState, Events]:
    """The last vote is in: reveal every vote, then approve or pass the leadership.

    Approved with strictly more than half of the voters; a tie rejects.
    """
    table = state.table
    voting = table.players if table.leader_votes else table.players - 1
    approved = votes.count(True) * 2 > voting
    attempt = state.rejections + 1
    record = VoteRecord(
        state.mission, attempt, state.leader, state.team, votes, approved
    )
    events.append(
        Event(
            "votes_revealed",
            {
                "mission": state.mission,
                "attempt": attempt,
                "votes": {str(s): v for s, v in enumerate(votes) if v is not None},
                "approved": approved,
                "team": list(state.team),
            },
        )
    )
    history = (*state.history, record)
    step = state.step + 1
    if approved:
        new = evolve(
            state,
            step=step,
            phase=Phase.MISSION,
            votes=(),
            cards=(None,) * len(state.team),
            history=history,
            rejections=0,
        )
        return new, events
    rejections = attempt
    if rejections == REJECTIONS_TO_LOSE:
        return _finish(
            state,
            events,
            EVIL,
            "five_rejections",
            step=step,
            votes=(),
            team=(),
            history=history,
            rejections=rejections,
        )
    leader = (state.leader + 1) % table.players
    events.append(Event("leader_changed", {"leader": leader}))
    new = evolve(
        state,
        step=step,
        phase=Phase.PROPOSAL,
        leader=leader,
        votes=(),
        team=(),
        history=history,
        rejections=rejections,
    )
    return new, events


def _play(state: GameState, seat: int, action: Play) -> tuple[GameState, Events]:
    if state.phase is not Phase.MISSION:
        raise _wrong_phase(state, action)
    team = state.team
    if seat not in team:
        raise NotOnTeam()
    place = team.index(seat)
    cards = state.cards
    if cards[place] is not None:
        raise AlreadyPlayed()
    card = action.card
    if card == FAIL and state.table.sides[seat] is GOOD:
        raise GoodCannotFail()
    cards = _replaced(cards, place, card)
    events = [Event("card_played", {"seat": seat})]
    if None in cards:
        return evolve(state, step=state.step + 1, cards=cards), events
    return _end_mission(state, cast(tuple[str, ...], cards), events)


def _end_mission(
    state: GameState, cards: tuple[str, ...], events: Events
) -> tuple[GameState, Events]:
    """The last card is in: count the fails (only the count is ever shown) and move on:
    to the next mission, the check, the sniper's shot or the end."""
    table = state.table
    number = state.mission
    fails = cards.count(FAIL)
    success = fails < (2 if number == table.two_fails_mission else 1)
    missions = (
        *state.missions,
        MissionRecord(number, state.team, cards, fails, success),
    )
    events.append(
        Event(
            "mission_done",
            {
                "mission": number,
                "fails": fails,
                "success": success,
                "size": len(state.team),
            },
        )
    )
    successes = state.successes + success
    failures = state.failures + (not success)
    step = state.step + 1
    done: dict[str, Any] = {
        "step": step,
        "team": (),
        "cards": (),
        "missions": missions,
        "successes": successes,
        "failures": failures,
    }
    if failures == WINS_NEEDED:
        return _finish(state, events, EVIL, "three_failures", **done)
    if successes == WINS_NEEDED:
        if table.sniper is None:
            return _finish(state, events, GOOD, "three_successes", **done)
        # The sniper's identity is not in the event: the good players may not know it.
        events.append(Event("sniper_phase", {"mission": number}))
        return evolve(state, phase=Phase.SNIPER, **done), events
    leader = state.leader if table.leader_stays else (state.leader + 1) % table.players
    if leader != state.leader:
        events.append(Event("leader_changed", {"leader": leader}))
    phase = Phase.PROPOSAL
    if number in table.check_after:
        phase = Phase.CHECK
        events.append(
            Event("check_started", {"holder": state.token, "after_mission": number})
        )
    return evolve(state, phase=phase, leader=leader, mission=number + 1, **done), events


def _check(state: GameState, seat: int, action: Check) -> tuple[GameState, Events]:
    if state.phase is not Phase.CHECK:
        raise _wrong_phase(state, action)
    if seat != state.token:
        raise NotHolder()
    target = action.target
    if target == seat:
        raise SelfCheck()
    if target in state.former_holders:
        raise FormerHolder(target=target)
    result = state.table.sides[target]
    record = CheckRecord(state.mission - 1, seat, target, result, None)
    events = [
        Event(
            "checked",
            {"holder": seat, "target": target, "after_mission": record.after_mission},
        ),
        Event(
            "check_result",
            {
                "holder": seat,
                "target": target,
                "side": result.value,
                "after_mission": record.after_mission,
            },
            frozenset((seat,)),
        ),
    ]
    new = evolve(
        state, step=state.step + 1, phase=Phase.CLAIM, checks=(*state.checks, record)
    )
    return new, events


def _claim(state: GameState, seat: int, action: Claim) -> tuple[GameState, Events]:
    if state.phase is not Phase.CLAIM:
        raise _wrong_phase(state, action)
    if seat != state.token:
        raise NotHolder()
    record = state.checks[-1]._replace(claim=action.side)
    target = record.target
    events = [
        Event(
            "claimed", {"holder": seat, "target": target, "claim": action.side.value}
        ),
        Event("token_passed", {"holder": target}),
    ]
    new = evolve(
        state,
        step=state.step + 1,
        phase=Phase.PROPOSAL,
        checks=(*state.checks[:-1], record),
        token=target,
        former_holders=(*state.former_holders, target),
    )
    return new, events


def _shoot(state: GameState, seat: int, action: Shoot) -> tuple[GameState, Events]:
    if state.phase is not Phase.SNIPER:
        raise _wrong_phase(state, action)
    table = state.table
    if seat != table.sniper:
        raise NotSniper()
    target = action.target
    if target == seat:
        raise SelfShot()
    hit = target == table.scout
    events = [Event("shot", {"sniper": seat, "target": target, "hit": hit})]
    winner, reason = (EVIL, "scout_shot") if hit else (GOOD, "scout_missed")
    return _finish(state, events, winner, reason, step=state.step + 1, shot=target)


_MOVES: dict[type, Callable[[GameState, int, Any], tuple[GameState, Events]]] = {
    Propose: _propose,
    Vote: _vote,
    Play: _play,
    Check: _check,
    Claim: _claim,
    Shoot: _shoot,
}


def apply(
    state: GameState, seat: int, action: Mapping[str, Any] | Action
) -> tuple[GameState, Events]:
    """Play ``action`` for ``seat``; see :func:`games.engine.core.apply`.

    Checks in this order: the seat exists, the action is well formed, the game is not
    over, the phase is right, then the move's own rules.
    """
    table = state.table
    if type(seat) is not int or not 0 <= seat < table.players:
        raise NotSeated(seat=repr(seat))
    move = parse_action(action, table.players)
    if state.outcome is not None:
        raise GameIsOver()
    new, events = _MOVES[type(move)](state, seat, move)
    if _decision(new) != _decision(state):
        new = evolve(new, turn=new.step)
    return new, events


def _decision(state: GameState) -> tuple[Phase, int, int, int]:
    """What a move is about: while this stays the same (other players voting on the
    same team, playing the same mission) a move sent a step earlier still means what
    its player meant."""
    return (state.phase, state.mission, len(state.history), len(state.checks))
