"""The n-gram matches' (BLEU, NIST, P/R/F), GTM's greedy, chrF's, TER's and METEOR's compiled loops
run parts of a test set in threads, one per core (engine/threads.py): the statistics are the same
bytes whatever the number of cores, here one, two and five, with parts of any size (down to 2
segments or pairs here; 64 to 256 in use)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from mteval_core.engine import ngrams, threads
from mteval_core.gtm import matching
from mteval_core.metrics import code_points
from mteval_core.metrics.code_points import statistics_in_blocks
from mteval_core.metrics.meteor import corpus_alignment
from mteval_core.metrics.meteor.availability import jar_path
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

CORES = (1, 2, 5)


@pytest.fixture
def cores(monkeypatch):
    """Sets the number of cores the loops see, and lets them split even tiny test sets."""
    monkeypatch.setattr(code_points, "PARALLEL_BLOCK", 1)
    monkeypatch.setattr(corpus_alignment, "PARALLEL_PAIRS", 1)
    monkeypatch.setattr(ngrams, "COMPILED_SPAN_SEGMENTS", 1)
    monkeypatch.setattr(matching, "PARALLEL_SEGMENTS", 1)

    def use(n: int) -> None:
        monkeypatch.setattr(threads.os, "sched_getaffinity", lambda _: set(range(n)), raising=False)
        monkeypatch.setattr(threads.os, "cpu_count", lambda: n)
        assert threads.usable_cores() == n

    return use


def statistics(wmt17, metrics: list[str], options: Options) -> dict[str, bytes]:
    scores = score_test_set(wmt17, metrics, options)
    return {
        f"{metric}/{system}": np.ascontiguousarray(scores.statistics[metric][system]).tobytes()
        for metric in metrics
        for system in scores.systems
    }


@pytest.fixture(scope="module")
def small_wmt17(wmt17):
    """Three WMT17 systems on their first 11 segments: five cores get parts of 3 or fewer."""
    references = [reference.segments[:11] for reference in wmt17.references]
    return make_test_set(references, {s.name: s.segments[:11] for s in wmt17.systems[:3]})


@pytest.mark.parametrize(
    "metrics",
    [["bleu", "nist", "f1", "gtm"], ["chrf", "chrf++", "ter"], ["meteor"]],
    ids=str,
)
def test_the_same_statistics_on_any_number_of_cores(small_wmt17, metrics, cores):
    if metrics == ["meteor"] and jar_path(None) is None:
        pytest.skip("pycocoevalcap (METEOR's data) is not installed")
    options = Options.from_flags(meteor_language="de")
    results = []
    for n in CORES:
        cores(n)
        results.append(statistics(small_wmt17, metrics, options))
    assert results[0] == results[1] == results[2]


def test_an_error_in_a_thread_reaches_the_caller(cores):
    cores(2)

    def fail_on_three(item: int) -> int:
        if item == 3:
            raise ValueError("three")
        return item

    assert threads.map_on_cores(fail_on_three, [1, 2]) == [1, 2]
    with pytest.raises(ValueError, match="three"):
        threads.map_on_cores(fail_on_three, [1, 2, 3, 4])


def test_no_segments_need_no_block(cores):
    cores(2)

    def compute(*_: object) -> np.ndarray:
        raise AssertionError("no block to compute")

    result = statistics_in_blocks([[]], {"a": []}, 2, False, compute)
    assert result["a"].shape == (0, 2)


def test_parts_of_at_least_the_fewest_items(cores):
    cores(2)
    assert threads.spans(1002, 64) == [(0, 501), (501, 1002)]
    assert threads.spans(100, 64) == [(0, 64), (64, 100)]
    assert threads.spans(10, 64) == [(0, 10)]  # one part: no thread
    assert threads.spans(10_000, 64, 4_096) == [(0, 4096), (4096, 8192), (8192, 10_000)]
    assert threads.spans(0, 64) == [(0, 0)]


def test_an_error_sets_the_stop_that_long_items_look_at(cores):
    """What Ctrl-C does (an exception in the waiting main thread) an error does too: ``stop`` is
    set, so an item still running (GTM's greedy on a huge segment) ends early."""
    cores(2)
    stop, two_started = threading.Event(), threading.Event()
    saw_stop = []

    def item(k: int) -> int:
        if k == 1:
            two_started.wait(timeout=30)
            raise ValueError("one")
        two_started.set()
        saw_stop.append(stop.wait(timeout=30))
        return k

    started = time.perf_counter()
    with pytest.raises(ValueError, match="one"):
        threads.map_on_cores(item, [1, 2], stop)
    assert saw_stop == [True]
    assert time.perf_counter() - started < 10
