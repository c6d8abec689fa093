"""Tables for people: hand-checked rows of the correlation and segment tables; the scores' table
ranked, and a line where one metric repeats another."""

from __future__ import annotations

from functools import cache

import numpy as np

from mteval_core.io import read_directory
from mteval_core.metrics.scoring import Scores, score_test_set
from mteval_core.model.testset import TestSet
from mteval_core.report.frames import (
    SHOWN_COLUMNS,
    correlation_frame,
    primary_correlation_columns,
    repeated_scores,
    scores_frame,
    segment_level_frame,
    shown_columns,
    system_segments_frame,
)
from mteval_core.settings.options import Options
from tests.helpers import make_test_set, shared_dataset


def test_segments_where_metric_and_people_disagree_come_first():
    test_set = make_test_set(["a", "b", "c", "d"], {"mt": ["w", "x", "y", "z"]})
    metric = np.array([0.9, 0.1, 0.5, 0.7])
    human = np.array([1.0, 3.0, 2.0, np.nan])  # segment 4 was not rated
    frame = system_segments_frame(test_set, metric, human, "mt")
    # ranks among rated segments (as shares): metric 1, 1/3, 2/3; human 1/3, 1, 2/3
    assert frame.index.tolist() == [1, 2, 3, 4]
    np.testing.assert_allclose(frame["rank disagreement"].iloc[:3], [0.667, 0.667, 0.0])
    assert np.isnan(frame["rank disagreement"].iloc[3])
    assert frame.loc[2, "mt"] == "x" and frame.loc[2, "ref1"] == "b"


def test_correlation_table_puts_variants_side_by_side():
    statistics = {
        "pearson": 0.91234,
        "spearman": 0.8,
        "kendall": 0.6,
        "differential_pearson": 0.7,
        "pairwise_accuracy": 0.75,
        "n": 5,
    }
    frame = correlation_frame(
        {
            "unstemmed": {"bleu": statistics | {"pearson_ci": [0.5, 0.99]}},
            "stemmed": {"bleu": statistics | {"pearson": 0.95}},
        },
        {"bleu": "BLEU"},
    )
    assert list(frame.index) == ["BLEU"]  # the label, as on the Scores page
    row = frame.loc["BLEU"]
    assert row["Pearson (unstemmed)"] == 0.912 and row["Pearson (stemmed)"] == 0.95
    assert row["Pearson 95% CI (unstemmed)"] == "[0.500, 0.990]"
    assert "Pearson 95% CI (stemmed)" not in frame.columns
    assert list(frame.columns[:3]) == ["n", "Pearson (unstemmed)", "Pearson 95% CI (unstemmed)"]


def test_correlation_table_says_why_a_statistic_is_undefined():
    defined = {
        "pearson": 0.91234,
        "spearman": 0.8,
        "kendall": 0.6,
        "differential_pearson": 0.7,
        "pairwise_accuracy": 0.75,
        "n": 4,
        "pearson_ci": [0.5, 0.99],
        "undefined": {},
    }
    flat = {key: None for key in defined} | {"n": 4, "pairwise_accuracy": 0.0}
    flat["undefined"] = {
        key: "constant metric scores" for key, value in flat.items() if value is None
    }
    frame = correlation_frame(
        {"unstemmed": {"bleu": defined, "flat": flat}}, {"bleu": "BLEU", "flat": "flat"}
    )
    assert frame.loc["flat", "Pearson (unstemmed)"] == "undefined (constant metric scores)"
    assert frame.loc["BLEU", "Pearson (unstemmed)"] == "0.912"  # the column is text throughout
    assert frame.loc["flat", "Pearson 95% CI (unstemmed)"] == "undefined (constant metric scores)"
    assert frame.loc["flat", "pairwise accuracy (unstemmed)"] == 0.0  # a defined column: numbers
    assert frame["pairwise accuracy (unstemmed)"].dtype == float


