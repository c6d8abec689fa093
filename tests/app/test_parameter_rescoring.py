"""Changing one metric's parameter re-scores that metric alone: the dashboard keeps statistics
kind by kind, each under only the options that change it (``pages.ui.session_scores.scores_of``).
Counted by the metrics each scoring run is asked for, on Home as a person opens it again after
the Data page: the quick kinds in one run, each slow kind (TER here) in a run of its own, in the
background (``session_scores.SLOW_KINDS``)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import pages.ui.session_scores as session_scores
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

ROOT = Path(__file__).resolve().parents[2]
METRICS = ("bleu", "nist", "gtm", "chrf", "ter")


@pytest.fixture
def scoring_runs(monkeypatch):
    """The metrics of every scoring run the pages start, in order."""
    runs: list[tuple[str, ...]] = []
    score = session_scores.score_test_set

    def counted(test_set, metrics, *args, **kwargs):
        runs.append(tuple(metrics))
        return score(test_set, metrics, *args, **kwargs)

    monkeypatch.setattr(session_scores, "score_test_set", counted)
    return runs


def home(options: Options, words: str) -> AppTest:
    references = [[f"{words} one two three", f"{words} four five six seven"]]
    systems = {
        "a": [f"{words} one two", f"{words} four six seven"],
        "b": [f"{words} two three", f"{words} five seven"],
    }
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.session_state["test_set"] = make_test_set(references, systems)
    app.session_state["metrics"] = METRICS
    app.session_state["options"] = options
    run_home(app)
    return app


def run_home(app: AppTest) -> None:
    """Run Home, then wait for the slow kinds it has scored in the background."""
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    for thread in threading.enumerate():
        if thread.name == "mteval-score-ahead":
            thread.join(timeout=120)


def split_runs(rescored: set[str]) -> list[set[str]]:
    """The scoring runs Home starts for the kinds missing: the quick ones together, and each
    slow one alone."""
    slow = [{name} for name in METRICS if name in rescored and name in session_scores.SLOW_KINDS]
    quick = rescored - set().union(*slow)
    return ([quick] if quick else []) + slow


@pytest.mark.parametrize(
    ("change", "rescored"),
    [
        ({"gtm_exponent": 3.0}, {"gtm"}),
        ({"ter_case_sensitive": True}, {"ter"}),
        ({"bleu_bp": "shortest"}, {"bleu"}),
        ({"lowercase": True}, set(METRICS)),  # shared preprocessing: every metric
    ],
)
def test_one_parameter_rescores_its_metric_alone(scoring_runs, change, rescored):
    words = "-".join(f"{k}{v}" for k, v in change.items())  # a test set of this case's own
    app = home(Options(), words)
    assert {name for run in scoring_runs for name in run} == set(METRICS)
    scoring_runs.clear()
    app.session_state["options"] = Options().updated(**change)
    run_home(app)
    runs = sorted(sorted(run) for run in scoring_runs)  # the background's may come first
    assert runs == sorted(sorted(run) for run in split_runs(rescored))


def test_back_to_the_old_value_scores_nothing(scoring_runs):
    app = home(Options(), "return")
    app.session_state["options"] = Options().updated(gtm_exponent=3.0)
    run_home(app)
    scoring_runs.clear()
    app.session_state["options"] = Options()
    run_home(app)
    assert scoring_runs == []
