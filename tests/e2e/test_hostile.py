"""Hostile text is text, in Chromium: names, segment texts, file names and link parameters that
look like HTML, Markdown, images or links are shown as written on every page; no dialog opens, no
request leaves for an image, no link is made of them.

One server, one session: the hostile test set is uploaded once through the Data page's file
inputs, then every page is opened from the sidebar as a user does; link parameters get sessions
of their own. Skips where Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import shutil
from urllib.parse import urlencode, urlsplit

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from tests.e2e.harness import (  # noqa: E402  (after the skips)
    assert_no_error,
    go_to,
    main_text,
    new_page,
    open_page,
    payload,
    press_and_wait,
    shot,
    upload,
    wait_until_idle,
)

TAG = "<img src=x onerror=alert(1)>"
BOLD = "**bold**"
IMAGE = "![x](http://127.0.0.1:9/x.png)"
SCRIPT_LINK = "[x](javascript:alert(1))"
CRITERION = "![c](http://127.0.0.1:9/c.png)"
ANCHOR = '<a href="https://example.org">click</a>'  # Plotly would draw this one as a link
HOSTILE_HREFS = ("127.0.0.1:9", "javascript:", "example.org")
HOSTILE_LINK_TEXTS = {"x", "c", "Session expired: log in again", "click"}
N = 6  # segments


def reference() -> str:
    return "".join(f"the cat {TAG} sat on the mat {k} {BOLD}\n" for k in range(N))


def systems() -> dict[str, str]:
    """System name -> its output; names as the files and the long-format rows give them."""
    return {
        BOLD: "".join(f"the cat {TAG} sat on a mat {k}\n" for k in range(N)),
        SCRIPT_LINK: "".join(f"a cat {SCRIPT_LINK} sat {k}\n" for k in range(N)),
        IMAGE: "".join(f"the dog {IMAGE} sat on the mat {k}\n" for k in range(N)),
        ANCHOR: "".join(f"the cat {ANCHOR} sat on the mat {k}\n" for k in range(N)),
    }


def hostile_uploads() -> dict[str, list[dict]]:
    outputs = systems()
    long_format = "".join(  # names that cannot be file names
        json.dumps({"system": name, "segment": k + 1, "hypothesis": line}) + "\n"
        for name in (IMAGE, ANCHOR)
        for k, line in enumerate(outputs[name].splitlines())
    )
    human = "system\tsegment_id\tscore\tcriterion\n" + "".join(
        f"{name}\t{k + 1}\t{score + k % 2}\t{CRITERION}\n"
        for name, score in zip(outputs, (4, 1, 2, 3))
        for k in range(N)
    )
    mqm = "system\tseg_id\trater\tcategory\tseverity\n" + "".join(
        f"{name}\t{k + 1}\tr1\tAccuracy/{TAG}\t{severity}\n"
        for name, severity in zip(outputs, ("Minor", "Major", "Minor", "Major"))
        for k in range(N)
    )
    return {
        "references": [payload(f"{TAG}.txt", reference())],
        "systems": [
            payload(f"{BOLD}.txt", outputs[BOLD]),
            payload(f"{SCRIPT_LINK}.txt", outputs[SCRIPT_LINK]),
            payload("long format.jsonl", long_format),
        ],
        "human": [payload(f"human {SCRIPT_LINK}.tsv", human)],
        "mqm": [payload(f"mqm {TAG}.tsv", mqm)],
    }


class Watched:
    """A browser page with every dialog and every request to the hostile hosts recorded."""

    def __init__(self, page) -> None:
        self.page = page
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        page.on("dialog", self._dialog)
        page.on("request", self._request)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _request(self, request) -> None:
        host = urlsplit(request.url).netloc
        if host == "127.0.0.1:9" or host.endswith("example.org"):
            self.requests.append(request.url)

    def assert_harmless(self, *literal: str) -> None:
        """Nothing ran, nothing was fetched, nothing became a link, an image or bold text, and
        each of ``literal`` is on the page as written."""
        page = self.page
        page.wait_for_timeout(500)  # an image would be requested by now
        assert self.dialogs == [] and self.requests == []
        links = page.eval_on_selector_all(
            "[data-testid=stMain] a",
            "els => els.map(a => [a.getAttribute('href') || '', a.textContent])",
        )
        for href, text in links:
            assert not any(host in href for host in HOSTILE_HREFS), (href, text)
            assert text not in HOSTILE_LINK_TEXTS, (href, text)
        images = page.eval_on_selector_all("img", "els => els.map(e => e.getAttribute('src'))")
        assert not [src for src in images if src and "127.0.0.1:9" in src]
        bold = page.eval_on_selector_all("strong, b", "els => els.map(e => e.textContent)")
        assert "bold" not in bold
        text = main_text(page)
        for expected in literal:
            assert expected in text, expected
        assert_no_error(page)


@pytest.fixture(scope="module")
def session(browser, server):
    """One user's session with the hostile test set loaded."""
    watched = Watched(new_page(browser))
    open_page(watched.page, server.url, "Data", "Use this test set")
    upload(watched.page, hostile_uploads(), submit=False)
    press_and_wait(watched.page, server.url, "Use this test set", "Loaded.")
    wait_until_idle(watched.page)
    yield watched
    watched.page.close()


