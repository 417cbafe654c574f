"""Bots for the Resistance family: a random player, and a sensible one.

* :func:`random_action` (a state's random awaited seat and move) and
  :func:`random_move` (a random legal move from a seat's view) draw from the caller's
  ``rng`` only, so a seeded ``random.Random`` gives the same game every time; property
  tests rely on them to walk through every rule, the benchmark on them being cheap.
  :func:`random_move` is also the baseline the sensible bot is measured against
  (``python -m bench.tournament``).
* :func:`bot_action` plays a seat sensibly from that seat's view alone: what a bot
  knows is what its player would know.  It reasons over the possible evil teams
  (:mod:`.analysis` counts them), weighed by how likely the public history is under
  each (votes, proposals, missions, claims).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import combinations
from math import comb, log
from random import Random
from typing import TYPE_CHECKING, Any, cast

from games.engine.core import GameIsOver, get_ruleset
from games.families.resistance.engine.analysis import (
    evil_count,
    evil_teams,
    facts_of,
    mask_of,
)
from games.families.resistance.engine.rules import (
    REJECTIONS_TO_LOSE,
    WINS_NEEDED,
    eligible_for_check,
    team_size,
)
from games.families.resistance.engine.sides import Side
from games.families.resistance.engine.state import FAIL, SUCCESS, GameState, Phase

if TYPE_CHECKING:
    from games.families.resistance.engine.rulesets import ResistanceRuleset

__all__ = ["APPROVE", "bot_action", "random_action", "random_move"]

APPROVE = 0.6
"""How often the random voter approves.  A fair coin would make a ten-player table
reject five teams in a row in a third of the games, before the presets ever come
into play; 0.6 plays longer, more varied games."""


def random_action(state: GameState, rng: Random) -> tuple[int, dict[str, Any]]:
    """``(seat, action)``: a uniformly random awaited seat and one of its legal moves.

    Votes approve with probability :data:`APPROVE`; an evil team member fails half
    the time.
    """
    table = state.table
    phase = state.phase
    if phase is Phase.VOTE:
        leader = -1 if table.leader_votes else state.leader
        waiting = [
            s for s, vote in enumerate(state.votes) if vote is None and s != leader
        ]
        seat = waiting[int(rng.random() * len(waiting))]
        return seat, {"type": "vote", "approve": rng.random() < APPROVE}
    if phase is Phase.MISSION:
        team = state.team
        waiting = [s for s, card in zip(team, state.cards, strict=True) if card is None]
        seat = waiting[int(rng.random() * len(waiting))]
        fail = table.sides[seat] is Side.EVIL and rng.random() < 0.5
        return seat, {"type": "play", "card": FAIL if fail else SUCCESS}
    if phase is Phase.PROPOSAL:
        chosen = rng.sample(range(table.players), team_size(state))
        return state.leader, {"type": "propose", "team": sorted(chosen)}
    if phase is Phase.CHECK:
        assert state.token is not None
        return state.token, {
            "type": "check",
            "target": rng.choice(eligible_for_check(state)),
        }
    if phase is Phase.CLAIM:
        assert state.token is not None
        side = Side.GOOD if rng.random() < 0.5 else Side.EVIL
        return state.token, {"type": "claim", "side": side.value}
    if phase is Phase.SNIPER:
        sniper = table.sniper
        assert sniper is not None
        target = rng.choice([s for s in range(table.players) if s != sniper])
        return sniper, {"type": "shoot", "target": target}
    raise GameIsOver()


def random_move(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """A uniformly random legal move of the seat whose ``view`` this is, read from the
    view's ``legal`` list alone: the baseline a sensible bot is measured against."""
    legal = view["legal"]
    if not legal:
        raise GameIsOver()
    spec = legal[int(rng.random() * len(legal))]
    kind = spec["type"]
    if kind == "propose":
        return {"type": kind, "team": sorted(rng.sample(spec["among"], spec["size"]))}
    if kind == "vote":
        return {"type": kind, "approve": rng.random() < APPROVE}
    if kind == "play":
        return {"type": kind, "card": rng.choice(spec["cards"])}
    if kind == "claim":
        return {"type": kind, "side": rng.choice(spec["sides"])}
    return {"type": kind, "target": rng.choice(spec["among"])}


