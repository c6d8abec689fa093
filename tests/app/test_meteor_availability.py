"""METEOR offered only where it can run (issue 42, point 1): without meteor-1.5.jar the Data page
offered METEOR anyway, and Home then showed no scores at all, only "Your input: METEOR's function
word weighting needs ..."; after the README's pip install the server had to be restarted; the
Bitext grid offered "METEOR alignment" without the data too, and its advice named a command-line
flag and another pip command. Now METEOR (and each module) is offered only where it can run, one
line says why not with the one install command, data installed meanwhile is found on the next
run, and no page names a command-line flag. With the data absent (simulated) and present (the
installed pycocoevalcap, where the test environment has it)."""

from __future__ import annotations

import ast
import sys
import zipfile
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.metrics.choices import builtin_metric_labels, meteor_modules_here
from mteval_core.metrics.meteor import availability
from mteval_core.metrics.meteor.resources import INSTALL, MeteorData, find_meteor_data
from pages.ui.markdown_escape import escape_markdown
from pages.ui.metric_choice import METRICS_WIDGET, RESTART_NOT_NEEDED
from pages.ui.session import METRICS_STATE
from tests.helpers import load_sample

ROOT = Path(__file__).resolve().parents[2]
LABELS = builtin_metric_labels()
WITH_METEOR = ("bleu", "chrf", "meteor")


