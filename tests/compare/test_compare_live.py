"""mteval_core.compare against compare-mt 0.2.10 itself, live, on a slice the fixture does not
hold (TED sk-en lines 1,001-1,300, the systems the other way round), and on WMT23 en-zh as
released, where compare-mt's reading gives the near-zero BLEU issue 42 reported. Runs only where
scripts/compare_mt_fixture.py's oracle is installed (.oracles/compare-mt, see its docstring);
elsewhere test_compare_parity.py's pinned numbers cover the same ground."""

from __future__ import annotations

import importlib.util
import os
import sys

import numpy as np
import pytest

from mteval_core.compare.analysis import compare_pair
from mteval_core.compare.readings import COMPARE_MT
from tests.helpers import ROOT, read_lines, shared_dataset
from tests.wmt23_general import SYSTEMS, wmt23_pair

ORACLE = ROOT / ".oracles" / "compare-mt"
SCRIPT = ROOT / "scripts" / "compare_mt_fixture.py"


def oracle():
    """scripts/compare_mt_fixture.py, with compare-mt importable; a skip where it is not."""
    if os.environ.get("MTEVAL_LIVE_ORACLES") != "1":
        pytest.skip("set MTEVAL_LIVE_ORACLES=1 to run compare-mt live")
    if not (ORACLE / "compare_mt").is_dir():
        pytest.skip(f"compare-mt is not installed in {ORACLE}")
    sys.path.append(str(ORACLE))  # at the end: the venv's numpy and NLTK stay first
    spec = importlib.util.spec_from_file_location("compare_mt_fixture", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_a_fresh_slice_equals_compare_mt_run_here():
    script = oracle()
    folder = shared_dataset("compare-mt-ted-sk-en")
    ref, sys2, sys1 = (
        read_lines(folder / p)[1000:1300]
        for p in ("ref/ref.tok.en", "sys/sys2.tok.en", "sys/sys1.tok.en")
    )
    training = folder / "ref" / "ref.detok.en"
    want = script.run(ref, [sys2, sys1], training)
    ours = compare_pair(ref, [("a", sys2), ("b", sys1)], COMPARE_MT)
    trained = compare_pair(
        ref, [("a", sys2), ("b", sys1)], COMPARE_MT, training=read_lines(training)
    )
    scores = ours.analysis("scores").values[:, 0]
    assert scores[:, 0].tolist() == want["scores"]["bleu"]
    assert scores[:, 1].tolist() == want["scores"]["length"]
    for analysis, key in ((ours, "word_accuracy"), (trained, "word_accuracy_training")):
        statistics = np.array(want[key]["statistics"])[:, :, 3:]
        np.testing.assert_array_equal(analysis.analysis("word_accuracy").values, statistics)
    for key, expected in want["sentence_buckets"].items():
        np.testing.assert_array_equal(ours.analysis(key).values[:, :, 0], expected["values"])
    assert [[e.line, e.score_a, e.score_b] for e in ours.examples[0]] == want["examples"][
        "a_better"
    ]
    for side, key in enumerate(("a_better", "b_better")):
        listed = want["ngrams"][key]["listed"]
        assert [d.salience for d in ours.ngrams[side]] == [row[1] for row in listed]


def test_compare_mts_reading_of_wmt23_en_zh_is_compare_mts_near_zero_bleu(tmp_path):
    """Chinese as written: compare-mt's corpus BLEU and buckets are what it computes (HW-TSC
    0.80 where WMT23 says 58.58), and the comparison carries the note that says why."""
    script = oracle()
    released = wmt23_pair("en-zh")
    reference, _ = released.write(tmp_path, ())
    outputs = [released.systems[s][1] for s in SYSTEMS["en-zh"]]
    want = script.run(released.reference[1], outputs, reference)
    ours = compare_pair(released.reference[1], list(zip(SYSTEMS["en-zh"], outputs)), COMPARE_MT)
    scores = ours.analysis("scores").values[:, 0]
    assert scores[:, 0].tolist() == want["scores"]["bleu"]
    assert f"{scores[0, 0]:.2f}" == "0.80"
    for key, expected in want["sentence_buckets"].items():
        np.testing.assert_array_equal(ours.analysis(key).values[:, :, 0], expected["values"])
    assert len(ours.notes) == 1
