"""``view(state, seat)``: the only door through which a game's state leaves the engine.

Everything a page, a socket push or the API shows comes from here, already cut to what
the seat may know (docs/rules.md §1, "What is secret").  The result is plain JSON data:
dicts with str keys, lists, str, int, bool and None; seat numbers used as keys become
strings.  The schema is in ``games/engine/README.md``.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import NotSeated
from games.families.resistance.engine.knowledge import told
from games.families.resistance.engine.rules import (
    MISSIONS,
    eligible_for_check,
    legal_actions,
    team_size,
    voters,
    waiting_for,
)
from games.families.resistance.engine.sides import Side
from games.families.resistance.engine.state import GameState, Phase

__all__ = ["view"]


def _missions(state: GameState) -> list[dict[str, Any]]:
    """The mission track: five entries, the played ones with their result."""
    table = state.table
    played = state.missions
    track = []
    for number in range(1, MISSIONS + 1):
        if number <= len(played):
            record = played[number - 1]
            size = len(record.team)
            result: str | None = "success" if record.success else "fail"
            fails: int | None = record.fails
        else:
            size, result, fails = team_size(state, number), None, None
        track.append(
            {
                "number": number,
                "size": size,
                "two_fails": number == table.two_fails_mission,
                "result": result,
                "fails": fails,
            }
        )
    return track


def _votes(votes: tuple[bool | None, ...]) -> dict[str, bool]:
    return {str(seat): vote for seat, vote in enumerate(votes) if vote is not None}


def _history(state: GameState) -> list[dict[str, Any]]:
    """Every finished vote, with the mission's fail count on the approved one."""
    played = state.missions
    entries = []
    for record in state.history:
        fails: int | None = None
        result: str | None = None
        if record.approved and record.mission <= len(played):
            mission = played[record.mission - 1]
            fails = mission.fails
            result = "success" if mission.success else "fail"
        entries.append(
            {
                "mission": record.mission,
                "attempt": record.attempt,
                "leader": record.leader,
                "team": list(record.team),
                "votes": _votes(record.votes),
                "approved": record.approved,
                "fails": fails,
                "result": result,
            }
        )
    return entries


def _proposal(state: GameState) -> dict[str, Any] | None:
    """The team on the table: being voted on (votes hidden) or on its mission."""
    if state.phase is Phase.VOTE:
        voted = [seat for seat, vote in enumerate(state.votes) if vote is not None]
        votes: dict[str, bool] | None = None
    elif state.phase is Phase.MISSION:
        last = state.history[-1]
        voted = [seat for seat, vote in enumerate(last.votes) if vote is not None]
        votes = _votes(last.votes)
    else:
        return None
    return {
        "leader": state.leader,
        "team": list(state.team),
        "voted": voted,
        "votes": votes,
    }


def _play(state: GameState) -> dict[str, Any] | None:
    if state.phase is not Phase.MISSION:
        return None
    played = [
        seat
        for seat, card in zip(state.team, state.cards, strict=True)
        if card is not None
    ]
    return {"team": list(state.team), "played": played}


def _token(state: GameState) -> dict[str, Any] | None:
    if state.token is None:
        return None
    return {
        "holder": state.token,
        "former": list(state.former_holders),
        "eligible": eligible_for_check(state),
    }


def _checks(state: GameState, seat: int | None, over: bool) -> list[dict[str, Any]]:
    """Every use of the token; the private result only for its holder, or at the end."""
    return [
        {
            "after_mission": check.after_mission,
            "holder": check.holder,
            "target": check.target,
            "claim": None if check.claim is None else check.claim.value,
            "result": check.result.value if over or seat == check.holder else None,
        }
        for check in state.checks
    ]


def _knows_sniper(state: GameState, seat: int | None, over: bool) -> bool:
    """The evil players know the sniper from the start; everyone else at the end."""
    return over or (seat is not None and state.table.sides[seat] is Side.EVIL)


def _sniper(state: GameState, seat: int | None, over: bool) -> dict[str, Any] | None:
    table = state.table
    if table.sniper is None:
        return None
    shot = state.shot
    return {
        "phase": state.phase is Phase.SNIPER,
        "sniper": table.sniper if _knows_sniper(state, seat, over) else None,
        "target": shot,
        "hit": None if shot is None else shot == table.scout,
    }


