"""Extension points that other apps plug into, so that ``games`` never imports them.

A club (the ``clubs`` app) decides who may see and join its tables and wants to know
when one of its games ends; the platform asks here and calls back here. Each hook is a
list of callables registered from an app's ``ready()``; with none registered, the site
behaves as it does without that app.

* ``table_rules``: ``rule(game, user) -> Access | None`` for one table; ``None`` is "no
  opinion". The most restrictive answer wins.
* ``hidden_tables``: ``hide(user) -> Q`` over ``Game``: tables a user must not see in
  lists (the lobby, history), whatever their privacy flag says.
* ``finish_hooks``: ``hook(game)`` inside the transaction that ends a game, so that what
  it writes (standings, ratings) commits with the game's end, exactly once.
* ``commit_hooks``: ``hook(game, state)`` after a move (or the deal) commits, in the
  process that made it, with the row it wrote and the engine's new state: a live
  room there shows it without reading the table again.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Q

if TYPE_CHECKING:
    from games.models import Game


class Access(enum.IntEnum):
    """How much of a table a user may reach; a rule's answer caps it."""

    NONE = 0
    """Not even that it exists (a plain 404)."""
    WATCH = 1
    """May open the table and watch, not take a seat."""
    PLAY = 2
    """May take a seat."""


TableRule = Callable[["Game", Any], "Access | None"]
table_rules: list[TableRule] = []
hidden_tables: list[Callable[[Any], Q]] = []
finish_hooks: list[Callable[[Game], None]] = []
commit_hooks: list[Callable[[Game, Any], None]] = []
rematch_hooks: list[Callable[[Game, Game], None]] = []
"""``hook(old, new)`` when a host opens a rematch, inside its transaction (a club
keeps the new table in its club and season)."""


def access(game: Game, user: Any) -> Access:
    """What ``user`` (None or anonymous for a visitor) may do at ``game``."""
    allowed = Access.PLAY
    for rule in table_rules:
        answer = rule(game, user)
        if answer is not None and answer < allowed:
            allowed = answer
    return allowed


def hidden_for(user: Any) -> Q:
    """A condition on ``Game`` matching the tables hidden from ``user`` in lists
    (matching none when no app hides anything)."""
    if not hidden_tables:
        return Q(pk__in=[])
    condition = Q()
    for index, hide in enumerate(hidden_tables):
        condition = hide(user) if index == 0 else condition | hide(user)
    return condition


def rematch_opened(old: Game, new: Game) -> None:
    """Tell every rematch hook, inside the transaction that opens ``new``."""
    for hook in rematch_hooks:
        hook(old, new)


def game_finished(game: Game) -> None:
    """Tell every finish hook, inside the transaction that ends ``game``."""
    for hook in finish_hooks:
        hook(game)


def committed_on_commit(game: Game, state: Any) -> None:
    """Tell every commit hook once the current transaction commits."""
    if not commit_hooks:
        return

    def tell() -> None:
        for hook in commit_hooks:
            hook(game, state)

    transaction.on_commit(tell)
