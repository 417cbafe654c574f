"""The leak oracle's door: every fact a viewer may not know, and the ones a payload
gives away, for any game.

The oracle is a companion for tests and benchmarks, not part of a game's runtime: each
family keeps its own in ``games/families/<family>/engine/oracle.py`` (module-level
``secrets(state, seat)`` and ``find_leaks(state, seat, payload, words=None)``), and this
module finds it through the state's ruleset.  Pages, sockets and the API never call it;
tests run it over everything those send.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

__all__ = ["find_leaks", "oracle_for", "secrets"]


def oracle_for(state: Any) -> ModuleType:
    """The oracle module of ``state``'s family."""
    return import_module(f"games.families.{state.ruleset.family}.engine.oracle")


def secrets(state: Any, seat: int | None, **perspective: Any) -> list[Any]:
    """Every fact ``seat`` may not know at this point (the leak oracle's list).

    ``perspective`` takes the same ``after``/``own`` as :func:`games.engine.view` for a
    replay's step, when the family's oracle supports it."""
    result: list[Any] = oracle_for(state).secrets(state, seat, **perspective)
    return result


def find_leaks(
    state: Any,
    seat: int | None,
    payload: Any,
    words: Mapping[str, Sequence[str]] | None = None,
    **perspective: Any,
) -> list[Any]:
    """The secrets of ``seat`` that ``payload`` (dict, JSON or HTML) gives away."""
    result: list[Any] = oracle_for(state).find_leaks(
        state, seat, payload, words, **perspective
    )
    return result
