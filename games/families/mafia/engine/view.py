"""``view(state, seat)``: the only door through which a game's state leaves the engine.

A player sees the public table (who is in, who left and the words the town was told,
warnings, kicks, inquiries, votes as cast, timers) and, in ``me``, their own card and
what they were told.  The moderator (:data:`MODERATOR`) also gets the ``ledger``:
every role, every choice of the night with what it did, the resolution awaiting
confirmation.  After the game everyone gets the ledger.  The schema is in this
engine's README.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import MODERATOR, NotSeated
from games.families.mafia.engine.knowledge import (
    mafia_team,
    team_known_to,
    woke_with_team,
)
from games.families.mafia.engine.night import (
    general_actor,
    recruitment_allowed,
    shield_up,
    suspended_now,
)
from games.families.mafia.engine.records import (
    morning_dict,
    public_causes,
    reading_dict,
    resolution_dict,
)
from games.families.mafia.engine.roles import Role
from games.families.mafia.engine.rules import legal_actions, waiting_for
from games.families.mafia.engine.state import (
    FORMS,
    GameState,
    Midday,
    NightRecord,
    Phase,
    Pick,
    Step,
    VoteRecord,
)

__all__ = ["ledger", "pick_dict", "view"]

_SLEEPING = (Phase.NIGHT, Phase.MIDDAY)
_DAYTIME = (Phase.DAY, Phase.MIDDAY, Phase.VOTE)


def pick_dict(pick: Pick, night: int, *, effective: bool = False) -> dict[str, Any]:
    """A real night choice as JSON; ``effective`` (whether it did anything) only for
    the moderator and after the game: the chooser is never told."""
    shown: dict[str, Any] = {
        "night": night,
        "step": pick.step.value,
        "seat": pick.seat,
        "target": pick.target,
        "number": pick.number,
        "mode": pick.mode,
        "guess": pick.guess,
        "reading": pick.reading,
    }
    if effective:
        shown["effective"] = pick.effective
    return shown


def _night_record(record: NightRecord) -> dict[str, Any]:
    return {
        "night": record.number,
        "picks": [
            pick_dict(pick, record.number, effective=True) for pick in record.picks
        ],
        "resolution": None
        if record.resolution is None
        else resolution_dict(record.resolution),
    }


def _vote(vote: VoteRecord) -> dict[str, Any]:
    return {
        "kind": vote.kind,
        "day": vote.day,
        "candidates": list(vote.candidates),
        "voters": list(vote.voters),
        "threshold": vote.threshold,
        "ballots": {
            str(seat): list(ballot)
            for seat, ballot in enumerate(vote.ballots)
            if ballot is not None
        },
        "counts": {str(seat): n for seat, n in vote.counts().items()},
        "chosen": list(vote.chosen),
        "closed_early": vote.closed_early,
    }


def _public_midday(midday: Midday) -> dict[str, Any]:
    """The table's picture of a midday: the two named once the first sleep is over,
    the shot once the second is; never the colonel's seat."""
    stage = midday.stage
    named = list(midday.named) if stage in ("named", "shooting", "done") else []
    done = stage == "done"
    return {
        "day": midday.day,
        "stage": stage,
        "named": named,
        "target": midday.target if done else None,
        "left": midday.left if done else None,
    }


def _night_block(state: GameState) -> dict[str, Any] | None:
    if state.phase is not Phase.NIGHT and state.phase is not Phase.DAWN:
        return None
    step = state.sleep if state.phase is Phase.NIGHT else None
    return {
        "number": state.night,
        "intro": state.night == 0,
        "step": None if step is None else step.value,
        "form": None if step is None else FORMS[step].value,
    }


def _day_block(state: GameState) -> dict[str, Any] | None:
    day = state.day
    if day is None or state.phase not in _DAYTIME:
        return None
    sleep = state.sleep if state.phase is Phase.MIDDAY else None
    return {
        "number": day.number,
        "inquiry_called": day.inquiry,
        "inquiry_open": not day.opened and not day.inquiry,
        "midday": None if state.midday is None else _public_midday(state.midday),
        "sleep_step": None if sleep is None else sleep.value,
        "sleep_form": None if sleep is None else FORMS[sleep].value,
        "defence_vote": day.defence_done,
        "defended": list(day.defended),
        "exit_vote": day.exit_done,
        "first_day_votes": state.house.first_day_votes,
    }