EVERY_NAME = (TAG, BOLD, SCRIPT_LINK, IMAGE, ANCHOR)


@pytest.mark.parametrize(
    ("link", "literal"),
    [
        ("Data", (*EVERY_NAME, CRITERION, f"mqm {TAG}.tsv")),  # the MQM file in its summary
        ("Home", (*EVERY_NAME, CRITERION)),
        ("Scores", (BOLD, SCRIPT_LINK, IMAGE, ANCHOR)),
        ("Correlation", (BOLD, SCRIPT_LINK, IMAGE, ANCHOR)),
        ("Bitext grid", (BOLD, TAG)),  # the first system, the reference; tokens in the grid
        ("Loss", (BOLD, SCRIPT_LINK, IMAGE, ANCHOR)),  # the MQM ranking
    ],
)
def test_every_page_shows_hostile_names_as_written(session, link, literal):
    go_to(session.page, link)
    if link == "Correlation":
        session.page.wait_for_selector("text=Reliability against test size")
    if link == "Loss":
        session.page.wait_for_selector("text=MQM ranking:")
    wait_until_idle(session.page)
    session.assert_harmless(*literal)
    shot(session.page, f"hostile-{link.replace(' ', '-').lower()}")


def test_the_correlation_page_links_a_hostile_system_to_its_grid(session):
    page = session.page
    go_to(page, "Correlation")
    box = page.locator("[data-testid=stSelectbox]").filter(has_text="Segments of").locator("input")
    box.fill("javascript")
    box.press("ArrowDown")
    page.get_by_role("option", name=SCRIPT_LINK, exact=True).click()
    wait_until_idle(page)
    link = page.get_by_role("link", name=f"Open {SCRIPT_LINK}'s segments in the bitext grid")
    assert link.count() == 1
    link.click()
    page.wait_for_selector("text=Search segments")
    wait_until_idle(page)
    session.assert_harmless(f"{SCRIPT_LINK}, segment 1")


def test_a_hostile_loss_table(session):
    page = session.page
    go_to(page, "Loss")
    box = page.locator("[data-testid=stSelectbox]").filter(has_text="Data").locator("input")
    box.fill("Your own")
    box.press("ArrowDown")
    page.get_by_role("option", name="Your own loss table (upload)").click()
    rows = "system,category,correct,non_response,incorrect,rt_total,marked_total,cases\n"
    for system, correct in ((IMAGE, 8), (SCRIPT_LINK, 5), (TAG, 3), (ANCHOR.replace('"', "'"), 4)):
        for category, shift in ((BOLD, 0), ("[c](https://example.org)", 2)):
            rows += f'"{system}","{category}",{correct - shift},{1 + shift},1,10,4,10\n'
    page.locator("input[type=file]").first.set_input_files(
        [payload(f"{TAG}.csv", rows, "text/csv")]
    )
    page.wait_for_selector("text=Overall ranking:")
    wait_until_idle(page)
    session.assert_harmless(
        IMAGE, SCRIPT_LINK, TAG, BOLD, ANCHOR.replace('"', "'"), "[c](https://example.org)"
    )
    shot(page, "hostile-loss-table")


SESSION_EXPIRED = "[Session expired: log in again](https://example.org)"


@pytest.mark.parametrize(
    ("path", "query", "ready", "literal"),
    [
        (
            "Bitext_grid",
            {"system": SESSION_EXPIRED},
            "which this test set does not have",
            f"“{SESSION_EXPIRED}”",
        ),
        ("Bitext_grid", {"system": TAG, "segment": "²"}, "segments 1 to 40", "“²”"),
        (
            "Loss",
            {"c1": "nan", "c2": SCRIPT_LINK, "c3": TAG, "w_major": IMAGE},
            "Ranking: MT2 > MT3 > MT1",  # the paper's (5, 2, 1): nothing taken from the link
            "Loss-function ranking",
        ),
    ],
)
def test_link_parameters_are_shown_as_written(browser, server, path, query, ready, literal):
    watched = Watched(new_page(browser))
    try:
        open_page(watched.page, server.url, f"{path}?{urlencode(query)}", ready)
        wait_until_idle(watched.page)
        watched.assert_harmless(literal)
        shot(watched.page, f"hostile-link-{path.lower()}-{len(query)}")
    finally:
        watched.page.close()
