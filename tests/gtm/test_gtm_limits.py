"""GTM on hostile segments: bounded memory and time, a note instead of a crash, Ctrl-C obeyed.

One segment of one word repeated 2,500 times (5,000 bytes) used to make the old grid code allocate
n^3 / 3 blocks and segfault the dashboard server for every user.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import mteval_core.gtm.matching as matching
from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.gtm.grid import bitext_grid, segment_table
from mteval_core.gtm.matching import (
    SegmentTooLarge,
    closed_form_size,
    greedy_matching,
    greedy_sizes,
)
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.limits import GTM_MAX_HITS
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

GTM = ["gtm", "gtm_precision", "gtm_recall"]
BOMB = " ".join(["word"] * 2_500)  # 12,499 bytes of text, 6,250,000 hits against itself


def one_word(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(n, np.int64), np.array([0] * n + [-1], np.int64)


def test_a_repeated_word_is_one_run_and_costs_nothing():
    candidate, rcat = one_word(2_500)
    total, blocks = greedy_matching(candidate, rcat, 2_500.0, 2.0)
    assert total == 2_500.0**2
    assert blocks.tolist() == [[0.0, 0.0, 2_500.0]]


def test_the_bomb_scores_like_any_identical_pair():
    test_set = make_test_set([BOMB], {"s": [BOMB]})
    for e in (1.0, 2.0, 3.0):
        scores = score_test_set(test_set, GTM, Options.from_flags(tokenize="none", gtm_exponent=e))
        assert scores.notes == ()
        assert scores.corpus()["s"]["gtm_precision"] == pytest.approx(1.0, abs=1e-12)


def test_over_the_hit_limit_is_refused_before_the_work():
    candidate, rcat = one_word(200_000)  # a 1 MB line: 4e10 hits
    started = time.perf_counter()
    with pytest.raises(SegmentTooLarge, match="40,000,000,000 hits"):
        greedy_matching(candidate, rcat, 200_000.0, 2.0)
    assert time.perf_counter() - started < 2.0  # counted per word, not cell by cell


def test_at_e1_a_segment_over_the_limits_gets_the_closed_form():
    candidate, rcat = one_word(200_000)
    offsets = np.array([0, len(candidate)]), np.array([0, len(rcat)])
    caps = np.array([200_000.0])
    assert greedy_sizes(candidate, offsets[0], rcat, offsets[1], caps, 1.0)[0] == 200_000.0
    assert math.isnan(greedy_sizes(candidate, offsets[0], rcat, offsets[1], caps, 2.0)[0])


def test_the_closed_form_is_the_greedy_to_the_bit_on_fractional_caps():
    rng = np.random.default_rng(7)
    for _ in range(300):
        candidate = rng.integers(0, 5, rng.integers(0, 40)).astype(np.int64)
        rcat = np.concatenate([rng.integers(0, 5, rng.integers(0, 40)), [-1]]).astype(np.int64)
        cap = float(rng.random() * 40)
        assert greedy_matching(candidate, rcat, cap, 1.0)[0] == closed_form_size(
            candidate, rcat, cap
        )


@pytest.fixture
def small_limits(monkeypatch, gtm_loops):
    """Limits low enough that a 4-token segment is over them (compiled and pure-Python loops)."""
    monkeypatch.setattr(matching, "GTM_MAX_HITS", 10)


def test_a_segment_over_the_limits_is_left_out_with_a_note(small_limits):
    test_set = make_test_set(["a a a a", "x y"], {"s": ["a a a a", "x y"]})
    with pytest.warns(UserWarning, match=r"s: GTM leaves out 1 segment\(s\).*segment 1 has"):
        scores = score_test_set(
            test_set, GTM, Options.from_flags(tokenize="none", gtm_exponent=2.0)
        )
    assert len(scores.notes) == 1  # once, though three GTM metrics met it
    assert "16 hits" in scores.notes[0]
    statistics = scores.statistics["gtm"]["s"]
    assert statistics[0].tolist() == [0.0, 0.0, 0.0]  # out of every sum
    assert scores.corpus()["s"]["gtm"] == 1.0  # the corpus score of the other segment
    scores_e1 = score_test_set(test_set, GTM, Options(tokenize="none"))
    assert scores_e1.notes == ()  # e = 1: every segment, by the closed form
    assert scores_e1.statistics["gtm"]["s"][:, 0].tolist() == [4.0, 2.0]


def test_exact_mode_over_the_limits_leaves_out_too(small_limits):
    test_set = make_test_set(["a a a a", "x y"], {"s": ["a a a a", "x y"]})
    options = Options.from_flags(tokenize="none", gtm_exponent=2.0, gtm_matching="exact")
    with pytest.warns(UserWarning, match="GTM leaves out 1 segment"):
        scores = score_test_set(test_set, ["gtm"], options)
    assert scores.corpus()["s"]["gtm"] == 1.0


def test_the_command_line_prints_the_note_and_succeeds(small_limits, tmp_path, capsys):
    (tmp_path / "ref.txt").write_text("a a a a\nx y\n")
    (tmp_path / "s.txt").write_text("a a a a\nx y\n")
    args = ["--refs", str(tmp_path / "ref.txt"), "--hyps", str(tmp_path / "s.txt")]
    assert main(["score", *args, "--metrics", "gtm", "--gtm-exponent", "2"]) == 0
    assert "mteval: warning: s: GTM leaves out 1 segment(s)" in capsys.readouterr().err
    assert main(["gtm", "-e", "2", "+s", str(tmp_path / "s.txt"), str(tmp_path / "ref.txt")]) == 0
    assert "GTM leaves out 1 segment(s)" in capsys.readouterr().err


def test_the_viewer_refuses_a_grid_too_large_to_draw():
    long = " ".join(f"w{k}" for k in range(600))
    test_set = make_test_set([long], {"s": [long]})
    with pytest.raises(InputError, match="too large to draw"):
        bitext_grid(test_set, "s", 1, Options(tokenize="none"))


def test_the_segment_list_survives_a_segment_over_the_limits(small_limits):
    test_set = make_test_set(["a a a a", "x y"], {"s": ["a a a a", "x y"]})
    table = segment_table(test_set, "s", Options.from_flags(tokenize="none", gtm_exponent=2.0))
    assert np.isnan(table["F greedy"][0]) and table["F greedy"][1] == 1.0


def test_ctrl_c_stops_the_compiled_loop_promptly():
    # 2,000 segments just under the hit limit: minutes of work unless SIGINT is checked
    n = math.isqrt(GTM_MAX_HITS) - 1
    script = textwrap.dedent(
        f"""
        import signal
        import numpy as np
        from mteval_core.gtm.matching import greedy_sizes
        # Ctrl-C's own handler, even where the test runner's worker ignores SIGINT (a child
        # inherits an ignored signal, and Python then leaves it ignored)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        segments = 2_000
        candidates = np.tile(np.arange({n}) % 2, segments).astype(np.int64)
        rcat = np.concatenate([np.arange({n}) % 2, [-1]]).astype(np.int64)
        rcats = np.tile(rcat, segments)
        offsets = np.arange(segments + 1, dtype=np.int64)
        print("started", flush=True)
        greedy_sizes(candidates, offsets * {n}, rcats, offsets * len(rcat),
                     np.full(segments, {n}.0), 2.0)
        print("finished", flush=True)
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
    )
    try:
        assert process.stdout.readline().strip() == "started"
        time.sleep(1.0)
        interrupted = time.perf_counter()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:  # a loop that missed the signal must not go on for minutes beside the other tests
        process.kill()
    assert time.perf_counter() - interrupted < 5.0
    assert "finished" not in out
    assert "KeyboardInterrupt" in err


