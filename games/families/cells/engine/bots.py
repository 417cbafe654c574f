"""Random and sensible players, for bots, the benchmark and the tests.

:func:`random_action` reads the state (it stands for "any legal move", the benchmark's
and the property tests' player); :func:`bot_action` reads only the seat's view, as a
bot at a real table must.  The view gives a bot no memory of its cards (docs/rules.md
§2: the site never reminds), so the bot plays from the public record: the mission track,
who went on which mission with whom, and the touched marks, plus whatever it sees at
the moment it decides (a swap's two cards, its mission cards).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from games.engine.core import GameIsOver
from games.families.cells.engine.state import BLUE, RED, SLOTS, GameState, Phase

__all__ = ["bot_action", "random_action", "random_move", "wanted_colour"]

PEEK_CHANCE = 0.15
"""How often a player with a touched card spends the turn looking at it."""
MISSION_CHANCE = 0.5
"""How often a random turn not spent peeking is a mission (else a swap)."""
BOT_MISSION = 0.05
BOT_MISSION_LATE = 0.2
BOT_MISSION_PER_SWAP = 0.15
"""How often the sensible bot's turn is a mission (else a swap): rarely at first,
more often once the side it plays for needs one more, and more often with each swap
it has made since the last mission.  A memoryless seat ends on the winning side by
gathering the wanted colour, which takes swaps; then it helps finish the game.
``python -m bench.tournament --family cells`` measured this against even odds: the
sensible seats dealt red went from below the random baseline to clearly above it,
and a table of bots still ends in about forty moves."""


def random_action(state: GameState, rng: Random) -> tuple[int, dict[str, Any]]:
    """``(seat, action)``: an awaited seat and one of its legal moves, at random.

    Draws only from ``rng``, and cheaply: the benchmark's games are mostly this.
    """
    phase = state.phase
    if phase is Phase.TURN:
        seat = state.current
        players = state.table.players
        left, right = state.touched[3 * seat], state.touched[3 * seat + 2]
        roll = rng.random()
        if roll < PEEK_CHANCE and (left or right):
            # Only a left or right card can be touched; with both, either at even odds.
            slot = "left" if left and (not right or roll < PEEK_CHANCE / 2) else "right"
            return seat, {"type": "peek", "slot": slot}
        other = (seat + 1 + int(rng.random() * (players - 1))) % players
        if rng.random() < MISSION_CHANCE:
            return seat, {"type": "mission", "partner": other}
        return seat, {
            "type": "swap",
            "mine": SLOTS[int(rng.random() * 3)],
            "player": other,
            "theirs": "left" if rng.random() < 0.5 else "right",
        }
    if phase is Phase.LEADER or phase is Phase.PARTNER:
        mission = state.mission
        assert mission is not None
        seat = mission.leader if phase is Phase.LEADER else mission.partner
        hand = state.hand
        return seat, {"type": "discard", "card": hand[int(rng.random() * len(hand))]}
    if phase is Phase.EXCHANGE:
        return state.current, {"type": "exchange", "exchange": rng.random() < 0.5}
    if phase is Phase.LOOK:
        waiting = [seat for seat, done in enumerate(state.confirmed) if not done]
        return waiting[int(rng.random() * len(waiting))], {"type": "confirm"}
    raise GameIsOver()


def random_move(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """A uniformly random legal move of the seat whose ``view`` this is, read from the
    view's ``legal`` list alone: the baseline a sensible bot is measured against."""
    legal = view["legal"]
    if not legal:
        raise GameIsOver()
    spec = legal[int(rng.random() * len(legal))]
    kind = spec["type"]
    if kind == "swap":
        return {
            "type": kind,
            "mine": rng.choice(spec["mine"]),
            "player": rng.choice(spec["among"]),
            "theirs": rng.choice(spec["theirs"]),
        }
    if kind == "mission":
        return {"type": kind, "partner": rng.choice(spec["among"])}
    if kind == "peek":
        return {"type": kind, "slot": rng.choice(spec["slots"])}
    if kind == "exchange":
        return {"type": kind, "exchange": rng.choice(spec["choices"])}
    if kind == "discard":
        return {"type": kind, "card": rng.choice(spec["cards"])}
    return {"type": kind}


def wanted_colour(view: Mapping[str, Any]) -> str:
    """The colour a bot plays for: the side ahead on the mission track, blue at a tie.

    The seed's own advice ("if you see you are losing, better cross over to the
    winners"); a bot cannot remember its cards, so it cannot play for its own side.
    """
    return RED if view["failures"] > view["successes"] else BLUE


def _wanted_at(missions: Sequence[Mapping[str, Any]], step: int) -> str:
    """:func:`wanted_colour` as it was at ``step``, from the finished missions."""
    reds = sum(1 for m in missions if m["step"] < step and m["card"] == RED)
    blues = sum(1 for m in missions if m["step"] < step and m["card"] != RED)
    return RED if reds > blues else BLUE


