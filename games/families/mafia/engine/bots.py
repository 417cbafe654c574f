"""A random table: any legal move of any awaited seat, the moderator's included, for
the benchmark and the property tests; and a bot that plays a seat from its view.

The moves are drawn from the caller's ``rng`` only, so a seeded ``random.Random``
gives the same game every time.  The random moderator keeps a day moving (inquiry,
midday, votes, the night) and now and then warns, kicks or starts a timer, so random
games reach every rule and still end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from games.engine.core import MODERATOR, GameIsOver
from games.families.mafia.engine.day import moderator_actions
from games.families.mafia.engine.errors import PlayersOnly
from games.families.mafia.engine.night import spec
from games.families.mafia.engine.roles import Side
from games.families.mafia.engine.state import (
    PASS,
    RECRUIT,
    SHOOT,
    SLAUGHTER,
    GameState,
    Phase,
    Step,
)

__all__ = ["bot_action", "random_action", "random_moderator", "random_move"]

DEFENCE_VOTE = 0.3
"""How often a random voter names each candidate for defence: about three votes per
candidate at a full table, so a defence vote sends someone about half the time."""
EXIT_VOTE = 0.6
MODERATOR_ASIDE = 0.04
"""How often the random moderator warns, kicks or starts a timer instead of moving
the day on; how often he closes a vote or times the mafia's minute."""


def _pick(rng: Random, items: Sequence[Any]) -> Any:
    return items[int(rng.random() * len(items))]


