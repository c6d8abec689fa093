"""``mteval rank --autorank wmt24|wmt25``: AutoRank from segment-level metric scores.

    mteval rank --autorank wmt25 --metric-scores DIR --systems-metadata FILE
                [--lp LP ...] [--autorank-metrics M,M] [--bootstrap N] [--seed S]
                [--leave-one-out] [--format text|json|html]
    mteval rank --autorank wmt25 --mtme ROOT --test-set NAME [--reference REF] [--lp LP ...]
                [--autorank-metrics M,M] [--bootstrap N] [--seed S] [--leave-one-out]
    mteval rank --autorank wmt25 --refs REF... --hyps HYP... --metric-scores NAME=FILE...
                [--bootstrap N] [--seed S] [--leave-one-out]

DIR is WMT25's ``data/automatic_scores/`` as shipped (one SYSTEM.jsonl per system; files may be
given one by one too), FILE its ``data/systems_metadata_updated3.json``: a system counts for a
pair when the metadata lists the pair. The wmt25 protocol chooses each pair's metrics as the
organisers did (``rankings.autorank.wmt25_metrics``); ``--autorank-metrics`` chooses others
(every metric must be in the scores of every pair ranked). In the output, ``score`` and
``autorank`` are both the AutoRank (1 is the best); ``extra`` holds each metric's mean, the
AutoRank interval with ``--bootstrap`` and, with ``--leave-one-out``, each system's AutoRank
without each metric.

With ``--mtme`` the scores are an mt-metrics-eval folder's ``metric-scores/`` of each pair (every
segment-level metric of the chosen reference, or ``--autorank-metrics``), ranked by the
recipe's arithmetic over those metrics (``rankings.metric_inputs``): the systems are the pair's
MT systems (references scored as systems are not ranked), each metric's system score the mean
of its segment scores, a lower-is-better metric entering with its sign flipped.

With ``--refs`` and ``--hyps`` the systems are a test set's and the metrics are the
``--metric-scores NAME[:higher|lower]=FILE`` that ``mteval score`` reads (a tool's own output,
a CSV or TSV, mt-metrics-eval's lines; several files of one NAME are one metric), ranked the
same way.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from mteval_core.cli.arguments import add_resampling_arguments
from mteval_core.errors import InputError
from mteval_core.io.wmt25_automatic_scores import read_automatic_scores, read_systems_metadata
from mteval_core.model.metric_segments import MetricSegments
from mteval_core.rankings.autorank import (
    NO_METADATA,
    RECIPES,
    autorank,
    autorank_table,
    wmt25_metrics,
    wmt25_systems,
)
from mteval_core.rankings.table import LanguagePairRanking
from mteval_core.settings.limits import MAX_RESAMPLED_CELLS
from mteval_core.settings.parameters import text_list


def add_arguments(group: argparse._ArgumentGroup) -> None:
    """The AutoRank options, in their own argument group."""
    group.add_argument(
        "--autorank", choices=tuple(RECIPES), help="AutoRank as WMT24 or WMT25 computes it"
    )
    group.add_argument(
        "--metric-scores",
        nargs="+",
        action="extend",  # repeated, as mteval score takes one metric file per flag
        type=Path,
        metavar="PATH",
        help="WMT25's data/automatic_scores/ folder, or its SYSTEM.jsonl files; with --hyps, "
        "NAME[:higher|lower]=FILE as mteval score reads them",
    )
    group.add_argument("--refs", nargs="+", metavar="REF", help="with --hyps: the references")
    group.add_argument(
        "--hyps",
        nargs="+",
        metavar="HYP",
        help="rank these systems (files, or NAME=PATH) by the --metric-scores NAME=FILE given",
    )
    group.add_argument(
        "--systems-metadata",
        type=Path,
        metavar="FILE",
        help="WMT25's systems metadata: which systems count for each pair",
    )
    group.add_argument(
        "--autorank-metrics",
        type=text_list,
        metavar="M,M",
        help="the metrics to average (default: the protocol's for each pair)",
    )
    group.add_argument(
        "--leave-one-out",
        action="store_true",
        help="also rank without each metric in turn, and name the systems that move",
    )
    group.add_argument(
        "--mtme",
        metavar="ROOT",
        help="rank from an mt-metrics-eval folder's metric scores instead (with --test-set)",
    )
    group.add_argument("--test-set", metavar="NAME", help="the test set of --mtme (e.g. wmt23)")
    group.add_argument(
        "--reference",
        metavar="REF",
        help="the reference whose metric scores --mtme ranks from (default: the standard one)",
    )
    add_resampling_arguments(group, "AutoRank intervals and 95%% rank ranges")


def requested(args: argparse.Namespace) -> bool:
    return args.autorank is not None


def run(args: argparse.Namespace) -> list[LanguagePairRanking]:
    if args.hyps is not None or args.refs is not None:
        return _test_set_rankings(args)
    if args.mtme is not None:
        return _mtme_rankings(args)
    if not args.metric_scores:
        raise InputError(
            "--autorank needs --metric-scores", hint="Give WMT25's data/automatic_scores/ folder."
        )
    scores = read_automatic_scores(args.metric_scores)
    supported = read_systems_metadata(args.systems_metadata) if args.systems_metadata else None
    pairs = _chosen_pairs(scores, args.lp)
    rankings = []
    for pair in pairs:
        chosen = _selected(scores[pair], supported, args.autorank, args.autorank_metrics)
        notes = () if supported is not None else (NO_METADATA,)
        rankings.append(_ranked(chosen, args, notes))
    return rankings


def _chosen_pairs(scores: dict[str, MetricSegments], wanted: list[str] | None) -> list[str]:
    if not wanted:
        return list(scores)
    unknown = [pair for pair in wanted if pair not in scores]
    if unknown:
        raise InputError(
            f"--lp: no scores for {', '.join(unknown)}",
            hint=f"The scores have: {', '.join(scores)}.",
        )
    return wanted


def _selected(
    scores: MetricSegments,
    supported: dict[str, frozenset[str]] | None,
    recipe: str,
    metrics: list[str] | None,
) -> MetricSegments:
    """The systems and metrics the protocol ranks for the pair."""
    systems = wmt25_systems(scores, supported) if supported is not None else scores.systems
    if metrics is None:
        metrics = list(wmt25_metrics(scores.language_pair) if recipe == "wmt25" else scores.metrics)
    missing = [m for m in metrics if m not in scores.metrics]
    if missing:
        raise InputError(
            f"{scores.language_pair}: no scores of {', '.join(missing)}",
            hint=f"Its metrics are {', '.join(scores.metrics)}; choose with --autorank-metrics.",
        )
    if len(systems) < 2:
        raise InputError(
            f"{scores.language_pair}: {len(systems)} system(s) to rank",
            hint="AutoRank ranks two or more; check --systems-metadata or leave the pair out "
            "with --lp.",
        )
    return scores.only(tuple(systems), tuple(metrics))


def _check_resampled_cells(scores: MetricSegments, resamples: int) -> None:
    cells = resamples * len(scores.segments)
    if cells > MAX_RESAMPLED_CELLS:
        raise InputError(
            f"{scores.language_pair}: {resamples:,} resamples x {len(scores.segments):,} "
            f"segments are {cells:,} cells, over the limit of {MAX_RESAMPLED_CELLS:,}",
            hint="Give fewer resamples with --bootstrap.",
        )


def _mtme_rankings(args: argparse.Namespace) -> list[LanguagePairRanking]:
    """AutoRank of each pair of an mt-metrics-eval folder, from its metric scores."""
    from mteval_core.io.mtme import DiskTree, HowToChoose, language_pairs, read_mtme
    from mteval_core.rankings.metric_inputs import segments_of_metrics

    if not args.test_set or args.metric_scores or args.systems_metadata:
        raise InputError(
            "--autorank with --mtme takes --test-set (and no --metric-scores or "
            "--systems-metadata: the folder holds the scores and the systems)",
            hint="e.g. mteval rank --autorank wmt25 --mtme mt-metrics-eval-v2 --test-set wmt23 "
            "--lp zh-en",
        )
    pairs = args.lp or language_pairs(DiskTree(Path(args.mtme) / args.test_set))
    rankings = []
    for pair in pairs:
        read = read_mtme(
            args.mtme,
            args.test_set,
            pair,
            args.reference,
            how_to_choose=HowToChoose("choose another with --reference"),
        )
        by_name = {metric.name: metric for metric in read.external}
        spelled = {name.lower(): name for name in by_name}  # the option's names are lowercased
        names = [spelled.get(name.lower(), name) for name in args.autorank_metrics or ()]
        names = names or [m.name for m in read.external if m.segment_level]
        missing = [name for name in names if name not in by_name]
        if missing or not names:
            raise InputError(
                f"{pair}: no segment scores of {', '.join(missing) or 'any metric'} for "
                f"reference {read.reference}",
                hint=f"Its metrics: {', '.join(by_name) or 'none'}; choose with "
                "--autorank-metrics, or another reference with --reference.",
            )
        chosen, notes = segments_of_metrics(
            pair, read.test_set.system_names, [by_name[name] for name in names]
        )
        rankings.append(_ranked(chosen, args, (*read.notes, *notes)))
    return rankings


def _test_set_rankings(args: argparse.Namespace) -> list[LanguagePairRanking]:
    """AutoRank of a test set's systems from metrics computed elsewhere, read as `mteval
    score --metric-scores` reads them."""
    from mteval_core.cli.score_inputs import load_command_line_test_set, read_externals
    from mteval_core.rankings.metric_inputs import segments_of_metrics

    if not (args.refs and args.hyps and args.metric_scores) or args.mtme or args.systems_metadata:
        raise InputError(
            "--autorank with a test set takes --refs, --hyps and --metric-scores NAME=FILE "
            "(and no --mtme or --systems-metadata)",
            hint="e.g. mteval rank --autorank wmt25 --refs ref.en --hyps a.en b.en "
            "--metric-scores comet=comet.json --metric-scores mx=a.metricx.jsonl "
            "--metric-scores mx=b.metricx.jsonl",
        )
    test_set = load_command_line_test_set(args.refs, args.hyps)
    metrics = read_externals([str(path) for path in args.metric_scores], [], test_set)
    if args.autorank_metrics:
        metrics = [m for m in metrics if m.name in args.autorank_metrics]
    pair = args.lp[0] if args.lp else test_set.name
    chosen, notes = segments_of_metrics(pair, test_set.system_names, metrics)
    read_notes = tuple(note for metric in metrics for note in metric.notes)
    return [_ranked(chosen, args, (*read_notes, *notes))]


def _ranked(
    chosen: MetricSegments, args: argparse.Namespace, notes: tuple[str, ...]
) -> LanguagePairRanking:
    """One pair's AutoRank by the recipe, with the intervals and leave-one-out asked for."""
    _check_resampled_cells(chosen, args.bootstrap)
    result = autorank(
        chosen,
        args.autorank,
        resamples=args.bootstrap,
        rng=np.random.default_rng(args.seed),
        leave_one_out=args.leave_one_out,
    )
    return autorank_table(result, notes)
