"""Issue #26: the Scores page opens with the resamples its system pairs need to reach p < 0.05
after Holm's correction, so that 15 systems of very different quality open on a significance map
with significant pairs, not an all-grey one; the user's own choice stays theirs."""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import mteval_core.settings.limits as limits
from mteval_core.model.testset import TestSet
from mteval_core.report.writers import too_few_resamples
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import SIGNIFICANCE_LEVEL, resamples_needed
from pages.ui.markdown_escape import escape_markdown
from pages.ui.resamples import starting_resamples
from tests.helpers import make_test_set

ROOT = Path(__file__).resolve().parents[2]
OFFERED = [0, 200, 1000, 2000, 5000, 10000, 20000]  # the page's choices for a short test set
N_GROUPS, PER_GROUP = 3, 5
N_PAIRS = 105  # 15 systems


@cache
def fifteen_systems() -> tuple[TestSet, dict[str, int]]:
    """Three groups of five systems: group g drops the last 2g words of every segment of the
    reference (far apart: every pair of groups differs in every resample); within a group each
    system changes one word of one segment (never a significant difference). Returns the test
    set and each system's group."""
    words = [f"w{k}" for k in range(40)]
    reference = [" ".join(words[k : k + 8 + k % 7]) for k in range(30)]
    systems: dict[str, list[str]] = {}
    group_of = {}
    for g in range(N_GROUPS):
        for j in range(PER_GROUP):
            segments = [" ".join(s.split()[: len(s.split()) - 2 * g]) for s in reference]
            segments[j] = " ".join(["x", *segments[j].split()[1:]])
            name = f"group{g}-system{j}"
            systems[name], group_of[name] = segments, g
    return make_test_set(reference, systems), group_of


def run(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def scores_page(test_set: TestSet) -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.session_state["test_set"] = test_set
    app.switch_page("pages/1_Scores.py")
    return run(app)


def test_fifteen_systems_open_on_the_resamples_their_pairs_need():
    test_set, group_of = fifteen_systems()
    assert len(group_of) * (len(group_of) - 1) // 2 == N_PAIRS
    app = scores_page(test_set)
    needed = resamples_needed(N_PAIRS)
    start = next(n for n in OFFERED if n >= needed)
    assert needed > BootstrapOptions().n_resamples  # the page used to open at 1,000: too few
    assert app.select_slider[0].value == start
    assert f"from {needed:,} resamples on; the page starts at {start:,}" in (
        app.select_slider[0].help
    )
    assert not app.warning  # the "too few resamples" warning is not shown at open
    assert f"with {start:,}, the smallest p is" in " ".join(c.value for c in app.caption)

    (heat_map,) = [
        json.loads(chart.proto.spec)
        for chart in app.get("plotly_chart")
        if json.loads(chart.proto.spec)["data"][0]["type"] == "heatmap"
    ]
    cells = heat_map["data"][0]
    position = {name: k for k, name in enumerate(cells["y"])}
    for a, b in combinations(group_of, 2):
        p_holm = cells["customdata"][position[a]][position[b]][2]
        significant = p_holm < SIGNIFICANCE_LEVEL
        assert significant == (group_of[a] != group_of[b]), (a, b, p_holm)


def test_the_users_choice_stays_across_pages_and_a_new_test_set_starts_afresh():
    test_set, _ = fifteen_systems()
    app = scores_page(test_set)
    app.select_slider[0].set_value(1000)
    run(app)
    (warning,) = app.warning  # the user's own choice: too few, and said so
    assert warning.value == escape_markdown(too_few_resamples(1000, N_PAIRS, 20000, 30))
    app.switch_page("pages/3_Bitext_grid.py")
    run(app)
    app.switch_page("pages/1_Scores.py")
    run(app)
    assert app.select_slider[0].value == 1000  # kept, not reset to the start
    app.session_state["test_set"] = make_test_set(["a b c", "d e"], {"s": ["a b", "d"]})
    run(app)
    assert app.select_slider[0].value == BootstrapOptions().n_resamples  # one system: no pairs


def test_when_even_the_most_offered_is_too_few_the_page_starts_there_and_warns(monkeypatch):
    """A test set long enough that the page offers at most 1,000 resamples (one float per
    resample and segment, at most MAX_RESAMPLED_CELLS): the page starts at the most it offers
    and says what it would take."""
    test_set, _ = fifteen_systems()
    monkeypatch.setattr(limits, "MAX_RESAMPLED_CELLS", 1000 * test_set.n_segments)
    app = scores_page(test_set)
    assert [int(n) for n in app.select_slider[0].options] == [0, 200, 1000]
    assert app.select_slider[0].value == 1000
    (warning,) = app.warning
    assert warning.value == escape_markdown(too_few_resamples(1000, N_PAIRS, 1000, 30))


@pytest.mark.parametrize(
    "offered, usual, needed, start",
    [
        (OFFERED, 1000, 120, 1000),  # 4 systems: the usual count is enough
        (OFFERED, 1000, 2100, 5000),  # 15 systems: the first offered from 2,100 on
        (OFFERED, 1000, 5000, 5000),  # exactly offered
        (OFFERED[:4], 1000, 3799, 2000),  # more than offered: the most offered
        (OFFERED, 1000, 0, 1000),  # one system, no pairs
    ],
)
def test_starting_resamples(offered, usual, needed, start):
    assert starting_resamples(offered, usual, needed) == start
