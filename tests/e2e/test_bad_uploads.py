"""Bad uploads through the Data page's file inputs, in Chromium: each kind of bad file ends in the
message it should (the file named, and the line where there is one; no traceback, never
"Something went wrong"), and the test set loaded before stays the one shown.

One server and one session for the whole battery: a baseline test set is uploaded once, then each
case puts its files into the inputs, presses "Use this test set", checks the outcome and clears
the inputs again. A case that is accepted (SGML segments in another order are matched by id) loads
the baseline again afterwards. Skips where Chromium or Playwright is missing.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import re
import shutil
import zipfile
from dataclasses import dataclass

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from mteval_core.settings.limits import MAX_UPLOAD_SEGMENTS, MAX_UPLOAD_TEXTS  # noqa: E402
from tests.bad_inputs import (  # noqa: E402
    ENTITY_BOMB,
    HYP_SEGMENTS,
    HYPOTHESIS,
    REF_SEGMENTS,
    REFERENCE,
    WMT_XML,
)
from tests.e2e.harness import (  # noqa: E402  (after the skips)
    UPLOADS,
    assert_no_error,
    clear_uploads,
    go_to,
    main_text,
    new_page,
    open_page,
    payload,
    shot,
    upload,
    wait_until_idle,
)

BASELINE = {
    "references": [payload("baseline-ref.txt", REFERENCE)],
    "systems": [
        payload("baseline-alpha.txt", HYPOTHESIS),
        payload("baseline-beta.txt", REFERENCE.replace("cat", "dog")),
    ],
}
BASELINE_SYSTEMS = "baseline-alpha, baseline-beta"


def zipped(name: str, content: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, content)
    return buffer.getvalue()


def sgml(kind: str, segments: list[tuple[str, str]], sysid: str = "sgml-system") -> str:
    body = "".join(f'<seg id="{seg_id}">{text}</seg>\n' for seg_id, text in segments)
    return (
        f'<{kind}set setid="t" srclang="en" trglang="de">\n'
        f'<doc docid="d1" sysid="{sysid}">\n{body}</doc>\n</{kind}set>\n'
    )


MQM_HEADER = "system\tseg_id\trater\tcategory\tseverity\n"
TOO_MANY_SEGMENTS = "x\n" * (MAX_UPLOAD_SEGMENTS + 1)
MOST_SEGMENTS = "x\n" * MAX_UPLOAD_SEGMENTS
SYSTEMS_OVER_TEXTS = MAX_UPLOAD_TEXTS // MAX_UPLOAD_SEGMENTS  # with the reference: one too many


def human(name: str, rows: str, header: str = "system\tsegment_id\tscore") -> list[dict]:
    return [payload(name, f"{header}\n{rows}")]


BASE_REF = [payload("ref.txt", REFERENCE)]
BASE_SYS = [payload("hyp.txt", HYPOTHESIS)]


@dataclass(frozen=True)
class Case:
    """Files (Data page input -> payloads) and the outcome: ``words`` that the message must
    hold (the file's name first); ``browser`` when the browser refuses the file before it is
    sent (over the size limit); ``accepted`` when the set loads (with these systems)."""

    id: str
    files: dict[str, list[dict]]
    words: tuple[str, ...] = ()
    browser: bool = False
    accepted: str = ""


CASES = [
    # ----------------------------------------------------------------- empty or not a table
    Case(
        "empty-reference",
        {"references": [payload("empty-ref.txt", b"")], "systems": BASE_SYS},
        ("empty-ref.txt", "empty"),
    ),
    Case(
        "empty-system",
        {"references": BASE_REF, "systems": [payload("empty.txt", b"")]},
        ("empty.txt", "empty"),
    ),
    Case(
        "header-only-tsv",
        {
            "references": BASE_REF,
            "systems": [payload("header-only.tsv", "system\tsegment\thypothesis\n")],
        },
        ("header-only.tsv", "only a header"),
    ),
    Case("no-system-at-all", {"references": BASE_REF}, ("at least one reference and one system",)),
    # -------------------------------------------------------------------- bytes, not text
    Case(
        "gzip",
        {
            "references": BASE_REF,
            "systems": [payload("hyp.txt.gz", gzip.compress(HYPOTHESIS.encode()))],
        },
        ("hyp.txt.gz", "gzip-compressed"),
    ),
    Case(
        "png",
        {
            "references": BASE_REF,
            "systems": [payload("picture.png", b"\x89PNG\r\n\x1a\n" + bytes(64))],
        },
        ("picture.png", "PNG image"),
    ),
    Case(
        "xlsx",
        {
            "references": BASE_REF,
            "systems": [payload("table.xlsx", zipped("xl/workbook.xml", b"<x/>"))],
        },
        ("table.xlsx", "spreadsheet"),
    ),
    Case(
        "pdf",
        {
            "references": BASE_REF,
            "systems": [payload("paper.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")],
        },
        ("paper.pdf", "PDF document"),
    ),
    Case(
        "nul-byte",
        {"references": BASE_REF, "systems": [payload("nul.txt", b"a\nb\x00c\nd\n")]},
        ("nul.txt", "line 2", "NUL byte"),
    ),
    Case(
        "lone-cr",
        {
            "references": BASE_REF,
            "systems": [payload("old-mac.txt", HYPOTHESIS.replace("\n", "\r"))],
        },
        ("old-mac.txt", "carriage return"),
    ),
    Case(
        "latin-1",
        {
            "references": BASE_REF,
            "systems": [payload("latin1.txt", "Der Bär läuft .\n".encode("latin-1") * 3)],
        },
        ("latin1.txt", "line 1", "not valid UTF-8"),
    ),
    Case(
        "utf-16",
        {"references": BASE_REF, "systems": [payload("utf16.txt", HYPOTHESIS.encode("utf-16"))]},
        ("utf16.txt", "UTF-16"),
    ),
    # ------------------------------------ plain text whose first segment looks like another format
    Case(  # issue 26: read as JSON Lines and refused on line 2 before
        "first-segment-json-object-is-a-segment",
        {
            "references": BASE_REF,
            "systems": [
                payload(
                    "brace.txt",
                    '{"system": "A", "hypothesis": "x"}\n' + HYPOTHESIS.split("\n", 1)[1],
                )
            ],
        },
        accepted="brace",
    ),
    # ------------------------------------------------------------------ counts that disagree
    Case(
        "system-short",
        {"references": BASE_REF, "systems": [payload("short-system.txt", "one line\n")]},
        ("short-system.txt", "line 2", "1 segments"),
    ),
    Case(
        "source-short",
        {
            "references": BASE_REF,
            "systems": BASE_SYS,
            "source": [payload("short-source.txt", "eine Zeile\n")],
        },
        ("short-source.txt", "1 segments"),
    ),
    # ------------------------------------------------------------------ SGML, XML, long formats
    Case(
        "sgml-missing-segment",
        {
            "references": [payload("ref.sgm", sgml("ref", REF_SEGMENTS, "ref"))],
            "systems": [payload("missing-segment.sgm", sgml("tst", HYP_SEGMENTS[:2]))],
        },
        ("missing-segment.sgm", "segment 3"),
    ),
    Case(
        "sgml-duplicate-segment",
        {
            "references": [payload("ref.sgm", sgml("ref", REF_SEGMENTS, "ref"))],
            "systems": [
                payload("duplicate-segment.sgm", sgml("tst", [*HYP_SEGMENTS[:2], ("2", "x")]))
            ],
        },
        ("duplicate-segment.sgm", "line 5", "id 2 occurs twice"),
    ),
    Case(
        "sgml-swapped-segments-are-matched-by-id",
        {
            "references": [payload("ref.sgm", sgml("ref", REF_SEGMENTS, "ref"))],
            "systems": [payload("hyp.sgm", sgml("tst", HYP_SEGMENTS[::-1]))],
        },
        accepted="sgml-system",
    ),
    Case(
        "xml-entity-bomb",
        {
            "references": [payload("bomb.xml", ENTITY_BOMB)],
            "systems": [payload("bomb.xml", ENTITY_BOMB)],
        },
        ("bomb.xml", "entity declarations"),
    ),
    Case(
        "xml-broken",
        {
            "references": [payload("broken.xml", WMT_XML[:-30])],
            "systems": [payload("broken.xml", WMT_XML[:-30])],
        },
        ("broken.xml", "line 6", "not well-formed XML"),
    ),
    Case(
        "jsonl-broken-line",
        {
            "references": BASE_REF,
            "systems": [
                payload("broken.jsonl", '{"system": "s", "hypothesis": "a"}\n{"system": \n')
            ],
        },
        ("broken.jsonl", "line 2"),
    ),
    Case(
        "tsv-without-hypothesis",
        {
            "references": BASE_REF,
            "systems": [payload("no-hypothesis.tsv", "system\tsegment\ns\t1\n")],
        },
        ("no-hypothesis.tsv", "hypothesis"),
    ),
    # -------------------------------------------------------------------------- human scores
    # a numeric column of another name is a criterion (mteval_core.io.human_judgments); text is not
    Case(
        "human-unknown-column-instead-of-score",
        {
            "references": BASE_REF,
            "systems": BASE_SYS,
            "human": human("comment.tsv", "hyp\t1\tfine\n", "system\tsegment_id\tcomment"),
        },
        ("comment.tsv", "no score column"),
    ),
    Case(
        "human-text-score",
        {
            "references": BASE_REF,
            "systems": BASE_SYS,
            "human": human("text-score.tsv", "hyp\t1\tgood\n"),
        },
        ("text-score.tsv", "line 2"),
    ),
    Case(
        "human-unknown-segment",
        {
            "references": BASE_REF,
            "systems": BASE_SYS,
            "human": human("segment-99.tsv", "hyp\t99\t3\n"),
        },
        ("segment-99.tsv", "99"),
    ),
    Case(
        "human-unknown-system",
        {
            "references": BASE_REF,
            "systems": BASE_SYS,
            "human": human("nobody.tsv", "nobody\t1\t3\n"),
        },
        ("nobody.tsv", "line 2"),
    ),
    Case(
        "segment-id-map-bad-line",
        {
            "references": BASE_REF,
            "systems": BASE_SYS,
            "segment_ids": [payload("ids.tsv", "line\tsegment_id\n1\ta\nsecond\tb\n3\tc\n")],
        },
        ("ids.tsv", "line 3"),
    ),
    # ------------------------------------------------------------------------------------ MQM
    Case(
        "mqm-missing-column",
        {
            "references": BASE_REF,
            "systems": BASE_SYS,
            "mqm": [
                payload("mqm-no-severity.tsv", "system\tseg_id\trater\tcategory\nA\t1\tr\tStyle\n")
            ],
        },
        ("mqm-no-severity.tsv", "severity"),
    ),
    Case(
        "mqm-unknown-severity",
        {
            "references": BASE_REF,
            "systems": BASE_SYS,
            "mqm": [payload("mqm-terrible.tsv", MQM_HEADER + "A\t1\tr\tStyle\tTerrible\n")],
        },
        ("mqm-terrible.tsv", "line 2", "Terrible"),
    ),
    # --------------------------------------------------------------------------------- limits
    Case("over-the-size-limit", {}, browser=True),  # a 52 MB file, written in the test
    Case(
        "too-many-segments",
        {
            "references": [payload("long-ref.txt", TOO_MANY_SEGMENTS)],
            "systems": [payload("long-sys.txt", TOO_MANY_SEGMENTS)],
        },
        ("long-ref.txt", f"{MAX_UPLOAD_SEGMENTS + 1:,} segments", f"{MAX_UPLOAD_SEGMENTS:,}"),
    ),
    Case(
        "too-many-texts",
        {
            "references": [payload("ref-most.txt", MOST_SEGMENTS)],
            "systems": [
                payload(f"sys{k}-most.txt", MOST_SEGMENTS) for k in range(SYSTEMS_OVER_TEXTS)
            ],
        },
        (
            f"sys{SYSTEMS_OVER_TEXTS - 1}-most.txt",
            f"{(SYSTEMS_OVER_TEXTS + 1) * MAX_UPLOAD_SEGMENTS:,} texts",
            f"{MAX_UPLOAD_TEXTS:,}",
        ),
    ),
]


def systems_shown(page) -> str:
    column = page.locator("[data-testid=stColumn]").filter(has_text="Systems").last
    return column.inner_text().replace("Systems", "").strip()


SYSTEMS_SHOWN_JS = """() => {
    const facts = [...document.querySelectorAll('[data-testid=stColumn]')]
        .filter(c => c.innerText.startsWith('Systems'));
    return facts.length ? facts.at(-1).innerText.replace('Systems', '').trim() : '';
}"""


def load_baseline(page) -> None:
    """Load the baseline set. "Loaded." may still be on the page from a case that loaded
    another set, so wait for the baseline's systems themselves."""
    clear_uploads(page)
    upload(page, BASELINE)
    with contextlib.suppress(sync_api.TimeoutError):  # then the assertion says what was shown
        page.wait_for_function(
            f"(baseline) => ({SYSTEMS_SHOWN_JS})() === baseline",
            arg=BASELINE_SYSTEMS,
            timeout=60_000,
        )
    wait_until_idle(page)
    assert systems_shown(page) == BASELINE_SYSTEMS
    clear_uploads(page)


@pytest.fixture(scope="module")
def session(browser, server):
    """One user's session on the Data page, with the baseline loaded."""
    page = new_page(browser)
    open_page(page, server.url, "Data", "Use this test set")
    load_baseline(page)
    yield page
    page.close()


def outcome(page, first_word: str) -> str:
    """The error messages once one holds ``first_word`` (each case names a file of its own, so
    a message left from the case before does not count), or once another set was loaded; after
    a minute, whatever is shown."""
    with contextlib.suppress(sync_api.TimeoutError):  # then the assertions say what was shown
        page.wait_for_function(
            f"""([word, baseline]) => {{
                const alerts = [...document.querySelectorAll('[data-testid=stAlertContentError]')];
                if (word && alerts.some(a => a.innerText.toLowerCase().includes(word))) return true;
                const shown = ({SYSTEMS_SHOWN_JS})();
                return shown !== '' && shown !== baseline;
            }}""",
            arg=[first_word.lower(), BASELINE_SYSTEMS],
            timeout=60_000,
        )
    wait_until_idle(page)
    alerts = page.locator("[data-testid=stAlertContentError]").all_inner_texts()
    return " ".join(alerts) or f"(no error shown; systems: {systems_shown(page)})"


# The cases whose page is pictured when they pass (a message with a line number, a refused binary
# file, one that Streamlit's file input refuses itself, an accepted one): a full-page picture
# costs half a second of Chromium's time, and the other cases' pages differ only in the message.
# A failing case is always pictured.
PICTURED = {
    "human-unknown-system",
    "png",
    "over-the-size-limit",
    "sgml-swapped-segments-are-matched-by-id",
}


def test_every_pictured_case_is_a_case():
    assert PICTURED.issubset(case.id for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_bad_upload_is_named_and_the_loaded_set_stays(session, case, tmp_path):
    page = session
    if systems_shown(page) != BASELINE_SYSTEMS:  # a case before this one loaded another set
        load_baseline(page)
    try:
        if case.browser:  # Streamlit's file input refuses it, on the file's chip
            huge = tmp_path / "huge.txt"  # too large to hand to Playwright as bytes
            huge.write_bytes(b"x\n" * (26 * 2**20))
            page.locator("input[type=file]").nth(UPLOADS["systems"]).set_input_files([str(huge)])
            chip = page.locator("[data-testid=stFileChip]").filter(has_text="huge.txt")
            chip.get_by_text(re.compile(r"must be 50(\.0)? ?MB or smaller")).wait_for()
        else:
            upload(page, case.files)
            message = outcome(page, case.words[0] if case.words else "")
        if case.accepted:
            assert systems_shown(page) == case.accepted, message
        elif not case.browser:
            for word in case.words:
                assert word.lower() in message.lower(), (word, message)
            assert page.get_by_text("What to do").count() == 1
        assert_no_error(page)
        if not case.accepted:
            assert page.get_by_text("Current test set: uploaded test set").count() == 1
            assert systems_shown(page) == BASELINE_SYSTEMS  # nothing lost
            assert "baseline-beta" in main_text(page)
    except BaseException:
        shot(page, f"bad-upload-{case.id}")
        raise
    else:
        if case.id in PICTURED:
            shot(page, f"bad-upload-{case.id}")
    finally:
        clear_uploads(page)


def test_a_loss_table_with_impossible_rates_is_named_on_the_loss_page(session):
    page = session
    go_to(page, "Loss")
    box = page.locator("[data-testid=stSelectbox]").filter(has_text="Data").locator("input")
    box.fill("Your own")
    box.press("ArrowDown")
    page.get_by_role("option", name="Your own loss table (upload)").click()
    rates = "system,crr,nrr,irr,e_rt_total,e_marked_total\nMT1,0.7,0.5,0.1,8.7,7.8\n"
    page.locator("input[type=file]").first.set_input_files([payload("rates.csv", rates)])
    message = outcome(page, "rates.csv")
    assert "rates.csv" in message and "line 2" in message, message
    assert_no_error(page)
    go_to(page, "Data")
    assert systems_shown(page) == BASELINE_SYSTEMS
