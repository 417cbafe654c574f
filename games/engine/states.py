"""What every family's engine state does the same way."""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["evolve"]

S = TypeVar("S")


def evolve(state: S, **changes: Any) -> S:
    """A copy of a state (a frozen dataclass with an instance dictionary) with
    ``changes``: the one way rules make a new state.

    Copies the instance dictionary directly, which is faster than
    ``dataclasses.replace``; the frozen dataclass still refuses attribute assignment
    everywhere else. Each family's tests check that every state carries exactly its
    dataclass's fields, which guards against a misspelt change.
    """
    new: S = object.__new__(type(state))
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new
