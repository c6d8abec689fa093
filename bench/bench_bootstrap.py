"""Benchmark: bootstrap intervals and paired significance on WMT17, next to sacreBLEU's paired
bootstrap, whole processes in the same run.

  - sacrebleu REF -i SYS... -m bleu --paired-bs --paired-bs-n 1000   (BLEU only; the first system
    is its baseline, so 15 pairs)
  - mteval score --refs REF --hyps SYS... --metrics bleu,nist,precision,recall,f1,fmean,gtm
    --bootstrap 1000 --format json   (an interval for every system and metric, and a paired test
    with Holm's correction for all 120 system pairs of every metric)
Then, in this process, the bootstrap step alone (resampling, intervals, 840 paired tests) on the
statistics of the same scoring, median of several runs, and its peak of traced memory: with
sacreBLEU's draw (``stats.bootstrap.count_blocks``: the segment indices of every resample,
counted), and with the multinomial counts mteval drew before, which this benchmark keeps
(``multinomial_blocks``) only to show why that draw was not kept as a faster option: it is the
slower of the two.

    python bench/bench_bootstrap.py [--runs 3]
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from bench_score import DATA, arguments, compare, executable, median_seconds, wmt17_files

METRICS = "bleu,nist,precision,recall,f1,fmean,gtm"


def multinomial_blocks(
    n_items: int, n_resamples: int, rng: np.random.Generator, rows: int
) -> Iterator[tuple[int, np.ndarray]]:
    """mteval's draw before it drew sacreBLEU's: ``rows`` resamples' counts at a time, each row
    multinomial over the items (other numbers than sacreBLEU's on the same seed)."""
    probabilities = np.full(n_items, 1.0 / n_items)
    for start in range(0, n_resamples, rows):
        size = min(rows, n_resamples - start)
        yield start, rng.multinomial(n_items, probabilities, size=size).astype(np.float64)


def bootstrap_step(runs: int) -> dict[str, tuple[float, float]]:
    """draw -> (median seconds, peak traced MB) of the bootstrap step alone."""
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.model.testset import TestSet, TextColumn
    from mteval_core.settings.options import Options
    from mteval_core.stats import bootstrap
    from mteval_core.stats.significance import bootstrap_scores

    def column(path: Path) -> TextColumn:
        lines = path.read_text(encoding="utf-8").split("\n")[:-1]
        return TextColumn(path.name.rsplit(".", 1)[0], tuple(lines), str(path))

    test_set = TestSet(
        references=[column(DATA / "ref" / "ref.de")],
        systems=[column(p) for p in sorted((DATA / "sys").iterdir())],
    )
    scores = score_test_set(test_set, METRICS.split(","), Options())
    options = bootstrap.BootstrapOptions(n_resamples=1000, seed=1)
    sacrebleu_draw = bootstrap.count_blocks
    measured = {}
    for name, draw in (("sacreBLEU's draw", sacrebleu_draw), ("multinomial", multinomial_blocks)):
        bootstrap.count_blocks = draw  # resampled_sums draws through this name
        try:
            seconds = median_seconds(lambda: bootstrap_scores(scores, options), runs)
            measured[name] = (seconds, peak_mb(lambda: bootstrap_scores(scores, options)))
        finally:
            bootstrap.count_blocks = sacrebleu_draw
    return measured


def peak_mb(work: Callable[[], object]) -> float:
    """The peak of memory traced while ``work`` runs (numpy's arrays included), in MB."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


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
    step = bootstrap_step(args.runs)
    print(
        f"WMT17 en-de: {len(systems)} systems x 3,004 segments, 1,000 resamples, "
        f"{args.runs} runs each"
    )
    result.print_table()
    for draw, (seconds, peak) in step.items():
        print(
            f"  bootstrap step alone (7 metrics x 16 systems, 840 paired tests), {draw}: "
            f"{seconds:.2f} s, peak {peak:.0f} MB traced"
        )
    seconds = {f"bootstrap_step_seconds {draw}": s for draw, (s, _) in step.items()}
    peaks = {f"bootstrap_step_peak_mb {draw}": mb for draw, (_, mb) in step.items()}
    result.save("bench_bootstrap", **seconds, **peaks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
