"""`mteval score`: every option of the command in one place, and what it prints.

    mteval score --refs REF [REF ...] --hyps HYP [HYP ...] [--metrics ...] [options]
    mteval score --shards PATH [PATH ...] [--workers N | --scheduler ADDRESS] [options]

The test set is read from the files (formats recognised by content, SGML/XML segments matched by
id: ``score_inputs``), scored once per metric, and written as text, JSON, CSV or LaTeX; --human
and --bootstrap add the meta-evaluation (correlations with people, intervals, paired tests:
``score_human``). A corpus larger than memory is given as --shards instead and scored shard by
shard (see mteval_core.shards).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mteval_core.cli.arguments import (
    add_byte_order_mark_argument,
    add_carriage_returns_argument,
    add_mtme_arguments,
    add_parameter_arguments,
    add_preprocessing_arguments,
    add_ranking_arguments,
    add_resampling_arguments,
    given_options,
    load_mtme,
    resample_count,
    worker_count,
)
from mteval_core.cli.score_human import (
    meta_evaluation,
    segment_level_report,
    with_comet_compare,
    with_human,
    with_paired_ar,
)
from mteval_core.cli.score_inputs import (
    load_command_line_test_set,
    mtme_test_set,
    read_externals,
    resolved_options,
    with_segment_ids,
)
from mteval_core.errors import InputError
from mteval_core.metrics import DEFAULT_METRICS, REGISTRY, parse_metric_list
from mteval_core.model.testset import TestSet
from mteval_core.report.writers import render_scores
from mteval_core.settings.languages import (
    languages_in_names,
    languages_of,
)

if TYPE_CHECKING:
    pass

PAIRWISE_ACCURACY_HELP = (
    'The system-level "pairwise_accuracy" leaves out system pairs that people tie; '
    '"pairwise_accuracy_with_ties" (mt-metrics-eval\'s Agreement, on system means over the '
    'rated segments) counts them, right only when the metric ties them too, and "spa" is '
    "soft pairwise accuracy (Thompson et al. 2024); both need segment-level judgments."
)


def add_command(commands: argparse._SubParsersAction) -> None:  # long: one call per option
    score = commands.add_parser(
        "score",
        help="score system outputs against references",
        description="Score system outputs against one or more references. Plain text files have "
        "one segment per line; NIST mteval SGML and WMT XML files are read too.",
    )
    score.add_argument(
        "--refs",
        nargs="+",
        metavar="REF",
        help="reference files; each is one complete reference translation (required, unless "
        "--shards gives the test set)",
    )
    score.add_argument(
        "--hyps",
        nargs="+",
        metavar="HYP",
        help="system outputs; each is named after its file (without the last extension; "
        "with several files, without the dot-separated parts all their names share: "
        "generaltest2023.en-ru.hyp.PROMT.ru is PROMT), or give NAME=PATH (required, unless "
        "--shards gives the test set)",
    )
    score.add_argument(
        "--source",
        metavar="FILE",
        help="the source segments (not scored): a --human file of Google's MQM error "
        "annotations is placed on the lines by its source text where it has no line numbers "
        "and the files no documents",
    )
    add_carriage_returns_argument(score, "the --refs and --hyps files")
    add_byte_order_mark_argument(score, "the --refs and --hyps files")
    add_mtme_arguments(score)
    add_shard_arguments(score)
    score.add_argument(
        "--metrics",
        default=",".join(DEFAULT_METRICS),
        help=f"comma-separated, from: {', '.join(REGISTRY)} (default: %(default)s)",
    )
    add_preprocessing_arguments(score)
    add_parameter_arguments(score)
    score.add_argument("--segments", action="store_true", help="also print segment scores")
    score.add_argument(
        "--documents",
        action="store_true",
        help="also print document scores (json; csv prints them instead of system rows); "
        "needs SGML or XML input, which carries document ids",
    )
    score.add_argument("--format", choices=("text", "json", "csv", "latex"), default="text")
    score.add_argument(
        "--human",
        metavar="FILE",
        help="human judgments (CSV/TSV: system, segment_id, score[, rater, criterion], or "
        "system-level rows); adds the human system scores and each metric's correlations",
    )
    score.add_argument(
        "--segment-ids",
        metavar="FILE",
        help="the data set's own segment ids (segment_ids.tsv: line, segment_id[, doc]; one row "
        "per line of the text files), used by --human and --metric-scores files; its doc "
        "column gives plain-text files their documents (MQM rows are placed by doc)",
    )
    score.add_argument(
        "--criterion",
        metavar="NAME",
        help="which human criterion, or a sum such as adequacy+fluency (default: that sum when "
        "both exist, else the only criterion)",
    )
    score.add_argument(
        "--exclude",
        nargs="+",
        default=[],
        metavar="SYS",
        help="systems left out of the correlations (outliers, human references)",
    )
    score.add_argument(
        "--human-lower-is-better",
        action="store_true",
        help="the human scores count errors (e.g. MQM points): negate them on load",
    )
    score.add_argument(
        "--rated-segments-only",
        action="store_true",
        help="compute each metric on the segments its system was rated on",
    )
    score.add_argument(
        "--metric-scores",
        action="append",
        default=[],
        metavar="NAME:DIRECTION=FILE",
        help="scores computed elsewhere (COMET, MetricX, ...) as metric NAME; DIRECTION is "
        "higher or lower (which scores are better; NAME=FILE where the file's tool says it); "
        "FILE has system,segment_id,score or system,score rows, is an mt-metrics-eval "
        ".seg.score/.sys.score file, comet-score --to_json's JSON, MetricX's predictions "
        "(JSON Lines) or one score per line (pymarian-eval, gemba) of one system named by "
        "the file; repeatable, also with one NAME for several files (e.g. one per system)",
    )
    score.add_argument(
        "--metric-signature",
        action="append",
        default=[],
        metavar="NAME:FIELD=VALUE,...",
        help="what produced metric NAME's scores, where its files do not say: model, "
        "checkpoint, package, version, precision, reference_based (yes/no), scale; e.g. "
        "comet:model=Unbabel/wmt22-comet-da,version=2.2.6,precision=fp16; shown in the "
        "signature, and files of one metric that differ are warned about",
    )
    score.add_argument(
        "--segment-level",
        action="store_true",
        help="segment-level correlations and accuracies with the human segment scores "
        "(mt-metrics-eval's: pearson, spearman, kendall_b, kendall_c, kendall_like, acc23, "
        "acc_eq, each with no grouping, by item and by system), every metric oriented so that "
        "higher is better; with --bootstrap N, their intervals. " + PAIRWISE_ACCURACY_HELP,
    )
    add_ranking_arguments(score)
    add_resampling_arguments(score, "confidence intervals and paired tests")
    score.add_argument(
        "--paired-ar",
        type=resample_count,
        default=0,
        metavar="N",
        help="paired approximate randomization with N trials (sacreBLEU's --paired-ar: the same "
        "p-values on the same --seed; 10,000 is its default) for every two systems under every "
        "metric, Holm-corrected per metric, with the significance clusters",
    )
    score.add_argument(
        "--comet-compare",
        action="store_true",
        help="comet-compare's bootstrap (300 splits of 40%% of the segments, seed 1) and paired "
        "t-tests of every two systems under each --metric-scores metric with segment scores: "
        "its win and tie shares, equal to comet-compare's on the same scores",
    )
    score.set_defaults(run=run)


def add_shard_arguments(score: argparse.ArgumentParser) -> None:
    """--shards and the options of the sharded path (mteval_core.shards)."""
    score.add_argument(
        "--shards",
        nargs="+",
        metavar="PATH",
        help="instead of --refs and --hyps, for a corpus larger than memory: long-format shards "
        "(.tsv, .csv, .jsonl or .parquet with system, segment, hypothesis and reference "
        "columns), as files, folders or glob patterns; scored shard by shard on Dask",
    )
    score.add_argument(
        "--workers",
        type=worker_count,
        metavar="N",
        help="with --shards: local Dask worker processes (default: one per CPU core, at most one "
        "per shard); 0 or 1 scores the shards one after another in this process, without Dask",
    )
    score.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --shards: the address of a running Dask scheduler (e.g. tcp://host:8786) "
        "whose workers can read the shards, instead of a local cluster",
    )
    score.add_argument(
        "--segment-scores-out",
        metavar="FOLDER",
        help="with --shards: write every segment's scores to FOLDER, one file per shard "
        "(system, segment and a column per metric; Parquet, or TSV without pyarrow)",
    )


SHARD_ONLY_OPTIONS = {  # argparse dest -> option
    "workers": "--workers",
    "scheduler": "--scheduler",
    "segment_scores_out": "--segment-scores-out",
}


# What --mtme cannot be given with: it brings the test set, its documents and its segment order.
MTME_REFUSED = {
    "refs": "--refs",
    "hyps": "--hyps",
    "source": "--source",
    "segment_ids": "--segment-ids",
}


def _check_in_memory_input(args: argparse.Namespace, mtme: bool = False) -> None:
    """Without --shards, --refs and --hyps (or --mtme) are required and the shard options mean
    nothing."""
    missing = [option for option in ("--refs", "--hyps") if not getattr(args, option[2:])]
    if missing and not mtme:
        raise InputError(
            f"the following arguments are required: {', '.join(missing)} "
            "(or give the test set as --mtme or --shards) (see 'mteval score --help')"
        )
    for dest, option in SHARD_ONLY_OPTIONS.items():
        if getattr(args, dest) is not None:
            raise InputError(
                f"{option} works with --shards", hint="Give --shards, or leave it out."
            )


def _check_sharded_input(args: argparse.Namespace) -> None:
    """--carriage-returns reads --refs and --hyps files; the shards are tables of their own,
    and --source only places MQM annotations on a test set in memory."""
    if args.source is not None:
        raise InputError("--source works with --refs and --hyps files, not with --shards")
    if args.carriage_returns != "refuse":
        raise InputError(
            "--carriage-returns works with --refs and --hyps files, not with --shards",
            hint="Leave it out, or remove the carriage returns from the shards (tr -d '\\r').",
        )


def run(args: argparse.Namespace) -> str:
    from mteval_core.metrics.scoring import score_test_set

    metrics = parse_metric_list(args.metrics)
    options = given_options(args)
    if args.shards:
        from mteval_core.cli.score_shards import run_sharded

        if args.mtme:
            raise InputError("--mtme and --shards are two ways to give the test set; give one")
        _check_sharded_input(args)
        if args.paired_ar:
            raise InputError(
                "--paired-ar works with --refs and --hyps (or --mtme), not with --shards",
                hint="Use --bootstrap N, which --shards resamples shard by shard.",
            )
        options = resolved_options(args, options, languages_in_names(args.shards))
        return run_sharded(args, metrics, options)
    _check_in_memory_input(args, mtme=bool(args.mtme))
    mtme = load_mtme(args, MTME_REFUSED)
    if mtme is None:
        test_set = load_command_line_test_set(
            args.refs, args.hyps, args.carriage_returns, args.source, args.byte_order_mark
        )
    else:
        test_set = mtme_test_set(args, mtme)
    options = resolved_options(args, options, languages_of(test_set))
    _check_layout(args, test_set)
    documents = test_set.documents if args.documents else None
    if args.segment_ids and not (args.human or args.metric_scores):
        raise InputError("--segment-ids works with --human or --metric-scores files")
    test_set, segment_ids = with_segment_ids(args.segment_ids, test_set)
    external = [*(mtme.external if mtme else ())]
    external += read_externals(args.metric_scores, args.metric_signature, test_set, segment_ids)
    scores = score_test_set(test_set, metrics, options, external=external)
    test_set = with_human(args, test_set, segment_ids)
    meta = meta_evaluation(args, test_set, scores)
    report = meta.to_dict() if meta else None
    if report is not None and test_set.human is not None:
        report.update(segment_level_report(args, test_set, scores, report))
    text_after = ""
    if args.paired_ar:
        report, text_after = with_paired_ar(args, scores, report)
    if args.comet_compare:
        report, compared = with_comet_compare(scores, report)
        text_after += compared
    output = render_scores(
        args.format, scores, meta=meta, report=report, segments=args.segments, documents=documents
    )
    return output + text_after if args.format == "text" else output


def _check_layout(args: argparse.Namespace, test_set: TestSet) -> None:
    """Refuse what the chosen --format cannot print, before any scoring."""
    if args.documents and test_set.documents is None:
        raise InputError(
            "--documents needs document ids, and plain text files have none",
            hint="Give NIST mteval SGML or WMT XML files, or leave out --documents.",
        )
    if args.documents and args.format in ("text", "latex"):
        raise InputError("--documents works with --format json or csv")
    if (
        test_set.human is not None or args.human or args.bootstrap or args.paired_ar
    ) and args.format in ("csv", "latex"):
        raise InputError("--human, --bootstrap and --paired-ar work with --format json or text")
    if args.comet_compare and args.format in ("csv", "latex"):
        raise InputError("--comet-compare works with --format json or text")
