"""A refused upload never leaves the previous test set looking current (issue 42): Google's
WMT23 MQM file as released was refused while the sample stayed loaded, so the Correlation page
quietly showed the sample's numbers. After a refusal every page says that the last upload was
refused and which test set it shows, until a load succeeds or the user goes back to the sample;
and the release itself now loads (its .tar.gz too) beside the organisers' text."""

from __future__ import annotations

import tarfile
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.helpers import shared_dataset

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    "pages/1_Scores.py",
    "pages/2_Correlation.py",
    "pages/3_Bitext_grid.py",
    "pages/4_Loss.py",
    "pages/5_Compare.py",
    "pages/6_Rankings.py",
]
REFERENCE = b"the cat sat on the mat\na dog ran\nit rains\n"
SYSTEM = b"the cat sat on a mat\na dog runs\nit rains\n"
BAD = b'{"x": 1}\n'  # JSON Lines without a system field
REFUSED = "The last upload was refused"


def data_page() -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.run()
    app.switch_page("pages/0_Data.py").run()
    return app


def send(app: AppTest, references, systems, source=None, mqm=None) -> AppTest:
    """The Data page's form sent with these (name, bytes) files."""
    uploaders = {u.label.split(" (")[0].split(":")[0]: u for u in app.file_uploader}
    uploaders["References"].set_value([(name, data, "text/plain") for name, data in references])
    uploaders["System outputs"].set_value([(name, data, "text/plain") for name, data in systems])
    if source is not None:
        uploaders["Source"].set_value((*source, "text/plain"))
    if mqm is not None:
        uploaders["MQM error annotations"].set_value((*mqm, "application/gzip"))
    (button,) = [b for b in app.button if b.label == "Use this test set"]
    button.click().run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def notices(app: AppTest) -> list[str]:
    return [warning.value for warning in app.warning if REFUSED in warning.value]


def visit(app: AppTest, page: str) -> list[str]:
    app.switch_page(page).run()
    assert not app.exception, (page, [e.message for e in app.exception])
    return notices(app)


def test_every_page_says_the_sample_is_shown_until_the_user_goes_back_to_it():
    app = send(data_page(), [("ref.en", REFERENCE)], [("out.jsonl", BAD)])
    assert app.error[0].value == "out.jsonl: there is no 'system' column"
    expected = (
        f"**{REFUSED}** (ref.en, out.jsonl): out.jsonl\\: there is no 'system' column. Every page "
        "shows the sample test set until a test set loads on the Data page, or you go back to the "
        "sample there."
    )
    assert notices(app) == [expected]
    for page in [*PAGES, "app.py"]:
        assert visit(app, page) == [expected], page
    app.switch_page("pages/0_Data.py").run()
    assert notices(app) == [expected]  # a rerun of the Data page still says it
    (back,) = [b for b in app.button if b.label == "Go back to the sample test set"]
    back.click().run()
    assert notices(app) == []
    for page in PAGES:
        assert visit(app, page) == [], page


def test_a_refusal_after_an_upload_names_the_upload_still_shown_and_a_load_ends_it():
    app = send(data_page(), [("ref.en", REFERENCE)], [("out.en", SYSTEM)])
    assert app.success and notices(app) == []
    app = send(app, [("ref.en", REFERENCE)], [("out.jsonl", BAD)])
    (notice,) = notices(app)
    assert "shows the test set loaded before it (2 files\\: ref.en, out.en)" in notice
    assert visit(app, "pages/2_Correlation.py") == [notice]
    app.switch_page("pages/0_Data.py").run()
    app = send(app, [("ref.en", REFERENCE)], [("other.en", SYSTEM)])
    assert app.success and notices(app) == []
    assert visit(app, "pages/1_Scores.py") == []


def test_googles_wmt23_release_loads_as_shipped_beside_the_organisers_text():
    """The .tar.gz as Google ships it, in the MQM uploader: its scores become the judgments
    (placed by source text), its annotations the Loss page's; no refusal, no sample."""
    release = (
        shared_dataset("wmt23-zhen-mqm")
        / "sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz"
    )
    with tarfile.open(shared_dataset("wmt23-general-task") / "wmt23-general-txt.tar.xz") as archive:
        texts = {
            Path(m.name).name: archive.extractfile(m).read()
            for m in archive.getmembers()
            if m.isfile() and ".zh-en." in m.name
        }
    systems = sorted((name, data) for name, data in texts.items() if ".hyp." in name)
    app = send(
        data_page(),
        [("generaltest2023.zh-en.ref.refA.en", texts["generaltest2023.zh-en.ref.refA.en"])],
        systems,
        ("generaltest2023.zh-en.src.zh", texts["generaltest2023.zh-en.src.zh"]),
        (release.name, release.read_bytes()),
    )
    assert not app.error, [e.value for e in app.error]
    assert app.success and notices(app) == []
    infos = " | ".join(info.value for info in app.info)
    assert "377 by source text" in infos
    assert "Marot viewer writes its documentation link there" in infos
    test_set = app.session_state["test_set"]
    assert test_set.human.criteria == ["MQM"] and len(test_set.human.segment_rows) == 3_770
    assert app.session_state["mqm"].layout == "2022-2024"