# --- the sensible bot -----------------------------------------------------------------
#
# A bot knows what its seat's view says and nothing else.  Its picture of the table is
# a weight on every possible evil team (a bitmask, at most C(10, 4) = 210 of them):
# zero where a hard fact rules the team out (a mission's fail cards, what the seat was
# told), and otherwise how likely what the table *did* is if that team is the evil one.
#
# "How likely" needs a guess at how evil players behave, and a wrong guess misleads:
# a careful evil player votes for the teams it can fail, a careless one votes at
# random.  So the picture is a mixture of two models, each a proper likelihood: evil
# plays carefully, or evil plays at random (then votes tell nothing).  The history
# itself decides which model carries the weight, game by game.
#
# The public part of the picture depends only on the public history, so it is cached
# by it, step by step: all seats of all tables share it, and each decision narrows it
# down with its own seat's facts.

VOTE_ITEM, MISSION_ITEM, CLAIM_ITEM = 0, 1, 2
Item = tuple[int, ...]
"""One public event as the beliefs read it: a finished vote, a finished mission or a
check's claim (see :func:`_public_items`)."""

GOOD_APPROVES = 0.6
"""A good voter's chance to approve, assumed not to depend on who is evil (it does, a
little: the evidence stays mild on purpose).  Every factor below is a ratio to what
a good player would do, so the two models stay comparable."""
CAREFUL_APPROVES_BAD = 0.75
"""How often a careful evil voter approves a team evil can fail..."""
CAREFUL_APPROVES_CLEAN = 0.4
"""... and a team it cannot."""
CAREFUL_LEADER = (0.6, 1.2)
"""A careful evil leader's proposal against a good leader's: a team evil cannot fail,
one it can."""
CAREFUL_FAILS = 0.85
"""How often careful evil members play exactly the fail cards the mission needs
(none when they are too few to fail it); the rest is spread over the other counts."""
GOOD_CLAIMS_TRUTH = 0.95
"""A good holder's claim is the truth; an evil holder's is a coin (0.5)."""

APPROVE_BAR = (0.5, 0.35, 0.2, 0.1, 0.0)
"""A good voter approves a team when its chance to pass is at least the prior plus
this share of the way to the best team it can see, by attempt (the fifth proposal is
always approved: rejecting it loses the game)."""

OWN_BAR = frozenset({0, 1})
"""Rejections so far for which "the best team it can see" has the voter on it: on a
mission's first two proposals a good voter holds out for a team as good as its own
would be (so it rejects most teams it is not on, and the votes, evil's included, say
something); later it settles for the best team of the others.  Without this a table
of good bots approves everything and learns nothing from the votes."""

EVIL_PUSH = 0.0
"""How often an evil voter approves a team evil can fail when a good player in its
seat would reject it (and the team neither holds it nor would win the game):
measured, any push gives evil away more than it gains."""
EVIL_LETS_CLEAN = 0.0
"""How often an evil voter approves a team evil cannot fail when a good player in
its seat would approve it."""

SCOUT_TRUTH = 0.0
"""How often the scout votes what it knows where a plain good player would vote the
other way (unless the game is at stake): a scout that always does is easy for the
sniper to find."""


def _pow_table(ratio: float) -> tuple[float, ...]:
    return tuple(ratio**count for count in range(11))


_APPROVE_FACTOR = (
    _pow_table(CAREFUL_APPROVES_CLEAN / GOOD_APPROVES),
    _pow_table(CAREFUL_APPROVES_BAD / GOOD_APPROVES),
)
_REJECT_FACTOR = (
    _pow_table((1 - CAREFUL_APPROVES_CLEAN) / (1 - GOOD_APPROVES)),
    _pow_table((1 - CAREFUL_APPROVES_BAD) / (1 - GOOD_APPROVES)),
)


