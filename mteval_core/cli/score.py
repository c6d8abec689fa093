"""`mteval score`: every option of the command in one place, and what it prints.

    mteval score --refs REF [REF ...] --hyps HYP [HYP ...] [--metrics ...] [options]
    mteval score --shards PATH [PATH ...] [--workers N | --scheduler ADDRESS] [options]

The test set is read from the files (formats recognised by content, SGML/XML segments matched by
id), scored once per metric, and written as text, JSON, CSV or LaTeX; --human and --bootstrap add
the meta-evaluation (correlations with people, intervals, paired tests). A corpus larger than
memory is given as --shards instead and scored shard by shard (see mteval_core.shards).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from mteval_core.cli.arguments import (
    CARRIAGE_RETURNS_OFFER,
    add_byte_order_mark_argument,
    add_carriage_returns_argument,
    add_mtme_arguments,
    add_parameter_arguments,
    add_preprocessing_arguments,
    add_ranking_arguments,
    add_resampling_arguments,
    bootstrap_options,
    check_excluded,
    given_options,
    in_command_words,
    load_mtme,
    resample_count,
    worker_count,
)
from mteval_core.errors import InputError
from mteval_core.metrics import DEFAULT_METRICS, REGISTRY, parse_metric_list
from mteval_core.metrics.meteor.configuration import default_language as default_meteor_language
from mteval_core.metrics.scoring import Scores
from mteval_core.model.testset import TestSet
from mteval_core.report.writers import render_scores
from mteval_core.settings.languages import (
    Languages,
    languages_in_names,
    languages_of,
    missing_default,
    resolve_tokenizer,
)
from mteval_core.settings.options import (
    Options,
)
from mteval_core.stats.undefined import UNDEFINED

if TYPE_CHECKING:
    from mteval_core.io.mtme import MtmeRead
    from mteval_core.metrics.external import ExternalMetric
    from mteval_core.model.metric_signature import MetricSignature
    from mteval_core.stats.meta import MetaEvaluation

# said when a tokenizer cannot run, the language default or one given (the core's hint names none)
TOKENIZER_HINT = (
    "Or choose another tokenizer with --tokenize (char: WMT's official BLEU for Japanese; 13a as "
    "for languages written with spaces)."
)
HUMAN_ONLY_OPTIONS = {  # argparse dest -> option: they change the correlations only
    "criterion": "--criterion",
    "exclude": "--exclude",
    "human_lower_is_better": "--human-lower-is-better",
    "rated_segments_only": "--rated-segments-only",
    "segment_level": "--segment-level",
    "rank_metrics": "--rank-metrics",
}
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
        test_set = _mtme_test_set(args, mtme)
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


def resolved_options(args: argparse.Namespace, options: Options, languages: Languages) -> Options:
    """The options with --tokenize, or the target language's default (said in a note on
    stderr), once its package is known to be there: a missing MeCab is one line, not a
    traceback from deep inside scoring."""
    from mteval_core.text.outside_tokenizers import require_tokenizer

    options, note = resolve_tokenizer(options, languages, args.tokenize)
    if args.meteor_language is None:  # METEOR's language: the target's when the files say it
        options = options.updated(meteor_language=default_meteor_language(languages.target))
    try:
        require_tokenizer(options)
    except InputError as error:
        if error.origin is not None:  # the SentencePiece model file
            raise
        problem = error.problem if note is None else missing_default(languages, error.problem)
        raise InputError(problem, hint=TOKENIZER_HINT) from None
    if note is not None:
        print(f"mteval: note: {note} (give --tokenize to choose another)", file=sys.stderr)
    return options


def _mtme_test_set(args: argparse.Namespace, mtme: MtmeRead) -> TestSet:
    """The --mtme test set, its human scores taken as --human (and its standard criterion as
    --criterion's default); --human replaces them."""
    if mtme.test_set.human is not None and not args.human:
        if args.human_lower_is_better:
            raise InputError(
                "--human-lower-is-better: mt-metrics-eval's human scores are higher-is-better "
                "already (MQM as negative error points)",
                hint="Leave it out, or give your own judgments with --human.",
            )
        args.criterion = args.criterion or mtme.criterion
    return mtme.test_set


def with_segment_ids(path: str | None, test_set: TestSet) -> tuple[TestSet, dict[str, int] | None]:
    """--segment-ids FILE: the test set with the map's documents (its doc column, unless the
    text files gave documents), and segment id -> 1-based line (None without a segment_id
    column), checked against the test set's size. The documents place the 2022-2024 MQM
    layout's rows by doc and docSegId, as the Data page's map does, instead of by source
    text, which gives repeated sources each other's errors."""
    if path is None:
        return test_set, None
    from mteval_core.io import read_bytes
    from mteval_core.io.directory import parse_segment_ids

    read = parse_segment_ids(read_bytes(path), path, test_set.n_segments)
    if read.lines is None and read.documents is None:
        raise InputError(
            "there is no segment_id column and no doc column",
            origin=path,
            hint="A segment-id map has the columns line, segment_id and doc (either may be "
            "left out), one row per line.",
        )
    if read.documents is not None and test_set.documents is None:
        test_set = replace(test_set, documents=read.documents)
    return test_set, read.lines


def read_externals(
    specs: Sequence[str],
    signatures: Sequence[str],
    test_set: TestSet,
    segment_ids: dict[str, int] | None = None,
) -> list[ExternalMetric]:
    """--metric-scores NAME[:DIRECTION]=FILE (the files of one NAME read as one metric) and
    --metric-signature NAME:FIELD=VALUE,... -> the metrics, read for this test set; what their
    files set aside (systems without text) is printed as notes by the scoring."""
    from mteval_core.io import read_bytes
    from mteval_core.io.metric_scores import read_metric_files

    files: dict[str, list[tuple[bytes, str]]] = {}
    directions: dict[str, bool | None] = {}
    for spec in specs:
        name, higher_is_better, path = _metric_spec(spec)
        if name in directions and directions[name] != higher_is_better:
            raise InputError(
                f"--metric-scores {spec}: metric {name!r} is given another direction before",
                hint="Give every file of one metric the same direction.",
            )
        directions[name] = higher_is_better
        files.setdefault(name, []).append((read_bytes(path), path))
    given = _metric_signatures(signatures, set(files))
    return [
        read_metric_files(
            read,
            test_set,
            name=name,
            higher_is_better=directions[name],
            segment_ids=segment_ids,
            signature=given.get(name),
        )
        for name, read in files.items()
    ]


def _metric_spec(spec: str) -> tuple[str, bool | None, str]:
    """NAME:DIRECTION=FILE -> (NAME, higher is better, FILE); NAME=FILE leaves the direction to
    the file's tool (the reader refuses a file that does not say it)."""
    from mteval_core.io.metric_scores import parse_direction

    form = "Write NAME:higher=FILE or NAME:lower=FILE."
    label, equals, path = spec.partition("=")
    if not equals or not path:
        raise InputError(f"--metric-scores {spec}: the file is missing", hint=form)
    name, colon, direction = label.partition(":")
    if colon and not direction:
        raise InputError(
            f"--metric-scores {spec}: the direction of metric {name!r} is missing (are higher "
            "or lower scores better?)",
            hint=form,
        )
    return name, parse_direction(direction, name) if colon else None, path


def _metric_signatures(specs: Sequence[str], names: set[str]) -> dict[str, MetricSignature]:
    """--metric-signature NAME:FIELD=VALUE,... -> name -> signature, for metrics that are read."""
    from mteval_core.model.metric_signature import parse_signature_fields

    given: dict[str, MetricSignature] = {}
    for spec in specs:
        name, colon, text = spec.partition(":")
        if not colon or name not in names:
            raise InputError(
                f"--metric-signature {spec}: "
                + (f"no --metric-scores names metric {name!r}" if colon else "NAME: is missing"),
                hint="Write --metric-signature NAME:model=...,version=... for a metric that "
                "--metric-scores NAME... reads.",
            )
        if name in given:
            raise InputError(f"--metric-signature {spec}: metric {name!r} has one already")
        given[name] = parse_signature_fields(text, f"--metric-signature {name}")
    return given


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


def load_command_line_test_set(
    ref_args: Sequence[str],
    hyp_args: Sequence[str],
    carriage_returns: str = "refuse",
    source_arg: str | None = None,
    byte_order_mark: str = "keep",
) -> TestSet:
    """Read every --refs and --hyps file (and --source) with io.test_set_files, the reader the
    Python API shares; a --hyps NAME=PATH names its system, notes go to stderr, and the
    carriage-return refusal names --carriage-returns."""
    from mteval_core.io.decoding import LoneCarriageReturn
    from mteval_core.io.test_set_files import read_test_set_files

    try:
        return read_test_set_files(
            ref_args,
            [_split_name(arg) for arg in hyp_args],
            source_arg,
            carriage_returns,
            byte_order_mark,
            note=_print_note,
            naming_hint="or give NAME=PATH",
        )
    except LoneCarriageReturn as error:
        raise error.offering(CARRIAGE_RETURNS_OFFER) from None


def _print_note(note: str) -> None:
    print(f"mteval: note: {in_command_words(note)}", file=sys.stderr)


def _split_name(arg: str) -> tuple[str | None, str]:
    """'NAME=PATH' -> (NAME, PATH); a path that exists as given is never split."""
    if "=" in arg and not os.path.exists(arg):
        name, path = arg.split("=", 1)
        if not name:
            raise InputError(f"empty system name in {arg!r}", hint="Write NAME=PATH.")
        return name, path
    return None, arg


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
