"""What `mteval score` adds to the scores on request: the --human judgments and the
meta-evaluation (correlations, --bootstrap intervals and paired tests, the segment-level
accuracies, --segment-level and --rank-metrics), --paired-ar and --comet-compare.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from mteval_core.cli.arguments import bootstrap_options, check_excluded
from mteval_core.errors import InputError
from mteval_core.metrics.scoring import Scores
from mteval_core.model.testset import TestSet
from mteval_core.stats.undefined import UNDEFINED

if TYPE_CHECKING:
    from mteval_core.stats.meta import MetaEvaluation

HUMAN_ONLY_OPTIONS = {  # argparse dest -> option: they change the correlations only
    "criterion": "--criterion",
    "exclude": "--exclude",
    "human_lower_is_better": "--human-lower-is-better",
    "rated_segments_only": "--rated-segments-only",
    "segment_level": "--segment-level",
    "rank_metrics": "--rank-metrics",
}


def with_human(
    args: argparse.Namespace, test_set: TestSet, segment_ids: dict[str, int] | None = None
) -> TestSet:
    """The test set with the --human judgments; rows of systems without text in the test set
    (references rated as systems, metric-task systems) are set aside, each with a note."""
    if not args.human:
        return test_set
    from mteval_core.io import read_bytes, read_human_for
    from mteval_core.io.mqm_placement import HowToGive

    flags = HowToGive("the source (--source FILE)", "a segment-id map (--segment-ids FILE)")

    read = read_human_for(
        test_set,
        read_bytes(args.human),
        args.human,
        lower_is_better=args.human_lower_is_better,
        segment_ids=segment_ids,
        how_to_give=flags,
    )
    for note in read.notes:
        print(f"mteval: note: {note}", file=sys.stderr)
    return test_set.with_human(read.scores)  # checks segments


def segment_level_report(
    args: argparse.Namespace, test_set: TestSet, scores: Scores, report: dict
) -> dict:
    """What needs the human segment scores: "spa" and "pairwise_accuracy_with_ties" in every
    metric's "correlations" (null, with the reason, for system-level judgments), and with
    --segment-level and --rank-metrics their sections."""
    from mteval_core.stats import segment_meta

    human = test_set.human
    assert human is not None
    if not len(human.segment_rows) and not (args.segment_level or args.rank_metrics):
        accuracies = segment_meta.without_segment_judgments(scores.metric_names)
        return {"correlations": _merged(report["correlations"], accuracies)}
    if args.rank_metrics:
        segment_meta.parse_rank_statistic(args.rank_metrics)  # a typo fails before the work
    matrices = segment_meta.segment_matrices(test_set, scores, args.criterion, args.exclude)
    result = None
    if args.segment_level or (args.rank_metrics and args.bootstrap):
        result = segment_meta.segment_statistics(matrices, args.bootstrap, args.seed)
    additions: dict = {
        "correlations": _merged(
            report["correlations"], segment_meta.system_accuracies(matrices, result)
        )
    }
    if args.segment_level:
        assert result is not None
        additions["segment_level"] = segment_meta.segment_level_header(matrices, result)
        additions["segment_correlations"] = segment_meta.segment_correlations(matrices, result)
    if args.rank_metrics:
        additions["metric_ranking"] = segment_meta.metric_ranking(
            matrices, args.rank_metrics, args.permutations, args.seed, result
        )
        additions["metric_ranking_statistic"] = args.rank_metrics
    return additions


def _merged(correlations: dict[str, dict], accuracies: dict[str, dict]) -> dict[str, dict]:
    """Each metric's correlations with its accuracies added, the reasons under one key."""
    merged = {}
    for metric, record in correlations.items():
        extra = dict(accuracies.get(metric, {}))
        why = {**record.get(UNDEFINED, {}), **extra.pop(UNDEFINED, {})}
        merged[metric] = {**{k: v for k, v in record.items() if k != UNDEFINED}, **extra}
        merged[metric][UNDEFINED] = why
    return merged


def meta_evaluation(
    args: argparse.Namespace, test_set: TestSet, scores: Scores
) -> MetaEvaluation | None:
    """What --human and --bootstrap add to `mteval score`; None when neither is given."""
    judged = test_set.human is not None  # --human, or the human scores of --mtme
    if not judged:
        given = [option for dest, option in HUMAN_ONLY_OPTIONS.items() if getattr(args, dest)]
        if given:
            options = ", ".join(given)
            raise InputError(
                f"{options} {'needs' if len(given) == 1 else 'need'} --human: "
                f"{'it changes' if len(given) == 1 else 'they change'} only the correlations "
                "with human judgments",
                hint=f"Give the judgments with --human FILE, or leave out {options}.",
            )
    check_excluded(args.exclude, scores.systems)
    if not (judged or args.bootstrap):
        return None  # and scipy, which the statistics need, is not even imported
    from mteval_core.stats.meta import evaluate

    return evaluate(
        test_set,
        scores,
        criterion=args.criterion,
        exclude=args.exclude,
        rated_only=args.rated_segments_only,
        bootstrap=bootstrap_options(args),
        negated_on_load=args.human_lower_is_better,
    )


def with_paired_ar(
    args: argparse.Namespace, scores: Scores, report: dict | None
) -> tuple[dict, str]:
    """--paired-ar N: the report with "paired_ar" (trials, seed, pairs, clusters) and the lines
    the text output adds."""
    from mteval_core.report.writers import render_randomization_text
    from mteval_core.stats.approximate_randomization import (
        RandomizationOptions,
        approximate_randomization,
    )

    randomization = approximate_randomization(
        scores, RandomizationOptions(args.paired_ar, args.seed)
    )
    report = {**(report or {}), "paired_ar": randomization.to_dict()}
    return report, render_randomization_text(randomization)


def with_comet_compare(scores: Scores, report: dict | None) -> tuple[dict, str]:
    """--comet-compare: the report with "comet_compare" (metric -> every pair's shares and
    t-test) and the lines the text output adds."""
    from mteval_core.metrics.external import ExternalMetric
    from mteval_core.report.writers import render_comet_compare_text
    from mteval_core.stats.comet_compare import comet_compare

    metrics = [m for m in scores.metrics if isinstance(m, ExternalMetric) and m.segment_level]
    if not metrics:
        raise InputError(
            "--comet-compare compares the segment scores of --metric-scores metrics, and none "
            "is given",
            hint="Add --metric-scores NAME=FILE with segment scores (e.g. comet-score's JSON).",
        )
    compared = {
        metric.name: [
            pair.to_dict()
            for pair in comet_compare(
                {system: scores.segment_scores(system, metric.name) for system in scores.systems}
            )
        ]
        for metric in metrics
    }
    return {**(report or {}), "comet_compare": compared}, render_comet_compare_text(compared)