@lru_cache(maxsize=256)
def _fail_odds(members: int, need: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """``P(fails | members)`` for careful and for random evil members, by fails."""
    if members == 0:
        return (1.0,), (1.0,)
    expected = need if members >= need else 0
    spread = (1 - CAREFUL_FAILS) / members
    careful = tuple(
        CAREFUL_FAILS if fails == expected else spread for fails in range(members + 1)
    )
    random = tuple(comb(members, fails) / 2**members for fails in range(members + 1))
    return careful, random


def _needed(view: Mapping[str, Any], mission: int) -> int:
    """Fail cards that fail ``mission``: two on the starred one, else one."""
    return 2 if view["missions"][mission - 1]["two_fails"] else 1


def _public_items(view: Mapping[str, Any]) -> tuple[Item, ...]:
    """The public history in the order it happened: each finished vote, each finished
    mission right after the vote that sent it, each claim right after the mission
    the check followed.  A later step only appends, so the cache works by prefix."""
    claims: dict[int, list[Item]] = {}
    for check in view["checks"]:
        if check["claim"] is not None:
            says_evil = int(check["claim"] == "evil")
            item = (CLAIM_ITEM, check["holder"], check["target"], says_evil)
            claims.setdefault(check["after_mission"], []).append(item)
    items: list[Item] = []
    for record in view["history"]:
        number = record["mission"]
        need = _needed(view, number)
        team = mask_of(record["team"])
        approvers = rejecters = 0
        for seat, approve in record["votes"].items():
            if approve:
                approvers |= 1 << int(seat)
            else:
                rejecters |= 1 << int(seat)
        last = int(record["attempt"] == REJECTIONS_TO_LOSE)
        items.append(
            (VOTE_ITEM, record["leader"], team, approvers, rejecters, need, last)
        )
        if record["fails"] is not None:
            items.append((MISSION_ITEM, team, record["fails"], need))
            items.extend(claims.get(number, ()))
    return tuple(items)


Factors = tuple[list[float], list[float]]


def _factors(teams: tuple[int, ...], item: Item) -> Factors:
    """How likely ``item`` is under each evil team, if evil plays carefully and if
    it plays at random (each up to the same factor)."""
    kind = item[0]
    careful: list[float] = []
    random: list[float] = []
    if kind == VOTE_ITEM:
        _, leader, team, approvers, rejecters, need, last = item
        for evil in teams:
            bad = int((evil & team).bit_count() >= need)
            factor = CAREFUL_LEADER[bad] if evil >> leader & 1 else 1.0
            if not last:
                factor *= _APPROVE_FACTOR[bad][(evil & approvers).bit_count()]
                factor *= _REJECT_FACTOR[bad][(evil & rejecters).bit_count()]
            careful.append(factor)
        return careful, [1.0] * len(teams)
    if kind == MISSION_ITEM:
        _, team, fails, need = item
        for evil in teams:
            members = (evil & team).bit_count()
            if members < fails:
                careful.append(0.0)
                random.append(0.0)
                continue
            odds = _fail_odds(members, need)
            careful.append(odds[0][fails])
            random.append(odds[1][fails])
        return careful, random
    _, holder, target, says_evil = item
    lie = 1 - GOOD_CLAIMS_TRUTH
    careful = [
        0.5
        if evil >> holder & 1
        else (GOOD_CLAIMS_TRUTH if (evil >> target & 1) == says_evil else lie)
        for evil in teams
    ]
    return careful, careful


Weighted = tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...]]


@lru_cache(maxsize=1024)
def _public_weights(players: int, evil: int, items: tuple[Item, ...]) -> Weighted:
    """Every evil team not ruled out by the public history, with its weight under
    each model (careful evil, random evil).  Built from the history one event
    shorter, so a game pays for one event at a time; the cache keeps the last 1024
    histories (about 14 kB each at ten players)."""
    if not items:
        teams = evil_teams(players, evil)
        ones = (1.0,) * len(teams)
        return teams, ones, ones
    teams, careful, random = _public_weights(players, evil, items[:-1])
    new_careful, new_random = _factors(teams, items[-1])
    kept = [
        (team, old_c * new_c, old_r * new_r)
        for team, old_c, new_c, old_r, new_r in zip(
            teams, careful, new_careful, random, new_random, strict=True
        )
        if new_c or new_r
    ]
    return (
        tuple(entry[0] for entry in kept),
        tuple(entry[1] for entry in kept),
        tuple(entry[2] for entry in kept),
    )


