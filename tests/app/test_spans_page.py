"""The Spans page (AppTest): nothing to show without span files; with an MQM file of two
raters per translation, both raters of one translation drawn side by side, the filters, and
the first rater scored against the second as `mteval spans` scores them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.spans.agreement import agreement, paired
from mteval_core.spans.mqm_marks import read_mqm_spans
from tests.app.test_data_page_neural_outputs import COMET_JSON, add_metric
from tests.helpers import shared_dataset

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


def test_googles_release_uploaded_on_the_page_as_shipped():
    """The .tar.gz of one TSV as Google ships it, in the page's uploader: its three raters of
    the most annotated translation drawn, the first against the second scored."""
    release = next(shared_dataset("wmt23-zhen-mqm").glob("*.tar.gz"))
    app = opened()
    (uploader,) = app.file_uploader
    uploader.set_value([(release.name, release.read_bytes(), "application/gzip")]).run()
    assert not app.exception, [e.message for e in app.exception]
    assert len(drawn(app)) == 3
    shown = " ".join(m.value for m in app.markdown)
    assert "(3,770 translations)" in shown and "F1 0.2457" in shown


ESA = (
    'a1,sysA,7,TGT,eng,ces,90,doc1,False,"[{""start_i"":0,""end_i"":3,""severity"":""minor""}]"'
    ",1.0,1\n"
    'a2,sysA,7,TGT,eng,ces,40,doc1,False,"[{""start_i"":2,""end_i"":5,""severity"":""major""}]"'
    ",1.0,2\n"
)


def test_an_esa_export_without_targets_lists_its_offsets_and_scores():
    app = opened()
    app.file_uploader[0].set_value([("wave.csv", ESA.encode(), "text/csv")]).run()
    first, second = drawn(app)
    assert "score 90" in first and "[0, 3) minor" in first and "no target text" in first
    assert "score 40" in second and "[2, 5) major" in second
    shown = " ".join(m.value for m in app.markdown)
    assert "Critical-error F1" not in shown  # one translation is too few to rank
    assert "Error-free detection" in shown


def test_a_bad_span_file_is_one_message_naming_it():
    app = opened()
    app.file_uploader[0].set_value([("notes.txt", b"hello\n", "text/plain")]).run()
    assert not app.exception
    assert app.error[0].value.startswith("notes.txt, line 1: this file holds no error spans")


def test_the_data_pages_mqm_counts_alone_point_to_the_upload_here():
    app = opened(mqm=read_mqm(MQM, "two raters.tsv"))
    assert any("upload it here as well to see its spans" in c.value for c in app.caption)


def test_gold_and_predicted_files_of_wmt25_task2_side_by_side_and_scored():
    task2 = ROOT / "tests" / "spans" / "fixtures" / "wmt25_task2"
    files = [
        ("task2_refs.tsv", (task2 / "ref" / "task2_refs.tsv").read_bytes(), "text/plain"),
        ("predictions.tsv", (task2 / "res" / "predictions.tsv").read_bytes(), "text/plain"),
    ]
    app = opened()
    app.file_uploader[0].set_value(files).run()
    assert not app.exception, [e.message for e in app.exception]
    gold, predicted = drawn(app)
    assert "<bdi>task2_refs</bdi>" in gold and "<bdi>predictions</bdi>" in predicted
    shown = " ".join(m.value for m in app.markdown)
    assert "precision 0.1269, recall 0.1013, F1 0.1115" in shown  # avg_rec, avg_prec printed


def test_xcomet_errors_given_on_the_data_page_are_listed_here():
    """A comet-score JSON given on the Data page as a metric's scores: its xCOMET errors are
    one annotation per translation on this page, drawn on the test set's own text."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.switch_page("pages/0_Data.py").run()
    add_metric(app, [("comet.json", COMET_JSON.read_bytes())], "xcomet", "")
    app.switch_page("pages/7_Spans.py").run()
    assert not app.exception, [e.message for e in app.exception]
    (shown,) = drawn(app)
    assert "<bdi>xcomet</bdi>" in shown and "span-error severity-" in shown


def test_wmt25_humeval_waves_of_one_translation_side_by_side():
    def wave(score, annotator, start, end):
        errors = [{"start_i": start, "end_i": end, "severity": "minor"}]
        return {"score": score, "errors": errors, "annotator": annotator}

    line = {
        "doc_id": "en-cs_#_news_#_d1_#_0",
        "scores": {"<b>S</b>": [wave(70, "a1", 0, 4), wave(60, "a2", 2, 6)]},
    }
    app = opened()
    upload = [("humeval.jsonl", json.dumps(line).encode(), "application/jsonl")]
    app.file_uploader[0].set_value(upload).run()
    assert not app.exception and not app.error
    first, second = drawn(app)
    assert "wave 1" in first and "[0, 4) minor" in first and "score 70" in first
    assert "wave 2" in second and "[2, 6) minor" in second
    assert "<b>S</b>" not in "".join(drawn(app))  # the system's name is text


def test_gemba_mqm_errors_given_on_the_data_page_are_drawn_on_their_translations():
    """GEMBA-MQM's error lists given on the Data page as a metric's scores (phrase-based's from
    GEMBA's own parser, the other systems' each marking its first word): the errors it placed
    are drawn on the systems' own translations, with GEMBA's severities."""
    gemba = ROOT / "tests/io/fixtures/neural_outputs/phrase-based.gemba-mqm.txt"
    files = [(gemba.name, gemba.read_bytes())]
    for name in ("neural-large", "neural-small", "word-by-word"):
        lines = (ROOT / f"sample_data/sys/{name}.en").read_text(encoding="utf-8").splitlines()
        listed = [
            f"defaultdict(<class 'list'>, {{'minor': ['style/awkward - \"{line.split()[0]}\"']}})"
            for line in lines
        ]
        files.append((f"{name}.gemba-mqm.txt", "\n".join(listed).encode()))
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.switch_page("pages/0_Data.py").run()
    add_metric(app, files, "gemba", "")
    app.switch_page("pages/7_Spans.py").run()
    assert not app.exception, [e.message for e in app.exception]
    (shown,) = drawn(app)
    assert "<bdi>gemba</bdi>" in shown and "severity-minor" in shown