def random_move(shown: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """A random move matching one legal-action spec (the JSON of ``legal``)."""
    kind = shown["type"]
    if kind == "choose" or kind == "tap":
        return _night_move(shown, rng)
    if kind == "vote":
        odds = DEFENCE_VOTE if shown["kind"] == "defence" else EXIT_VOTE
        candidates = shown["candidates"]
        if shown["most"] == 1:
            chosen = [_pick(rng, candidates)] if rng.random() < odds else []
        else:
            chosen = [seat for seat in candidates if rng.random() < odds]
        return {"type": "vote", "candidates": chosen}
    if kind == "timer":
        timer = _pick(rng, shown["timers"])
        return {"type": "timer", "kind": timer["kind"], "subject": timer["subject"]}
    if kind in ("warn", "kick"):
        return {"type": kind, "target": _pick(rng, shown["among"])}
    if kind == "start_vote":
        return {"type": kind, "vote": shown["vote"]}
    return {"type": kind}


def _night_move(shown: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    move: dict[str, Any] = {"type": shown["type"]}
    form = shown["form"]
    if form == "number":
        move["number"] = _pick(rng, shown["numbers"])
    elif form == "seat":
        skip = shown["skip"] and rng.random() < 0.3
        move["target"] = (
            None if skip or not shown["targets"] else _pick(rng, shown["targets"])
        )
    elif form == "pair":
        move["targets"] = sorted(rng.sample(shown["targets"], shown["count"]))
    elif form == "general":
        modes = shown["modes"]
        roll = rng.random()
        mode = SHOOT if SHOOT in modes else _pick(rng, modes)
        if roll < 0.15 and SLAUGHTER in modes:
            mode = SLAUGHTER
        elif roll < 0.45 and RECRUIT in modes:
            mode = RECRUIT
        elif roll > 0.97 and PASS in modes:
            mode = PASS
        move["mode"] = mode
        move["target"] = None if mode == PASS else _pick(rng, shown["targets"])
        move["guess"] = _pick(rng, shown["guesses"]) if mode == SLAUGHTER else None
    return move


def random_moderator(state: GameState, rng: Random) -> dict[str, Any]:
    """A legal move of the moderator that keeps the game going: the day's business
    first (inquiry, midday, votes, the night), an aside (warning, kick, timer) now and
    then, a vote closed early at times."""
    actions = moderator_actions(state)
    by_type = {action["type"]: action for action in actions}
    if state.phase is Phase.DAY:
        aside = [a for a in actions if a["type"] in ("warn", "kick", "timer")]
        if aside and rng.random() < MODERATOR_ASIDE:
            return random_move(_pick(rng, aside), rng)
        for kind in ("inquiry", "midday"):
            if kind in by_type and rng.random() < 0.7:
                return {"type": kind}
        if "timer" in by_type and rng.random() < 0.3:
            return random_move(by_type["timer"], rng)
        votes = [a for a in actions if a["type"] == "start_vote"]
        if votes and rng.random() < 0.9:
            return random_move(votes[-1], rng)
        if "end_day" in by_type:
            return {"type": "end_day"}
        main = [a for a in actions if a["type"] not in ("warn", "kick", "timer")]
        return random_move(_pick(rng, main or list(actions)), rng)
    if state.phase is Phase.DAWN:
        return {"type": "confirm_night"}
    if state.phase is Phase.VOTE and rng.random() < 0.5:
        return {"type": "close_vote"}
    return random_move(_pick(rng, actions), rng)


def random_action(state: GameState, rng: Random) -> tuple[int, dict[str, Any]]:
    """``(seat, action)``: a random awaited seat (the moderator included) and one of
    its legal moves.  While players are awaited the moderator moves rarely."""
    if state.outcome is not None:
        raise GameIsOver()
    phase = state.phase
    if phase is Phase.NIGHT or phase is Phase.MIDDAY:
        tapped = state.tapped
        waiting = [
            seat
            for seat, present in enumerate(state.in_game)
            if present and seat not in tapped
        ]
    elif phase is Phase.VOTE:
        vote = state.vote
        assert vote is not None
        waiting = [seat for seat in vote.voters if vote.ballots[seat] is None]
    else:
        waiting = []
    if phase is Phase.DAY or phase is Phase.DAWN:
        return MODERATOR, random_moderator(state, rng)
    aside = phase is not Phase.NIGHT or state.sleep is Step.CONFER
    if not waiting or (aside and rng.random() < MODERATOR_ASIDE):
        return MODERATOR, random_moderator(state, rng)
    seat = _pick(rng, waiting)
    if phase is Phase.VOTE:
        vote = state.vote
        assert vote is not None
        most = 1 if state.house.ballot == "one" else len(vote.candidates)
        shown = {"type": "vote", "kind": vote.kind, "candidates": vote.candidates}
        return seat, random_move({**shown, "most": most}, rng)
    return seat, _night_move(spec(state, seat), rng)


# --- a bot that plays one seat from its view ------------------------------------------


def _suspects(view: Mapping[str, Any]) -> tuple[set[int], set[int]]:
    """Seats the view says are mafia, and seats it says are citizens: the team (for
    the mafia), the radio operator's readings, the sides read out to the table."""
    me = view["me"] or {}
    mafia: set[int] = set()
    citizens: set[int] = set()
    for known in me.get("known") or []:
        mafia.add(known["seat"])
    for pick in me.get("picks") or []:
        if pick.get("reading") == "positive":
            mafia.add(pick["target"])
        elif pick.get("reading") == "negative":
            citizens.add(pick["target"])
    for inquiry in view.get("inquiries") or []:
        for entry in inquiry.get("reading") or []:
            (mafia if entry["side"] == Side.MAFIA.value else citizens).add(
                entry["seat"]
            )
    if me.get("seat") is not None:
        (mafia if me.get("side") == Side.MAFIA.value else citizens).add(me["seat"])
    return mafia, citizens


def _prefer(
    rng: Random, seats: Sequence[int], wanted: set[int], avoid: set[int]
) -> int | None:
    if not seats:
        return None
    good = [seat for seat in seats if seat in wanted]
    if good:
        return int(_pick(rng, good))
    fair = [seat for seat in seats if seat not in avoid]
    return int(_pick(rng, fair or list(seats)))


def _ballot(
    view: Mapping[str, Any],
    shown: Mapping[str, Any],
    mafia: set[int],
    citizens: set[int],
) -> list[int]:
    """One name (or none) on a ballot, the same for every bot of a side that knows the
    same: a lone voter cannot send anyone out, so a side's bots pile onto one seat.

    A citizen names a seat he knows is mafia, else the seat the table is already
    voting for (or, before anyone has voted, the first by the day's public order)
    among those he does not know to be citizens; the mafia name a citizen the same
    way, never a teammate.  Votes are open, so the bandwagon is public: a radio
    operator who names his positive reading first leads the citizens to it.
    """
    candidates = shown["candidates"]
    me = view["me"] or {}
    if me.get("side") == Side.MAFIA.value:
        choice = _focus(view, [seat for seat in candidates if seat not in mafia])
    else:
        known = [seat for seat in candidates if seat in mafia]
        choice = _focus(view, known or [s for s in candidates if s not in citizens])
    return [] if choice is None else [choice]


def _focus(view: Mapping[str, Any], among: Sequence[int]) -> int | None:
    """The seat of ``among`` the open ballots so far lean to most (a ballot naming
    several counts a share for each), ties by the day's public order: a convention
    every bot can follow from what the whole table sees."""
    if not among:
        return None
    vote = view["vote"] or {}
    weight: dict[int, float] = dict.fromkeys(among, 0.0)
    for ballot in (vote.get("ballots") or {}).values():
        if ballot:
            share = 1.0 / len(ballot)
            for seat in ballot:
                if seat in weight:
                    weight[seat] += share
    day = int(vote.get("day") or 0)
    players = int(view["players"])
    return max(among, key=lambda seat: (weight[seat], -((seat - 3 * day) % players)))


def bot_action(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """A sensible move for the seat whose ``view`` this is, from the view alone.

    Taps are random (they mean nothing); the mafia shoot a citizen, the nurse saves
    herself or someone, the radio operator asks about someone not yet read, the
    sniper fires only at a positive reading, and each side's votes pile onto one
    seat (:func:`_ballot`): a known mafia member, else the table's bandwagon, never a
    known citizen (for the citizens) or a teammate (for the mafia).
    """
    me = view["me"] or {}
    if me.get("seat") == MODERATOR:
        raise PlayersOnly()  # the moderator is always a person
    legal = view["legal"]
    if not legal:
        raise GameIsOver()
    shown = legal[0]
    mafia, citizens = _suspects(view)
    if shown["type"] == "vote":
        return {"type": "vote", "candidates": _ballot(view, shown, mafia, citizens)}
    if shown["type"] == "tap" or shown["form"] in ("ok", "number"):
        return _night_move(shown, rng)
    step = shown["step"]
    targets = shown.get("targets") or []
    if shown["form"] == "general":
        mode = SHOOT
        if RECRUIT in shown["modes"] and rng.random() < 0.5:
            mode = RECRUIT
        target = _prefer(rng, targets, set(), mafia)
        return {"type": "choose", "mode": mode, "target": target, "guess": None}
    if shown["form"] == "pair":
        ordered = sorted(targets, key=lambda seat: (seat not in mafia, rng.random()))
        return {"type": "choose", "targets": sorted(ordered[:2])}
    if step == "radio":
        read = {p["target"] for p in me.get("picks") or [] if p.get("reading")}
        target = _prefer(rng, targets, set(targets) - read - citizens, read)
    elif step == "sniper":
        target = (
            _prefer(rng, targets, mafia, citizens) if mafia & set(targets) else None
        )
    elif step == "nurse":
        target = _prefer(rng, targets, {me.get("seat", -1)}, mafia)
    elif step == "colonel_shoots":
        target = _prefer(rng, targets, mafia, citizens)
    else:
        target = _prefer(rng, targets, set(), mafia)
    if target is None and not shown.get("skip", False):
        target = int(_pick(rng, targets))
    return {"type": "choose", "target": target}
