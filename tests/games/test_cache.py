"""The one cache helper: bounded, least recently used first out, safe to share."""

from __future__ import annotations

import threading

from games.cache import LRU


def test_keeps_the_most_recently_used() -> None:
    cache: LRU[str, int] = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recent
    cache.put("c", 3)
    assert cache.get("b") is None
    assert (cache.get("a"), cache.get("c")) == (1, 3)
    assert len(cache) == 2


def test_put_if_keeps_a_newer_entry() -> None:
    cache: LRU[str, int] = LRU(4)
    cache.put_if("v", 5, lambda current: current <= 5)
    cache.put_if("v", 3, lambda current: current <= 3)
    assert cache.get("v") == 5
    cache.put_if("v", 7, lambda current: current <= 7)
    assert cache.get("v") == 7
    cache.pop("v")
    assert cache.get("v") is None


def test_threads_never_push_it_past_its_size() -> None:
    cache: LRU[int, int] = LRU(50)

    def fill(offset: int) -> None:
        for n in range(2000):
            cache.put(offset + n, n)
            cache.get(offset + n // 2)

    threads = [threading.Thread(target=fill, args=(k * 10_000,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 50


def test_made_once_makes_a_value_once_per_object_and_never_for_a_lookalike() -> None:
    from games.cache import MadeOnce

    made: list[object] = []

    def make(obj: list[int]) -> int:
        made.append(obj)
        return sum(obj)

    once = MadeOnce(2, make)
    first, equal = [1, 2], [1, 2]
    assert once(first) == 3 and once(first) == 3
    assert made == [first]
    assert once(equal) == 3  # equal but another object: made for it too
    assert len(made) == 2 and made[1] is equal
    third = [4]
    assert once(third) == 4  # the oldest (first) is let go beyond two objects
    assert once(first) == 3 and len(made) == 4


def test_discard_where_drops_the_keys_that_pass_and_keeps_the_order() -> None:
    cache: LRU[tuple[int, str], int] = LRU(8)
    for n, key in enumerate([(1, "a"), (2, "a"), (1, "b"), (3, "a")]):
        cache.put(key, n)
    assert cache.discard_where(lambda key: key[0] == 1) == 2
    assert cache.keys() == [(2, "a"), (3, "a")]
    assert cache.get((1, "a")) is None and cache.get((2, "a")) == 1
    assert cache.discard_where(lambda key: key[0] == 9) == 0
    assert len(cache) == 2
