"""Measurement: what each dashboard page allocates per system and per pair of systems, the figures
behind MAX_UPLOAD_SYSTEMS (mteval_core/settings/limits.py).

Each (page, systems, segments) runs in a fresh process through Streamlit's AppTest (app.py, then
the page, as the page tests do) with the page's defaults and the seven default metrics, on a test
set made up here: one reference of distinct 15-word sentences from a 5,000-word vocabulary and
systems that each replace about a third of its words. Printed per run: the growth of the
process's peak resident memory over what it held before the page ran (the test set, the
libraries), and the page's wall time. "scores-ar" is the Scores page switched to approximate
randomization (as many trials as resamples), "report" the Home page's HTML report as its download
makes it, "correlation" a page with segment-level judgments of every system.

    .venv/bin/python bench/bench_systems.py --systems 20 50 100 200 --segments 10
    .venv/bin/python bench/bench_systems.py --pages scores-ar --systems 50 --segments 2000

Dividing the differences between two sizes by the systems (or pairs) they add gives the figures
in limits.py. Times are of one process on a shared machine: compare runs side by side.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the pages import pages.ui, as under `streamlit run app.py`
PAGES = {  # name -> the page's file; None: not a page of its own
    "home": "app.py",
    "scores": "pages/1_Scores.py",
    "scores-ar": "pages/1_Scores.py",
    "correlation": "pages/2_Correlation.py",
    "bitext": "pages/3_Bitext_grid.py",
    "compare": "pages/5_Compare.py",
    "report": None,
}
METRICS = ("bleu", "nist", "precision", "recall", "f1", "fmean", "gtm")


def made_up_test_set(n_systems: int, n_segments: int, human: bool):
    from mteval_core.model.testset import HumanScores, TestSet, TextColumn

    rng = np.random.default_rng(1)
    vocabulary = np.array([f"w{k:04d}" for k in range(5000)])
    picks = vocabulary[rng.integers(0, len(vocabulary), (n_segments, 14))].tolist()
    reference = [" ".join(words) + f" {k} ." for k, words in enumerate(picks)]
    systems = []
    for s in range(n_systems):
        lines = []
        for line in reference:
            words = line.split()
            for k in rng.integers(0, len(words), len(words) // 3):
                words[k] = f"v{rng.integers(0, 5000):04d}"
            lines.append(" ".join(words))
        systems.append(TextColumn(f"sys{s:04d}", tuple(lines), f"sys{s:04d}.txt"))
    test_set = TestSet([TextColumn("ref", tuple(reference), "ref.txt")], systems, name="made up")
    if not human:
        return test_set
    n = n_systems * n_segments
    rows = pd.DataFrame(
        {
            "system": np.repeat([column.name for column in systems], n_segments),
            "segment": np.tile(np.arange(1, n_segments + 1), n_systems),
            "score": rng.random(n),
            "rater": "",
            "criterion": "MQM",
            "origin": "made-up.tsv",
            "line": np.arange(n) + 2,
        }
    )
    return test_set.with_human(HumanScores(rows))


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_report(test_set) -> None:
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.report.evaluation_html import evaluation_html
    from mteval_core.report.evaluation_report import (
        REPORT_RESAMPLES,
        REPORT_TRIALS,
        evaluation_report,
    )
    from mteval_core.settings.options import Options
    from mteval_core.stats.approximate_randomization import RandomizationOptions
    from mteval_core.stats.bootstrap import BootstrapOptions

    scores = score_test_set(test_set, METRICS, Options())
    report = evaluation_report(
        test_set,
        scores,
        Options().preprocessing_signature(),
        RandomizationOptions(REPORT_TRIALS),
        None,
        BootstrapOptions(REPORT_RESAMPLES),
    )
    evaluation_html(report)


def measure(page: str, n_systems: int, n_segments: int) -> dict:
    """One page in this process: the peak memory it adds and its time."""
    from streamlit.testing.v1 import AppTest

    import pages.ui.session_scores  # noqa: F401  (the libraries every page loads, before the baseline)

    test_set = made_up_test_set(n_systems, n_segments, human=page == "correlation")
    app = None
    if PAGES[page] is not None:
        app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=3600)
        app.session_state["test_set"] = test_set
        if PAGES[page] != "app.py":
            app.switch_page(PAGES[page])
    before, start = peak_mb(), time.perf_counter()
    if app is None:
        run_report(test_set)
    else:
        app.run()
        if page == "scores-ar":
            start = time.perf_counter()  # the randomization only: the bootstrap ran above
            app.radio(key="scores_test").set_value("approximate randomization").run()
        failed = [e.message for e in app.exception] + [e.value for e in app.error]
        if failed:
            raise RuntimeError(f"{page} failed: {failed}")
    return {
        "page": page,
        "systems": n_systems,
        "pairs": n_systems * (n_systems - 1) // 2,
        "segments": n_segments,
        "growth_mb": round(peak_mb() - before),
        "seconds": round(time.perf_counter() - start, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", choices=list(PAGES), default=list(PAGES))
    parser.add_argument("--systems", nargs="+", type=int, default=[20, 50, 100])
    parser.add_argument("--segments", type=int, default=10)
    parser.add_argument("--one", nargs=3, metavar=("PAGE", "SYSTEMS", "SEGMENTS"), help="worker")
    arguments = parser.parse_args()
    if arguments.one:
        page, systems, segments = arguments.one
        print(json.dumps(measure(page, int(systems), int(segments))))
        return
    for page in arguments.pages:
        for n in arguments.systems:
            done = subprocess.run(
                [sys.executable, __file__, "--one", page, str(n), str(arguments.segments)],
                capture_output=True,
                text=True,
                check=True,
            )
            print(done.stdout.strip().splitlines()[-1], flush=True)


if __name__ == "__main__":
    main()
