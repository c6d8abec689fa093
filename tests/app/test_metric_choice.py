"""The Data page's Metrics expander (issue 23 point 4, issue 24 point 6): the metrics chosen
there reach every page, with the numbers the core gives for them; TER reads lower-is-better
wherever systems are ordered; a METEOR module whose data is missing is named as unavailable.
That the list is part of every cache key: tests/app/test_ui.py."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.metrics import REGISTRY
from mteval_core.metrics.choices import builtin_metric_labels, meteor_modules_here
from mteval_core.metrics.meteor import availability
from mteval_core.metrics.meteor.resources import MeteorData, find_meteor_data
from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.writers import metric_labels
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.meta import evaluate
from mteval_core.stats.significance import bootstrap_scores
from pages.ui.markdown_escape import escape_markdown
from pages.ui.metric_choice import METRICS_WIDGET, RESTART_NOT_NEEDED
from pages.ui.session import DASHBOARD_METRICS
from tests.app.test_metric_labels_shown import shown_texts
from tests.helpers import load_sample

ROOT = Path(__file__).resolve().parents[2]
CHOSEN = ["chrf", "ter", "meteor"]
# the sample's target is English, the default METEOR language ("en"); its modules as chosen
OPTIONS = Options.from_flags(meteor_modules=("exact", "stem"))


def assert_fine(app: AppTest) -> None:
    assert not app.exception, [e.message for e in app.exception]
    assert not app.error, [e.value for e in app.error]


def data_page() -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    app.switch_page("pages/0_Data.py").run()
    assert_fine(app)
    return app


def modules_box(app: AppTest):
    return next(m for m in app.multiselect if m.label == "METEOR modules")


def test_the_data_page_offers_every_metric_by_label_and_starts_with_the_seven():
    app = data_page()
    box = app.multiselect(key=METRICS_WIDGET)
    labels = builtin_metric_labels()
    assert set(box.options) == set(labels.values()) and len(labels) == len(REGISTRY)
    assert box.value == list(DASHBOARD_METRICS)  # nothing changes for existing users
    assert next(s for s in app.selectbox if s.label == "METEOR language").value == "english"


def test_chosen_metrics_reach_scores_and_correlation_with_the_cores_numbers():
    app = data_page()
    app.multiselect(key=METRICS_WIDGET).set_value(CHOSEN).run()
    modules_box(app).set_value(["exact", "stem"]).run()
    assert_fine(app)
    assert app.session_state["options"] == OPTIONS
    assert "Every page computes chrF, TER, METEOR." in [c.value for c in app.caption]

    sample = load_sample().test_set
    scores = score_test_set(sample, CHOSEN, OPTIONS)
    labels = metric_labels(scores.metrics)
    corpus = scores.corpus()
    ci = bootstrap_scores(scores, BootstrapOptions()).ci  # the page's 1,000 resamples

    app.switch_page("pages/1_Scores.py").run()
    assert_fine(app)
    (columns,) = [m for m in app.multiselect]
    columns.set_value(list(columns.options)).run()  # the intervals too
    table = app.dataframe[0].value
    for name, label in labels.items():
        assert table[label].to_dict() == {s: corpus[s][name] for s in scores.systems}
        assert table[f"{label} low"].to_dict() == {s: ci[s][name][0] for s in scores.systems}
        assert table[f"{label} high"].to_dict() == {s: ci[s][name][1] for s in scores.systems}
    texts = shown_texts(app)
    next(s for s in app.selectbox if s.label == "Metric for the charts").set_value("ter").run()
    assert_fine(app)
    bars, heat_map = (json.loads(chart.proto.spec) for chart in app.get("plotly_chart"))
    best_first = sorted(scores.systems, key=lambda s: corpus[s]["ter"])  # lower is better
    assert bars["data"][0]["y"] == best_first
    assert heat_map["data"][0]["y"] == best_first
    texts += shown_texts(app)

    app.switch_page("pages/2_Correlation.py").run()
    assert_fine(app)
    pearson = app.dataframe[0].value["Pearson (unstemmed)"]
    expected = evaluate(sample, scores, "adequacy+fluency").correlations
    assert pearson.to_dict() == {labels[m]: round(r.pearson, 3) for m, r in expected.items()}
    assert expected["ter"].pearson > 0  # TER turned round: agreeing with people is positive
    texts += shown_texts(app)
    next(s for s in app.selectbox if s.label == "Metric").set_value("ter").run()
    assert_fine(app)
    assert any("TER is lower-is-better" in c.value for c in app.caption)
    texts += shown_texts(app)
    raw_name = re.compile(rf"(?<![\w-])({'|'.join(map(re.escape, CHOSEN))})(?![\w-])")
    assert [t for t in texts if raw_name.search(t)] == []  # labels only, as for the seven


@pytest.fixture
def jar_without_synonyms_and_paraphrases(tmp_path, monkeypatch):
    """METEOR's data as a jar holding its function words only: no synonyms, no paraphrase
    table beside it (as a METEOR folder without them)."""
    jar = tmp_path / "meteor-1.5.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("function/english.words", "the\nof\n")
    monkeypatch.setattr(availability, "meteor_data", lambda path: find_meteor_data(jar))
    availability.function_words.cache_clear()
    yield
    availability.function_words.cache_clear()


@pytest.mark.usefixtures("jar_without_synonyms_and_paraphrases")
def test_a_module_without_its_data_is_shown_unavailable_with_the_cores_reason():
    here = meteor_modules_here("english", None)
    assert here["exact"] is None and here["stem"] is None
    assert "synonym/english.synsets" in here["synonym"]
    assert "paraphrase-en.gz" in here["paraphrase"]
    app = data_page()
    assert modules_box(app).options == ["exact", "stem"]
    assert modules_box(app).value == ["exact", "stem"]  # English's defaults that can run
    captions = [c.value for c in app.caption]
    for module in ("synonym", "paraphrase"):
        assert escape_markdown(f"{module}: unavailable here ({here[module]})") in captions


def test_without_any_meteor_data_one_line_says_why(monkeypatch):
    """No jar at all (the quick start installs none): METEOR is not offered, one caption gives
    the reason and the install command, no per-module repetition and no warning to choose a
    module that cannot run (tests/app/test_meteor_availability.py: the rest of it)."""
    monkeypatch.setattr(availability, "meteor_data", lambda path: MeteorData())  # none found
    availability.function_words.cache_clear()
    try:
        here = meteor_modules_here("english", None)
        assert all(why is not None for why in here.values())
        (reason,) = set(here.values())
        assert "of meteor-1.5.jar, and none was found" in reason and "not in no" not in reason
        app = data_page()
        assert "METEOR" not in app.multiselect(key=METRICS_WIDGET).options
        captions = [c.value for c in app.caption]
        assert escape_markdown(f"METEOR cannot run here: {reason} {RESTART_NOT_NEEDED}") in captions
        assert not any("unavailable here" in c for c in captions)
        assert not any("Choose at least one METEOR module" in w.value for w in app.warning)
    finally:
        availability.function_words.cache_clear()
