"""comet-compare's win and tie shares from our own segment scores equal comet-compare's on the
same scores and seed (tests/stats/fixtures/comet_compare_oracle.json: its own functions from a
scratch copy, and the released unbabel-comet 2.2.7 compare_command run with a stand-in model
whose scores are comet.json's; its provenance says how, outside the project)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.settings.limits import COMET_COMPARE_MAX_CELLS
from mteval_core.stats.comet_compare import comet_compare

ORACLE = json.loads((Path(__file__).parent / "fixtures/comet_compare_oracle.json").read_text())
OUTPUTS = Path(__file__).parent.parent / "io/fixtures/neural_outputs"


def inputs(case: dict) -> dict[str, list[float]]:
    """The case's segment scores, read from the fixtures as the oracle read them."""
    comet = json.loads((OUTPUTS / "comet.json").read_text(encoding="utf-8"))
    every = {Path(key).stem: [e["COMET"] for e in entries] for key, entries in comet.items()}
    rounded = (OUTPUTS / "neural-large.pymarian.txt").read_text().split()
    every["neural-large-4dp"] = [float(value) for value in rounded]
    return {system: every[system] for system in case["systems"]}


@pytest.mark.parametrize("case", ORACLE["cases"], ids=lambda case: case["scores"])
def test_equal_to_comet_compares_own_functions(case: dict) -> None:
    pairs = comet_compare(
        {k: np.array(v) for k, v in inputs(case).items()},
        num_splits=case["num_splits"],
        sample_ratio=case["sample_ratio"],
    )
    assert len(pairs) == len(case["results"])
    for pair, expected in zip(pairs, case["results"], strict=True):
        shares = expected["bootstrap_resampling"]
        assert (pair.x, pair.y) == (expected["x_name"], expected["y_name"])
        assert (pair.x_mean, pair.y_mean) == (shares["x-mean"], shares["y-mean"])
        assert (pair.ties, pair.x_wins, pair.y_wins) == (
            shares["ties (%)"], shares["x_wins (%)"], shares["y_wins (%)"]
        )  # fmt: skip
        t_test = expected["paired_t-test"]
        assert pair.t_statistic == pytest.approx(t_test["statistic"], rel=1e-12)
        assert pair.p_value == pytest.approx(t_test["p_value"], rel=1e-9)


def test_the_ties_case_has_ties_and_wins_sum_to_one() -> None:
    case = ORACLE["cases"][1]
    pairs = comet_compare({k: np.array(v) for k, v in inputs(case).items()})
    assert pairs[0].ties == 1.0  # 4 decimals of one system tie with it on every split
    for pair in pairs:
        assert pair.ties + pair.x_wins + pair.y_wins == pytest.approx(1.0)


def test_unscored_segments_and_too_much_work_are_refused() -> None:
    with pytest.raises(InputError, match="need a score for every segment"):
        comet_compare({"a": np.array([0.1, np.nan]), "b": np.array([0.2, 0.3])})
    big = np.zeros(COMET_COMPARE_MAX_CELLS // 300 // 2 * 10)  # 0.4 of it x 300 x 2 systems
    with pytest.raises(InputError, match="COMET_COMPARE_MAX_CELLS"):
        comet_compare({"a": big, "b": big})
