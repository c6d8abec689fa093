"""``mteval rank --autorank wmt24|wmt25``: AutoRank from segment-level metric scores.

    mteval rank --autorank wmt25 --metric-scores DIR --systems-metadata FILE
                [--lp LP ...] [--autorank-metrics M,M] [--bootstrap N] [--seed S]
                [--leave-one-out] [--format text|json]

DIR is WMT25's ``data/automatic_scores/`` as shipped (one SYSTEM.jsonl per system; files may be
given one by one too), FILE its ``data/systems_metadata_updated3.json``: a system counts for a
pair when the metadata lists the pair. The wmt25 protocol chooses each pair's metrics as the
organisers did (``rankings.autorank.wmt25_metrics``); ``--autorank-metrics`` chooses others
(every metric must be in the scores of every pair ranked). In the output, ``score`` and
``autorank`` are both the AutoRank (1 is the best); ``extra`` holds each metric's mean, the
AutoRank interval with ``--bootstrap`` and, with ``--leave-one-out``, each system's AutoRank
without each metric.
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
        type=Path,
        metavar="PATH",
        help="WMT25's data/automatic_scores/ folder, or its SYSTEM.jsonl files",
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
    add_resampling_arguments(group, "AutoRank intervals and 95%% rank ranges")


def requested(args: argparse.Namespace) -> bool:
    return args.autorank is not None


def run(args: argparse.Namespace) -> list[LanguagePairRanking]:
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
        _check_resampled_cells(chosen, args.bootstrap)
        result = autorank(
            chosen,
            args.autorank,
            resamples=args.bootstrap,
            rng=np.random.default_rng(args.seed),
            leave_one_out=args.leave_one_out,
        )
        notes = [] if supported is not None else [NO_METADATA]
        rankings.append(autorank_table(result, tuple(notes)))
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
