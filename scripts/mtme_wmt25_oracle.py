"""Pin mt-metrics-eval's Pairwise Difference Pearson and its WMT25 task set for the tests.

mt-metrics-eval (google-research/mt-metrics-eval @ 68a481a) is not on PyPI. Check it out, install
it in a scratch venv (``pip install numpy scipy absl-py dacite`` and ``pip install --no-deps -e
CHECKOUT``; apache_beam, which only its parallel runs use, is replaced by an empty module) and give
that venv's python:

    .venv/bin/python scripts/mtme_wmt25_oracle.py --mtme-python /tmp/mtme/venv/bin/python

It writes tests/stats/fixtures/mtme_wmt25.json:

- ``pdp_unit``: ``Correlation.Pearson(average_by, pdp=True)`` and ``AverageCorrelation(pearsonr,
  pdp=True)`` on the inputs of its stats_test.py (testPearsonPdp, testPdpWithAveragingAndNones),
  full precision where the tests check 3 places;
- ``pdp_folder`` and ``task_set``: on the folder of tests/stats/wmt25_folder.py (wmt21.tedtalks
  en-de and zh-en, MQM, five sentence-level metrics), PDP of every metric (system level, and
  segment level by item, system and none), and tasks.WMT25() run there: its task definitions as
  they are, the test set and language pairs substituted (WMT25's own data is not public here),
  every metric of the standard reference (WMT25()'s primary=True, with the folder's metrics
  named primary in its meta-info: they are no WMT submissions), systems in sorted order where
  it iterates a set, ``k`` permutations after ``np.random.seed(seed)`` (mt-metrics-eval draws from
  numpy's global generator; seeded, it is reproducible), then ``AverageCorrMatrix`` with WMT25()'s
  weights and ``Table``, as its notebooks print the official results.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIXTURE = ROOT / "tests/stats/fixtures/mtme_wmt25.json"
COMMIT = "68a481aea1a787392d55af8f76ac8ef40c5f4664"

ORACLE = r"""
import dataclasses, json, os, sys, types
sys.modules["apache_beam"] = types.ModuleType("apache_beam")  # only its parallel runs use it
import numpy as np
import scipy.stats
from mt_metrics_eval import data, meta_info, stats, tasks


class SortedSet(set):
    # Its one source of run-to-run change: data.py iterates sets of system names, whose order
    # follows PYTHONHASHSEED; SPA depends on the order through ties. Systems in sorted order.
    def __iter__(self):
        return iter(sorted(set.__iter__(self)))


data.set = SortedSet

root, test_set, lps = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
k, seed = int(sys.argv[4]), int(sys.argv[5])
out = {"pdp_unit": {}, "pdp_folder": {}, "task_set": {}}

corr = stats.Correlation(2, [1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 3, 7])
out["pdp_unit"]["testPearsonPdp"] = {
    by: corr.Pearson(average_by=by, pdp=True)[0] for by in ("item", "none", "sys")}
gold, metric = [1, 5, None, 10, 2, 12], [3, 15, 1, 20, 4, 24]
out["pdp_unit"]["testPdpWithAveragingAndNones"] = {
    by: stats.AverageCorrelation(scipy.stats.pearsonr, num_sys=2, average_by=by, pdp=True)(
        gold, metric)[0] for by in ("item", "none", "sys")}

def eval_set(lp):
    # the folder's metrics are its primary ones (display names without '*')
    names = os.listdir(os.path.join(root, test_set, "metric-scores", lp))
    info = dataclasses.replace(
        meta_info.DATA[test_set][lp], primary_metrics={n.rsplit("-", 1)[0] for n in names})
    return data.EvalSet(test_set, lp, True, info=info, path=root)


evs = {(test_set, lp): eval_set(lp) for lp in lps}
out["systems"] = {lp: list(data.set(evs[(test_set, lp)].sys_names)) for lp in lps}
for lp in lps:
    e = evs[(test_set, lp)]
    refs = {e.std_ref}
    pdp = {}
    for level, bys in (("sys", ("none",)), ("seg", ("item", "sys", "none"))):
        corrs = data.GetCorrelations(e, level, refs, set(), False, False, "mqm", False)
        for name, c in corrs.items():
            for by in bys:
                pdp.setdefault(name, {})[f"{level}_{by}"] = c.Pearson(average_by=by, pdp=True)[0]
                pdp[name][f"{level}_{by}_pearson"] = c.Pearson(average_by=by)[0]
    out["pdp_folder"][lp] = pdp

Original = tasks.Task
class Substituted(Original):
    def __init__(self, _name, *args, **kwargs):
        super().__init__(test_set, *args, **kwargs)
tasks.Task = Substituted  # only while WMT25() builds its tasks
task_set, weights = tasks.WMT25(lps=lps, k=k)
tasks.Task = Original
np.random.seed(seed)
results = task_set.Run(evs)
avg, matrix = results.AverageCorrMatrix(weights)
out["task_set"] = {
    "weights": weights,
    "tasks": [{"name": r.name, "corr_ranks": r.corr_ranks, "p_values": r.matrix.tolist(),
               "draws": [[len(r.Draws(a, b)) for b in r.metrics] for a in r.metrics]}
              for r in results],
    "average": avg, "average_p_values": matrix.tolist(),
    "table": results.Table(initial_column=avg, initial_column_header="avg-corr",
                           attr_list=["lang", "level", "corr_fcn"],
                           nicknames={"KendallWithTiesOpt": "acc-t"}),
    "task_strings": [r.Str() for r in results],
}
json.dump(out, sys.stdout)
"""


def main() -> None:
    from tests.stats.wmt25_folder import PAIRS, TEST_SET, build_wmt25_shaped

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mtme-python", required=True, help="a python with mt_metrics_eval")
    parser.add_argument("--permutations", type=int, default=200, help="WMT25(k=...)")
    parser.add_argument("--seed", type=int, default=1, help="np.random.seed before the run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = build_wmt25_shaped(Path(folder))
        command = [args.mtme_python, "-c", ORACLE, str(root), TEST_SET, ",".join(PAIRS)]
        command += [str(args.permutations), str(args.seed)]
        env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
        run = subprocess.run(command, check=True, capture_output=True, env=env)
        found = json.loads(run.stdout)
    found["provenance"] = {
        "mt-metrics-eval": f"google-research/mt-metrics-eval @ {COMMIT}",
        "folder": "tests/stats/wmt25_folder.py (wmt21.tedtalks en-de, zh-en; shared data)",
        "command": f"scripts/mtme_wmt25_oracle.py --permutations {args.permutations} "
        f"--seed {args.seed}",
        "permutations": args.permutations,
        "seed": args.seed,
    }
    FIXTURE.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
