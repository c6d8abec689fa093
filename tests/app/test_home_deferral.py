"""Home shows the quick metrics at once and has the slow ones (``session_scores.SLOW_KINDS``:
METEOR, TER) scored in the background, says so, and shows them once they are scored; the Scores
page and the report get every metric, equal to scoring them all in one run."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

ROOT = Path(__file__).resolve().parents[2]
METRICS = ("bleu", "chrf", "ter", "meteor")


def wait_for_background() -> None:
    for thread in threading.enumerate():
        if thread.name == "mteval-score-ahead":
            thread.join(timeout=120)


@pytest.fixture
def test_set():
    references = [["the deferred cat sat on the mat", "a dog ran in the deferred park today"]]
    systems = {
        "a": ["the deferred cat sat on a mat", "a dog runs in the deferred park"],
        "b": ["deferred cat on mat", "the dog ran in a park today"],
    }
    return make_test_set(references, systems)


def app_on(page: str, test_set) -> AppTest:
    app = AppTest.from_file(str(ROOT / page), default_timeout=120)
    app.session_state["test_set"] = test_set
    app.session_state["metrics"] = METRICS
    app.session_state["options"] = Options()
    return app


def glance_columns(app: AppTest) -> list[str]:
    return list(app.dataframe[0].value.columns)


def test_home_shows_the_quick_metrics_and_then_the_slow_ones(test_set):
    app = app_on("app.py", test_set)
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    assert "METEOR" not in glance_columns(app) and "TER" not in glance_columns(app)
    assert "BLEU" in glance_columns(app) and "chrF" in glance_columns(app)
    captions = [c.value for c in app.caption]
    assert any(c.startswith("TER, METEOR: scored in the background") for c in captions), captions
    wait_for_background()
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    assert {"BLEU", "chrF", "TER", "METEOR"} <= set(glance_columns(app))
    assert not any("scored in the background" in c.value for c in app.caption)


def test_the_scores_page_after_home_has_every_metric_as_one_run_scores_it(test_set):
    home = app_on("app.py", test_set)
    home.run()
    scores_page = app_on("pages/1_Scores.py", test_set)
    scores_page.run()  # while the background may still be scoring: it waits for it
    assert not scores_page.exception, [e.message for e in scores_page.exception]
    table = scores_page.dataframe[0].value
    expected = score_test_set(test_set, list(METRICS), Options()).corpus()
    for name, label in (("ter", "TER"), ("meteor", "METEOR"), ("bleu", "BLEU")):
        for system in ("a", "b"):
            assert table.loc[system, label] == expected[system][name]
