"""`mteval report`: the evaluation in one self-contained HTML page that opens offline.

    mteval report --refs REF [REF ...] --hyps SYS [SYS ...] [--source SRC] [--human FILE]
                  [--metrics LIST] [--tokenize T] [--pair A B] [--paired-ar N]
                  [--bootstrap N] [--seed S] [--reading tokenized|compare-mt] > report.html

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
    add_meteor_arguments,
    resample_count,
    seed,
)
from mteval_core.cli.compare import add_reading_argument, print_notes
from mteval_core.metrics import DEFAULT_METRICS, REGISTRY
from mteval_core.report.evaluation_report import REPORT_RESAMPLES, REPORT_TRIALS
from mteval_core.settings.options import TOKENIZERS
from mteval_core.stats.bootstrap import DEFAULT_SEED


def add_command(commands: argparse._SubParsersAction) -> None:
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
        "--metrics",
        default=",".join(DEFAULT_METRICS),
        help=f"comma-separated, from: {', '.join(REGISTRY)} (default: %(default)s)",
    )
    report.add_argument(
        "--tokenize",
        choices=TOKENIZERS,
        default=None,
        help="default: the target language's, as `mteval score` chooses it",
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
    add_meteor_arguments(report)  # the options resolve as score's do, METEOR's included
    add_reading_argument(report)
    report.set_defaults(run=run)


def run(args: argparse.Namespace) -> str:
    from mteval_core.cli.score import load_command_line_test_set, resolved_options
    from mteval_core.compare.readings import COMPARE_MT, TokenizedReading
    from mteval_core.errors import InputError
    from mteval_core.metrics import parse_metric_list
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.report.evaluation_html import evaluation_html
    from mteval_core.report.evaluation_report import evaluation_report
    from mteval_core.settings.languages import languages_of
    from mteval_core.settings.options import Options
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
    options = resolved_options(args, Options(), languages_of(test_set))
    scores = score_test_set(test_set, parse_metric_list(args.metrics), options)
    if args.human:
        from mteval_core.cli.score import with_human

        test_set = with_human(args, test_set)
    reading = COMPARE_MT if args.reading == COMPARE_MT.key else TokenizedReading(options)
    report = evaluation_report(
        test_set,
        scores,
        options,
        RandomizationOptions(args.paired_ar, args.seed) if args.paired_ar else None,
        tuple(args.pair) if args.pair else None,
        BootstrapOptions(args.bootstrap, args.seed) if args.bootstrap else None,
        reading=reading,
    )
    if report.comparison is not None:
        print_notes(report.comparison.notes, reading)
    return evaluation_html(report)
