"""The pages' shared cache: computed once per key, least recently used dropped first, bounded by
the estimated memory of its entries."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

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


MB = 2**20


def megabytes(n: float) -> np.ndarray:
    return np.zeros(int(n * MB), dtype=np.uint8)


def test_the_cache_is_bounded_by_the_bytes_of_its_entries():
    cache = ContentCache(max_bytes=3 * MB)
    cache.get_or_compute("a", lambda: megabytes(1))
    cache.get_or_compute("b", lambda: megabytes(1))
    assert 2 * MB <= cache.bytes < 2.1 * MB
    cache.get_or_compute("a", lambda: None)  # "a" is now the most recently used
    cache.get_or_compute("c", lambda: megabytes(1.5))  # over 3 MB: drops "b", the oldest
    assert "a" in cache and "b" not in cache and "c" in cache
    assert 2.5 * MB <= cache.bytes < 2.6 * MB
    big = cache.get_or_compute("d", lambda: megabytes(4))  # larger than the whole budget
    assert len(big) == 4 * MB and "d" not in cache  # returned, not kept...
    assert "a" in cache and "c" in cache  # ...and nothing else dropped for it


def test_estimated_bytes_follow_arrays_frames_containers_and_dataclasses():
    from pages.ui import estimate_bytes

    array = megabytes(1)
    assert MB <= estimate_bytes(array) < MB + 1000
    assert estimate_bytes([array, array, array[10:]]) < MB + 1000  # shared and views count once
    assert estimate_bytes({"x": (array,)}) >= MB

    @dataclass(frozen=True)
    class Result:
        values: np.ndarray
        table: pd.DataFrame
        names: list[str]

    frame = pd.DataFrame({"x": np.zeros(MB // 8)})  # 1 MB of float64
    result = Result(array, frame, ["a" * 1000] * 2)
    assert 2 * MB <= estimate_bytes(result) < 2 * MB + 5000
    assert estimate_bytes(np.array(["x" * MB], dtype=object)) >= MB  # objects in an array
