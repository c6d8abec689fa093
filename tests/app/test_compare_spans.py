"""Compare and the Bitext grid with error spans (AppTest): the listed translations drawn with
every annotation of the session (an MQM file's two raters, xCOMET's errors in a comet-score
JSON given on the Data page), each annotation's text escaped, the filters, the note of how
many listed sentences have spans; and comet-compare's shares on the page equal to `mteval
score --comet-compare`'s."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.cli import main
from tests.app.test_data_page_neural_outputs import COMET_JSON, add_metric
from tests.helpers import load_sample

ROOT = Path(__file__).resolve().parents[2]
PAIR = ("neural-large", "neural-small")
HOSTILE_RATER = "<script>alert(1)</script>**r2**"
HOSTILE_CATEGORY = "<img src=x onerror=alert(1)>"
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def mqm_file() -> bytes:
    """Two raters of every line of the pair, as Google's 2020-2021 layout writes them: r1 marks
    the first word (Minor), the hostile rater the last (Major, a hostile category)."""
    sample = load_sample().test_set
    rows = []
    for system in PAIR:
        for line, text in enumerate(sample.system(system), start=1):
            first, *rest = text.split(" ")
            marked_first = " ".join([f"<v>{first}</v>", *rest])
            *head, last = text.split(" ")
            marked_last = " ".join([*head, f"<v>{last}</v>"])
            where = f"{system}\tbikes\t{line}\t{line}"
            rows.append(f"{where}\tr1\tsrc\t{marked_first}\tFluency/Grammar\tMinor\n")
            rows.append(
                f"{where}\t{HOSTILE_RATER}\tsrc\t{marked_last}\t{HOSTILE_CATEGORY}\tMajor\n"
            )
    return (HEADER + "".join(rows)).encode()


def opened(page: str, app: AppTest | None = None, **state) -> AppTest:
    app = app or AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    app.session_state["compare_a"], app.session_state["compare_b"] = PAIR
    for key, value in state.items():
        app.session_state[key] = value
    app.switch_page(page)
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def sentences(app: AppTest) -> str:
    return "".join(h.proto.body for h in app.get("html") if "sentence-spans" in h.proto.body)


def draw_spans(app: AppTest) -> None:
    next(r for r in app.radio if r.label == "Draw the outputs with").set_value("error spans").run()
    assert not app.exception, [e.message for e in app.exception]


def test_compare_draws_both_raters_of_each_listed_translation_escaped():
    app = opened("pages/5_Compare.py", mqm_upload=("mqm.tsv", mqm_file()))
    assert sentences(app) == ""  # the words matched, until spans are chosen
    draw_spans(app)
    drawn = sentences(app)
    shown = len(re.findall(r'class="sentence sentence-spans"', drawn))
    captions = " ".join(c.value for c in app.caption)
    listed = int(re.search(r"Sentences 1 to \d+ of (\d+)", captions).group(1))
    assert shown == min(listed, 10) > 0  # a page of the listed sentences
    assert drawn.count("<bdi>mqm.tsv: r1</bdi>") == 2 * shown  # both systems, every line
    assert drawn.count("&lt;script&gt;alert(1)&lt;/script&gt;**r2**") == 2 * shown
    assert "<script>" not in drawn and "<img" not in drawn
    assert f'title="major: {HOSTILE_CATEGORY.replace("<", "&lt;").replace(">", "&gt;")}"' in drawn
    assert drawn.count('severity-minor" data-errors') == 2 * shown
    assert f"{listed:,} of the {listed:,} listed sentences have span annotations" in captions
    severities = next(w for w in app.multiselect if w.label == "Severities")
    severities.set_value(["minor"]).run()
    drawn = sentences(app)
    assert "severity-major" not in drawn
    assert drawn.count("1 of 1 errors shown") == drawn.count("0 of 1 errors shown") == 2 * shown
    labels = next(w for w in app.multiselect if w.label == "Annotations")
    labels.set_value(["mqm.tsv: r1"]).run()
    assert "alert(1)" not in sentences(app)


def test_bitext_grid_draws_the_hypothesis_with_its_spans():
    app = opened(
        "pages/3_Bitext_grid.py", mqm_upload=("mqm.tsv", mqm_file()), bitext_system=PAIR[0]
    )
    drawn = [h.proto.body for h in app.get("html") if "span-annotation" in h.proto.body]
    assert len(drawn) == 2
    first_line = load_sample().test_set.system(PAIR[0])[0]
    first_word = first_line.split(" ")[0]
    assert 'title="minor: Fluency/Grammar" style' in drawn[0]
    assert f">{first_word}</span>" in drawn[0]
    assert "<script>" not in "".join(drawn)
    captions = " ".join(c.value for c in app.caption)
    assert "neural-large · mqm.tsv\\: r1" in captions  # as text, Markdown escaped


def test_bitext_grid_without_spans_draws_none():
    app = opened("pages/3_Bitext_grid.py")
    assert not [h for h in app.get("html") if "span-annotation" in h.proto.body]


SCORES_ONLY_MQM = b"system\tseg_id\trater\tcategory\tseverity\nneural-large\t1\tr1\tStyle\tMinor\n"


def test_a_data_page_mqm_file_without_targets_leaves_the_pages_working():
    """An MQM file given for its scores, without the target column whose <v> marks are the
    spans (the e2e hostile set's): Bitext grid and Compare work, and draw no spans of it."""
    for page in ("pages/3_Bitext_grid.py", "pages/5_Compare.py"):
        app = opened(page, mqm_upload=("scores.tsv", SCORES_ONLY_MQM))
        assert not [h for h in app.get("html") if "span-annotation" in h.proto.body]


def test_a_span_file_the_spans_page_refused_is_a_note_on_compare():
    app = opened("pages/5_Compare.py", span_files={"notes.txt": b"hello\n"})
    captions = " ".join(c.value for c in app.caption)
    assert "not drawn" in captions and "notes.txt" in captions


def test_xcomet_errors_of_a_data_page_upload_on_compare_and_comet_compare_as_the_command(capsys):
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    app.switch_page("pages/0_Data.py").run()
    add_metric(app, [("comet.json", COMET_JSON.read_bytes())], "xcomet", "")
    app = opened("pages/5_Compare.py", app)
    draw_spans(app)
    drawn = sentences(app)
    comet = json.loads(COMET_JSON.read_text(encoding="utf-8"))
    entries = comet[f"sample_data/sys/{PAIR[0]}.en"]
    assert "<bdi>xcomet</bdi>" in drawn
    first_error = entries[0]["errors"][0]
    assert f">{first_error['text']}</span>" in drawn
    next(s for s in app.selectbox if s.label == "Segment-level metric").set_value("xcomet").run()
    (table,) = [t for t in app.table if "x wins" in t.value.columns]
    row = table.value.iloc[0]
    assert (
        main(
            [
                "score",
                "--refs",
                str(ROOT / "sample_data/ref/ref-A.en"),
                "--hyps",
                *(str(ROOT / f"sample_data/sys/{name}.en") for name in PAIR),
                "--metric-scores",
                f"xcomet={COMET_JSON}",
                "--comet-compare",
                "--format",
                "json",
            ]
        )
        == 0
    )
    (pair,) = json.loads(capsys.readouterr().out)["comet_compare"]["xcomet"]
    assert (row["x (a)"], row["y (b)"]) == (pair["x"], pair["y"]) == PAIR
    for column, key in [
        ("x mean", "x_mean"),
        ("y mean", "y_mean"),
        ("ties", "ties"),
        ("x wins", "x_wins"),
        ("y wins", "y_wins"),
        ("t", "t_statistic"),
        ("p value", "p_value"),
    ]:
        assert row[column].replace("\\", "") == f"{pair[key]:.4f}", column  # shown as text
