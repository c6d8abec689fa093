"""Bootstrap of the losses: deterministic under a seed, sensible on the paper's counts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mteval_core.io.loss_csv import read_loss_table
from mteval_core.loss.average import losses
from mteval_core.loss.inputs import case_matrix, grouped_counts
from mteval_core.loss.uncertainty import bootstrap_cases, bootstrap_counts, pair_verdicts

COUNTS = (
    Path(__file__).resolve().parents[2]
    / "sample_data"
    / "loss"
    / "tate-voss-2006-table2-counts.csv"
)


def paper_counts():
    return grouped_counts(read_loss_table(COUNTS.read_bytes(), str(COUNTS)))["all"]


def test_parametric_bootstrap_is_seeded_and_labelled():
    first = bootstrap_counts(paper_counts(), 500, np.random.default_rng(7))
    second = bootstrap_counts(paper_counts(), 500, np.random.default_rng(7))
    assert np.array_equal(first.coefficients, second.coefficients)
    assert first.method == "parametric bootstrap of the counts"
    point = losses({s: c.rates() for s, c in paper_counts().items()}, (5, 2, 1))
    for system, (low, high) in first.intervals((5, 2, 1)).items():
        assert low < point[system] < high


def test_paper_verdicts_flag_the_close_pair_only():
    counts = paper_counts()
    boot = bootstrap_counts(counts, 2000, np.random.default_rng(1))
    costs = (1, 2, 2)  # Table 6: MT1 2.30 and MT3 2.35 are nearly tied
    point = losses({s: c.rates() for s, c in counts.items()}, costs)
    verdicts = {(v.better, v.worse): v for v in pair_verdicts(boot, point, costs)}
    assert verdicts[("MT1", "MT3")].within_uncertainty
    assert 0.5 < verdicts[("MT1", "MT3")].probability < 0.975
    assert not verdicts[("MT2", "MT1")].within_uncertainty
    assert boot.probability_better(costs, "MT2", "MT3") > 0.99


def test_bootstrap_over_cases():
    rows = ["system,case,correct,non_response,incorrect,rt_total,marked_total"]
    rng = np.random.default_rng(3)
    for system, skill in (("A", 0.6), ("B", 0.4)):
        for case in range(40):
            correct = int(rng.binomial(10, skill))
            rows.append(
                f"{system},{case},{correct},{10 - correct},{int(rng.binomial(6, 0.2))},10,6"
            )
    data = read_loss_table("\n".join(rows).encode(), "cases.csv")
    cases = case_matrix(data)["all"]
    boot = bootstrap_cases(cases, 300, np.random.default_rng(5))
    again = bootstrap_cases(cases, 300, np.random.default_rng(5))
    assert boot.method == "bootstrap over cases"
    assert np.array_equal(boot.coefficients, again.coefficients)
    assert boot.coefficients.shape == (300, 2, 3)
    # The mean over resamples of -CR / N is close to the observed value.
    observed = -cases["A"][:, 0].mean()
    assert boot.coefficients[:, 0, 0].mean() == pytest.approx(observed, abs=0.1)
    assert boot.probability_better((5, 2, 1), "A", "B") > 0.99


def test_identical_systems_are_never_told_apart():
    """Ties count half: two systems with the same counts beat each other with probability 0.5
    in every resample, and their order is within the uncertainty (no tie counts as a win)."""
    same = paper_counts()["MT1"]
    boot = bootstrap_cases(
        {"A": np.tile([5.0, 2, 1, 10, 8], (20, 1)), "B": np.tile([5.0, 2, 1, 10, 8], (20, 1))},
        200,
        np.random.default_rng(0),
    )
    assert boot.probability_better((5, 2, 1), "A", "B") == 0.5
    (verdict,) = pair_verdicts(boot, {"A": -1.0, "B": -1.0}, (5, 2, 1))
    assert verdict.probability == 0.5 and verdict.within_uncertainty
    twins = bootstrap_counts({"A": same, "B": same}, 500, np.random.default_rng(2))
    assert 0.4 < twins.probability_better((5, 2, 1), "A", "B") < 0.6