def _me(state: GameState, seat: int) -> dict[str, Any]:
    table = state.table
    side = table.sides[seat]
    phase = state.phase
    vote = state.votes[seat] if phase is Phase.VOTE else None
    card = None
    if phase is Phase.MISSION and seat in state.team:
        card = state.cards[state.team.index(seat)]
    cards = {
        str(record.number): record.cards[record.team.index(seat)]
        for record in state.missions
        if seat in record.team
    }
    channels = ["table"] if table.chat else []
    if phase is Phase.SNIPER and side is Side.EVIL:
        channels.append("evil")
    known = [
        {
            "seat": other,
            "side": None if fact.side is None else fact.side.value,
            "role": fact.role,
        }
        for other, fact in told(state, seat).items()
    ]
    return {
        "seat": seat,
        "side": side.value,
        "role": table.roles[seat],
        "known": known,
        "vote": vote,
        "card": card,
        "cards": cards,
        "channels": channels,
    }


def _waiting_for(state: GameState, seat: int | None, over: bool) -> list[int]:
    """Whose move the table awaits.  In the sniper phase that would name the sniper,
    so only those who know the sniper see it; the others see an empty list."""
    if state.phase is Phase.SNIPER and not _knows_sniper(state, seat, over):
        return []
    return sorted(waiting_for(state))


def view(
    state: GameState,
    seat: int | None,
    *,
    after: GameState | None = None,
    own: bool = True,
    memo: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) sees of ``state``; see the module doc.

    For a replay of a finished game ``after`` is its final state.  Seen by everyone
    (``seat=None``), what the end made public is laid over the step: every role and
    side, each check's true result, the sniper's seat; a vote in progress stays
    "voted / not yet", and no card is ever tied to a seat.  Seen as one player, the
    step is exactly what that player saw then.  ``own=False`` (the person watching is
    not that player) leaves out the cards the seat played: who played which mission
    card stays secret forever (docs/rules.md §1).
    """
    shown = _view(state, seat, memo)
    if after is not None and seat is None:
        _reveal(shown, _view(after, None))
    if not own and shown["me"]:
        shown["me"] = {**shown["me"], "card": None, "cards": {}}
    return shown


def _reveal(shown: dict[str, Any], final: dict[str, Any]) -> None:
    """Lay over a spectator's view the facts that the final spectator view states."""
    shown["roles"] = final["roles"]
    final_checks = final["checks"]
    shown["checks"] = [
        {**check, "result": final_checks[index]["result"]}
        for index, check in enumerate(shown["checks"])
    ]
    if shown["sniper"] and final["sniper"]:
        shown["sniper"] = {**shown["sniper"], "sniper": final["sniper"]["sniper"]}


def _shared(
    state: GameState, memo: dict[str, Any] | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The mission track and the vote history of a state: the same for every seat,
    and the longer part of a view late in a game, so made once for every view that
    shares ``memo``. Whoever reads a view only reads it: a view is never changed in
    place (the family's ``test_shared_view`` checks that pushes, pages and bots leave
    these parts as they were made)."""
    if memo is not None:
        found = memo.get("resistance.shared")
        if found is not None:
            return found  # type: ignore[no-any-return]
    made = _missions(state), _history(state)
    if memo is not None:
        memo["resistance.shared"] = made
    return made


def _view(
    state: GameState, seat: int | None, memo: dict[str, Any] | None = None
) -> dict[str, Any]:
    table = state.table
    missions, history = _shared(state, memo)
    if seat is not None and (type(seat) is not int or not 0 <= seat < table.players):
        raise NotSeated(seat=repr(seat))
    over = state.phase is Phase.OVER
    result = state.outcome
    return {
        "ruleset": table.ruleset.code,
        "players": table.players,
        "options": dict(table.setup.options),
        "step": state.step,
        "phase": state.phase.value,
        "leader": state.leader,
        "mission": state.mission,
        "missions": missions,
        "rejections": state.rejections,
        "voters": list(voters(state)),
        "proposal": _proposal(state),
        "play": _play(state),
        "token": _token(state),
        "checks": _checks(state, seat, over),
        "sniper": _sniper(state, seat, over),
        "history": history,
        "me": None if seat is None else _me(state, seat),
        "legal": list(legal_actions(state, seat)),
        "waiting_for": _waiting_for(state, seat, over),
        "outcome": None if result is None else result.to_dict(),
        "roles": [
            {"seat": other, "side": side.value, "role": table.roles[other]}
            for other, side in enumerate(table.sides)
        ]
        if over
        else None,
    }
