"""WMT21 news en-de as an mt-metrics-eval archive (issue 22, part 4), in Chromium: the language
pair's folders zipped in the test from ../shared/data, uploaded in the Data page's archive input
with a 2023-layout MQM error file in the MQM input. The test set is the pair with
mt-metrics-eval's standard reference (refC) and its 20 systems; the archive's MQM scores and
metric file reach Home and the Correlation page as separate uploads do; the MQM file's scores
are a second criterion.

Skips where Chromium, Playwright or ../shared/data's WMT21 en-de are missing. Screenshots go to
artifacts/e2e/.
"""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest

sync_api = pytest.importorskip("playwright.sync_api")
if shutil.which("chromium") is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from tests.e2e.harness import (  # noqa: E402  (after the skips)
    assert_no_error,
    go_to,
    new_page,
    open_page,
    payload,
    press_and_wait,
    shot,
    upload,
    wait_for_figure,
    wait_until_idle,
)
from tests.helpers import N_DOC, archive_of, mtme_from_shared, write_metric  # noqa: E402

LATER = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata"
MQM_SYSTEMS = ("Facebook-AI", "HuaweiTSC", "Online-W", "UF")
ERRORS = (("Accuracy/Mistranslation", "Major"), ("Fluency/Grammar", "Minor"), ("No-error", ""))


def mqm_2023(folder) -> bytes:
    """Google's 2023 layout: four systems' first 30 segments, placed by doc and docSegId on the
    archive's documents (doc0, doc1, ... of N_DOC segments)."""
    source = (folder / "sources/en-de.txt").read_text(encoding="utf-8").splitlines()
    rows = [LATER]
    for k, system in enumerate(MQM_SYSTEMS):
        output = (folder / f"system-outputs/en-de/{system}.txt").read_text(encoding="utf-8")
        for line, target in enumerate(output.splitlines()[:30]):
            category, severity = ERRORS[(line + k) % len(ERRORS)]
            severity = severity or "No-error"
            doc, position = f"doc{line // N_DOC}", line % N_DOC + 1
            fields = [system, doc, str(position), str(line + 1), "r1", source[line], target]
            rows.append("\t".join([*fields, category, severity, "{}"]))
    return ("\n".join(rows) + "\n").encode("utf-8")


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """wmt21.news en-de in mt-metrics-eval's layout, with a metric file of refC, zipped."""
    root = mtme_from_shared(tmp_path_factory.mktemp("mtme_e2e"))
    folder = root / "wmt21.news"
    outputs = sorted((folder / "system-outputs/en-de").iterdir())
    lengths = {
        p.stem: np.array(
            [len(s.split()) for s in p.read_text(encoding="utf-8").splitlines()], float
        )
        for p in outputs
    }
    write_metric(root, "words-refC", lengths)
    systems = sorted(p.stem for p in outputs if not p.stem.startswith("ref"))
    return archive_of(root), mqm_2023(folder), systems


def test_an_mtme_archive_and_an_mqm_file_give_the_pair_and_its_correlation(
    archive, browser, server
):
    data, mqm, systems = archive
    page = new_page(browser)
    try:
        open_page(page, server.url, "Data", "Use this test set")
        upload(
            page,
            {
                "mqm": [payload("mqm_generalMT2023_ende.tsv", mqm)],
                "archive": [payload("wmt21.news-en-de.zip", data, "application/zip")],
            },
            submit=False,
        )
        press_and_wait(page, server.url, "Use this test set", "Loaded.")
        wait_until_idle(page)
        assert_no_error(page)
        text = page.inner_text("[data-testid=stMain]").replace("\u2060", "")
        flat = " ".join(text.split())
        assert "Current test set: wmt21.news en-de" in flat
        assert "Metrics from files: words-refC" in flat
        assert "reference refC of refA, refC, refD" in flat  # the standard reference, said
        assert "placed on the test set's lines: 30 by document and docSegId" in flat
        assert page.locator("[data-testid=stSelectbox]").filter(has_text="Language pair").count()
        shot(page, "mtme-archive-data")

        go_to(page, "Home")
        flat = " ".join(page.inner_text("[data-testid=stMain]").replace("\u2060", "").split())
        assert f"Systems {len(systems)}: {', '.join(systems[:5])} and" in flat
        assert "References refC" in flat
        assert "Segments 1,002" in flat
        assert_no_error(page)

        go_to(page, "Correlation")
        scatter = wait_for_figure(page, "BLEU against mqm")
        points = scatter["data"][0]
        assert len(points["x"]) == 8  # the 8 systems with text that MQM rates
        assert set(points["text"]) <= set(systems)
        assert re.search(r"Pearson r = -?0\.\d{3} \[", scatter["layout"]["title"]["text"])
        wait_until_idle(page)
        assert "words-refC" in page.inner_text("[data-testid=stMain]")
        assert_no_error(page)
        shot(page, "mtme-archive-correlation")
    finally:
        page.close()
