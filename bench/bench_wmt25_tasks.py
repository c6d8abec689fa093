"""Benchmark: mt-metrics-eval's WMT25 task set, ours beside mt-metrics-eval's in the same run.

The folder is tests/stats/wmt25_folder.py's (wmt21.tedtalks en-de and zh-en in mt-metrics-eval's
layout, MQM, five sentence-level metrics; built from ../shared/data): four tasks (SPA and acc_eq
by item per pair), K permutations per pair of metrics, then the average and its clusters.
mt-metrics-eval runs in its own python (it is not on PyPI and needs dacite; give a venv where
it is installed, as for scripts/mtme_wmt25_oracle.py): ``tasks.WMT25()`` with the pairs
substituted, after ``np.random.seed(S)``. Both sides are timed from the folder's scores already
read (its EvalSets, our matrices) to the average ranking; the numbers are compared.

    python bench/bench_wmt25_tasks.py --mtme-python /tmp/mtme/venv/bin/python [--permutations 20]
                                      [--runs 3]

Times are medians of wall-clock time (mt-metrics-eval: one run, it is slow). On a shared machine
OPENBLAS_NUM_THREADS=1 gives steadier numbers (both sides get it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

THEIRS = r"""
import dataclasses, json, os, sys, time, types
sys.modules["apache_beam"] = types.ModuleType("apache_beam")
import numpy as np
from mt_metrics_eval import data, meta_info, tasks

class SortedSet(set):
    def __iter__(self):
        return iter(sorted(set.__iter__(self)))

data.set = SortedSet
root, test_set, lps = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
k, seed = int(sys.argv[4]), int(sys.argv[5])

def eval_set(lp):
    names = os.listdir(os.path.join(root, test_set, "metric-scores", lp))
    info = dataclasses.replace(
        meta_info.DATA[test_set][lp], primary_metrics={n.rsplit("-", 1)[0] for n in names})
    return data.EvalSet(test_set, lp, True, info=info, path=root)

evs = {(test_set, lp): eval_set(lp) for lp in lps}
Original = tasks.Task
class Substituted(Original):
    def __init__(self, _name, *args, **kwargs):
        super().__init__(test_set, *args, **kwargs)
tasks.Task = Substituted
task_set, weights = tasks.WMT25(lps=lps, k=k)
tasks.Task = Original
start = time.perf_counter()
np.random.seed(seed)
results = task_set.Run(evs)
avg, _ = results.AverageCorrMatrix(weights)
seconds = time.perf_counter() - start
json.dump({"seconds": seconds, "tasks": [r.corr_ranks for r in results], "average": avg},
          sys.stdout)
"""


def ours(root: Path, pairs: list[str], permutations: int, seed: int) -> tuple[float, dict]:
    from mteval_core.cli.correlate_task_set import _pair_data
    from mteval_core.stats.task_sets import TaskSetParams, wmt25_task_set
    from tests.stats.wmt25_folder import TEST_SET

    options = {"mtme": str(root), "test_set": TEST_SET, "reference": None, "criterion": None}
    args = argparse.Namespace(**options, bootstrap=0, seed=seed)
    data = {lp: _pair_data(args, lp)[0] for lp in pairs}
    start = time.perf_counter()
    result = wmt25_task_set(data, TaskSetParams(n_permutations=permutations, seed=seed))
    seconds = time.perf_counter() - start
    found = {
        "tasks": [
            {m: [v, r] for m, v, r in zip(t.metrics, t.values, t.ranks)} for t in result.tasks
        ],
        "average": {m: [v, r] for m, v, r in result.average},
    }
    return seconds, found


def main() -> int:
    from tests.stats.wmt25_folder import PAIRS, TEST_SET, build_wmt25_shaped

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mtme-python", help="a python with mt_metrics_eval (omit: ours only)")
    parser.add_argument("--permutations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = build_wmt25_shaped(Path(folder))
        lps = sorted(PAIRS)
        runs = [ours(root, lps, args.permutations, args.seed) for _ in range(args.runs)]
        mine = statistics.median(seconds for seconds, _ in runs)
        print(f"WMT25 task set on {TEST_SET} {', '.join(lps)}: 4 tasks, 5 metrics, "
              f"{args.permutations} permutations per pair of metrics")  # fmt: skip
        print(f"  mteval (median of {args.runs}):   {mine:9.2f} s")
        if not args.mtme_python:
            return 0
        command = [args.mtme_python, "-c", THEIRS, str(root), TEST_SET, ",".join(lps)]
        command += [str(args.permutations), str(args.seed)]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        theirs = json.loads(
            subprocess.run(command, check=True, capture_output=True, env=env).stdout
        )
    print(f"  mt-metrics-eval (one run):  {theirs['seconds']:9.2f} s")
    print(f"  ratio mteval / mt-metrics-eval: {mine / theirs['seconds']:.3f}")
    equal = runs[0][1] == {"tasks": theirs["tasks"], "average": theirs["average"]}
    print(f"  every value, rank and average equal: {equal}")
    return 0 if equal else 1


if __name__ == "__main__":
    raise SystemExit(main())
