"""What a season needs to know of a game family, read from the registries so that a
new family (cells, Mafia) is a league's choice as soon as its app is installed.

Nothing here names a family or a side. The *hidden side* of a game, the one match
days balance, is found by dealing the game: the side with the fewest seats on
average (the Resistance's spies, the Mafia's mafia). Its *share* at a table size is
the chance that a given seat is dealt it, which is the one lever seating has: roles
are dealt at random by the engine, table sizes are not.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from django.apps import apps

from games import engine
from games.kit.family import Text, known_words, playable_rulesets

DEALS = 48
"""Deals per (game, size) when measuring side shares: exact for a game that deals a
fixed number of each side, a close estimate for one that deals at random."""


def family_codes() -> tuple[str, ...]:
    """Every family with a playable game, in the order the site offers them."""
    codes: list[str] = []
    for ruleset in playable_rulesets():
        family = engine.get_ruleset(ruleset).family
        if family not in codes:
            codes.append(family)
    return tuple(codes)


def family_of_ruleset(ruleset: str) -> str:
    return engine.get_ruleset(ruleset).family


def rulesets_of(family: str) -> tuple[str, ...]:
    return tuple(
        code
        for code in playable_rulesets()
        if engine.get_ruleset(code).family == family
    )


def family_label(family: str) -> Text:
    """The family's name: its app's verbose name, else its games' names."""
    for config in apps.get_app_configs():
        if config.name == f"games.families.{family}":
            return config.verbose_name
    names = [
        str(words.game) for words in map(known_words, rulesets_of(family)) if words
    ]
    return " · ".join(names) or family


def family_games_label(family: str) -> str:
    names = [
        str(words.game) for words in map(known_words, rulesets_of(family)) if words
    ]
    return ", ".join(names)


def sides_of(family: str) -> tuple[str, ...]:
    """The side codes of the family's games, in the family's order."""
    sides: list[str] = []
    for code in rulesets_of(family):
        for side in engine.get_ruleset(code).sides:
            if side not in sides:
                sides.append(side)
    return tuple(sides)


def side_label(family: str, side: str) -> str:
    """A side as the family's games call it (several games may name it apart)."""
    names: list[str] = []
    for code in rulesets_of(family):
        words = known_words(code)
        if words is None:
            continue
        name = str(words.side(side))
        if name not in names:
            names.append(name)
    return " / ".join(names) or side


@dataclass(frozen=True)
class SideShare:
    """The hidden side of a game at a table size and the chance a seat is dealt it."""

    side: str
    share: float


@lru_cache(maxsize=256)
def hidden_side(ruleset: str, players: int) -> SideShare:
    """Deal the game ``DEALS`` times with fixed seeds and count each seat's side as
    its own view shows it at the start: the rarest side is the hidden one."""
    rules = engine.get_ruleset(ruleset)
    counts: Counter[str] = Counter(dict.fromkeys(rules.sides, 0))
    for seed in range(DEALS):
        state = engine.setup(engine.GameSetup(ruleset, players, {}, seed))
        for seat in range(players):
            side = engine.view(state, seat)["me"]["side"]
            if side is not None:
                counts[str(side)] += 1
    order = {side: index for index, side in enumerate(rules.sides)}
    # The rarest side; on a tie, the later in the family's order (its "other" side).
    side = min(counts, key=lambda code: (counts[code], -order.get(code, 0)))
    return SideShare(side=side, share=counts[side] / (DEALS * players))


def seat_range(ruleset: str) -> tuple[int, int]:
    rules = engine.get_ruleset(ruleset)
    return rules.min_players, rules.max_players