def _seats(state: GameState) -> list[dict[str, Any]]:
    left = {leaver.seat: leaver for leaver in state.exits}
    seats = []
    for seat in range(state.players):
        leaver = left.get(seat)
        seats.append(
            {
                "seat": seat,
                "in_game": state.in_game[seat],
                "left": None
                if leaver is None
                else {
                    "at": leaver.at,
                    "number": leaver.number,
                    "how": public_causes(leaver.causes),
                },
                "warnings": state.warnings[seat],
                "kicked": seat in state.kicks,
            }
        )
    return seats


def _channels(state: GameState, seat: int) -> list[str]:
    """The chat channels ``seat`` may write to now: the table by day (when the chat
    is on), the mafia's channel at night for those who know the team."""
    phase = state.phase
    chat = state.house.chat
    if phase is Phase.OVER:
        return ["table"] if chat else []
    night = phase is Phase.NIGHT or phase is Phase.DAWN
    if seat == MODERATOR:
        if night:
            return ["mafia"]
        return ["table"] if chat and phase is not Phase.MIDDAY else []
    if not state.in_game[seat]:
        return []
    if night:
        return ["mafia"] if seat in mafia_team(state) else []
    return ["table"] if chat and phase is not Phase.MIDDAY else []


def _own_picks(state: GameState, seat: int) -> list[dict[str, Any]]:
    records = list(state.nights)
    if state.current is not None:
        records.append(state.current)
    return [
        pick_dict(pick, record.number)
        for record in records
        for pick in record.picks
        if pick.seat == seat
    ]