def test_overview_counts_what_a_list_would_clip() -> None:
    from mteval_core.report.frames import files_summary, overview

    systems = {f"system-{i}": ["x"] for i in range(23)}
    test_set = make_test_set(["a"], systems)
    facts = overview(test_set)
    assert facts["Systems"] == ("23: system-0, system-1, system-2, system-3, system-4 and 18 more")
    assert facts["References"] == "ref1"
    assert files_summary(test_set).startswith("24 files: ref1.txt, system-0.txt")


def test_judgments_say_how_many_systems_and_segments_were_rated() -> None:
    from mteval_core.report.frames import judgments_summary
    from tests.helpers import load_sample

    human = load_sample().test_set.human
    rows = human.segment_rows
    adequacy = rows[rows["criterion"] == "adequacy"]
    expected = (
        f"adequacy: {adequacy['system'].nunique()} systems, {adequacy['segment'].nunique()} "
        f"segments rated ({len(adequacy):,} rows)"
    )
    assert expected in judgments_summary(human)


def test_judged_references_are_named_apart_from_the_outputs() -> None:
    """WMT21 en-de's MQM rates 8 outputs and the references ref-A, ref-C and ref-D: the
    Correlation page's n is 8, so the summary must not just say 11."""
    import pandas as pd

    from mteval_core.model.testset import HumanScores
    from mteval_core.report.frames import judgments_summary

    names = ["sys-1", "ref-A", "sys-2"]
    rows = pd.DataFrame(
        {
            "system": names * 2,
            "segment": [0, 0, 0, 1, 1, 1],
            "score": [1.0] * 6,
            "criterion": ["MQM"] * 6,
        }
    )
    human = HumanScores(rows)
    summary = judgments_summary(human, ["ref-A", "ref-B"])
    assert summary == (
        "MQM: 3 systems (2 outputs and the reference ref-A, which correlations leave out), "
        "2 segments rated (6 rows)"
    )
    assert judgments_summary(human) == "MQM: 3 systems, 2 segments rated (6 rows)"


def test_segment_table_shows_the_source_and_every_reference_and_keeps_odd_names_apart():
    from mteval_core.model.testset import TextColumn

    test_set = make_test_set([["r1", "r2"], ["s1", "s2"]], {"human": ["h1", "h2"]})
    test_set = test_set.__class__(
        references=test_set.references,
        systems=test_set.systems,
        source=TextColumn("source", ("q1", "q2"), "src.txt"),
    )
    frame = system_segments_frame(test_set, np.array([1.0, 2.0]), np.array([2.0, 1.0]), "human")
    assert list(frame.columns) == [
        "metric", "human", "rank disagreement", "human (system)", "source", "ref1", "ref2",
    ]  # fmt: skip
    assert frame.loc[1, "human (system)"] == "h1" and frame.loc[2, "ref2"] == "s2"


def test_a_table_of_up_to_eight_columns_shows_them_all():
    columns = [f"c{k}" for k in range(SHOWN_COLUMNS)]
    assert SHOWN_COLUMNS == 8
    assert shown_columns(columns, primary=["c1"]) == columns
    assert shown_columns([], primary=[]) == []


def test_a_wider_table_shows_its_primary_columns_in_its_own_order():
    scores = ["BLEU", "NIST", "P", "R", "F1", "Fmean", "GTM"]
    columns = [f"{m}{end}" for m in scores for end in ("", " low", " high")]  # 21, as on Scores
    assert shown_columns(columns, primary=scores[::-1]) == scores
    assert shown_columns(columns, primary=["no such column"]) == []


def test_a_wide_correlation_table_shows_pearson_and_pairwise_accuracy():
    columns = ["n"]
    for statistic in ("Pearson", "Pearson 95% CI", "Spearman", "Kendall"):
        columns += [f"{statistic} (unstemmed)", f"{statistic} (stemmed)"]
    columns += ["pairwise differences r (unstemmed)", "pairwise differences r (stemmed)"]
    columns += ["pairwise accuracy (unstemmed)", "pairwise accuracy (stemmed)"]
    primary = primary_correlation_columns(columns)
    assert primary == [
        "n",
        "Pearson (unstemmed)",
        "Pearson (stemmed)",
        "Pearson 95% CI (unstemmed)",
        "Pearson 95% CI (stemmed)",
        "pairwise accuracy (unstemmed)",
        "pairwise accuracy (stemmed)",
    ]
    assert shown_columns(columns, primary) == primary  # 13 columns: 7 shown first