def test_without_the_compiled_module_the_python_loops_say_so_and_agree():
    script = textwrap.dedent(
        """
        import sys, warnings
        sys.modules["mteval_core.gtm._loops"] = None  # as if built without a compiler
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            from mteval_core.settings.options import Options
            from mteval_core.metrics.scoring import score_test_set
            from mteval_core.model.testset import TestSet, TextColumn
            text = ("a b c a b d e", "x y x y z")
            test_set = TestSet(
                references=[TextColumn("ref", text, "ref")],
                systems=[TextColumn("s", ("a b d e a b c", "x y z x"), "s")],
            )
            options = Options.from_flags(tokenize="none", gtm_exponent=2.0)
            print(repr(score_test_set(test_set, ["gtm"], options).corpus()["s"]["gtm"]))
        print(sum("pure-Python" in str(w.message) for w in caught))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
        check=True,
    )
    fallback, warned = done.stdout.split()
    test_set = make_test_set(["a b c a b d e", "x y x y z"], {"s": ["a b d e a b c", "x y z x"]})
    compiled = score_test_set(
        test_set, ["gtm"], Options.from_flags(tokenize="none", gtm_exponent=2.0)
    )
    assert float(fallback) == compiled.corpus()["s"]["gtm"]
    assert warned == "1"