def _mafia_nights(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The mafia's choices on the nights ``seat`` was awake with the team."""
    records = list(state.nights)
    if state.current is not None:
        records.append(state.current)
    return [
        {
            "night": record.number,
            "picks": [
                pick_dict(pick, record.number)
                for pick in record.picks
                if pick.step in (Step.DEMOLISHER, Step.GENERAL)
            ],
        }
        for record in records
        if record.number > 0 and woke_with_team(state, seat, record.number)
    ]


def _me(state: GameState, seat: int) -> dict[str, Any]:
    table = state.table
    role = table.roles[seat]
    team = team_known_to(state, seat)
    midday = state.midday
    colonel_midday = None
    if midday is not None and seat == midday.colonel:
        colonel_midday = {"named": list(midday.named), "target": midday.target}
    return {
        "seat": seat,
        "side": state.sides[seat].value,
        "role": role.value,
        "channels": _channels(state, seat),
        "in_game": state.in_game[seat],
        "known": [
            {
                "seat": other,
                "side": state.sides[other].value,
                "role": table.roles[other].value,
            }
            for other in team
            if other != seat
        ],
        "partisan_sees": list(table.partisan_sees) if role is Role.PARTISAN else None,
        "radio_code": state.code if seat == table.radio else None,
        "general_guess": state.guess if seat == table.general else None,
        "recruited": {"night": state.recruit_night} if seat == state.recruit else None,
        "picks": _own_picks(state, seat),
        "mafia_nights": _mafia_nights(state, seat),
        "bullet": state.bullet if seat == table.sniper else None,
        "tapped": state.phase in _SLEEPING and seat in state.tapped,
        "midday": colonel_midday,
    }


def ledger(state: GameState) -> dict[str, Any]:
    """The moderator's ledger (everyone's after the game)."""
    table = state.table
    house = state.house
    general = table.general
    midday = state.midday
    current = state.current
    return {
        "roles": [
            {
                "seat": seat,
                "role": table.roles[seat].value,
                "side": state.sides[seat].value,
                "in_game": state.in_game[seat],
                "recruit": seat == state.recruit,
            }
            for seat in range(table.players)
        ],
        "exits": [
            {
                "seat": leaver.seat,
                "at": leaver.at,
                "number": leaver.number,
                "causes": list(leaver.causes),
            }
            for leaver in state.exits
        ],
        "soldiers_in_game": sum(state.in_game[seat] for seat in table.soldiers),
        "recruit": state.recruit,
        "recruit_night": state.recruit_night if state.recruit is not None else None,
        "recruit_met": state.recruit_met,
        "shield_up": shield_up(state),
        "recruitment_used": state.recruitment_used,
        "recruitment_available": state.in_game[general]
        and recruitment_allowed(state, general),
        "bullet": state.bullet,
        "suspended": suspended_now(state),
        "suspended_since": state.suspended_since or None,
        "slaughters_used": state.slaughters_used,
        "slaughters_left": None
        if house.slaughters == 0
        else house.slaughters - state.slaughters_used,
        "radio_code": state.code,
        "general_guess": state.guess,
        "code_matches": None
        if state.code is None or state.guess is None
        else state.code == state.guess,
        "colonel_hit_night": state.colonel_hit_night or None,
        "successor": None
        if state.phase is Phase.OVER
        else (general_actor(state) if general_actor(state) != general else None),
        "inquiries_left": state.inquiries_left,
        "kicks": sorted(state.kicks),
        "warnings": {str(seat): n for seat, n in enumerate(state.warnings) if n},
        "awake": sorted(state.awake),
        "tapped": sorted(state.tapped),
        "midday": None
        if midday is None
        else {
            "day": midday.day,
            "colonel": midday.colonel,
            "stage": midday.stage,
            "named": list(midday.named),
            "target": midday.target,
            "left": midday.left,
        },
        "night": None if current is None else _night_record(current),
        "nights": [_night_record(record) for record in state.nights],
    }


def _waiting_for(state: GameState, seat: int | None, sees_all: bool) -> list[int]:
    """Whose move the table awaits.  At a night step a player sees only himself
    (who is still busy would show who is awake); the rest is public."""
    waiting = waiting_for(state)
    if sees_all or state.phase not in _SLEEPING:
        return sorted(waiting)
    return [seat] if seat is not None and seat in waiting else []


def _view(state: GameState, seat: int | None) -> dict[str, Any]:
    table = state.table
    if (
        seat is not None
        and seat != MODERATOR
        and (type(seat) is not int or not 0 <= seat < table.players)
    ):
        raise NotSeated(seat=repr(seat))
    over = state.phase is Phase.OVER
    sees_all = over or seat == MODERATOR
    result = state.outcome
    timer = state.timer
    if seat is None:
        me = None
    elif seat == MODERATOR:
        me = {
            "seat": MODERATOR,
            "side": None,
            "role": None,
            "channels": _channels(state, MODERATOR),
        }
    else:
        me = _me(state, seat)
    return {
        "ruleset": table.ruleset.code,
        "players": table.players,
        "options": dict(table.setup.options),
        "step": state.step,
        "phase": state.phase.value,
        "night": _night_block(state),
        "day": _day_block(state),
        "seats": _seats(state),
        "inquiries_left": state.inquiries_left,
        "mornings": [morning_dict(morning) for morning in state.mornings],
        "inquiries": [reading_dict(state, reading) for reading in state.readings],
        "middays": [
            _public_midday(midday) for midday in state.middays if midday.stage == "done"
        ],
        "vote": None if state.vote is None else _vote(state.vote),
        "votes": [_vote(vote) for vote in state.votes],
        "timer": None
        if timer is None
        else {
            "kind": timer.kind,
            "subject": timer.subject,
            "seconds": timer.seconds,
            "step": timer.step,
        },
        "discipline": [
            {"day": entry.day, "seat": entry.seat, "kind": entry.kind}
            for entry in state.discipline
        ],
        "me": me,
        "legal": [] if seat is None else list(legal_actions(state, seat)),
        "waiting_for": _waiting_for(state, seat, sees_all),
        "outcome": None if result is None else result.to_dict(),
        "roles": [
            {
                "seat": other,
                "side": state.sides[other].value,
                "role": table.roles[other].value,
            }
            for other in range(table.players)
        ]
        if over
        else None,
        "ledger": ledger(state) if sees_all else None,
    }


def view(
    state: GameState,
    seat: int | None,
    *,
    after: GameState | None = None,
    own: bool = True,
) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator; :data:`MODERATOR`) sees of ``state``.

    For a replay of a finished game ``after`` is its final state.  Seen by everyone
    (``seat=None``), the end's reveal is laid over the step: every role and side as
    the game ended, and the moderator's ledger as it stood at this step (every
    choice of the night so far).  Seen as one player, the step is exactly what that
    player saw then.  Nothing in this game stays a player's own secret after the end,
    so ``own`` changes nothing.
    """
    shown = _view(state, seat)
    if after is not None and seat is None:
        final = _view(after, None)
        shown["roles"] = final["roles"]
        shown["ledger"] = ledger(state)
    del own
    return shown
