"""Sessions in Chromium that must not hurt each other: one that uploads a pathological file, and
three at once, each with its own upload (bench/bench_sessions.py times ten and more). Every
session is a browser context of its own (its own cookies and websocket), as separate users are.
Skips where Chromium or Playwright is missing.
"""

from __future__ import annotations

import re
import shutil

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

from tests.e2e.harness import (  # noqa: E402  (after the skips)
    assert_no_error,
    go_to,
    main_text,
    new_user,
    open_page,
    payload,
    press_and_wait,
    shot,
    upload,
    wait_for_text,
    wait_until_idle,
)

# One word 1,100 times on one line: 1.21 million grid cells, past the exact matching's limit
# (GTM_EXACT_MAX_CELLS) and the drawn grid's (GRID_MAX_CELLS), as every hit a GTM step can take.
REPEATED = (" ".join(["w"] * 1100) + "\n").encode()
# The pages that read the text: scores (Home), intervals (Scores), the grid (Bitext grid) and
# the test set at a glance (Data). Correlation and Loss read judgments and loss tables, which
# this upload has none of.
TEXT_PAGES = ["Home", "Scores", "Bitext grid", "Data"]


def small_test_set(prefix: str, k: int = 0) -> dict[str, list[dict]]:
    """A reference and two systems, named after ``prefix``; texts differ with ``k``."""
    reference = "".join(f"the cat {k} sat on mat {n}\n" for n in range(8))
    return {
        "references": [payload(f"{prefix}-ref.txt", reference)],
        "systems": [
            payload(f"{prefix}-alpha.txt", reference.replace("cat", "dog")),
            payload(f"{prefix}-beta.txt", reference.replace("sat", "sits").replace("mat", "rug")),
        ],
    }


def systems_shown(page) -> str:
    """The "Systems" fact of the test set at a glance (home and Data pages)."""
    column = page.locator("[data-testid=stColumn]").filter(has_text="Systems").last
    return column.inner_text().replace("Systems", "").strip()


def test_a_repeated_word_upload_leaves_the_server_and_another_session_working(browser, server):
    """GTM on a 1,100 x 1,100 grid of hits: every page that reads the text opens (scored, or a
    clear message), the server stays up, and another user's session goes on with its own data.
    (The shared server: the sessions test below then also shows that it is sound after it.)"""
    other, attacker = new_user(browser), new_user(browser)
    try:
        open_page(other, server.url, "Data", "Use this test set")
        upload(other, small_test_set("bystander"), submit=False)
        press_and_wait(other, server.url, "Use this test set", "Loaded.")
        open_page(attacker, server.url, "Data", "Use this test set")
        upload(
            attacker,
            {
                "references": [payload("repeated-ref.txt", REPEATED)],
                "systems": [payload("repeated-sys.txt", REPEATED)],
            },
            submit=False,
        )
        press_and_wait(attacker, server.url, "Use this test set", "Loaded.")
        for link in TEXT_PAGES:
            go_to(attacker, link)
            assert server.alive(), f"the server died on the {link} page"
            assert_no_error(attacker)
            if link == "Bitext grid":  # one picture (each costs Chromium about a second):
                shot(attacker, "repeated-word-bitext-grid")  # why no grid is drawn
        assert systems_shown(attacker) == "repeated-sys"
        go_to(other, "Home")  # the bystander's session: still there, still its own
        assert systems_shown(other) == "bystander-alpha, bystander-beta"
        go_to(other, "Scores")
        assert "repeated-sys" not in main_text(other) and "bystander-beta" in main_text(other)
        assert_no_error(other)
        assert server.alive()
    finally:
        attacker.context.close()
        other.context.close()


SESSIONS = 3  # enough for uploads, scorings and pages to interleave; a load test is a benchmark


def test_sessions_at_once_each_see_only_their_own_upload(browser, server):
    users = [new_user(browser) for _ in range(SESSIONS)]
    try:
        for page in users:
            page.goto(f"{server.url}/Data")
        for page in users:
            page.wait_for_selector("text=Use this test set")
        for k, page in enumerate(users):  # every upload on its way before any is used
            upload(page, small_test_set(f"team{k}", k), submit=False)
        for page in users:
            page.get_by_role("button", name="Use this test set").click()
        for k, page in enumerate(users):
            wait_for_text(page, server.url, "Loaded.")
            assert systems_shown(page) == f"team{k}-alpha, team{k}-beta"
        for page in users:  # scorings at once, for the scores at a glance
            page.locator("[data-testid=stSidebarNav]").get_by_role("link", name="Home").click()
        for k, page in enumerate(users):
            page.wait_for_selector("text=The first segments")
            wait_until_idle(page)
            assert_no_error(page)
            teams = set(re.findall(r"team\d+", main_text(page)))
            assert teams == {f"team{k}"}, teams
        shot(users[-1], "sessions-at-once-home")
    finally:
        for page in users:
            page.context.close()
