"""The Data page's mt-metrics-eval archive (issue 22, part 4): the archive is sent with 'Use this
test set', its first language pair loads with the standard reference, the pair and reference
chosen in the form load when the button is pressed again, the archive's metric scores become
metrics from files, and a refused archive is a message while the previous test set stays."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.helpers import archive_of, tiny

ROOT = Path(__file__).resolve().parents[2]
ARCHIVE_LABEL = "mt-metrics-eval archive"


def data_page() -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.switch_page("pages/0_Data.py").run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def press(app: AppTest) -> AppTest:
    next(b for b in app.button if b.label == "Use this test set").click()
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def send(app: AppTest, name: str, data: bytes) -> AppTest:
    (uploader,) = [u for u in app.file_uploader if u.label.startswith(ARCHIVE_LABEL)]
    uploader.set_value([(name, data, "application/zip")])
    return press(app)


def select(app: AppTest, label: str):
    return next(box for box in app.selectbox if box.label == label)


def two_sets(root: Path) -> bytes:
    """The data root of two test sets, the second with a metric of refA's."""
    tiny(root / "mt-metrics-eval-v2")
    tiny(root / "mt-metrics-eval-v2" / "b")
    scores = root / "mt-metrics-eval-v2/b/wmt22/metric-scores/de-en/BLEU-refA.seg.score"
    scores.write_text("s1\t1\ns1\t2\ns1\t3\ns2\t1\ns2\t1\ns2\t1\n", encoding="utf-8")
    return archive_of(root)


def test_an_archive_loads_its_first_pair_then_the_pair_chosen(tmp_path) -> None:
    app = send(data_page(), "root.zip", two_sets(tmp_path))
    assert not app.error, [e.value for e in app.error]
    pairs = select(app, "Language pair of the archive")
    assert pairs.options == ["wmt22 de-en", "wmt22 de-en"]  # b/wmt22, then wmt22
    assert pairs.value.folder == "mt-metrics-eval-v2/b/wmt22"
    test_set = app.session_state["test_set"]
    assert test_set.name == "wmt22 de-en" and test_set.system_names == ["s1", "s2"]
    (metric,) = app.session_state["external_metrics"].values()
    assert metric.name == "BLEU-refA"  # b/wmt22's metric file, as an uploaded metric
    assert any("Loaded." in s.value for s in app.success)
    assert select(app, "Reference of the archive").options[0] == (
        "mt-metrics-eval's standard one (refA)"
    )

    select(app, "Language pair of the archive").select_index(1)
    select(app, "Reference of the archive").set_value("refB")
    app = press(app)
    assert select(app, "Language pair of the archive").value.folder == "mt-metrics-eval-v2/wmt22"
    assert app.session_state["external_metrics"] == {}  # this set has no metric files
    test_set = app.session_state["test_set"]
    assert test_set.reference_names == ["refB"] and test_set.human.criteria == ["mqm"]


def test_a_refused_archive_is_a_message_and_the_sample_stays(tmp_path) -> None:
    tiny(tmp_path)
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "x.txt").write_text("x", encoding="utf-8")
    data = archive_of(tmp_path).replace(b"evil/x.txt", b"../a/x.txt")  # same length
    app = send(data_page(), "evil.zip", data)
    assert "test_set" not in app.session_state
    said = " ".join(e.value for e in app.error)
    assert said.count("climbs out of the archive") == 1, said
    assert said.startswith("evil.zip: the member '../a/x.txt' climbs out"), said
