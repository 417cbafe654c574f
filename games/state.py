"""The bridge between stored games and the engine: setup + action log -> engine state.

A state is immutable and fully determined by (table code, version), so a small
per-process cache keyed by both is always correct, in every daphne process, as long
as only committed versions are put into it (``remember`` is called on commit). The
cache saves the push path from replaying the log once per connected seat.
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.cache import LRU
from games.models import Game, GameAction

CACHE_SIZE = 1024

_cache: LRU[tuple[str, int], Any] = LRU(CACHE_SIZE)


def game_setup(game: Game) -> engine.GameSetup:
    if game.seed is None:
        raise ValueError(f"game {game.code} has not started")
    return engine.GameSetup(
        ruleset=game.ruleset,
        players=game.seat_count,
        options=dict(game.options),
        seed=game.seed,
    )


def action_log(
    game: Game, *, upto: int | None = None
) -> list[tuple[int, dict[str, Any]]]:
    """The game's actions as (seat, action) pairs, oldest first: one query."""
    actions = GameAction.objects.filter(game=game).order_by("number")
    if upto is not None:
        actions = actions.filter(number__lte=upto)
    return [
        (position, payload)
        for position, payload in actions.values_list("position", "payload")
    ]


def remember(game: Game, state: Any) -> None:
    """Cache a committed state; call only once the transaction that wrote it commits."""
    _cache.put((game.code, game.version), state)


def load_state(game: Game) -> Any:
    """The engine state of ``game`` at its current version."""
    state = _cache.get((game.code, game.version))
    if state is not None:
        return state
    # Only the actions up to this row's version: the row may be older than the log
    # (another move committed since it was read), and the state cached under
    # (code, version) must be exactly that version's.
    state = engine.replay(game_setup(game), action_log(game, upto=game.version))
    _cache.put((game.code, game.version), state)
    return state


def state_at(game: Game, step: int) -> Any:
    """The engine state after ``step`` actions (0 = the deal), for replays."""
    if step == game.version:
        return load_state(game)
    return engine.replay(game_setup(game), action_log(game, upto=step))


def forget_all() -> None:
    """Tests call this between runs that reuse table codes."""
    _cache.clear()