def _guesses(view: Mapping[str, Any]) -> dict[tuple[int, str], str | None]:
    """What the public record says a card likely is, per ``(seat, slot)`` swapped.

    A bot exchanges only to gain the colour it wants, so a slot it swapped holds,
    most likely, the colour that was wanted then; another player's swap into that
    slot makes it unknown again (``None``).  Slots never swapped are left out.  The
    same reading of the record serves the bot's own cells and the others'.
    """
    missions = view["missions"]
    guess: dict[tuple[int, str], str | None] = {}
    for touch in view["touches"]:
        if touch["kind"] != "swap":
            continue
        guess[(touch["seat"], touch["slot"])] = _wanted_at(missions, touch["step"])
        guess[(touch["player"], touch["theirs"])] = None
    return guess


def _suspicion(view: Mapping[str, Any], seat: int) -> dict[int, int]:
    """Per other seat: red missions it went on, minus blue ones (public record)."""
    score = {other: 0 for other in range(view["players"]) if other != seat}
    for record in view["missions"]:
        change = 1 if record["card"] == RED else -1
        for member in (record["leader"], record["partner"]):
            if member in score:
                score[member] += change
    return score


def _pick(
    scores: Mapping[int, int], among: Sequence[int], lowest: bool, rng: Random
) -> int:
    """The seat of ``among`` with the lowest (or highest) score; ties at random."""
    sign = 1 if lowest else -1
    best = min(sign * scores.get(seat, 0) for seat in among)
    return rng.choice([seat for seat in among if sign * scores.get(seat, 0) == best])


def _offer(
    slots: Sequence[str],
    guesses: Mapping[tuple[int, str], str | None],
    seat: int,
    touched: Sequence[str],
    wanted: str,
    rng: Random,
) -> str:
    """The card of its own a bot offers in a swap: one the record says is likely the
    unwanted colour (swapped in for a colour no longer wanted), else one another
    player's swap touched (a sensible swapper takes the wanted colour away), else
    one it has not swapped, and only last one it swapped in for the wanted colour."""

    def rank(slot: str) -> int:
        known = guesses.get((seat, slot), "never")
        if known not in ("never", None) and known != wanted:
            return 0
        if slot in touched:
            return 1
        return 3 if known == wanted else 2

    best = min(rank(slot) for slot in slots)
    return rng.choice([slot for slot in slots if rank(slot) == best])


def bot_action(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """A sensible legal move for the seat whose ``view`` this is, from the view alone.

    The bot plays for :func:`wanted_colour` and tries to end on that side: a seat
    that cannot remember its cards wins by crossing over to the winners.  It
    confirms its first look; exchanges a swap's cards when that brings it the wanted
    colour and gives away the other; discards the unwanted mission colour when it
    can; mostly swaps, to gather the wanted colour, offering the card the record
    says is least likely wanted (:func:`_offer`) for a card of a player the record
    trusts for the wanted colour, a slot swapped in for it if there is one; and goes
    on missions now and then (more eagerly once the wanted side needs one more, and
    with each swap it made since the last mission) with the partner the record
    suspects least (or, playing red, most).  It never spends a turn looking at a
    card: it would forget it by its next turn.
    """
    legal = {spec["type"]: spec for spec in view["legal"]}
    if not legal:
        raise GameIsOver()
    if "confirm" in legal:
        return {"type": "confirm"}
    wanted = wanted_colour(view)
    unwanted = RED if wanted == BLUE else BLUE
    me = view["me"]
    if "exchange" in legal:
        swap = me["swap"]
        mine, theirs = swap["mine"]["card"], swap["theirs"]["card"]
        return {"type": "exchange", "exchange": theirs == wanted and mine != wanted}
    if "discard" in legal:
        cards = legal["discard"]["cards"]
        return {"type": "discard", "card": unwanted if unwanted in cards else cards[0]}
    seat = me["seat"]
    scores = _suspicion(view, seat)
    trust_lowest = wanted == BLUE
    needed = view["successes"] if wanted == BLUE else view["failures"]
    since = max((record["step"] for record in view["missions"]), default=-1)
    swaps = sum(
        1
        for touch in view["touches"]
        if touch["kind"] == "swap" and touch["seat"] == seat and touch["step"] > since
    )
    eager = (BOT_MISSION_LATE if needed == 2 else BOT_MISSION) + (
        BOT_MISSION_PER_SWAP * swaps
    )
    mission = legal["mission"]
    if rng.random() < eager:
        partner = _pick(scores, mission["among"], trust_lowest, rng)
        return {"type": "mission", "partner": partner}
    swap = legal["swap"]
    guesses = _guesses(view)
    player = _pick(scores, swap["among"], trust_lowest, rng)
    good = [s for s in swap["theirs"] if guesses.get((player, s)) == wanted]
    return {
        "type": "swap",
        "mine": _offer(swap["mine"], guesses, seat, me["touched"], wanted, rng),
        "player": player,
        "theirs": rng.choice(good or swap["theirs"]),
    }
