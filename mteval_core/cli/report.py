"""`mteval report`: the evaluation in one self-contained HTML page that opens offline.

    mteval report --refs REF [REF ...] --hyps SYS [SYS ...] [--source SRC] [--human FILE]
                  [--segment-ids FILE] [--criterion NAME] [--metrics LIST] [--tokenize T]
                  [--metric-scores NAME:DIRECTION=FILE ...] [--metric-signature NAME:FIELDS]
                  [--pair A B] [--paired-ar N] [--bootstrap N] [--seed S]
                  [--reading tokenized|compare-mt] > report.html

Scores, significance clusters (paired approximate randomization, Holm), correlations with the
--human judgments, compare-mt's analyses of one pair (default: the two best under the first
metric; the text read as the scores read it, or as compare-mt does with --reading compare-mt)
and the signatures; the same page as the dashboard's "Download the report" on Home.
"""

from __future__ import annotations

import argparse

from mteval_core.cli.arguments import (
    add_byte_order_mark_argument,
    add_carriage_returns_argument,
    add_parameter_arguments,
    add_preprocessing_arguments,
    given_options,
    resample_count,
    seed,
)
from mteval_core.cli.compare import add_reading_argument, print_notes
from mteval_core.errors import InputError
from mteval_core.metrics import DEFAULT_METRICS, REGISTRY
from mteval_core.model.testset import TestSet
from mteval_core.report.evaluation_report import REPORT_RESAMPLES, REPORT_TRIALS
from mteval_core.stats.bootstrap import DEFAULT_SEED


def add_command(commands: argparse._SubParsersAction) -> None:  # long: one call per option
    report = commands.add_parser(
        "report",
        help="the evaluation as one self-contained HTML page",
        description="Scores, significance clusters (paired approximate randomization, Holm), "
        "correlations with human judgments (--human), compare-mt's analyses of one pair and "
        "the signatures, as one HTML page with no script or outside file: it opens offline.",
    )
    report.add_argument("--refs", nargs="+", required=True, metavar="REF")
    report.add_argument("--hyps", nargs="+", required=True, metavar="SYS", help="or NAME=PATH")
    report.add_argument("--source", metavar="SRC", help="the source, shown beside examples")
    report.add_argument(
        "--human", metavar="FILE", help="human judgments, as `mteval score --human` reads them"
    )
    report.add_argument("--human-lower-is-better", action="store_true")
    report.add_argument(
        "--segment-ids",
        metavar="FILE",
        help="the data set's own segment ids (segment_ids.tsv: line, segment_id[, doc]), used "
        "by the --human file, as `mteval score --segment-ids` reads them",
    )
    report.add_argument(
        "--criterion",
        metavar="NAME",
        help="which human criterion the correlations use, or a sum such as adequacy+fluency "
        "(default: that sum when both exist, else the only criterion)",
    )
    report.add_argument(
        "--metrics",
        default=",".join(DEFAULT_METRICS),
        help=f"comma-separated, from: {', '.join(REGISTRY)} (default: %(default)s)",
    )
    report.add_argument(
        "--metric-scores",
        action="append",
        default=[],
        metavar="NAME:DIRECTION=FILE",
        help="scores computed elsewhere, as `mteval score --metric-scores` reads them (its "
        "tables, mt-metrics-eval's files and the metrics' own outputs); repeatable",
    )
    report.add_argument(
        "--metric-signature",
        action="append",
        default=[],
        metavar="NAME:FIELD=VALUE,...",
        help="what produced metric NAME's scores, as `mteval score --metric-signature` says it",
    )
    report.add_argument(
        "--pair",
        nargs=2,
        metavar=("A", "B"),
        help="the two systems to compare (default: the two best under the first metric)",
    )
    report.add_argument(
        "--paired-ar",
        type=resample_count,
        default=REPORT_TRIALS,
        metavar="N",
        help="trials of paired approximate randomization (default: %(default)s)",
    )
    report.add_argument(
        "--bootstrap",
        type=resample_count,
        default=REPORT_RESAMPLES,
        metavar="N",
        help="resamples for the comparison's intervals (default: %(default)s; 0: none)",
    )
    report.add_argument(
        "--seed", type=seed, default=DEFAULT_SEED, metavar="S", help="(default: %(default)s)"
    )
    add_carriage_returns_argument(report, "the files")
    add_byte_order_mark_argument(report, "the files")
    add_preprocessing_arguments(report)
    add_parameter_arguments(report)  # the options resolve as score's do, METEOR's included
    add_reading_argument(report)
    report.set_defaults(run=run)


