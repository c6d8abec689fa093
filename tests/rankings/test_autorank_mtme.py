"""AutoRank from an mt-metrics-eval folder's metric scores (`mteval rank --autorank wmt25 --mtme`):
WMT25's arithmetic over the folder's segment-level metrics, checked against the recipe computed
here by hand from the very numbers written into the folder; and a lower-is-better metric enters
with its sign flipped (rankings/metric_inputs.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mteval_core as mt
from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.mtme import read_mtme
from mteval_core.metrics.scoring import score_test_set
from mteval_core.rankings.metric_inputs import segments_of_metrics
from mteval_core.settings.options import Options
from tests.helpers import SAMPLE_DATA, mtme_from_shared, write_metric

MTME = ["--test-set", "wmt21.news", "--lp", "en-de"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """wmt21.news en-de with two metric files of its refC: sentence chrF and unigram F1."""
    root = mtme_from_shared(tmp_path_factory.mktemp("mtme_autorank"))
    test_set = read_mtme(root, "wmt21.news", "en-de").test_set
    segments = score_test_set(test_set, ["chrf", "f1"], Options()).segments()
    written = {}
    for metric, name in (("chrf", "chrF-refC"), ("f1", "F1-refC")):
        written[name] = {s: segments[s][metric] for s in test_set.system_names}
        write_metric(root, name, written[name])
    return root, written


def recipe_by_hand(written: dict[str, dict[str, np.ndarray]], systems: list[str]) -> np.ndarray:
    """WMT25's AutoRank as its report describes it: each metric's system means, robust z-scores
    (x - median) / (max - 25th percentile), their mean, mapped linearly onto 1..N (1 the best)."""
    columns = []
    for scores in written.values():
        means = np.array([np.mean(scores[s]) for s in systems])
        columns.append((means - np.median(means)) / (means.max() - np.percentile(means, 25)))
    z = np.mean(columns, axis=0)
    return 1 + (len(systems) - 1) * (z.max() - z) / (z.max() - z.min())


def test_autorank_of_the_folders_metrics_is_the_recipe_by_hand(folder, capsys):
    root, written = folder
    code = main(["rank", "--autorank", "wmt25", "--mtme", str(root), *MTME, "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    pair = json.loads(out)["language_pairs"]["en-de"]
    systems = [entry["system"] for entry in pair["systems"]]
    assert set(systems) == set(read_mtme(root, "wmt21.news", "en-de").test_set.system_names)
    assert not any(s.startswith("ref") for s in systems)  # references as systems: not ranked
    expected = dict(zip(systems, recipe_by_hand(written, systems), strict=True))
    for entry in pair["systems"]:
        assert entry["autorank"] == pytest.approx(expected[entry["system"]], abs=1e-9)
    assert [e["autorank"] for e in pair["systems"]] == sorted(
        e["autorank"] for e in pair["systems"]
    )
    assert pair["systems"][0]["autorank"] == pytest.approx(1.0)


def test_one_metric_chosen_ranks_by_it_alone(folder, capsys):
    root, written = folder
    args = ["rank", "--autorank", "wmt25", "--mtme", str(root), *MTME, "--format", "json"]
    assert main([*args, "--autorank-metrics", "F1-refC"]) == 0
    pair = json.loads(capsys.readouterr().out)["language_pairs"]["en-de"]
    order = [e["system"] for e in pair["systems"]]
    means = {s: np.mean(v) for s, v in written["F1-refC"].items()}
    assert order == sorted(means, key=lambda s: -means[s])


def test_an_unknown_metric_is_refused_naming_the_folders(folder, capsys):
    root, _ = folder
    args = ["rank", "--autorank", "wmt25", "--mtme", str(root), *MTME]
    assert main([*args, "--autorank-metrics", "COMET-refC"]) == 2
    err = capsys.readouterr().err
    assert "no segment scores of comet-refc for reference refC" in err
    assert "chrF-refC" in err and "F1-refC" in err


def test_score_files_and_a_folder_are_not_mixed(folder, capsys):
    root, _ = folder
    args = ["rank", "--autorank", "wmt25", "--mtme", str(root), *MTME]
    assert main([*args, "--metric-scores", str(root)]) == 2
    assert "takes --test-set (and no --metric-scores" in capsys.readouterr().err


def test_a_lower_is_better_metric_enters_with_its_sign_flipped(tmp_path):
    systems = ["neural-large", "phrase-based"]
    test_set = mt.read_test_set(
        [str(SAMPLE_DATA / "ref" / "ref-A.en")],
        {name: str(SAMPLE_DATA / "sys" / f"{name}.en") for name in systems},
    )
    rows = [f"{s},{i},{i * (1 + k)}" for k, s in enumerate(systems) for i in range(1, 41)]
    path = tmp_path / "errors.csv"
    path.write_text("system,segment,score\n" + "\n".join(rows) + "\n", encoding="utf-8")
    errors = mt.read_metric_scores(test_set, str(path), "errors", higher_is_better=False)
    segments, notes = segments_of_metrics("de-en", systems, [errors])
    np.testing.assert_array_equal(segments.scores["errors"][1], -2.0 * np.arange(1, 41))
    assert notes == ("errors: lower is better, entered with the sign flipped",)


def test_system_scores_alone_cannot_be_ranked(tmp_path):
    systems = ["neural-large", "phrase-based"]
    test_set = mt.read_test_set(
        [str(SAMPLE_DATA / "ref" / "ref-A.en")],
        {name: str(SAMPLE_DATA / "sys" / f"{name}.en") for name in systems},
    )
    path = tmp_path / "system.csv"
    path.write_text("system,score\nneural-large,1\nphrase-based,2\n", encoding="utf-8")
    metric = mt.read_metric_scores(test_set, str(path), "sys", higher_is_better=True)
    with pytest.raises(InputError, match="sys has system scores only"):
        segments_of_metrics("de-en", systems, [metric])
