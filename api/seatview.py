"""A seat's view of a table for the API and the JSON socket, read cheaply.

The table's row, players and engine state come from ``games.snapshots``, read once
per table and version in each process and shared by all its sockets, so a push that
a snapshot already covers needs no database and the consumer answers it on the event
loop. What a viewer gets is exactly what ``table_context`` gives them: ``engine.view``
for the seat the viewer holds, or the spectator's view;
``tests/api/test_sockets.py`` checks that seat by seat.
"""

from __future__ import annotations

from typing import Any

from api import payloads
from games import engine, snapshots
from games.models import Game


def _envelope(snapshot: snapshots.Snapshot, user: Any) -> dict[str, Any]:
    game = snapshot.game
    position = None
    if user is not None and user.is_authenticated:
        position = snapshot.positions.get(user.pk)
    view = None if snapshot.state is None else engine.view(snapshot.state, position)
    return payloads.envelope_parts(game, snapshot.players, position, view)


def envelope(game: Game, user: Any) -> dict[str, Any]:
    """``user``'s view of ``game`` at the row's own version (a move's answer names
    the version that move made)."""
    return _envelope(snapshots.of(game), user)


def cached_envelope(
    game_id: int, code: str, user: Any, push: tuple[int, str]
) -> dict[str, Any] | None:
    """``user``'s view for a push of (version, status) from what this process has
    read already for another seat, or None. Touches no database."""
    snapshot = snapshots.covering(game_id, code, push)
    return None if snapshot is None else _envelope(snapshot, user)


def pushed_envelope(
    game_id: int, code: str, user: Any, push: tuple[int, str] | None
) -> dict[str, Any] | None:
    """``user``'s view for a push; None when the table is gone."""
    snapshot = snapshots.for_push(game_id, code, push)
    return None if snapshot is None else _envelope(snapshot, user)


def forget_all() -> None:
    """Tests call this between runs that reuse ids."""
    snapshots.forget_all()