def run(args: argparse.Namespace) -> str:
    from mteval_core.cli.score_inputs import (
        load_command_line_test_set,
        read_externals,
        resolved_options,
    )
    from mteval_core.compare.readings import COMPARE_MT, TokenizedReading
    from mteval_core.metrics import parse_metric_list
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.report.evaluation_html import evaluation_html
    from mteval_core.report.evaluation_report import ReportRequest, evaluation_report
    from mteval_core.settings.languages import languages_of
    from mteval_core.stats.approximate_randomization import RandomizationOptions
    from mteval_core.stats.bootstrap import BootstrapOptions

    test_set = load_command_line_test_set(
        args.refs, args.hyps, args.carriage_returns, args.source, args.byte_order_mark
    )
    if args.pair:
        missing = [name for name in args.pair if name not in test_set.system_names]
        if missing or args.pair[0] == args.pair[1]:
            raise InputError(
                f"--pair {' '.join(args.pair)}: give two different systems of --hyps",
                hint=f"The systems are: {', '.join(test_set.system_names)}.",
            )
    for option, given in (("--criterion", args.criterion), ("--segment-ids", args.segment_ids)):
        if given and not args.human:
            raise InputError(
                f"{option} needs --human: it is about the human judgments",
                hint=f"Give the judgments with --human FILE, or leave out {option}.",
            )
    segment_ids = None
    if args.human:  # read before the scoring, so that a bad file or criterion is said at once
        from mteval_core.cli.score_human import with_human
        from mteval_core.cli.score_inputs import with_segment_ids

        test_set, segment_ids = with_segment_ids(args.segment_ids, test_set)
        test_set = with_human(args, test_set, segment_ids)
        check_criterion(test_set, args.criterion)
    external = read_externals(args.metric_scores, args.metric_signature, test_set, segment_ids)
    options = resolved_options(args, given_options(args), languages_of(test_set))
    scores = score_test_set(test_set, parse_metric_list(args.metrics), options, external=external)
    reading = COMPARE_MT if args.reading == COMPARE_MT.key else TokenizedReading(options)
    report = evaluation_report(
        test_set,
        scores,
        options,
        ReportRequest(
            RandomizationOptions(args.paired_ar, args.seed) if args.paired_ar else None,
            tuple(args.pair) if args.pair else None,
            BootstrapOptions(args.bootstrap, args.seed) if args.bootstrap else None,
            args.criterion,
            reading,
        ),
    )
    if report.comparison is not None:
        print_notes(report.comparison.notes, reading)
    return evaluation_html(report)


def check_criterion(test_set: TestSet, criterion: str | None) -> None:
    """Before any scoring: --criterion names one of the judgments' criteria (or a sum of
    them), or the judgments have a default one; else the choices, in this command's terms."""
    from mteval_core.model.judgment_matrices import default_criterion
    from mteval_core.stats.meta import criterion_choices

    human = test_set.human
    if human is None or not len(human):
        return
    choices = criterion_choices(human)
    if criterion is None:
        try:
            default_criterion(human)
        except InputError as several:
            raise InputError(
                several.problem, hint=f"Choose one with --criterion NAME: {', '.join(choices)}."
            ) from None
        return
    if not set(criterion.split("+")) <= set(human.criteria):
        raise InputError(
            f"--criterion {criterion}: the human judgments have no criterion {criterion!r}",
            hint=f"Choose among: {', '.join(choices)} (or a sum of them, such as a+b).",
        )
