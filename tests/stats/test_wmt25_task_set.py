"""mt-metrics-eval's WMT25 task set (tasks.py WMT25(), 68a481a) on the WMT25-shaped folder of
tests/stats/wmt25_folder.py: every task's values, metric order, permutation p-values, ranks and
draws, and the average with its clusters, equal to what scripts/mtme_wmt25_oracle.py pinned from
mt-metrics-eval itself (tests/stats/fixtures/mtme_wmt25.json, k and seed recorded there)."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.cli.correlate_task_set import _pair_data, render_task_set
from mteval_core.stats.task_sets import TaskSetParams, wmt25_task_set
from tests.stats.wmt25_folder import PAIRS, TEST_SET, wmt25_shaped  # noqa: F401 (a fixture)

FIXTURE = json.loads((Path(__file__).parent / "fixtures/mtme_wmt25.json").read_text("utf-8"))
ORACLE = FIXTURE["task_set"]
PERMUTATIONS, SEED = FIXTURE["provenance"]["permutations"], FIXTURE["provenance"]["seed"]


def arguments(folder: Path, **given) -> argparse.Namespace:
    defaults = {"mtme": str(folder), "test_set": TEST_SET, "reference": None, "criterion": None}
    return argparse.Namespace(**{**defaults, "bootstrap": 0, "seed": SEED, **given})


@pytest.fixture(scope="module")
def ours(wmt25_shaped):  # noqa: F811
    pairs = {lp: _pair_data(arguments(wmt25_shaped), lp)[0] for lp in PAIRS}
    return pairs, wmt25_task_set(pairs, TaskSetParams(n_permutations=PERMUTATIONS, seed=SEED))


def test_the_systems_are_mt_metrics_evals(ours):
    pairs, _ = ours
    for lp, data in pairs.items():
        assert list(data.systems) == FIXTURE["systems"][lp]


def test_tasks_and_weights(ours):
    _, result = ours
    assert [(t.lp, t.level) for t in result.tasks] == [
        (lp, level) for lp in sorted(PAIRS) for level in ("sys", "seg")
    ]
    for task, theirs in zip(result.tasks, ORACLE["tasks"]):
        assert f"lang={task.lp} " in theirs["name"] and f"level={task.level} " in theirs["name"]
    assert list(result.weights) == ORACLE["weights"]


@pytest.mark.parametrize("number", range(4))
def test_every_value_order_p_value_and_rank(ours, number):
    """Bit for bit: the same values, so the same order, so the same draws from the seeded
    generator, so the same p-values and clusters."""
    task, theirs = ours[1].tasks[number], ORACLE["tasks"][number]
    assert list(task.metrics) == list(theirs["corr_ranks"])
    assert list(task.values) == [value for value, _ in theirs["corr_ranks"].values()]
    assert list(task.ranks) == [rank for _, rank in theirs["corr_ranks"].values()]
    n = len(task.metrics)
    upper = np.triu_indices(n, k=1)
    assert task.p_values[upper].tolist() == np.array(theirs["p_values"])[upper].tolist()
    for i, j in zip(*upper):
        assert len(task.draws[(i, j)]) == theirs["draws"][i][j]


def test_the_average_and_its_clusters(ours):
    _, result = ours
    assert [(m, v, r) for m, v, r in result.average] == [
        (m, v, r) for m, (v, r) in ORACLE["average"].items()
    ]
    n = len(result.average)
    upper = np.triu_indices(n, k=1)
    theirs = np.array(ORACLE["average_p_values"])[upper].tolist()
    assert result.average_p_values[upper].tolist() == theirs


def test_some_pair_stopped_early_and_some_cluster_split(ours):
    """The fixture exercises the early stops and AssignRanks, not only full runs."""
    _, result = ours
    lengths = {len(d) for task in result.tasks for d in task.draws.values()}
    assert min(lengths) < PERMUTATIONS == max(lengths)
    assert any(max(task.ranks) > 1 for task in result.tasks)


def test_the_command_prints_mt_metrics_evals_table_with_intervals(capsys, wmt25_shaped):  # noqa: F811
    argv = ["correlate", "--mtme", str(wmt25_shaped), "--test-set", TEST_SET]
    argv += ["--task-set", "wmt25", "--permutations", str(PERMUTATIONS), "--seed", str(SEED)]
    assert main([*argv, "--bootstrap", "200", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for task, theirs in zip(report["tasks"], ORACLE["tasks"]):
        assert [(r["metric"], r["value"], r["rank"]) for r in task["metrics"]] == [
            (m, v, r) for m, (v, r) in theirs["corr_ranks"].items()
        ]
        for row in task["metrics"]:
            low, high = row["ci"]
            assert low <= high and low - 0.05 < row["value"] < high + 0.05
    text = render_task_set(report)  # what the text format prints (one run of the tests)
    assert "[lo, hi]: 95% bootstrap intervals over 200 resamples" in text
    text = re.sub(r" \[-?[0-9.]+, -?[0-9.]+\]", "", text)  # our intervals beside its cells
    # mt-metrics-eval's Table rows: metric, then "rank value" for the average and each task
    for line in ORACLE["table"].splitlines()[5:]:
        metric, *cells = line.split()
        ours = next(row for row in text.splitlines() if row.split()[:1] == [metric]).split()
        assert ours == [metric, *cells], line


def test_coins_are_the_legacy_binomials_stream():
    """One draw of many (n x n) blocks is the per-item binomial(1, 0.5, (n, n)) calls of
    PairwisePermutationSigDiff, and uniforms above 0.5 are those binomials."""
    from mteval_core.stats.task_sets import coins

    sizes = [13, 12, 1, 13] * 25
    per_item = np.random.RandomState(5)
    calls = [per_item.binomial(1, 0.5, (n, n)).ravel() for n in sizes]
    together = coins(np.random.RandomState(5), (sum(n * n for n in sizes),))
    assert np.array_equal(np.concatenate(calls).astype(bool), together)
    assert per_item.random_sample() == np.random.RandomState(5).random_sample(len(together) + 1)[-1]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "--task-set needs --mtme and --test-set"),
        (["--mtme", "DIR", "--test-set", "wmt25", "--level", "system"], "cannot be given with"),
        (
            ["--mtme", "DIR", "--test-set", "wmt25", "--permutations", "10001"],
            "--permutations 10001 is outside 0 to 10,000 (MAX_TASK_SET_PERMUTATIONS)",
        ),
    ],
)
def test_refusals_name_what_to_do(capsys, extra, message):
    assert main(["correlate", "--task-set", "wmt25", *extra]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_folder_without_segment_human_scores_is_refused(capsys, tmp_path):
    folder = tmp_path / "wmt25"
    (folder / "sources").mkdir(parents=True)
    (folder / "sources/en-de.txt").write_text("a\n", encoding="utf-8")
    argv = ["correlate", "--mtme", str(tmp_path), "--test-set", "wmt25", "--task-set", "wmt25"]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert "no language pair of the test set has segment-level human scores" in err
    assert str(folder / "human-scores") in err
