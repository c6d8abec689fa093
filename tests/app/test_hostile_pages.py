"""Every page with hostile names, texts and links, through AppTest: whatever reaches Streamlit's
Markdown (texts, alerts, captions, headers, labels, tabs, page links) is escaped, so a name is shown
as written and never becomes a link, an image or formatting; odd link parameters are named and
ignored, never a crash. tests/e2e/test_hostile.py checks the same in Chromium."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.io.uploads import test_set_from_uploads
from mteval_core.settings.limits import (
    MAX_RESAMPLES,
    MAX_UPLOAD_MB,
    MAX_UPLOAD_SEGMENTS,
    MAX_UPLOAD_TEXTS,
)
from pages.ui.markdown_escape import escape_markdown

ROOT = Path(__file__).resolve().parents[2]
IMAGE = "![x](http://127.0.0.1:9/x.png)"
SCRIPT_LINK = "[x](javascript:alert(1))"
TAG = "<img src=x onerror=alert(1)>"
BOLD = "**bold**"
SCRIPT = "<script>alert(1)</script>"
MATH = "$x^2$"
CODE = "`code`"
BIDI = "\u202egnp.x\u202c"  # a right-to-left override: "x.png" read backwards, then its end
# never unescaped in Markdown; a bidi control not even escaped (a backslash does not stop it)
RAW = [IMAGE, SCRIPT_LINK, TAG, BOLD, "](", "<img", "http://", "<script", MATH, CODE, "\u202e"]


def hostile_test_set(more: Sequence[str] = (), criterion: str = BOLD):
    """Systems, references, segment texts, human systems and criterion with hostile names;
    ``more`` names further systems (each with an output of its own and human scores)."""
    segments = [f"the cat {TAG} sat {k} {BOLD}" for k in range(1, 7)]
    systems = {
        IMAGE: [f"the cat {IMAGE} sat {k}" for k in range(1, 7)],
        SCRIPT_LINK: [f"a cat {SCRIPT_LINK} {k}" for k in range(1, 7)],
        BOLD: [f"the {TAG} cat sat {k}" for k in range(1, 7)],
        **{
            name: [f"the cat sat {name} {j} {k}" for k in range(1, 7)]
            for j, name in enumerate(more)
        },
    }
    long_format = "".join(
        json.dumps({"segment": k + 1, "system": name, "hypothesis": text, f"ref-{TAG}": ref}) + "\n"
        for name, texts in systems.items()
        for k, (text, ref) in enumerate(zip(texts, segments))
    ).encode()
    human = "system\tsegment_id\tscore\tcriterion\n" + "".join(
        f"{name}\t{k}\t{score + k % 2}\t{criterion}\n"
        for name, score in zip(systems, (3, 1, 2, *range(4, 4 + len(more))))
        for k in range(1, 7)
    )
    return test_set_from_uploads(
        [(f"{TAG}.jsonl", long_format)],
        [(f"{SCRIPT_LINK}.jsonl", long_format)],
        human=(f"{IMAGE}.tsv", human.encode()),
    )


def run(page: str, query: dict[str, str] | None = None, **state) -> AppTest:
    """The page with these link parameters and session values; the Correlation page is opened
    from the home page, as its link to the Bitext grid needs."""
    via_home = page == "pages/2_Correlation.py"
    app = AppTest.from_file(str(ROOT / ("app.py" if via_home else page)), default_timeout=120)
    app.query_params.update(query or {})
    for key, value in state.items():
        app.session_state[key] = value
    if via_home:
        app.switch_page(page)
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def markdown_texts(app: AppTest) -> list[str]:
    """Every text that Streamlit renders as Markdown on the page."""
    texts = [
        element.value
        for kind in ("markdown", "caption", "warning", "info", "error", "success", "subheader")
        for element in getattr(app, kind)
    ]
    texts += [tab.label for tab in app.tabs] + [expander.label for expander in app.expander]
    texts += [metric.label for metric in app.metric] + [metric.value for metric in app.metric]
    texts += [link.proto.label for link in app.get("page_link")]
    texts += [
        widget.label
        for kind in ("selectbox", "multiselect", "slider", "radio")
        for widget in getattr(app, kind)
    ]
    return texts


def assert_escaped(app: AppTest) -> str:
    """No hostile name in Markdown unless each of its special characters is escaped."""
    texts = markdown_texts(app)
    for text in texts:
        unescaped = re.sub(r"\\.", "\0", text)  # every backslash-escaped character blanked
        for raw in RAW:
            assert raw not in unescaped, (raw, text)
    return " ".join(texts)


@pytest.mark.parametrize(
    "page", ["app.py", "pages/0_Data.py", "pages/1_Scores.py", "pages/2_Correlation.py"]
)
def test_hostile_names_are_escaped_on_every_page(page):
    app = run(page, test_set=hostile_test_set())
    shown = assert_escaped(app)
    if page in ("app.py", "pages/0_Data.py"):
        assert escape_markdown(f"ref-{TAG}") in shown  # the names are there, escaped
        assert escape_markdown(IMAGE) in shown and escape_markdown(BOLD) in shown


def test_hostile_names_on_the_correlation_page_reach_the_segments_and_the_link():
    app = run("pages/2_Correlation.py", test_set=hostile_test_set())
    next(s for s in app.selectbox if s.label == "Segments of").set_value(SCRIPT_LINK).run()
    shown = assert_escaped(app)
    assert f"Open {escape_markdown(SCRIPT_LINK)}'s segments" in shown
    link = app.get("page_link")[0].proto
    assert "system=" in link.query_string and "javascript" in link.query_string  # URL-encoded


def test_hostile_names_on_the_bitext_grid_page():
    test_set = hostile_test_set()
    app = run("pages/3_Bitext_grid.py", {"system": BOLD}, test_set=test_set)
    app.selectbox(key="bitext_compare").set_value(IMAGE).run()
    assert not app.exception
    shown = assert_escaped(app)
    assert escape_markdown(IMAGE) in shown  # the subheader of the compared system
    for chart in app.get("plotly_chart"):
        spec = chart.proto.spec
        assert "<img" not in spec and "<a " not in spec


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ({"system": "[Session expired: log in again](https://example.org)"}, "Session expired"),
        ({"system": f"{IMAGE} {TAG}"}, "127.0.0.1"),
        ({"segment": "²"}, "²"),  # str.isdigit() says yes, int() says no
        ({"segment": "9" * 5000}, "9999"),  # int() refuses over 4,300 digits
        ({"segment": "-3"}, "-3"),
        ({"segment": SCRIPT_LINK}, "javascript"),
    ],
)
def test_bitext_grid_link_parameters_are_named_as_written_and_ignored(query, named):
    app = run("pages/3_Bitext_grid.py", query)
    warnings = [warning.value for warning in app.warning]
    assert len(warnings) == 1 and named in warnings[0]
    assert_escaped(app)
    assert app.selectbox(key="bitext_system").value == "neural-large"
    assert app.number_input(key="bitext_segment").value == 1


def test_loss_page_link_parameters_that_are_not_numbers_fall_back_to_the_defaults():
    query = {
        "c1": "nan",
        "c2": "inf",
        "c3": SCRIPT_LINK,
        "w_major": "-1",
        "w_minor": "1e999",
        "w_neutral": "<img src=x>",
    }
    mqm = read_mqm(
        b"system\tseg_id\trater\tcategory\tseverity\nA\t1\tr\tStyle/Awkward\tMinor\n"
        b"B\t1\tr\tAccuracy/Omission\tMajor\n",
        "mqm.tsv",
    )
    app = run("pages/4_Loss.py", query, mqm=mqm)
    sliders = {slider.label: slider.value for slider in app.slider}
    costs = [value for label, value in sliders.items() if label.startswith(("c1", "c2", "c3"))]
    assert costs == [5.0, 2.0, 1.0]  # not finite numbers: the paper's (5, 2, 1)
    weights = sliders
    assert weights["Major (other than non-translation)"] == 0.0  # clipped at 0
    assert weights["Minor (other than punctuation)"] == 1.0  # 1e999 is inf: Google's weight
    assert weights["Neutral"] == 0.0  # not a number: Google's weight


def hostile_loss_table() -> bytes:
    rows = "system,category,correct,non_response,incorrect,rt_total,marked_total,cases\n"
    for system, correct in ((IMAGE, 8), (SCRIPT_LINK, 5), (TAG, 3)):
        for category, shift in ((BOLD, 0), ("[c](https://example.org)", 2)):
            rows += f'"{system}","{category}",{correct - shift},{1 + shift},1,10,4,10\n'
    return rows.encode()


def test_loss_page_with_hostile_systems_and_categories():
    app = run("pages/4_Loss.py")
    app.selectbox[0].set_value("Your own loss table (upload)").run()
    app.file_uploader[0].set_value((f"{TAG}.csv", hostile_loss_table(), "text/csv")).run()
    assert not app.exception, [e.message for e in app.exception]
    assert not app.error, [e.value for e in app.error]
    shown = assert_escaped(app)
    rankings = [m.value for m in app.markdown if m.value.startswith("**Ranking:** ")]
    assert rankings and all(escape_markdown(IMAGE) in ranking for ranking in rankings)
    assert escape_markdown(SCRIPT_LINK) in shown and escape_markdown(TAG) in shown
    assert escape_markdown(BOLD) in [tab.label for tab in app.tabs]
    for chart in app.get("plotly_chart"):
        assert "<img" not in chart.proto.spec


def test_an_input_error_naming_a_hostile_file_is_escaped():
    app = run("pages/4_Loss.py")
    app.selectbox[0].set_value("Your own loss table (upload)").run()
    bad = b"system,correct,non_response,incorrect,rt_total,marked_total,cases\nA,5,2,x,10,8,2\n"
    app.file_uploader[0].set_value((f"{IMAGE}.csv", bad, "text/csv")).run()
    (error,) = app.error
    assert error.value.startswith(escape_markdown(f"{IMAGE}.csv") + ", line 2")
    assert_escaped(app)


def test_an_unexpected_error_shows_its_type_and_a_reference_and_logs_the_traceback(caplog):
    def page() -> None:
        from pages.ui.friendly_errors import friendly_errors

        with friendly_errors():
            raise RuntimeError("/srv/secret/path.py went wrong")

    app = AppTest.from_function(page, default_timeout=30)
    with caplog.at_level(logging.ERROR, logger="mteval.dashboard"):
        app.run()
    assert not app.exception
    assert app.error[0].value.startswith("Something went wrong while computing this view.")
    (details,) = app.expander
    assert details.label == "Details"
    (text,) = [m.value for m in details.markdown]
    assert text.startswith("RuntimeError, error reference `")
    reference = text.split("`")[1]
    assert len(reference) == 8 and "secret" not in text and not app.code
    (record,) = [r for r in caplog.records if r.name == "mteval.dashboard"]
    assert reference in record.getMessage() and record.exc_info[0] is RuntimeError
    assert "/srv/secret/path.py" in caplog.text  # the traceback is in the server's log


def test_the_data_page_states_the_upload_limits():
    app = run("pages/0_Data.py")
    text = " ".join(c.value for c in app.caption)
    assert f"{MAX_UPLOAD_MB} MB" in text
    assert f"{MAX_UPLOAD_SEGMENTS:,} segments" in text
    assert f"{MAX_UPLOAD_TEXTS:,} segment texts" in text


@pytest.mark.parametrize("page", ["pages/1_Scores.py", "pages/2_Correlation.py"])
def test_resample_choices_stay_within_the_limit_and_say_it(page):
    app = run(page)
    (resamples,) = [s for s in app.select_slider if s.label == "Bootstrap resamples"]
    assert all(int(n) <= MAX_RESAMPLES for n in resamples.options)
    assert f"{MAX_RESAMPLES:,}" in resamples.help
