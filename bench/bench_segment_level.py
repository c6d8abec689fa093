"""Benchmark: segment-level meta-evaluation, next to mt-metrics-eval in the same run.

1. WMT21 TED en-de (13 systems x 529 segments, MQM): seven metrics' segment scores, then every
   segment-level statistic (Pearson, Spearman, Kendall b/c, Kendall-like; groupings none, item,
   system; acc23 and acc_eq), SPA and system pairwise accuracy, with 1,000 bootstrap resamples of
   the segments for every statistic (``segment_level_statistics``). mt-metrics-eval computes the
   same statistics without intervals (it has no bootstrap); its time is for that smaller job.
2. Tie calibration (acc_eq, item grouping) on 20 systems x 2,000 synthetic segments, ours against
   mt-metrics-eval's ``KendallWithTiesOpt`` (sample_rate 1: the exact search).
3. With ``--large``: every statistic of one metric on those 20 x 2,000 segments, 1,000 resamples,
   grouping by grouping (ours only: the larger size users run).

mt-metrics-eval is not on PyPI: give a checkout with ``--mtme PATH`` (google-research/
mt-metrics-eval; the folder that holds ``mt_metrics_eval/``) to time it beside ours.

    python bench/bench_segment_level.py [--runs 5] [--mtme PATH] [--large]

Times are medians (and the fastest run) of wall-clock time. On a shared machine, numpy's
multi-threaded BLAS can wait for a busy core: OPENBLAS_NUM_THREADS=1 gives steadier numbers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

TED = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt21-ted-mqm-ende"
METRICS = ("bleu", "chrf", "chrf++", "ter", "precision", "recall", "fmean")


def run_times(work: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def median_seconds(work: Callable[[], object], runs: int) -> float:
    return statistics.median(run_times(work, runs))


def ted_matrices() -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Segment scores of the seven metrics (TER negated: higher is better) and negated MQM."""
    from mteval_core.io import read_directory
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.model.judgment_matrices import criterion_matrix
    from mteval_core.settings.options import Options

    test_set = read_directory(TED).test_set
    systems = test_set.system_names
    human = criterion_matrix(test_set.human, systems, test_set.n_segments, "MQM")
    scores = score_test_set(test_set, list(METRICS), Options())
    matrices = {}
    for metric in METRICS:
        sign = -1.0 if metric == "ter" else 1.0
        matrices[metric] = sign * np.array([scores.segment_scores(s, metric) for s in systems])
    return matrices, human


def ours_ted(matrices: dict[str, np.ndarray], human: np.ndarray) -> None:
    from mteval_core.stats.segment_level import SegmentLevelParams, segment_level_statistics

    params = SegmentLevelParams(n_resamples=1000)
    segment_level_statistics(matrices, human, np.random.default_rng(1), params)


def mtme_ted(stats, matrices: dict[str, np.ndarray], human: np.ndarray) -> None:
    """The same statistics with mt-metrics-eval (no intervals)."""
    n_systems = human.shape[0]
    gold = [float(v) for v in human.ravel()]
    for scores in matrices.values():
        corr = stats.Correlation(n_systems, gold, [float(v) for v in scores.ravel()])
        for grouping in ("none", "item", "sys"):
            corr.Pearson(grouping)
            corr.Spearman(grouping)
            corr.KendallVariants(grouping, "b")
            corr.KendallVariants(grouping, "c")
            corr.KendallLike(grouping, 25.0)
            corr.KendallVariants(grouping, "acc23")
        stats.KendallWithTiesOpt(
            corr.gold_scores, corr.metric_scores, "acc23", n_systems, "item", 1.0
        )
        corr.PairwiseConfidenceError()


def calibration_data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    human = -rng.poisson(1.0, size=(20, 2000)).astype(float)
    return human + rng.normal(scale=2.0, size=human.shape), human


def large(metric: np.ndarray, human: np.ndarray, runs: int) -> None:
    from mteval_core.stats.segment_level import SegmentLevelParams, segment_level_statistics

    print("All statistics of one metric, 20 systems x 2,000 segments, 1,000 resamples")
    for grouping in ("none", "item", "system"):
        params = SegmentLevelParams(n_resamples=1000, groupings=(grouping,))
        seconds = median_seconds(
            lambda p=params: segment_level_statistics(
                {"metric": metric}, human, np.random.default_rng(1), p
            ),
            runs,
        )
        print(f"  mteval, grouping {grouping + ':':7}                       {seconds:8.3f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mtme", type=Path, help="a google-research/mt-metrics-eval checkout")
    parser.add_argument("--large", action="store_true", help="also time 20 x 2,000 segments")
    args = parser.parse_args()
    if not TED.is_dir():
        print(f"skipped: {TED} is not available")
        return 0
    stats = None
    if args.mtme:
        sys.path.insert(0, str(args.mtme))
        from mt_metrics_eval import stats

    from mteval_core.stats.tie_calibration import tie_calibration

    matrices, human = ted_matrices()
    print(f"WMT21 TED en-de, {human.shape[0]} systems x {human.shape[1]} segments, "
          f"{len(matrices)} metrics, median of {args.runs} runs")  # fmt: skip
    times = run_times(lambda: ours_ted(matrices, human), args.runs)
    ours = statistics.median(times)
    print(f"  mteval, all statistics + 1,000 resamples each: {ours:8.3f} s  (goal: < 2 s; "
          f"fastest {min(times):.3f} s)")  # fmt: skip
    if stats is not None:
        theirs = median_seconds(lambda: mtme_ted(stats, matrices, human), args.runs)
        print(f"  mt-metrics-eval, the same without intervals:    {theirs:8.3f} s")
        print(f"  ratio mteval / mt-metrics-eval:                 {ours / theirs:8.2f}")

    metric, human = calibration_data()
    print("Tie calibration (acc_eq, item), 20 systems x 2,000 segments")
    ours = median_seconds(lambda: tie_calibration(metric, human, "item"), args.runs)
    print(f"  mteval tie_calibration:                         {ours:8.3f} s")
    if stats is not None:
        gold, scores = list(human.ravel()), list(metric.ravel())
        theirs = median_seconds(
            lambda: stats.KendallWithTiesOpt(gold, scores, "acc23", 20, "item", 1.0), args.runs
        )
        print(f"  mt-metrics-eval KendallWithTiesOpt:             {theirs:8.3f} s")
        print(f"  ratio mteval / mt-metrics-eval:                 {ours / theirs:8.2f}")
    if args.large:
        large(metric, human, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
