"""One small, thread-safe, least-recently-used cache for values that never go stale.

The engine state of a table at a version, a table's snapshot, a finished game's public
story: each is fully determined by its key, so a per-process cache needs no
invalidation, only a bound on its size. daphne runs views in threads, hence the lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")


class LRU(Generic[K, V]):
    """At most ``size`` entries; reading one makes it the most recent."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def put_if(self, key: K, value: V, newer: Callable[[V], bool]) -> None:
        """Store ``value`` unless the entry already there is newer
        (``newer(current)`` says whether ``value`` should replace ``current``)."""
        with self._lock:
            current = self._entries.get(key)
            if current is None or newer(current):
                self._entries[key] = value
                self._entries.move_to_end(key)
                while len(self._entries) > self.size:
                    self._entries.popitem(last=False)

    def keys(self) -> list[K]:
        with self._lock:
            return list(self._entries)

    def values(self) -> list[V]:
        with self._lock:
            return list(self._entries.values())

    def pop(self, key: K) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def discard_where(self, test: Callable[[K], bool]) -> int:
        """Drop every entry whose key passes ``test``; returns how many went."""
        with self._lock:
            gone = [key for key in self._entries if test(key)]
            for key in gone:
                del self._entries[key]
            return len(gone)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class MadeOnce(Generic[T, V]):
    """``make(obj)`` made once per object (at most ``size`` objects kept), for an
    object that never changes (an engine state) and a value that only its readers
    share. Filed by the object's identity and checked against it: the entry holds
    the object, so no other object can take its identity while it is filed."""

    def __init__(self, size: int, make: Callable[[T], V]) -> None:
        self._kept: LRU[int, tuple[T, V]] = LRU(size)
        self._make = make

    def __call__(self, obj: T) -> V:
        found = self._kept.get(id(obj))
        if found is not None and found[0] is obj:
            return found[1]
        value = self._make(obj)
        self._kept.put(id(obj), (obj, value))
        return value