class _Belief:
    """A weight on each possible evil team, and what follows from it."""

    __slots__ = ("players", "teams", "total", "weights")

    def __init__(
        self, players: int, teams: Sequence[int], weights: Sequence[float]
    ) -> None:
        self.players = players
        self.teams = teams
        self.weights = weights
        self.total = sum(weights)

    def suspicion(self) -> list[float]:
        """The chance that each seat is evil."""
        totals = [0.0] * self.players
        for team, weight in zip(self.teams, self.weights, strict=True):
            seat = 0
            while team:
                if team & 1:
                    totals[seat] += weight
                team >>= 1
                seat += 1
        return [value / self.total for value in totals]

    def passes(self, team: int, need: int) -> float:
        """The chance that a mission with ``team`` has fewer than ``need`` evil."""
        safe = 0.0
        for evil, weight in zip(self.teams, self.weights, strict=True):
            if (evil & team).bit_count() < need:
                safe += weight
        return safe / self.total


def _belief(view: Mapping[str, Any], known_evil: int, known_good: int) -> _Belief:
    """The seat's picture: the public weights, narrowed to what it knows."""
    players = view["players"]
    evil = evil_count(view)
    teams, careful, random = _public_weights(players, evil, _public_items(view))
    kept_teams, kept_weights = [], []
    for team, weight_c, weight_r in zip(teams, careful, random, strict=True):
        if team & known_evil == known_evil and not team & known_good:
            kept_teams.append(team)
            kept_weights.append(weight_c + weight_r)
    if sum(kept_weights) > 0:
        return _Belief(players, kept_teams, kept_weights)
    # No view of a real game gets here; stay legal on anything else.
    every = [
        team
        for team in evil_teams(players, evil)
        if team & known_evil == known_evil and not team & known_good
    ] or list(evil_teams(players, evil))
    return _Belief(players, every, [1.0] * len(every))


class _Seat:
    """What the deciding seat knows, read from its view once per decision."""

    def __init__(self, view: Mapping[str, Any], rng: Random) -> None:
        me = view["me"]
        self.view = view
        self.rng = rng
        self.seat: int = me["seat"]
        self.players: int = view["players"]
        self.evil_count = evil_count(view)
        self.is_evil = me["side"] == "evil"
        facts = facts_of(view)
        self.known_evil = facts.known_evil
        self.known_good = facts.known_good
        self.knows_all = self.known_evil.bit_count() == self.evil_count
        ruleset = cast("ResistanceRuleset", get_ruleset(view["ruleset"]))
        self.is_scout = me["role"] is not None and me["role"] == ruleset.scout_role
        self.need = _needed(view, view["mission"])
        self._belief: _Belief | None = None
        self._cover: _Belief | None = None

    def belief(self) -> _Belief:
        """The seat's own picture of who is evil."""
        if self._belief is None:
            self._belief = _belief(self.view, self.known_evil, self.known_good)
        return self._belief

    def cover(self) -> _Belief:
        """What the table can see: the public picture, with the seat's own side only
        (for a good seat, what a plain good player would think; for evil, how
        suspicious each seat looks to the others)."""
        if self._cover is None:
            own = 1 << self.seat
            if self.is_evil:
                self._cover = _belief(self.view, 0, 0)
            else:
                self._cover = _belief(self.view, 0, own)
        return self._cover

    def pretend(self) -> _Belief:
        """The public picture with the seat's own seat good: what the seat would
        think if it were a plain good player (an evil seat's disguise)."""
        return _belief(self.view, 0, 1 << self.seat)

    def bad(self, team: int, need: int | None = None) -> bool:
        """For a seat that knows every evil seat: whether evil can fail ``team``."""
        need = self.need if need is None else need
        return (self.known_evil & team).bit_count() >= need

    def ordered(self, seats: Iterable[int], suspicion: Sequence[float]) -> list[int]:
        """``seats`` from the least suspicious, ties in random order."""
        shuffled = list(seats)
        self.rng.shuffle(shuffled)
        return sorted(shuffled, key=lambda seat: suspicion[seat])


