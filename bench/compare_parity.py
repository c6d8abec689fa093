"""Parity figures of issue 25: `mteval compare` against compare-mt 0.2.10, and paired
approximate randomization against sacreBLEU 2.6's --paired-ar and MultEval.

    python bench/compare_parity.py [--ar-trials 2000]

1. compare-mt: every number of tests/compare/compare_mt_expected.json (written by
   scripts/compare_mt_fixture.py, which runs compare-mt itself) against
   mteval_core.compare.compare_pair on the same files: how many bucket values, n-grams and
   example sentences were compared, and the largest difference.
2. sacreBLEU: all 16 WMT17 en-de systems against LIUM-NMT.4900 (the baseline of sacreBLEU's own
   test), BLEU and chrF, --ar-trials trials on seed 12345, sacreBLEU's PairedTest(test_type="ar")
   beside mteval_core.stats.approximate_randomization: how many p-values are equal, the largest
   difference, and both times.
3. MultEval: BLEU (--tokenize none) with 10,000 trials against the p-values sacreBLEU pins in
   test/test_significance.py: the largest difference (its tolerance is 0.01).
Needs ../shared/data.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mteval_core.compare.analysis import compare_pair  # noqa: E402
from mteval_core.compare.readings import COMPARE_MT  # noqa: E402
from mteval_core.metrics.scoring import score_test_set  # noqa: E402
from mteval_core.settings.options import Options  # noqa: E402
from mteval_core.stats.approximate_randomization import (  # noqa: E402
    RandomizationOptions,
    approximate_randomization,
)
from tests.helpers import SHARED_DATA, make_test_set, read_lines  # noqa: E402
from tests.stats.test_approximate_randomization import BASELINE  # noqa: E402

FIXTURE = ROOT / "tests" / "compare" / "compare_mt_expected.json"
WMT17 = SHARED_DATA / "wmt17-newstest2017-ende"
MULTEVAL = {  # sacrebleu/test/test_significance.py, BLEU
    "C-3MA.4959": 0.0001, "FBK.4870": 0.0218, "KIT.4950": 0.0410,
    "LMU-nmt-reranked.4934": 0.09029, "LMU-nmt-single.4893": 0.58494, "online-A.0": 0.0001,
    "online-B.0": 0.94111, "online-F.0": 0.0001, "online-G.0": 0.0001,
    "PROMT-Rule-based.4735": 0.0001, "RWTH-nmt-ensemble.4921": 0.0207,
    "SYSTRAN.4847": 0.59914, "TALP-UPC.4834": 0.0001, "uedin-nmt.4722": 0.0001,
    "xmu.4910": 0.71073,
}  # fmt: skip


def compare_mt_parity() -> None:
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    for name, dataset in fixture["datasets"].items():
        texts = [read_lines(SHARED_DATA / p)[: dataset["lines"]] for p in dataset["files"]]
        c = compare_pair(texts[0], [("a", texts[1]), ("b", texts[2])], COMPARE_MT)
        want = dataset["expected"]
        pairs = [
            (c.analysis("scores").values[:, 0, 0], want["scores"]["bleu"]),
            (c.analysis("scores").values[:, 0, 1], want["scores"]["length"]),
            (
                c.analysis("word_accuracy").values,
                np.array(want["word_accuracy"]["statistics"])[:, :, 3:],
            ),
        ]
        for key, expected in want["sentence_buckets"].items():
            pairs.append((c.analysis(key).values[:, :, 0], expected["values"]))
        training = read_lines(SHARED_DATA / dataset["training"])
        trained = compare_pair(
            texts[0], [("a", texts[1]), ("b", texts[2])], COMPARE_MT, training=training
        )
        pairs.append(
            (
                trained.analysis("word_accuracy").values,
                np.array(want["word_accuracy_training"]["statistics"])[:, :, 3:],
            )
        )
        values = sum(np.size(ours) for ours, _ in pairs)
        worst = max(float(np.max(np.abs(np.asarray(o) - np.asarray(e)))) for o, e in pairs)
        ngram_worst, listed = 0.0, 0
        for side, key in enumerate(("a_better", "b_better")):
            theirs = [row[1] for row in want["ngrams"][key]["listed"]]
            ours = [d.salience for d in c.ngrams[side]]
            listed += len(theirs)
            ngram_worst = max(ngram_worst, max(abs(a - b) for a, b in zip(ours, theirs)))
        examples = sum(
            [[e.line, e.score_a, e.score_b] for e in c.examples[side]]
            == (want["examples"][key] if side == 0 else want["examples"][key][::-1])
            for side, key in enumerate(("a_better", "b_better"))
        )
        print(
            f"compare-mt {name} ({dataset['lines']} sentences): {values} bucket values, worst "
            f"difference {worst:g}; {listed} n-gram saliences, worst {ngram_worst:g}; "
            f"example lists equal: {examples} of 2"
        )


def wmt17(names: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    reference = read_lines(WMT17 / "ref" / "ref.de")
    return reference, {n: read_lines(WMT17 / "sys" / f"{n}.de") for n in names}


def sacrebleu_parity(trials: int) -> None:
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    os.environ["SACREBLEU_SEED"] = "12345"
    names = [BASELINE, *MULTEVAL]
    reference, outputs = wmt17(names)
    start = time.process_time()
    scores = score_test_set(make_test_set(reference, outputs), ["bleu", "chrf"], Options())
    ours = approximate_randomization(scores, RandomizationOptions(trials, 12345))
    our_time = time.process_time() - start
    p = {(pair.a, pair.b, pair.metric): pair.p for pair in ours.pairs}
    start = time.process_time()
    metrics = {"bleu": BLEU(references=[reference]), "chrf": CHRF(references=[reference])}
    _, results = PairedTest(
        [(n, outputs[n]) for n in names], metrics, None, test_type="ar", n_samples=trials
    )()
    their_time = time.process_time() - start
    equal, total, worst = 0, 0, 0.0
    for column, metric in zip([k for k in results if k != "System"], metrics):
        for name, result in zip(results["System"][1:], results[column][1:]):
            mine = p[(BASELINE, name, metric)]
            equal += mine == result.p_value
            total += 1
            worst = max(worst, abs(mine - result.p_value))
    print(
        f"sacreBLEU --paired-ar, WMT17 en-de, 15 systems against {BASELINE}, BLEU and chrF, "
        f"{trials:,} trials: {equal} of {total} p-values equal, worst difference {worst:g}; "
        f"CPU {our_time:.1f} s (mteval, all {len(ours.pairs)} pairs) vs {their_time:.1f} s "
        f"(sacreBLEU, {total} baseline pairs)"
    )


def multeval_parity() -> None:
    reference, outputs = wmt17([BASELINE, *MULTEVAL])
    scores = score_test_set(make_test_set(reference, outputs), ["bleu"], Options(tokenize="none"))
    result = approximate_randomization(scores, RandomizationOptions(10_000, 12345))
    p = {(pair.a, pair.b): pair.p for pair in result.pairs}
    worst = max(abs(p[(BASELINE, n)] - expected) for n, expected in MULTEVAL.items())
    within = sum(abs(p[(BASELINE, n)] - e) < 1e-2 for n, e in MULTEVAL.items())
    print(
        f"MultEval (sacreBLEU's pinned values), BLEU --tokenize none, 10,000 trials: {within} of "
        f"{len(MULTEVAL)} within 0.01, worst difference {worst:.4f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ar-trials", type=int, default=2000, help="0: skip sacreBLEU (slow)")
    args = parser.parse_args()
    compare_mt_parity()
    multeval_parity()
    if args.ar_trials:
        sacrebleu_parity(args.ar_trials)
    return 0


if __name__ == "__main__":
    sys.exit(main())
