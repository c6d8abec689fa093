"""AutoRank's arithmetic on hand-checked cases, its invariances, its bootstrap, the reader of
WMT25's score files and the command line's layout."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.wmt25_automatic_scores import read_automatic_scores, read_systems_metadata
from mteval_core.model.metric_segments import MetricSegments, SegmentKey
from mteval_core.rankings.autorank import (
    autorank,
    autorank_wmt24,
    autorank_wmt25,
    linear_ranks,
    moved,
    robust_z,
    wmt25_metrics,
)


def test_robust_z_by_hand():
    # median 3, P100 5, P25 2: scale 3
    assert robust_z(np.array([1.0, 2, 3, 4, 5])) == pytest.approx([-2 / 3, -1 / 3, 0, 1 / 3, 2 / 3])
    assert robust_z(np.array([2.0, 2, 2])) == pytest.approx([0, 0, 0])  # scale 0 counts as 1


def test_autorank_by_hand():
    means = np.array([[10.0, 0.5], [20.0, 0.9], [15.0, 0.1]])  # systems x metrics
    # WMT24: ranks per metric [3, 1, 2] and [2, 1, 3]
    assert autorank_wmt24(means) == pytest.approx([2.5, 1.0, 2.5])
    # WMT25: z of metric 1: median 15, P100 20, P25 12.5 -> [-2/3, 2/3, 0];
    # metric 2: median 0.5, P100 0.9, P25 0.3 -> [0, 2/3, -2/3]; means [-1/3, 2/3, -1/3]
    assert autorank_wmt25(means) == pytest.approx([3.0, 1.0, 3.0])
    assert autorank_wmt25(np.ones((4, 2))) == pytest.approx([1, 1, 1, 1])  # all equal: all 1
    assert linear_ranks(np.array([1.0, 1.0])) == pytest.approx([1, 1])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        # On a 0.01 grid: a difference far below a double's resolution at the shift
        # (6e-64 beside 1.0) vanishes in x + shift, a rounding no recipe can undo.
        st.lists(st.integers(-10_000, 10_000).map(lambda v: v / 100), min_size=3, max_size=3),
        min_size=2,
        max_size=8,
    ),
    st.floats(-50, 50),
    st.floats(0.1, 10),
    st.randoms(use_true_random=False),
)
def test_shifts_scales_and_orders_change_nothing(rows, shift, scale, random):
    means = np.array(rows)
    for recipe in (autorank_wmt24, autorank_wmt25):
        base = recipe(means)
        assert np.all((base >= 1 - 1e-9) & (base <= len(rows) + 1e-9))
        moved_metric = means.copy()
        moved_metric[:, 0] = moved_metric[:, 0] * scale + shift
        assert recipe(moved_metric) == pytest.approx(base, abs=1e-6)
        order = list(range(len(rows)))
        random.shuffle(order)
        assert recipe(means[order]) == pytest.approx(base[order], abs=1e-9)


def segments(rows: dict[str, list[float]], metric: str = "m") -> MetricSegments:
    systems = tuple(rows)
    n = len(next(iter(rows.values())))
    keys = tuple(SegmentKey("news", "d", i) for i in range(n))
    return MetricSegments(
        "en-de", systems, (metric,), keys, {metric: np.array(list(rows.values()))}
    )


def test_missing_scores_are_skipped_by_the_means():
    scores = segments({"a": [1.0, math.nan, 3.0], "b": [1.0, 1.0, 1.0]})
    assert scores.system_means()[:, 0] == pytest.approx([2.0, 1.0])


def test_bootstrap_is_seeded_and_separates_a_clear_winner():
    rng = np.random.default_rng(0)
    rows = {
        "best": list(rng.normal(10, 1, 200)),
        "mid": list(rng.normal(5, 1, 200)),
        "tie1": list(rng.normal(0, 1, 200)),
        "tie2": list(rng.normal(0, 1, 200)),
    }
    scores = segments(rows)
    one = autorank(scores, "wmt25", resamples=300, rng=np.random.default_rng(7))
    two = autorank(scores, "wmt25", resamples=300, rng=np.random.default_rng(7))
    assert np.array_equal(one.interval, two.interval)
    assert one.rank_range.tolist()[:2] == [[1, 1], [2, 2]]
    assert one.rank_range.tolist()[2:] == [[3, 4], [3, 4]]  # the two equal systems overlap
    assert np.all(one.interval[:, 0] <= one.autorank) and np.all(one.autorank <= one.interval[:, 1])


def test_leave_one_out_names_the_systems_that_move():
    keys = (SegmentKey("news", "d", 0),)
    scores = MetricSegments(
        "en-de",
        ("a", "b", "c"),
        ("m1", "m2", "m3"),
        keys,
        {
            "m1": np.array([[3.0], [2], [1]]),
            "m2": np.array([[1.0], [3], [2]]),
            "m3": np.array([[3.0], [2.5], [1]]),
        },
    )
    result = autorank(scores, "wmt24", leave_one_out=True)
    changes = moved(result)
    assert set(changes) == {"m1", "m2", "m3"}
    # with all three: a 5/3, b 1.5, c 8/3 (b, a, c); without m2: a 1, b 1.75, c 3 (a, b, c)
    assert result.autorank == pytest.approx([5 / 3, 1.5, 8 / 3])
    assert changes == {"m1": [], "m2": [("a", 2, 1), ("b", 1, 2)], "m3": []}


def test_wmt25_metrics_per_kind_of_pair():
    assert wmt25_metrics("en-bho_IN") == ("chrF++",)
    assert "CometKiwi-XL" in wmt25_metrics("en-cs_CZ")
    assert "CometKiwi-XL" not in wmt25_metrics("en-it_IT")


# ---------------------------------------------------------------------------------- the reader
def line(pair="en-de_DE", doc="d1", **scores):
    return json.dumps(
        {"language_pair": pair, "domain": "news", "document_id": doc, "metric_scores": scores}
    )


def write(folder, system, *lines):
    (folder / f"{system}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_reader_aligns_systems_by_document(tmp_path):
    write(tmp_path, "A", line(doc="d2", m=[1, 2]), line(doc="d1", m=[3]))
    write(tmp_path, "B", line(doc="d1", m=[4]), line(doc="d2", m=[5, None]))
    scores = read_automatic_scores([tmp_path])["en-de_DE"]
    assert scores.systems == ("A", "B") and scores.metrics == ("m",)
    assert [(k.document, k.index) for k in scores.segments] == [("d1", 0), ("d2", 0), ("d2", 1)]
    assert scores.scores["m"][0].tolist() == [3, 1, 2]
    assert np.isnan(scores.scores["m"][1, 2])


@pytest.mark.parametrize(
    ("lines_b", "problem"),
    [
        ([line(doc="d1", m=[4, 5])], "scores other documents, paragraphs or metrics"),
        ([line(doc="d1", m=["x"])], "not a list of numbers"),
        (["{not json"], "not valid JSON"),
        ([json.dumps({"language_pair": "en-de_DE"})], "has no domain, document_id, metric_scores"),
        ([line(doc="d1", m=[1]), line(doc="d1", m=[1])], "a second time"),
    ],
)
def test_the_reader_refuses_with_file_and_line(tmp_path, lines_b, problem):
    write(tmp_path, "A", line(doc="d1", m=[1]))
    write(tmp_path, "B", *lines_b)
    with pytest.raises(InputError, match=problem) as refused:
        read_automatic_scores([tmp_path])
    assert "B.jsonl" in str(refused.value)


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        ([1, True], "metric 'm''s scores are not a list of numbers"),
        ([1, "2.5"], "metric 'm''s scores are not a list of numbers"),
        ([1, {"x": 1}], "metric 'm''s scores are not a list of numbers"),
        ([1, 1e999], "metric 'm' has an infinite score"),
        ([1, 10**400], "metric 'm' has an infinite score"),
    ],
)
def test_a_bad_score_is_refused_with_the_line_of_its_document(tmp_path, bad, problem):
    """The scores are checked a system at a time (the fast path): the message still names the
    line of the one document that holds the bad score, here the third."""
    write(tmp_path, "A", line(doc="d1", m=[1]), line(doc="d2", m=[1]), line(doc="d3", m=[1, 2]))
    text = line(doc="d3", m=[0, 0]).replace("[0, 0]", json.dumps(bad))  # 1e999: Infinity
    write(tmp_path, "B", line(doc="d1", m=[2]), line(doc="d2", m=[None]), text)
    with pytest.raises(InputError, match=re.escape(problem)) as refused:
        read_automatic_scores([tmp_path])
    assert "B.jsonl, line 3" in str(refused.value)


def test_metadata_without_supported_lps_is_refused(tmp_path):
    path = tmp_path / "meta.json"
    path.write_text('{"A": {"constrained": true}}', encoding="utf-8")
    with pytest.raises(InputError, match="'A' has no supported_lps"):
        read_systems_metadata(path)


# ---------------------------------------------------------------------------- the command line
def test_the_command_line_writes_the_documented_json(tmp_path, capsys):
    write(tmp_path, "A", line(m=[1, 2, 3], n=[0.1, 0.2, 0.3]))
    write(tmp_path, "B", line(m=[3, 3, 3], n=[0.3, 0.3, 0.4]))
    write(tmp_path, "C", line(m=[0, 0, 1], n=[0.0, 0.1, 0.1]))
    meta = tmp_path / "meta.json"
    meta.write_text(
        json.dumps({s: {"supported_lps": {"en-de_DE": "supported"}} for s in "AB"}),
        encoding="utf-8",
    )
    argv = ["rank", "--autorank", "wmt25", "--metric-scores", str(tmp_path)]
    argv += ["--systems-metadata", str(meta), "--autorank-metrics", "m,n", "--format", "json"]
    assert main(argv) == 0
    document = json.loads(capsys.readouterr().out)
    systems = document["language_pairs"]["en-de_DE"]["systems"]
    assert [s["system"] for s in systems] == ["B", "A"]  # C is not listed for the pair
    assert systems[0] == {
        "system": "B",
        "score": 1.0,
        "autorank": 1.0,
        "rank": [1, 1],
        "cluster": None,
        "extra": {"metrics": {"m": 3.0, "n": pytest.approx(1.0 / 3)}},
    }
    assert systems[1]["autorank"] == 2.0


def test_the_command_line_refuses_an_unknown_metric(tmp_path, capsys):
    write(tmp_path, "A", line(m=[1]))
    write(tmp_path, "B", line(m=[2]))
    argv = ["rank", "--autorank", "wmt25", "--metric-scores", str(tmp_path)]
    assert main([*argv, "--autorank-metrics", "XCOMET-XL"]) == 2
    assert "no scores of xcomet-xl" in capsys.readouterr().err.lower()
