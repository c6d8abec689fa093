"""METEOR against meteor-1.5.jar's pinned numbers (scripts/meteor_fixtures.py writes them).

Every case of the fixture is a slice of a shared test set scored by the jar with some options
(language, modules, task, weights, parameters, -norm, -lower, one or several references). mteval
must give the same per-segment statistics as the jar's -ssOut, and the same segment and system
scores (to 1e-12; see below). A case whose modules cannot run here (their matcher or data is
missing) is skipped, with the reason.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.metric import METEOR, configuration_of
from mteval_core.settings.options import Options
from tests.helpers import read_lines, shared_dataset

FIXTURE = Path(__file__).with_name("meteor_jar_fixture.json")


@cache
def fixture() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def options_for(jar_args: list[str]) -> Options:
    """mteval's options that say what the jar's command-line arguments say."""
    fields: dict = {}
    args = list(jar_args)
    while args:
        flag = args.pop(0)
        if flag in ("-norm", "-lower"):
            fields["meteor_normalize" if flag == "-norm" else "lowercase"] = True
            continue
        value = args.pop(0)
        if flag == "-l":
            fields["meteor_language"] = value
        elif flag == "-t":
            fields["meteor_task"] = value
        elif flag == "-m":
            fields["meteor_modules"] = tuple(value.split())
        elif flag == "-w":
            fields["meteor_weights"] = tuple(float(x) for x in value.split())
        elif flag == "-p":
            fields["meteor_parameters"] = tuple(float(x) for x in value.split())
    return Options(**fields)


def jar_layout(rows: np.ndarray, n_modules: int) -> np.ndarray:
    """Our statistics in the 23 columns of the jar's MeteorStats.toString: modules padded to 4,
    chunks 1 where we keep 0 for a complete match, matched words at the end."""
    n = rows.shape[0]
    modules = rows[:, 4 : 4 + 4 * n_modules]
    chunks = rows[:, -1].copy()
    matched_hyp = modules[:, 0::4].sum(axis=1) + modules[:, 2::4].sum(axis=1)
    matched_ref = modules[:, 1::4].sum(axis=1) + modules[:, 3::4].sum(axis=1)
    complete = (matched_hyp == rows[:, 0]) & (matched_ref == rows[:, 1]) & (matched_hyp > 0)
    chunks[complete & (chunks == 0)] = 1
    padding = np.zeros((n, 4 * (4 - n_modules)))
    return np.column_stack(
        [rows[:, :4], modules, padding, chunks, matched_hyp, matched_ref]
    ).astype(np.int64)


CASES = [
    (case["name"], system)
    for case in json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]
    for system in case["systems"]
]


@pytest.mark.parametrize(("name", "system"), CASES)
def test_equal_to_the_jar(name: str, system: str) -> None:
    case = next(c for c in fixture()["cases"] if c["name"] == name)
    folder = shared_dataset(case["data"])
    stop = case["start"] + case["count"]
    references = [read_lines(folder / r)[case["start"] : stop] for r in case["references"]]
    hypotheses = read_lines(folder / "sys" / system)[case["start"] : stop]
    options = options_for(case["jar_args"])
    try:
        metric = METEOR(options)
        metric.matchers()
    except InputError as error:
        pytest.skip(f"{name}: {error}")
    if metric.configuration.modules != configuration_of(options).modules:
        pytest.skip(f"{name}: not every module of the jar's run is available here")
    expected = case["systems"][system]
    statistics = metric.segment_statistics(hypotheses, references)
    ours_stats = jar_layout(statistics, len(metric.configuration.modules))
    jar_stats = np.array([[int(x) for x in line.split()] for line in expected["stats"]])
    np.testing.assert_array_equal(ours_stats, jar_stats)
    # Scores to 1e-12: they are equal to the last bit except where Java's Math.pow (HotSpot's
    # intrinsic, not correctly rounded) and the C library's pow differ by one unit in the last
    # place for a beta other than 1 (3 of 7,792 WMT21 zh-en segments with all modules).
    np.testing.assert_allclose(
        metric.segment_scores(statistics), expected["segments"], rtol=0, atol=1e-12
    )
    assert abs(metric.corpus_score(statistics) - expected["corpus"]) <= 1e-12
