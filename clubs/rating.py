"""Rating one finished game with openskill: pure Python, no database.

Each side of the game is an openskill team; the winning side ranks first. Two things
make a hidden-role game unlike a game of football, and docs/ratings.md says why each
is handled as it is:

* **Unequal sides.** openskill adds up a team's ratings, so 7 good players would
  look far stronger than 3 spies, and a spy win would move everyone's rating many
  times more than a good win. In these games a side's size is the rules' counter-
  weight to what it knows, not strength; so every side is filled up to the largest
  side's size with *stand-ins* rated at its own players' average, whose updates are
  thrown away. A side then weighs what its players weigh on average.
* **Sides that are not equally likely to win.** A stand-in per side, the *side
  rating* (one per game, table size and side), sits on that side in every game and is
  rated by openskill like a player: it learns how often that side wins at that size,
  so a player is not rewarded or punished for the side the deal gave them.

Every player of a side gets the same update (no per-player weights): who carried a
hidden-role game cannot be read from the record, and the scout's or the sniper's
part is the side's result.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""openskill's default model and constants: mu 25, sigma 25/3, beta 25/6, tau 25/300."""


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate openskill ranks by: mu − 3σ."""
        return self.mu - 3 * self.sigma


def new_skill() -> Skill:
    return Skill(mu=MODEL.mu, sigma=MODEL.sigma)


@dataclass(frozen=True)
class SeatResult:
    user_id: int
    side: str
    won: bool


@dataclass(frozen=True)
class GameResult:
    """What rating needs of a finished game: its game and size, and every seat."""

    game_id: int
    ruleset: str
    players: int
    seats: tuple[SeatResult, ...]


SideKey = tuple[str, int, str]
"""(ruleset, players, side): whose side rating a side of a game uses."""


def side_key(result: GameResult, side: str) -> SideKey:
    return (result.ruleset, result.players, side)


@dataclass(frozen=True)
class Rated:
    """Ratings before and after one game, for every player and every side in it."""

    players: dict[int, tuple[Skill, Skill, bool]]
    sides: dict[SideKey, tuple[Skill, Skill]]


def _teams(result: GameResult) -> list[tuple[str, list[SeatResult]]]:
    by_side: dict[str, list[SeatResult]] = {}
    for seat in result.seats:
        by_side.setdefault(seat.side, []).append(seat)
    return [
        (side, sorted(seats, key=lambda seat: seat.user_id))
        for side, seats in sorted(by_side.items())
    ]


def rate(
    result: GameResult,
    players: Mapping[int, Skill],
    sides: Mapping[SideKey, Skill],
) -> Rated | None:
    """The game's rating updates, or None for a game that cannot be rated (one side
    only, or no side both won and lost). ``players`` and ``sides`` hold the current
    ratings; anyone missing starts at openskill's default."""
    teams = _teams(result)
    winners = {side for side, seats in teams if all(seat.won for seat in seats)}
    if len(teams) < 2 or not winners or len(winners) == len(teams):
        return None
    width = max(len(seats) for _side, seats in teams)
    model_teams = []
    for side, seats in teams:
        skills = [players.get(seat.user_id) or new_skill() for seat in seats]
        mean_mu = sum(skill.mu for skill in skills) / len(skills)
        rms_sigma = math.sqrt(sum(skill.sigma**2 for skill in skills) / len(skills))
        stand_ins = [Skill(mean_mu, rms_sigma)] * (width - len(skills))
        side_skill = sides.get(side_key(result, side)) or new_skill()
        model_teams.append(
            [
                MODEL.rating(mu=skill.mu, sigma=skill.sigma)
                for skill in [*skills, *stand_ins, side_skill]
            ]
        )
    ranks = [0.0 if side in winners else 1.0 for side, _seats in teams]
    after = MODEL.rate(model_teams, ranks=ranks)
    rated = Rated(players={}, sides={})
    for (side, seats), new in zip(teams, after, strict=True):
        for index, seat in enumerate(seats):
            before = players.get(seat.user_id) or new_skill()
            rated.players[seat.user_id] = (
                before,
                Skill(new[index].mu, new[index].sigma),
                side in winners,
            )
        key = side_key(result, side)
        rated.sides[key] = (
            sides.get(key) or new_skill(),
            Skill(new[-1].mu, new[-1].sigma),
        )
    return rated


@dataclass
class Book:
    """Ratings held in memory while a run of games is rated in order."""

    players: dict[int, Skill] = field(default_factory=dict)
    sides: dict[SideKey, Skill] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    side_games: dict[SideKey, int] = field(default_factory=dict)

    def apply(self, result: GameResult) -> Rated | None:
        rated = rate(result, self.players, self.sides)
        if rated is None:
            return None
        for user_id, (_before, after, _won) in rated.players.items():
            self.players[user_id] = after
            self.games[user_id] = self.games.get(user_id, 0) + 1
        for key, (_before, after) in rated.sides.items():
            self.sides[key] = after
            self.side_games[key] = self.side_games.get(key, 0) + 1
        return rated


def rate_all(results: Iterable[GameResult]) -> tuple[Book, list[Rated | None]]:
    """Rate games in order from nothing: the fresh computation."""
    book = Book()
    return book, [book.apply(result) for result in results]


def same(a: Sequence[float], b: Sequence[float], tolerance: float = 1e-9) -> bool:
    return all(math.isclose(x, y, abs_tol=tolerance) for x, y in zip(a, b, strict=True))
