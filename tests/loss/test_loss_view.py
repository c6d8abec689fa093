"""The dashboard's loss view: prepared once per data set, then evaluated at any costs; the paper's
tables, the per-category breakdown with its reversals, and seeded intervals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mteval_core.io.loss_csv import read_loss_table
from mteval_core.loss import uncertainty
from mteval_core.loss.average import losses
from mteval_core.loss.inputs import case_matrix, grouped_counts, grouped_rates
from mteval_core.loss.uncertainty import bootstrap_cases, bootstrap_counts
from mteval_core.loss.view import (
    MEAN_OF_GROUPS,
    PAPER_PRESET_POINTS,
    POOLED,
    SEED,
    analyse_loss,
    breakdown_choices,
    category_breakdown,
    setting_from_link,
    uncertainty_at,
    uncertainty_of,
    view_at,
)

LOSS_DATA = Path(__file__).resolve().parents[2] / "sample_data" / "loss"
OVERALL = LOSS_DATA / "tate-voss-2006-table2-table4-rates.csv"
BY_WH = LOSS_DATA / "tate-voss-2006-table3-table8-rates-by-wh.csv"
COUNTS = LOSS_DATA / "tate-voss-2006-table2-counts.csv"
SYSTEMS = ("MT1", "MT2", "MT3")


def read(path: Path):
    return read_loss_table(path.read_bytes(), path.name)


def rounded(values: dict[str, float]) -> list[float]:
    return [round(values[system], 2) for system in SYSTEMS]


@pytest.mark.parametrize(
    ("costs", "printed", "order"),
    [
        ((1, 2, 2), [2.30, 0.75, 2.35], ["MT2", "MT1", "MT3"]),  # Table 6
        ((1, 5, 2), [7.04, 5.62, 7.34], ["MT2", "MT1", "MT3"]),  # Table 7
    ],
)
def test_one_prepared_map_serves_every_cost(costs, printed, order):
    analysis = analyse_loss(read(OVERALL), None)
    assert list(analysis.groups) == ["all"] and analysis.bootstraps is None
    group = analysis.groups["all"]
    view = view_at(group, costs)
    assert rounded(view.loss) == printed and view.ranking == order
    assert view.regions is group.regions  # the map is not recomputed per cost setting
    assert sum(region.area for region in view.regions) == pytest.approx(0.5)
    assert view.first_place_change.leader == "MT2"
    breakdown = category_breakdown(analysis, costs)  # one group: overall is that group
    assert analysis.overall_method == POOLED
    assert rounded(breakdown.overall) == printed and breakdown.differing == {}


def test_breakdown_by_wh_names_who_at_table_10_costs_only():
    analysis = analyse_loss(read(BY_WH), "wh")
    assert analysis.overall_method == MEAN_OF_GROUPS
    table_10 = category_breakdown(analysis, (5, 5, 5.5))
    assert {wh: rounded(loss) for wh, loss in table_10.by_group.items()} == {
        "When": [0.51, -6.80, -0.72],
        "Where": [-0.97, -7.73, -3.24],
        "Who": [-5.57, -10.54, -5.41],
    }
    # The mean of the three wh-types: six documents each, so it is the pooled loss.
    assert rounded(table_10.overall) == [-2.01, -8.36, -3.12]
    assert table_10.ranking == ["MT2", "MT3", "MT1"]
    assert table_10.differing == {"Who": [("MT1", "MT3")]}
    table_9 = category_breakdown(analysis, (5, 2, 1))
    assert table_9.differing == {}  # "MT2 > MT3 > MT1 persists within each of the wh-types"


def test_mean_of_the_categories_matches_the_overall_table_in_ranking():
    by_wh = category_breakdown(analyse_loss(read(BY_WH), "wh"), (5, 5, 5.5))
    overall = losses(grouped_rates(read(OVERALL))["all"], (5, 5, 5.5))
    for system in SYSTEMS:  # Table 4's totals are the means of Table 8's, up to rounding
        assert by_wh.overall[system] == pytest.approx(overall[system], abs=0.05)


def test_counts_are_bootstrapped_once_seeded_and_labelled():
    data = read(COUNTS)
    analysis = analyse_loss(data, None)
    boot = analysis.bootstraps["all"]
    assert boot.method == "parametric bootstrap of the counts"
    again = bootstrap_counts(grouped_counts(data)["all"], 2000, np.random.default_rng([SEED, 0]))
    assert np.array_equal(boot.coefficients, again.coefficients)
    costs = (1, 2, 2)
    view = view_at(analysis.groups["all"], costs)
    assert rounded(view.loss) == [2.29, 0.74, 2.34]  # the unrounded rates (sample README)
    spread = uncertainty_at(boot, view.loss, costs)
    for system, (low, high) in spread.intervals.items():
        assert low < view.loss[system] < high
        assert high - low < 1.0
    verdicts = {(v.better, v.worse): v for v in spread.verdicts}
    assert set(verdicts) == {("MT2", "MT1"), ("MT1", "MT3"), ("MT2", "MT3")}
    assert verdicts[("MT1", "MT3")].within_uncertainty
    assert 0.5 < verdicts[("MT1", "MT3")].probability < 0.975
    assert not verdicts[("MT2", "MT1")].within_uncertainty


COUNTS_BY_DOMAIN = (
    "system,domain,correct,non_response,incorrect,rt_total,marked_total,cases\n"
    "A,x,8,1,1,10,9,2\n"  # coefficients (-4, 0.5, 0.5)
    "B,x,6,2,2,10,8,2\n"  # (-3, 1, 1)
    "A,y,2,4,4,10,6,2\n"  # (-1, 2, 2)
    "B,y,5,2,1,10,8,2\n"  # (-2.5, 1, 0.5)
)


def test_counts_per_category_pool_into_the_overall_loss():
    data = read_loss_table(COUNTS_BY_DOMAIN.encode(), "domains.csv")
    analysis = analyse_loss(data, "domain")
    assert analysis.overall_method == POOLED
    breakdown = category_breakdown(analysis, (1, 1, 1))
    assert breakdown.by_group == {
        "x": pytest.approx({"A": -3.0, "B": -1.0}),
        "y": pytest.approx({"A": 3.0, "B": -1.0}),
    }
    assert breakdown.overall == pytest.approx({"A": 0.0, "B": -1.0})  # 4 cases per system
    assert breakdown.ranking == ["B", "A"]
    assert breakdown.differing == {"x": [("A", "B")]}
    assert set(analysis.bootstraps) == {"x", "y"}


def case_rows(cases_per_domain: int = 30) -> str:
    rng = np.random.default_rng(3)
    rows = ["system,case,domain,correct,non_response,incorrect,rt_total,marked_total"]
    for system, skill in (("A", 0.7), ("B", 0.4)):
        for domain in ("news", "talks"):
            for case in range(cases_per_domain):
                correct, incorrect = int(rng.binomial(10, skill)), int(rng.binomial(6, 0.2))
                counts = f"{correct},{10 - correct},{incorrect},10,6"
                rows.append(f"{system},{domain}{case},{domain},{counts}")
    return "\n".join(rows) + "\n"


def test_case_rows_are_bootstrapped_over_cases_per_group():
    data = read_loss_table(case_rows().encode(), "cases.csv")
    analysis = analyse_loss(data, "domain", resamples=300)
    assert list(analysis.groups) == ["news", "talks"]
    for index, group in enumerate(analysis.groups):
        boot = analysis.bootstraps[group]
        assert boot.method == "bootstrap over cases"
        assert boot.coefficients.shape == (300, 2, 3)
        expected = bootstrap_cases(
            case_matrix(data, "domain")[group], 300, np.random.default_rng([SEED, index])
        )
        assert np.array_equal(boot.coefficients, expected.coefficients)
    pooled = losses(grouped_rates(data)["all"], (5, 2, 1))
    assert category_breakdown(analysis, (5, 2, 1)).overall == pytest.approx(pooled)


def test_bootstrap_over_cases_in_blocks_keeps_its_numbers_sensible(monkeypatch):
    cases = case_matrix(read_loss_table(case_rows().encode(), "cases.csv"))["all"]
    monkeypatch.setattr(uncertainty, "PICKS_PER_BLOCK", 70)  # 60 cases a system: blocks of 1
    boot = bootstrap_cases(cases, 50, np.random.default_rng(1))
    assert boot.coefficients.shape == (50, 2, 3)
    for system, rows in enumerate(cases.values()):
        observed = -rows[:, 0].mean()  # -CR / N
        assert boot.coefficients[:, system, 0].mean() == pytest.approx(observed, abs=0.3)
        assert boot.coefficients[:, system, 0].std() > 0


def test_a_table_of_rates_cannot_be_ranked_without_its_categories():
    assert breakdown_choices(read(OVERALL)) == []  # no categories: nothing to choose
    assert breakdown_choices(read(BY_WH)) == ["wh"]  # rates per wh cannot be pooled
    counts = read_loss_table(COUNTS_BY_DOMAIN.encode(), "domains.csv")
    assert breakdown_choices(counts) == [None, "domain"]  # None: all rows pooled


def test_rates_have_no_uncertainty_and_counts_have_their_groups():
    rates = analyse_loss(read(OVERALL), None)
    view = view_at(rates.groups["all"], (1, 2, 2))
    assert uncertainty_of(rates, "all", view.loss, (1, 2, 2)) is None
    counts = analyse_loss(read_loss_table(COUNTS_BY_DOMAIN.encode(), "domains.csv"), "domain")
    view = view_at(counts.groups["y"], (1, 1, 1))
    spread = uncertainty_of(counts, "y", view.loss, (1, 1, 1))
    expected = uncertainty_at(counts.bootstraps["y"], view.loss, (1, 1, 1))
    assert spread.intervals == expected.intervals and spread.verdicts == expected.verdicts


def test_the_paper_presets_on_the_map_are_their_cost_shares():
    assert PAPER_PRESET_POINTS["Tables 5 and 9"] == pytest.approx([2 / 8, 1 / 8])
    assert PAPER_PRESET_POINTS["Table 10"] == pytest.approx([5 / 15.5, 5.5 / 15.5])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, 2.0),  # no parameter: the default
        ("3.5", 3.5),
        ("-1", 0.0),  # clipped at 0
        ("12", 10.0),  # clipped at the maximum
        ("nan", 2.0),
        ("inf", 2.0),
        ("1e999", 2.0),  # inf too
        ("<img src=x>", 2.0),
        ("", 2.0),
    ],
)
def test_a_setting_from_a_link_is_a_finite_number_in_range_or_the_default(text, expected):
    assert setting_from_link(text, 2.0, 10.0) == expected