def _best_team(
    belief: _Belief, fixed: list[int], pool: list[int], size: int, need: int
) -> tuple[list[int], float]:
    """The team of ``size`` with ``fixed`` and the rest from the head of ``pool``
    (sorted, least suspicious first) most likely to pass; the first candidates
    (the least suspicious) win ties."""
    wanted = size - len(fixed)
    if wanted <= 0:
        team = fixed[:size]
        return team, belief.passes(mask_of(team), need)
    head = pool[: wanted + 2]
    best: list[int] = []
    best_value = -1.0
    for others in combinations(head, wanted):
        team = [*fixed, *others]
        value = belief.passes(mask_of(team), need)
        if value > best_value + 1e-12:
            best, best_value = team, value
    return best, best_value


def _prior_pass(players: int, evil: int, size: int, need: int) -> float:
    """The chance that ``size`` seats drawn at random from the ``players - 1`` others
    hold fewer than ``need`` of the ``evil`` evil seats."""
    others = players - 1
    if size > others:
        return 0.0
    good = others - evil
    ways = sum(
        comb(evil, drawn) * comb(good, size - drawn)
        for drawn in range(min(need, evil + 1))
    )
    return ways / comb(others, size)


# --- the good side ---


def _good_propose(me: _Seat, spec: Mapping[str, Any]) -> list[int]:
    """Itself and the seats most likely good.  A seat that knows every evil seat
    proposes a clean team; the scout proposes the team a plain good player would
    when it is clean, else a clean team of the seats the table trusts most."""
    size = spec["size"]
    others = [seat for seat in spec["among"] if seat != me.seat]
    if me.knows_all:
        if me.is_scout:
            plain = _plain_team(me, me.cover(), others, size)
            if not me.bad(mask_of(plain), 1):
                return plain
        suspicion = me.cover().suspicion()
        ordered = me.ordered(others, suspicion)
        clean = [s for s in ordered if not me.known_evil >> s & 1]
        dirty = [s for s in ordered if me.known_evil >> s & 1]
        return sorted([me.seat, *clean, *dirty][:size])
    return _plain_team(me, me.belief(), others, size)


def _plain_team(me: _Seat, belief: _Belief, others: list[int], size: int) -> list[int]:
    pool = me.ordered(others, belief.suspicion())
    team, _ = _best_team(belief, [me.seat], pool, size, me.need)
    return sorted(team)


def _good_vote(me: _Seat, spec: Mapping[str, Any]) -> bool:
    """See :func:`_plain_vote`; the fifth proposal is approved (rejecting it loses),
    and so is one's own.  A seat that knows every evil seat votes for exactly the
    teams evil cannot fail; the scout mostly votes as a plain good player would, and
    uses what it knows only now and then, or when the game is at stake."""
    view = me.view
    proposal = view["proposal"]
    team = mask_of(proposal["team"])
    if view["rejections"] == REJECTIONS_TO_LOSE - 1 or proposal["leader"] == me.seat:
        return True
    if not me.knows_all:
        return _plain_vote(me, me.belief(), team)
    clean = not me.bad(team)
    if not me.is_scout:
        return clean
    plain = _plain_vote(me, me.cover(), team)
    if plain == clean:
        return clean
    failures = [m["result"] for m in view["missions"]].count("fail")
    if not clean and failures == WINS_NEEDED - 1:
        return False  # this team would lose the game
    return clean if me.rng.random() < SCOUT_TRUTH else plain


def _plain_vote(me: _Seat, belief: _Belief, team: int) -> bool:
    """A good player's vote from ``belief``: approve a team at least as likely to pass
    as the bar between a random team and the best one it can see."""
    view = me.view
    size = len(view["proposal"]["team"])
    need = me.need
    others = [seat for seat in range(me.players) if seat != me.seat]
    pool = me.ordered(others, belief.suspicion())
    fixed = [me.seat] if view["rejections"] in OWN_BAR else []
    _, best = _best_team(belief, fixed, pool, size, need)
    prior = _prior_pass(me.players, me.evil_count, size, need)
    best = max(best, prior)
    bar = prior + APPROVE_BAR[view["rejections"]] * (best - prior)
    return belief.passes(team, need) >= bar - 1e-9