def test_segment_level_rows_are_the_metrics_labels_then_the_baseline():
    record = {"acc_eq_item": 0.5, "constant_baseline_acc_eq_item": 0.25}
    frame = segment_level_frame(
        {"bleu": record, "f1": record}, "acc_eq", ["item"], {"bleu": "BLEU", "f1": "F1"}
    )
    assert list(frame.index) == ["BLEU", "F1", "constant baseline"]
    assert frame.loc["F1", "item"] == "0.500" and frame.loc["constant baseline", "item"] == "0.250"


def test_an_error_rates_segments_are_ranked_turned_round():
    """TER's best segment (fewest edits) agreeing with the best judged one is no disagreement."""
    test_set = make_test_set([["r1", "r2", "r3"]], {"mt": ["s1", "s2", "s3"]})
    ter, human = np.array([10.0, 50.0, 90.0]), np.array([0.9, 0.5, 0.1])
    agreeing = system_segments_frame(test_set, ter, human, "mt", higher_is_better=False)
    assert agreeing["rank disagreement"].tolist() == [0.0, 0.0, 0.0]
    read_as_higher = system_segments_frame(test_set, ter, human, "mt")
    assert read_as_higher["rank disagreement"].max() > 0.6


@cache
def wmt21_one_reference(gtm_exponent: float = 1.0, references: int = 1) -> Scores:
    """WMT21 news en-de's 20 systems against ref-A (or its first ``references``), TER first."""
    test_set = read_directory(shared_dataset("wmt21-newstest2021-ende")).test_set
    test_set = TestSet(references=test_set.references[:references], systems=test_set.systems)
    return score_test_set(
        test_set,
        ["ter", "precision", "recall", "f1", "gtm", "gtm_precision", "gtm_recall"],
        Options.from_flags(gtm_exponent=gtm_exponent),
    )


def test_the_scores_table_puts_the_best_first_under_the_first_metric() -> None:
    """Home showed WMT's systems in alphabetical order; the first metric here is TER, an error
    rate, so the lowest comes first (as the Scores page's bars and Compare's pair rank them)."""
    scores = wmt21_one_reference()
    table = scores_frame(scores)
    corpus = scores.corpus()
    assert list(table.index) == sorted(scores.systems, key=lambda s: corpus[s]["ter"])
    assert table["TER"].is_monotonic_increasing and len(table) == 20
    assert list(table.index) != sorted(table.index)


def test_gtm_repeating_f1_is_said_once_with_the_reason() -> None:
    """At GTM's default exponent with one reference, GTM equals F1 (and GTM-P P, GTM-R R) for
    every system, bit for bit: two columns that look like two opinions."""
    scores = wmt21_one_reference()
    corpus = scores.corpus()
    assert all(corpus[s]["gtm"] == corpus[s]["f1"] for s in scores.systems)
    assert repeated_scores(scores) == [
        "GTM repeats F1, GTM-P repeats P and GTM-R repeats R: every system has the same score "
        "under each pair, since at GTM's exponent 1 (GTM 1.4's default) and with one reference, "
        "GTM's matching counts the same matched words as the unigram metrics; an exponent above "
        "1 rewards longer runs of matching words."
    ]


def test_gtm_differing_from_f1_gets_no_line() -> None:
    """Three references (GTM's mean reference length is not F1's), or exponent 2."""
    for scores in (wmt21_one_reference(references=3), wmt21_one_reference(gtm_exponent=2.0)):
        corpus = scores.corpus()
        assert any(corpus[s]["gtm"] != corpus[s]["f1"] for s in scores.systems)
        assert repeated_scores(scores) == []