def run(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def data_page() -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    app.switch_page("pages/0_Data.py")
    return run(app)


def shown(app: AppTest) -> list[str]:
    """Every caption, warning and error the page shows."""
    return [e.value for e in (*app.caption, *app.warning, *app.error)]


@pytest.fixture
def no_meteor_data(monkeypatch):
    """No jar anywhere (the quick start installs none); ``install()`` then installs one, as
    pip would while the server runs."""
    found = {"data": MeteorData()}
    monkeypatch.setattr(availability, "meteor_data", lambda path: found["data"])
    availability.function_words.cache_clear()

    class Installer:
        def install(self, tmp_path: Path) -> None:
            jar = tmp_path / "meteor-1.5.jar"
            with zipfile.ZipFile(jar, "w") as archive:
                archive.writestr("function/english.words", "the\nof\na\n")
            found["data"] = find_meteor_data(jar)

    yield Installer()
    availability.function_words.cache_clear()


def meteor_reason() -> str:
    (reason,) = set(meteor_modules_here("english", None).values())
    return f"METEOR cannot run here: {reason}"


def test_without_the_jar_meteor_is_not_offered_and_one_line_says_how_to_install_it(
    no_meteor_data,
):
    app = data_page()
    box = app.multiselect(key=METRICS_WIDGET)
    assert "METEOR" not in box.options and len(box.options) == len(LABELS) - 1
    reason = meteor_reason()
    assert INSTALL in reason and "--" not in reason.replace(INSTALL, "")
    line = escape_markdown(f"{reason} {RESTART_NOT_NEEDED}")
    assert shown(app).count(line) == 1  # once, not once per module
    labels = [w.label for w in (*app.selectbox, *app.multiselect)]
    assert "METEOR language" not in labels and "METEOR modules" not in labels


def test_a_metric_chosen_before_it_stopped_running_is_dropped_and_home_shows_the_rest(
    no_meteor_data,
):
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    app.session_state[METRICS_STATE] = WITH_METEOR
    app.session_state[METRICS_WIDGET] = list(WITH_METEOR)
    app.switch_page("pages/0_Data.py")
    run(app)
    assert app.multiselect(key=METRICS_WIDGET).value == ["bleu", "chrf"]
    assert app.session_state[METRICS_STATE] == ("bleu", "chrf")
    app.switch_page("app.py")
    run(app)
    assert not app.error, [e.value for e in app.error]
    table = app.dataframe[0].value
    assert list(table.columns) == ["BLEU", "chrF"] and len(table) == len(
        load_sample().test_set.systems
    )


def test_data_installed_while_the_server_runs_is_offered_at_the_next_run(no_meteor_data, tmp_path):
    app = data_page()
    assert "METEOR" not in app.multiselect(key=METRICS_WIDGET).options
    no_meteor_data.install(tmp_path)
    run(app)  # the next click
    assert "METEOR" in app.multiselect(key=METRICS_WIDGET).options
    assert not any("METEOR cannot run here" in text for text in shown(app))
    assert [m.label for m in app.multiselect if m.label == "METEOR modules"] == ["METEOR modules"]


def test_an_installed_pycocoevalcap_is_found_without_a_restart(tmp_path, monkeypatch):
    """The core looks again while none is found: a pycocoevalcap that appears on the import
    path after the first look (pip install into the running server's environment) is used."""
    monkeypatch.setattr(sys, "path", [str(tmp_path)])  # an environment without it, yet
    for name in [name for name in sys.modules if name.split(".")[0] == "pycocoevalcap"]:
        monkeypatch.delitem(sys.modules, name)  # imported by an earlier test in this worker
    monkeypatch.setattr(availability, "_FOUND", {})
    availability.function_words.cache_clear()
    try:
        assert availability.meteor_data(None).jar is None
        jar = tmp_path / "pycocoevalcap" / "meteor" / "meteor-1.5.jar"
        (jar.parent / "data").mkdir(parents=True)
        with zipfile.ZipFile(jar, "w") as archive:
            archive.writestr("function/english.words", "the\n")
        assert availability.meteor_data(None).jar == jar  # no restart
        assert availability.function_words(None) == {"the"}
    finally:
        availability.function_words.cache_clear()


def test_the_bitext_grid_offers_only_gtms_grid_without_the_jar(no_meteor_data):
    app = AppTest.from_file(str(ROOT / "pages" / "3_Bitext_grid.py"), default_timeout=120)
    run(app)
    assert [r.label for r in app.radio if r.label == "Grid"] == []
    assert escape_markdown(f"Only GTM's grid is drawn. {meteor_reason()}") in shown(app)
    assert len(app.get("plotly_chart")) == 1  # GTM's, drawn as ever
    assert not app.error


def test_with_the_installed_jar_meteor_and_its_alignment_are_offered():
    if availability.meteor_data(None).jar is None:
        pytest.skip("pycocoevalcap (meteor-1.5.jar) is not installed here")
    app = data_page()
    assert "METEOR" in app.multiselect(key=METRICS_WIDGET).options
    assert not any("METEOR cannot run here" in text for text in shown(app))
    grid = run(AppTest.from_file(str(ROOT / "pages" / "3_Bitext_grid.py"), default_timeout=120))
    (views,) = [r for r in grid.radio if r.label == "Grid"]
    assert views.options == ["GTM runs", "METEOR alignment", "both"]


FILES_OF_THE_METEOR_CHOICE = [
    ROOT / "pages" / "ui" / "metric_choice.py",
    ROOT / "pages" / "ui" / "meteor_alignment.py",
    ROOT / "pages" / "3_Bitext_grid.py",
]


@pytest.mark.parametrize("path", FILES_OF_THE_METEOR_CHOICE, ids=lambda p: p.name)
def test_the_pages_name_no_command_line_flag(path):
    """The dashboard's wording (labels, help, captions) names no --flag: its users have none."""
    flags = [
        f"{path.name}:{node.lineno}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any(word.startswith("--") and word[2:3].isalpha() for word in node.value.split())
    ]
    assert flags == []


def test_the_reasons_the_pages_show_name_no_flag(no_meteor_data, tmp_path):
    reasons = [meteor_reason()]
    no_meteor_data.install(tmp_path)  # a jar without synonyms, and no paraphrase table
    reasons += [r for r in meteor_modules_here("english", None).values() if r is not None]
    reasons += [r for r in meteor_modules_here("german", None).values() if r is not None]
    assert len(reasons) >= 3
    for reason in reasons:
        assert "--" not in reason.replace(INSTALL, ""), reason
