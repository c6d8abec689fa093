"""Paired approximate randomization (stats.approximate_randomization) against sacreBLEU 2.6's
``--paired-ar`` (live, on a slice of WMT17 en-de: the same p-values to the last bit) and against
the MultEval p-values sacreBLEU pins in its own tests (test/test_significance.py: WMT17 en-de,
baseline LIUM-NMT.4900, BLEU on the text as it is, 10,000 trials, within its tolerance 0.01)."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.stats.approximate_randomization import (
    RandomizationOptions,
    approximate_randomization,
    trial_sums,
)
from tests.helpers import make_test_set, read_lines, shared_dataset

BASELINE = "LIUM-NMT.4900"
# sacrebleu/test/test_significance.py: MultEval's BLEU p-values against LIUM-NMT.4900; the
# systems whose p-value is 0.0001 there (every trial less extreme) are left out to save time
MULTEVAL_P_VALUES = {
    "FBK.4870": 0.0218,
    "KIT.4950": 0.0410,
    "LMU-nmt-reranked.4934": 0.09029,
    "LMU-nmt-single.4893": 0.58494,
    "online-B.0": 0.94111,
    "RWTH-nmt-ensemble.4921": 0.0207,
    "SYSTRAN.4847": 0.59914,
    "xmu.4910": 0.71073,
    "uedin-nmt.4722": 0.0001,
}


def wmt17(systems, lines=None):
    folder = shared_dataset("wmt17-newstest2017-ende")
    reference = read_lines(folder / "ref" / "ref.de")[:lines]
    outputs = {name: read_lines(folder / "sys" / f"{name}.de")[:lines] for name in systems}
    return make_test_set(reference, outputs), reference, outputs


def test_equal_to_sacrebleus_paired_ar_on_a_slice(monkeypatch):
    from sacrebleu.metrics import BLEU, CHRF, TER
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    names = [BASELINE, "uedin-nmt.4722", "online-B.0"]
    test_set, reference, outputs = wmt17(names, lines=100)
    trials = 400
    ours = approximate_randomization(
        score_test_set(test_set, ["bleu", "chrf", "ter"], Options()),
        RandomizationOptions(trials, 12345),
    )
    p = {(pair.a, pair.b, pair.metric): pair.p for pair in ours.pairs}
    metrics = {
        "bleu": BLEU(references=[reference]),
        "chrf": CHRF(references=[reference]),
        "ter": TER(references=[reference]),
    }
    _, results = PairedTest(
        [(n, outputs[n]) for n in names], metrics, None, test_type="ar", n_samples=trials
    )()
    columns = [key for key in results if key != "System"]
    compared = 0
    for column, metric in zip(columns, metrics):
        for name, result in zip(results["System"][1:], results[column][1:]):
            assert p[(BASELINE, name, metric)] == result.p_value, (metric, name)
            compared += 1
    assert compared == 6


def test_within_sacrebleus_tolerance_of_multeval_on_wmt17():
    test_set, _, _ = wmt17([BASELINE, *MULTEVAL_P_VALUES])
    scores = score_test_set(test_set, ["bleu"], Options(tokenize="none"))
    result = approximate_randomization(scores, RandomizationOptions(10_000, 12345))
    p = {(pair.a, pair.b): pair.p for pair in result.pairs}
    for name, expected in MULTEVAL_P_VALUES.items():
        assert abs(p[(BASELINE, name)] - expected) < 1e-2, name


def test_the_coins_do_not_depend_on_the_block_size():
    """Drawn a block at a time (whole 32-bit words of coins), they are sacreBLEU's one draw."""
    n_segments, n_trials = 37, 300
    one_draw = np.random.default_rng(7).integers(2, size=(n_trials, n_segments), dtype=bool)
    identity = np.eye(n_segments)
    for budget in (1, 9 * 37 * 40, 10**9):
        (sums,) = trial_sums([identity], n_trials, np.random.default_rng(7), budget)
        np.testing.assert_array_equal(sums, one_draw.astype(np.float64))


def test_identical_systems_never_differ_and_clusters_follow_holm():
    reference = ["a b c d", "e f g", "h i j k l", "m n"] * 5
    good = list(reference)
    bad = ["a x c y", "e q g", "z i j w l", "m r"] * 5
    test_set = make_test_set(reference, {"good": good, "copy": list(good), "bad": bad})
    scores = score_test_set(test_set, ["bleu", "f1"], Options())
    told: list[float] = []
    result = approximate_randomization(scores, RandomizationOptions(999, 3), progress=told.append)
    assert told == [0.5, 1.0]
    pairs = {(p.a, p.b, p.metric): p for p in result.pairs}
    for metric in ("bleu", "f1"):
        assert pairs[("good", "copy", metric)].p == 1.0
        assert pairs[("good", "copy", metric)].delta == 0.0
        assert pairs[("good", "bad", metric)].p < 0.01
        clusters = {c.system: c.cluster for c in result.clusters[metric]}
        assert clusters["good"] == clusters["copy"] == 1 and clusters["bad"] == 2
    assert len(result.pairs) == 6
    payload = result.to_dict()
    assert payload["n_trials"] == 999 and payload["seed"] == 3


@pytest.mark.parametrize("trials", [1, 19])
def test_p_values_are_smoothed_shares_of_the_trials(trials):
    reference = ["a b c", "d e f", "g h i"] * 2  # 6 segments, the fewest a paired test takes
    output = ["a b c", "d e q", "g q i", "a b c", "d e f", "q h i"]
    test_set = make_test_set(reference, {"x": output, "y": reference})
    scores = score_test_set(test_set, ["f1"], Options())
    (pair,) = approximate_randomization(scores, RandomizationOptions(trials, 0)).pairs
    assert pair.p * (trials + 1) == pytest.approx(round(pair.p * (trials + 1)))
    assert 1 / (trials + 1) <= pair.p <= 1.0


def test_the_command_line_adds_paired_ar(capsys):
    import json

    from mteval_core.cli import main
    from tests.helpers import SAMPLE_DATA

    hyps = [str(p) for p in sorted((SAMPLE_DATA / "sys").glob("*.en"))]
    args = ["score", "--refs", str(SAMPLE_DATA / "ref" / "ref-A.en"), "--hyps", *hyps]
    args += ["--metrics", "bleu,f1", "--paired-ar", "200", "--seed", "5", "--format", "json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)["paired_ar"]
    assert report["n_trials"] == 200 and report["seed"] == 5
    assert len(report["pairs"]) == 12 and set(report["clusters"]) == {"bleu", "f1"}
    assert all(1 / 201 <= pair["p"] <= pair["p_holm"] <= 1 for pair in report["pairs"])
    assert main([*args[:-2], "--format", "csv"]) == 2
    assert "--paired-ar work with --format json or text" in capsys.readouterr().err


def test_paired_ar_is_refused_with_shards(capsys):
    from mteval_core.cli import main

    assert main(["score", "--shards", "corpus/", "--paired-ar", "100"]) == 2
    assert "--paired-ar works with --refs and --hyps" in capsys.readouterr().err