def _good_check(me: _Seat, spec: Mapping[str, Any]) -> int:
    """The most uncertain seat, as the table sees it (the scout included: it
    learns nothing new, and checks the way anyone would)."""
    suspicion = me.cover().suspicion() if me.knows_all else me.belief().suspicion()
    candidates = [s for s in spec["among"] if s != me.seat]
    unknown = [
        s for s in candidates if not (me.known_evil | me.known_good) >> s & 1
    ] or candidates
    ordered = me.ordered(unknown, [abs(p - 0.5) for p in suspicion])
    return ordered[0]


def _checked(view: Mapping[str, Any]) -> int:
    target: int = view["checks"][-1]["target"]
    return target


def _good_claim(me: _Seat, spec: Mapping[str, Any]) -> str:
    """The truth: the check's result is in what the seat was told."""
    return "evil" if me.known_evil >> _checked(me.view) & 1 else "good"


# --- the evil side ---


def _evil_on(me: _Seat, team: Iterable[int]) -> list[int]:
    return sorted(seat for seat in team if me.known_evil >> seat & 1)


def _evil_propose(me: _Seat, spec: Mapping[str, Any]) -> list[int]:
    """Enough evil to fail the mission (the least suspected of them, itself first on
    a tie) and the players the table trusts most."""
    size = spec["size"]
    suspicion = me.cover().suspicion()
    own = [seat for seat in range(me.players) if me.known_evil >> seat & 1]
    rank = {seat: suspicion[seat] - (0.05 if seat == me.seat else 0.0) for seat in own}
    evil = sorted(own, key=lambda seat: rank[seat])[: min(me.need, size)]
    good = [seat for seat in range(me.players) if not me.known_evil >> seat & 1]
    return sorted([*evil, *me.ordered(good, suspicion)][:size])


def _evil_vote(me: _Seat, spec: Mapping[str, Any]) -> bool:
    """Vote as a good player in this seat would (the disguise), except: approve a
    team evil can fail when on it or when its fail would win the game, never approve
    one evil cannot fail (unless its own), and on the fifth proposal approve exactly
    the teams evil can fail (rejecting any other may win the game outright)."""
    view = me.view
    proposal = view["proposal"]
    team = mask_of(proposal["team"])
    bad = me.bad(team)
    if view["rejections"] == REJECTIONS_TO_LOSE - 1:
        return bad
    if proposal["leader"] == me.seat:
        return True
    mimic = _plain_vote(me, me.pretend(), team)
    failures = [m["result"] for m in view["missions"]].count("fail")
    if bad:
        return (
            mimic
            or team >> me.seat & 1 == 1
            or failures == WINS_NEEDED - 1
            or me.rng.random() < EVIL_PUSH
        )
    return mimic and me.rng.random() < EVIL_LETS_CLEAN


def _evil_play(me: _Seat, spec: Mapping[str, Any]) -> str:
    """Exactly enough fail cards: the lowest evil seats on the team fail, as many as
    the mission needs; a rule every partner computes alike from the same view."""
    team = me.view["play"]["team"]
    evil = _evil_on(me, team)
    if len(evil) >= me.need and me.seat in evil[: me.need]:
        return FAIL
    return SUCCESS


def _evil_check(me: _Seat, spec: Mapping[str, Any]) -> int:
    """Half the time a partner (to vouch for), else the good seat the table suspects
    most (to accuse): either way, doubt."""
    candidates = [s for s in spec["among"] if s != me.seat]
    suspicion = me.cover().suspicion()
    partners = [s for s in candidates if me.known_evil >> s & 1]
    good = [s for s in candidates if not me.known_evil >> s & 1]
    if partners and (not good or me.rng.random() < 0.5):
        return me.ordered(partners, suspicion)[0]
    return me.ordered(good, [-p for p in suspicion])[0]


def _evil_claim(me: _Seat, spec: Mapping[str, Any]) -> str:
    """A partner is good; a good seat is evil when the table half believes it already,
    else good (a true word now and then keeps the holder believed)."""
    target = _checked(me.view)
    if me.known_evil >> target & 1:
        return "good"
    return "evil" if me.cover().suspicion()[target] >= 0.2 else "good"


