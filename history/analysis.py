"""The analysis board under a finished game's replay (docs/analysis.md).

A family that can say, at every step, how likely each seat is to be on the evil side
given what a viewer knew (``Family.analysis``, which returns :class:`Odds`) gets:

* a heat-map of those odds, one row per seat and one column per stage of the game
  (a stage starts at each step the family marks, and wherever the odds change),
  with the replay's current step highlighted and its perspective ("see as")
  followed: the public odds as everyone could know them, or what one seat knew;
* the moments that mattered: the stages at which the *public* odds moved most, said
  in words, in the family's own names for its stages and sides (``Odds``).

Only finished games have a board: after the end every side is turned up on the
review, so no odds, public or any seat's, tell more than the page already does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import state
from games.kit import Odds
from games.kit.family import family_of
from games.models import Game
from history.cache import LRU

CERTAIN = 1e-9
"""How close to 0 or 1 counts as certain (the odds are exact fractions as floats)."""
MOVED = 0.1
"""The least change of one seat's public odds between two stages that makes a moment."""
MOMENTS = 3
"""At most this many moments are named on the review."""


@dataclass(frozen=True)
class Cell:
    percent: int
    """Whole percent, never 0 or 100 unless the odds are certain."""
    heat: int
    """0-10: the cell's background (the number is always printed too)."""


@dataclass(frozen=True)
class Column:
    first: int
    """The step the stage begins at."""
    last: int
    label: str
    short: str
    """The column header's visible text (the full ``label`` is for screen readers)."""
    moment: bool = False


@dataclass(frozen=True)
class Row:
    seat: int
    name: str
    cells: list[Cell]


@dataclass(frozen=True)
class Moment:
    step: int
    column: int
    seat: int
    side: str
    """``"evil"`` or ``"good"`` when the sentence says the seat's side was certain,
    else ``""``."""
    text: str


@dataclass(frozen=True)
class Board:
    columns: list[Column]
    rows: list[Row]
    explanation: str
    moments: list[Moment] = field(default_factory=list)

    def current(self, step: int) -> int:
        """The index of the column that holds ``step``."""
        for index, column in enumerate(self.columns):
            if column.first <= step <= column.last:
                return index
        return len(self.columns) - 1


def percent(probability: float) -> int:
    """Whole percent, kept off 0 and 100 unless the odds are certain, so that a
    rounded number never claims a certainty the facts do not give."""
    if probability <= CERTAIN:
        return 0
    if probability >= 1 - CERTAIN:
        return 100
    return min(99, max(1, round(probability * 100)))


def _stages(odds: Odds) -> list[tuple[int, int, str]]:
    """``(first step, last step, label)`` of each stage: a stage begins at a marked
    step, and also wherever the odds change on an unmarked one."""
    starts: list[tuple[int, str]] = []
    for step, probabilities in enumerate(odds.steps):
        mark = str(odds.marks[step]) if step < len(odds.marks) else ""
        if not step:
            starts.append((0, mark or _("The deal")))
        elif mark or probabilities != odds.steps[step - 1]:
            starts.append(
                (step, mark or _("Step %(n)s") % {"n": step}),
            )
    last = len(odds.steps) - 1
    return [
        (first, starts[i + 1][0] - 1 if i + 1 < len(starts) else last, label)
        for i, (first, label) in enumerate(starts)
    ]


def _moments(
    odds: Odds, stages: list[tuple[int, int, str]], names: Mapping[int, str]
) -> list[Moment]:
    """The stages at which the public odds moved most, each said in words."""
    moves = []
    for index in range(1, len(stages)):
        before = odds.steps[stages[index - 1][0]]
        after = odds.steps[stages[index][0]]
        change = max(abs(a - b) for a, b in zip(after, before, strict=True))
        if change >= MOVED:
            moves.append((change, index))
    chosen = sorted(index for _change, index in sorted(moves, reverse=True)[:MOMENTS])
    moments = []
    for index in chosen:
        first, _last, label = stages[index]
        before = odds.steps[stages[index - 1][0]]
        after = odds.steps[first]
        became = [
            seat
            for seat, (a, b) in enumerate(zip(after, before, strict=True))
            if percent(a) in (0, 100) and percent(a) != percent(b)
        ]
        evil = [seat for seat in became if percent(after[seat]) == 100]
        for seat in evil or became:
            side = "evil" if seat in evil else "good"
            text = _(
                "%(stage)s — the table could have known %(name)s was %(side)s "
                "(%(percent)s)."
            ) % {
                "stage": label,
                "name": names.get(seat, "?"),
                "side": odds.evil_one if side == "evil" else odds.good_one,
                "percent": odds.evil_percent % {"n": percent(after[seat])},
            }
            moments.append(Moment(first, index, seat, side, text))
        if became:
            continue
        seat = max(range(len(after)), key=lambda s: (abs(after[s] - before[s]), -s))
        text = _(
            "%(stage)s — the odds that %(name)s was %(side)s went from "
            "%(before)s to %(after)s."
        ) % {
            "stage": label,
            "name": names.get(seat, "?"),
            "side": odds.evil_one,
            "before": _("%(n)s%%") % {"n": percent(before[seat])},
            "after": _("%(n)s%%") % {"n": percent(after[seat])},
        }
        moments.append(Moment(first, index, seat, "", text))
    return moments


def _short(index: int) -> str:
    """A column header short enough for a phone: the stage's number ("·" for the
    deal)."""
    return str(index) if index else "·"


def board_of(odds: Odds, names: Mapping[int, str], public: Odds | None = None) -> Board:
    """The heat-map of ``odds``, its moments drawn from ``public`` (the public
    odds of the same game; ``odds`` itself when omitted)."""
    stages = _stages(odds)
    public = public or odds
    moments = _moments(public, _stages(public), names)
    moment_steps = {moment.step for moment in moments}
    columns = [
        Column(first, last, label, _short(index), first in moment_steps)
        for index, (first, last, label) in enumerate(stages)
    ]
    seats = len(odds.steps[0]) if odds.steps else 0
    rows = [
        Row(
            seat,
            names.get(seat, "?"),
            [
                Cell(percent(p), round(p * 10))
                for p in (odds.steps[first][seat] for first, _l, _lb in stages)
            ],
        )
        for seat in range(seats)
    ]
    return Board(columns, rows, str(odds.explanation), moments)


_cache: LRU[tuple[str, int, int | None, str], tuple[Odds | None]] = LRU(128)


def odds_of(game: Game, seat: int | None) -> Odds | None:
    """The family's odds of a finished game as ``seat`` knew them (None: as
    everyone could); None for a game that is not finished or a family without an
    analysis. A finished game never changes: kept per process."""
    if game.status != Game.Status.FINISHED:
        return None
    key = (game.code, game.version, seat, get_language() or "")
    known = _cache.get(key)
    if known is not None:
        return known[0]
    odds: Odds | None = family_of(game.ruleset).history.analysis(game, seat, state)
    _cache.put(key, (odds,))
    return odds


def board_for(game: Game, names: Mapping[int, str], seat: int | None) -> Board | None:
    """The analysis board of a finished game from one perspective (None for a game
    that is not finished, or whose family has no analysis)."""
    odds = odds_of(game, seat)
    if odds is None:
        return None
    public = odds if seat is None else odds_of(game, None)
    return board_of(odds, names, public)


def forget_all() -> None:
    """Tests call this between runs that reuse table codes."""
    _cache.clear()
