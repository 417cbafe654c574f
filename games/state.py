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
    game: Game, *, upto: int | None = None, after: int | None = None
) -> list[tuple[int, dict[str, Any]]]:
    """The game's actions as (seat, action) pairs, oldest first: one query. The
    action that made version ``n`` is number ``n``: ``after`` leaves out those up
    to that version, ``upto`` those past it."""
    actions = GameAction.objects.filter(game=game).order_by("number")
    if after is not None:
        actions = actions.filter(number__gt=after)
    if upto is not None:
        actions = actions.filter(number__lte=upto)
    return [
        (position, payload)
        for position, payload in actions.values_list("position", "payload")
    ]


def remember(game: Game, state: Any) -> None:
    """Cache a committed state; call only once the transaction that wrote it commits."""
    _cache.put((game.code, game.version), state)


LOOK_BACK = 8
"""How many versions back :func:`load_state` looks for a state this process holds."""


def load_state(game: Game) -> Any:
    """The engine state of ``game`` at its current version.

    A process that did not make a move learns of it by its push and holds the state
    of the version before (its own sockets' last push put it here): it reads only
    the actions since and applies them, as the process that made them did. Replaying
    the whole game instead cost every other process of a site one full replay per
    move, longer as the game went on. Only a process that holds no recent state of
    the table (the first page after a restart) replays the game from its deal."""
    key = (game.code, game.version)
    state = _cache.get(key)
    if state is not None:
        return state
    # Only the actions up to this row's version: the row may be older than the log
    # (another move committed since it was read), and the state cached under
    # (code, version) must be exactly that version's.
    for back in range(1, min(LOOK_BACK, game.version) + 1):
        older = _cache.get((game.code, game.version - back))
        if older is None:
            continue
        tail = action_log(game, after=game.version - back, upto=game.version)
        if len(tail) == back:  # else (never for a committed row) replay it all
            state = older
            for seat, action in tail:
                state, _events = engine.apply(state, seat, action)
        break
    if state is None:
        state = engine.replay(game_setup(game), action_log(game, upto=game.version))
    _cache.put(key, state)
    return state


def state_at(game: Game, step: int) -> Any:
    """The engine state after ``step`` actions (0 = the deal), for replays."""
    if step == game.version:
        return load_state(game)
    return engine.replay(game_setup(game), action_log(game, upto=step))


def forget_all() -> None:
    """Tests call this between runs that reuse table codes."""
    _cache.clear()
