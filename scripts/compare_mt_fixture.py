"""Write tests/compare/compare_mt_expected.json: compare-mt 0.2.10's own numbers for its default
analyses, which tests/compare/test_compare_parity.py compares with mteval_core.compare.

Needs compare-mt and ../shared/data (the compare-mt TED sk-en set and WMT17 en-de). compare-mt
is installed beside the project, not in its venv, because its wheel installs a top-level `tests`
package into site-packages, which shadows this repository's `tests` (ours is a namespace package,
and a regular package anywhere on the path wins over it), so no test could import
`tests.helpers`; and it imports `six` without declaring it:

    .venv/bin/pip install --target .oracles/compare-mt compare-mt==0.2.10 six

This script appends that folder to the end of its own path, so the venv's numpy, NLTK and
sacreBLEU are the ones compare-mt runs with. Then: Runs compare-mt's report functions in this
process (not its command line, which prints only rounded numbers) and keeps every number they
computed.

    .venv/bin/python scripts/compare_mt_fixture.py

compare-mt orders n-grams of equal salience by set order, which string hashing changes from run
to run (this script runs with PYTHONHASHSEED=0); the fixture keeps, for each direction, every
n-gram whose salience equals the 50th's, so the test can check any tie order against it.
"""

from __future__ import annotations

import contextlib
import io
import json
import operator
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
OUT = ROOT / "tests" / "compare" / "compare_mt_expected.json"
ORACLE = ROOT / ".oracles" / "compare-mt"  # see the docstring
WMT17_LINES = 600  # a slice of WMT17 en-de, to keep the fixture and the test small
DATASETS = {
    "ted-sk-en": (
        "compare-mt-ted-sk-en/ref/ref.tok.en",
        "compare-mt-ted-sk-en/sys/sys1.tok.en",
        "compare-mt-ted-sk-en/sys/sys2.tok.en",
        None,
    ),
    "wmt17-en-de": (
        "wmt17-newstest2017-ende/ref/ref.de",
        "wmt17-newstest2017-ende/sys/LIUM-NMT.4900.de",
        "wmt17-newstest2017-ende/sys/uedin-nmt.4722.de",
        WMT17_LINES,
    ),
}
# a corpus whose word counts make the frequency buckets in place of the reference's (compare-mt's
# freq_corpus_file): any text in the target language does
TRAINING = {
    "ted-sk-en": "compare-mt-ted-sk-en/ref/ref.detok.en",
    "wmt17-en-de": "wmt17-newstest2017-ende/ref/ref.de",  # all 3,004 lines, not only the slice
}


def lines(path: Path, limit: int | None) -> list[str]:
    """The segments as the tests read them (split on LF, no trailing empty line)."""
    text = path.read_text(encoding="utf-8").split("\n")
    if text and text[-1] == "":
        text.pop()
    return text[:limit] if limit else text


def run(ref_lines, out_lines, training: Path) -> dict:  # long: one block per analysis
    from compare_mt import compare_mt_main as cm
    from compare_mt import ngram_utils, reporters, stat_utils

    reporters.sys_names = ["sys1", "sys2"]  # what compare-mt's main sets before reporting

    ref = [line.strip().split(" ") for line in ref_lines]
    outs = [[line.strip().split(" ") for line in out] for out in out_lines]
    result: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        scores = {}
        for kind in ("bleu", "length"):
            report = cm.generate_score_report(ref, outs, score_type=kind)
            scores[kind] = [float(x) for x in report.scores]
        result["scores"] = scores
        report = cm.generate_word_accuracy_report(ref, outs, bucket_type="freq")
        result["word_accuracy"] = {
            "labels": list(report.bucketer.bucket_strs),
            "statistics": [[[float(x) for x in bucket] for bucket in s] for s in report.statistics],
        }
        report = cm.generate_word_accuracy_report(
            ref, outs, bucket_type="freq", freq_corpus_file=str(training)
        )
        result["word_accuracy_training"] = {
            "statistics": [[[float(x) for x in bucket] for bucket in s] for s in report.statistics],
        }
        buckets = {}
        for key, profile in (
            (
                "length_buckets",
                dict(bucket_type="length", statistic_type="score", score_measure="bleu"),
            ),
            ("length_difference_buckets", dict(bucket_type="lengthdiff")),
            ("sentence_bleu_buckets", dict(bucket_type="score", score_measure="sentbleu")),
        ):
            report = cm.generate_sentence_bucketed_report(ref, outs, **profile)
            buckets[key] = {
                "labels": list(report.bucketer.bucket_strs),
                "values": [[float(x) for x in s] for s in report.sys_stats],
            }
        result["sentence_buckets"] = buckets
        report = cm.generate_sentence_examples(ref, outs, score_type="sentbleu")
        diffs = report.scorediff_lists[0]
        result["examples"] = {
            "a_better": [[d[5] + 1, d[1], d[2]] for d in diffs[:10]],
            "b_better": [[d[5] + 1, d[1], d[2]] for d in diffs[-10:]],
        }
    matches = [ngram_utils.compare_ngrams(ref, out, min_length=1, max_length=4)[1] for out in outs]
    salience = stat_utils.extract_salient_features(matches[0], matches[1], alpha=1.0)
    ordered = sorted(salience.items(), key=operator.itemgetter(1), reverse=True)
    result["ngrams"] = {
        "a_better": ngram_side(ordered[:50], ordered, matches),
        "b_better": ngram_side(list(reversed(ordered[-50:])), ordered, matches),
    }
    return result


def ngram_side(top, ordered, matches) -> dict:
    last = top[-1][1]
    ties = [k for k, v in ordered if v == last]
    return {
        "listed": [[" ".join(k), v, matches[0][k], matches[1][k]] for k, v in top],
        "boundary_salience": last,
        "boundary_ties": sorted(" ".join(k) for k in ties) if len(ties) <= 3000 else None,
        "n_boundary_ties": len(ties),
    }


def main() -> int:
    if os.environ.get("PYTHONHASHSEED") != "0":  # the same tie order (set order) on every run
        os.execve(
            sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"}
        )
    sys.path.append(str(ORACLE))
    try:
        import compare_mt
    except ImportError:
        print(
            f"compare-mt is not in {ORACLE}: .venv/bin/pip install --target {ORACLE} "
            "compare-mt==0.2.10 six",
            file=sys.stderr,
        )
        return 2
    import nltk

    fixture = {
        "about": "compare-mt's default analyses, computed by scripts/compare_mt_fixture.py",
        "compare_mt": compare_mt.__version__,
        "nltk": nltk.__version__,
        "python": platform.python_version(),
        "datasets": {},
    }
    for name, (ref, a, b, limit) in DATASETS.items():
        texts = [lines(SHARED / path, limit) for path in (ref, a, b)]
        fixture["datasets"][name] = {
            "files": [ref, a, b],
            "lines": limit or len(texts[0]),
            "training": TRAINING[name],
            "expected": run(texts[0], texts[1:], SHARED / TRAINING[name]),
        }
        print(f"{name}: {fixture['datasets'][name]['lines']} lines", file=sys.stderr)
    OUT.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
