"""The pages' shared cache: computed once per key, least recently used dropped first."""

from __future__ import annotations

from pages.ui import ContentCache


def test_a_key_is_computed_once_and_the_oldest_is_dropped():
    cache = ContentCache(entries=2)
    calls = []

    def compute(value):
        return lambda: calls.append(value) or value

    assert cache.get_or_compute("a", compute(1)) == 1
    assert cache.get_or_compute("a", compute(99)) == 1  # cached: not computed again
    cache.get_or_compute("b", compute(2))
    cache.get_or_compute("a", compute(99))  # "a" is now the most recently used
    cache.get_or_compute("c", compute(3))  # drops "b"
    assert cache.get_or_compute("b", compute(4)) == 4
    assert calls == [1, 2, 3, 4]
