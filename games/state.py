"""The bridge between stored games and the engine: setup + action log -> engine state.

A state is immutable and fully determined by (table code, version): whoever holds
the state of an earlier version of a table (a live room) hands it in, and only the
moves since are read and applied; anyone else replays the game from its deal.
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import Game, GameAction

LOOK_BACK = 8
"""How many versions back a known state is brought up to date rather than the game
replayed."""


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
    return list(actions.values_list("position", "payload"))


def load_state(game: Game, *, known: tuple[int, Any] | None = None) -> Any:
    """The engine state of ``game`` at its row's version. ``known``: (version,
    state) of an earlier or the same version of this table, which is brought up to
    date with the moves since instead of replaying the game (a process that did not
    make those moves learns of them by their push)."""
    if known is not None:
        version, state = known
        if version == game.version:
            return state
        back = game.version - version
        if 0 < back <= LOOK_BACK:
            # Only up to this row's version: the log may be newer than the row.
            tail = action_log(game, after=version, upto=game.version)
            if len(tail) == back:
                for seat, action in tail:
                    state, _events = engine.apply(state, seat, action)
                return state
    return engine.replay(game_setup(game), action_log(game, upto=game.version))


def state_at(game: Game, step: int) -> Any:
    """The engine state after ``step`` actions (0 = the deal), for replays."""
    return engine.replay(game_setup(game), action_log(game, upto=step))
