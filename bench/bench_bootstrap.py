"""Benchmark: bootstrap intervals and paired significance on WMT17, next to sacreBLEU's paired
bootstrap, whole processes in the same run.

  - sacrebleu REF -i SYS... -m bleu --paired-bs --paired-bs-n 1000   (BLEU only; the first system
    is its baseline, so 15 pairs)
  - mteval score --refs REF --hyps SYS... --metrics bleu,nist,precision,recall,f1,fmean,gtm
    --bootstrap 1000 --format json   (an interval for every system and metric, and a paired test
    with Holm's correction for all 120 system pairs of every metric)
Then, in this process, the bootstrap step alone (resampling, intervals, 840 paired tests) on the
statistics of the same scoring, median of several runs.

    python bench/bench_bootstrap.py [--runs 3]
"""

from __future__ import annotations

from pathlib import Path

from bench_score import DATA, arguments, compare, executable, median_seconds, wmt17_files

METRICS = "bleu,nist,precision,recall,f1,fmean,gtm"


def bootstrap_step_seconds(runs: int) -> float:
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.model.testset import TestSet, TextColumn
    from mteval_core.settings.options import Options
    from mteval_core.stats.bootstrap import BootstrapOptions
    from mteval_core.stats.significance import bootstrap_scores

    def column(path: Path) -> TextColumn:
        lines = path.read_text(encoding="utf-8").split("\n")[:-1]
        return TextColumn(path.name.rsplit(".", 1)[0], tuple(lines), str(path))

    test_set = TestSet(
        references=[column(DATA / "ref" / "ref.de")],
        systems=[column(p) for p in sorted((DATA / "sys").iterdir())],
    )
    scores = score_test_set(test_set, METRICS.split(","), Options())
    return median_seconds(
        lambda: bootstrap_scores(scores, BootstrapOptions(n_resamples=1000, seed=1)), runs
    )


def main() -> int:
    args = arguments(__doc__, default_runs=3)
    if args is None:
        return 0
    ref, systems = wmt17_files()
    commands = {
        "sacrebleu bleu": [
            executable("sacrebleu"),
            ref,
            "-i",
            *systems,
            "-m",
            "bleu",
            "--paired-bs",
            "--paired-bs-n",
            "1000",
        ],
        "mteval bootstrap": [
            executable("mteval"),
            "score",
            "--refs",
            ref,
            "--hyps",
            *systems,
            "--metrics",
            METRICS,
            "--bootstrap",
            "1000",
            "--format",
            "json",
        ],
    }
    result = compare(commands, args.runs)
    step = bootstrap_step_seconds(args.runs)
    print(
        f"WMT17 en-de: {len(systems)} systems x 3,004 segments, 1,000 resamples, "
        f"{args.runs} runs each"
    )
    result.print_table()
    print(f"  bootstrap step alone (7 metrics x 16 systems, 840 paired tests): {step:.2f} s")
    result.save("bench_bootstrap", bootstrap_step_seconds=step)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