SCOUT_VOTES_TRUTH = 0.85
"""What the sniper assumes: the scout votes for exactly the teams evil cannot fail
this often, and proposes a clean team this often..."""
SCOUT_PROPOSES_CLEAN = 0.95


def _scout_likeness(me: _Seat) -> list[float]:
    """For the sniper, who knows every side: per seat, the log-likelihood ratio of
    "this seat is the scout" to "a plain good player" given how it voted and
    proposed.  A plain good player's rate of voting right is read off the other
    good seats on the same vote (and proposals off the other good leaders), so the
    score counts what a seat got right *more often than the others did*."""
    view = me.view
    players = me.players
    score = [0.0] * players
    good = [seat for seat in range(players) if not me.known_evil >> seat & 1]
    proposals: list[tuple[int, bool]] = []
    for record in view["history"]:
        clean = not me.bad(mask_of(record["team"]), _needed(view, record["mission"]))
        if record["leader"] in good:
            proposals.append((record["leader"], clean))
        if record["attempt"] == REJECTIONS_TO_LOSE:
            continue
        right = {
            seat: approve == clean
            for seat, approve in ((int(s), a) for s, a in record["votes"].items())
            if seat in good
        }
        for seat, was_right in right.items():
            others = [r for s, r in right.items() if s != seat]
            plain = (sum(others) + 1) / (len(others) + 2)
            score[seat] += _log_ratio(was_right, SCOUT_VOTES_TRUTH, plain)
    for seat, clean in proposals:
        others = [c for s, c in proposals if s != seat]
        plain = (sum(others) + 1) / (len(others) + 2)
        score[seat] += _log_ratio(clean, SCOUT_PROPOSES_CLEAN, plain)
    return score


def _log_ratio(happened: bool, scout: float, plain: float) -> float:
    if happened:
        return log(scout / plain)
    return log((1 - scout) / (1 - plain))


def _evil_shoot(me: _Seat, spec: Mapping[str, Any]) -> int:
    score = _scout_likeness(me)
    targets = [s for s in spec["among"] if not me.known_evil >> s & 1] or list(
        spec["among"]
    )
    return me.ordered(targets, [-value for value in score])[0]


Decide = Callable[[_Seat, Mapping[str, Any]], Any]


def _good_play(me: _Seat, spec: Mapping[str, Any]) -> str:
    return SUCCESS


def _no_move(me: _Seat, spec: Mapping[str, Any]) -> Any:
    raise ValueError(f"no {spec['type']!r} for this side")


_MOVES: dict[str, tuple[str, Decide, Decide]] = {
    # move: (the action's field, the good side's decision, the evil side's)
    "propose": ("team", _good_propose, _evil_propose),
    "vote": ("approve", _good_vote, _evil_vote),
    "play": ("card", _good_play, _evil_play),
    "check": ("target", _good_check, _evil_check),
    "claim": ("side", _good_claim, _evil_claim),
    "shoot": ("target", _no_move, _evil_shoot),
}


def bot_action(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """A sensible legal move for the seat whose ``view`` this is, from the view alone.

    Good: propose the team most likely clean (itself included), approve a team about
    as likely to pass as the best it can see, check the seat it is least sure of and
    claim the truth.  The scout plays like any good player (votes, checks) except
    that its proposals are always clean and it rejects a team that would lose the
    game: the sniper looks for the player who knew too much.  Evil: propose a team
    with just enough evil and the most trusted good players, vote like a good player
    would but never for a team evil cannot fail, fail with the lowest evil seats on
    the team as the mission needs (so partners never fail twice where one fail
    does), vouch for a partner or accuse a suspected good player; the sniper shoots
    the good player whose votes and proposals were right more often than the other
    good players'.  ``rng`` only breaks ties and draws the mixed choices.

    Typically well under a millisecond (``python -m bench.tournament`` prints the
    figures): the public part of the reasoning is cached by the public history.
    """
    legal = view["legal"]
    if not legal or view["me"] is None:
        raise GameIsOver()
    spec = legal[0]
    kind = spec["type"]
    me = _Seat(view, rng)
    field, good, evil = _MOVES[kind]
    decide = evil if me.is_evil else good
    return {"type": kind, field: decide(me, spec)}
