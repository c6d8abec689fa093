"""The Spans page (AppTest): nothing to show without span files; with an MQM file of two
raters per translation, both raters of one translation drawn side by side, the filters, and
the first rater scored against the second as `mteval spans` scores them."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.spans.agreement import agreement, paired
from mteval_core.spans.mqm_marks import read_mqm_spans

ROOT = Path(__file__).resolve().parents[2]
HEADER = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\n"
ROWS = [
    ("A", "1", "r1", "The <b><v>cat</v></b> sat 😀 on the mat", "Accuracy/Mistranslation", "Major"),
    ("A", "1", "r1", "The <b>cat</b> sat 😀 <v>on the</v> mat", "Fluency/Grammar", "Minor"),
    ("A", "1", "r2", "The <b>cat</b> <v>sat 😀</v> on the mat", "Accuracy/Mistranslation", "Minor"),
    ("A", "2", "r1", "Good.", "", "No-error"),
    ("A", "2", "r2", "<v>Good</v>.", "Style/Awkward", "Minor"),
]
MQM = (
    HEADER
    + "".join(f"{s}\td\t{seg}\t{seg}\t{r}\tsrc\t{t}\t{c}\t{sev}\n" for s, seg, r, t, c, sev in ROWS)
).encode()


def opened(**state) -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in state.items():
        app.session_state[key] = value
    app.switch_page("pages/7_Spans.py")
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def drawn(app: AppTest) -> list[str]:
    return [h.proto.body for h in app.get("html") if "span-annotation" in h.proto.body]


def test_without_span_files_the_page_says_what_to_upload():
    app = opened()
    assert "Upload span files here" in app.info[0].value
    assert drawn(app) == []


def test_two_raters_of_one_translation_side_by_side_and_filtered():
    app = opened(mqm_upload=("two raters.tsv", MQM))
    first, second = drawn(app)
    assert "<bdi>r1</bdi>" in first and "<bdi>r2</bdi>" in second
    assert "&lt;b&gt;" in first and "<b>cat" not in first  # the target's markup is text
    assert re.findall(r'severity-(\w+)" data-errors', first) == ["major", "minor"]
    assert "2 of 2 errors shown" in first
    severities = next(w for w in app.multiselect if w.label == "Severities")
    severities.set_value(["minor"]).run()
    first, second = drawn(app)
    assert "1 of 2 errors shown" in first and "severity-major" not in first


def test_the_first_rater_against_the_second_as_the_command_computes():
    app = opened(mqm_upload=("two raters.tsv", MQM))
    read = read_mqm_spans(MQM, "two raters.tsv")
    pairs, _ = paired(read, read, "#1", "#2")
    expected = agreement(pairs, "#1", "#2").pooled.characters
    shown = " ".join(m.value for m in app.markdown)
    assert f"F1 {expected.f1:.4f}" in shown
    assert "(2 translations)" in shown
