"""Who sits at which table on a match day: pure Python, no database.

The engine deals roles at random when a game starts; the site cannot choose who is
evil, and must not (a seating that decided roles would be a rigged deal). What it
does choose is how many tables there are, their sizes, and who sits at each. The
size of a table fixes the chance that a given seat is dealt the hidden side (in the
Resistance 2 of 5 is 40 %, 2 of 6 is 33 %, 3 of 7 is 43 %...). So balancing "how
often each has been on the evil side" can only mean this: a player who has been on
the hidden side more often than their tables' sizes made likely goes to a table
where it is less likely, and the one who has been there less often to a table where
it is more likely. It changes chances, never outcomes, and only where tables of
different sizes (different chances) exist; docs/ratings.md has the reasoning.

``surplus`` is ``hidden-side games − expected hidden-side games`` over the season's
counted games. The assignment minimises the sum over players of ``(surplus + share
of their table)²``, the spread of everyone's expected surplus after the evening: by
the rearrangement inequality, the players sorted by surplus, highest first, take
the seats sorted by share, lowest first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Player:
    user_id: int
    hidden_games: int
    """Counted season games in which the player was dealt the hidden side."""
    expected: float
    """The same count as the tables' sizes made it likely: the sum of the shares."""

    @property
    def surplus(self) -> float:
        return self.hidden_games - self.expected


@dataclass(frozen=True)
class Seating:
    tables: list[list[int]]
    """User ids per table, in the order the tables will be opened."""
    sizes: list[int]
    left_out: list[int]
    """Players who could not be seated (too few for another table), last sign-ups
    first to wait."""


class NotEnoughPlayers(ValueError):
    pass


def table_sizes(count: int, low: int, high: int) -> list[int]:
    """Split ``count`` players into as few tables as hold them, sizes within
    ``low``..``high`` and differing by at most one (largest first). Seats as many as
    can be seated: with 3–4 player tables, 5 players make one table of 4."""
    for seated in range(count, low - 1, -1):
        tables = math.ceil(seated / high)
        if tables * low <= seated:
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra)
    raise NotEnoughPlayers(count)


def seat(
    players: Sequence[Player],
    *,
    low: int,
    high: int,
    share: Callable[[int], float],
    seed: int,
) -> Seating:
    """Seat ``players`` (in sign-up order) at tables of ``low``..``high`` players.

    ``share(size)`` is the chance a seat at a table of that size is dealt the hidden
    side. Ties (equal surplus, tables of one size) are broken by a shuffle from
    ``seed``, so a seating can be repeated exactly."""
    sizes = table_sizes(len(players), low, high)
    seated_count = sum(sizes)
    seated, left_out = list(players[:seated_count]), list(players[seated_count:])
    rng = random.Random(seed)
    rng.shuffle(seated)
    # Highest surplus first; the stable sort keeps the shuffled order among ties.
    seated.sort(key=lambda player: -player.surplus)
    # Seats by share, lowest first; among tables of one share, dealt round the
    # tables (first seats of each, then second seats...), so that players of like
    # surplus are spread over them rather than packed at one.
    ties = [rng.random() for _ in sizes]
    seats = sorted(
        (share(size), chair, ties[table], table)
        for table, size in enumerate(sizes)
        for chair in range(size)
    )
    tables: list[list[int]] = [[] for _ in sizes]
    for player, (_share, _chair, _tie, table) in zip(seated, seats, strict=True):
        tables[table].append(player.user_id)
    return Seating(
        tables=tables,
        sizes=sizes,
        left_out=[player.user_id for player in left_out],
    )


def spread(
    players: Sequence[Player], seating: Seating, share: Callable[[int], float]
) -> float:
    """The quantity :func:`seat` minimises: the sum of squared expected surpluses
    after one game at the assigned tables."""
    table_of = {
        user_id: index
        for index, table in enumerate(seating.tables)
        for user_id in table
    }
    total = 0.0
    for player in players:
        if player.user_id in table_of:
            size = seating.sizes[table_of[player.user_id]]
            total += (player.surplus + share(size)) ** 2
    return total
