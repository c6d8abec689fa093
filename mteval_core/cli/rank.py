"""``mteval rank``: official rankings as WMT makes them.

Two sources, each with its own argument group: ``--autorank wmt24|wmt25`` over segment-level
metric scores (``cli.rank_autorank``) and ``--protocol wmt23|wmt24|wmt25|custom`` over raw
human annotations (``cli.rank_human``). The output layout (text, JSON as ``rankings.table``
documents it, or a standalone HTML page, ``report.rankings_html``) is one for both.
"""

from __future__ import annotations

import argparse

from mteval_core.cli import rank_autorank, rank_human
from mteval_core.errors import InputError
from mteval_core.rankings.table import rankings_json, rankings_text


def add_command(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "rank",
        help="rank systems as WMT does: human rankings from raw annotations, AutoRank",
        description="A human ranking by the year's procedure (--protocol wmt24: Appraise ESA "
        "exports and the documents files; --protocol wmt23: the DA+SQM export; --protocol "
        "wmt25: WMT25's humeval JSON Lines or Pearmut logs) or by the parts of --protocol "
        "custom, or AutoRank as WMT24 or WMT25 computes it from "
        "segment-level metric scores (WMT25's data/automatic_scores/ as shipped), with "
        "bootstrap intervals and rank ranges (--bootstrap) and the ranking without each metric "
        "(--leave-one-out).",
    )
    rank_human.add_arguments(parser.add_argument_group("human ranking"))
    rank_human.add_custom_arguments(parser.add_argument_group("--protocol custom: its parts"))
    rank_autorank.add_arguments(parser.add_argument_group("AutoRank"))
    parser.add_argument(
        "--lp", nargs="+", metavar="LP", help="rank only these language pairs (e.g. en-cs_CZ)"
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "html"),
        default="text",
        help="output layout (text; html: one self-contained page with a figure per pair)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> str:
    if rank_autorank.requested(args) == rank_human.requested(args):
        raise InputError(
            "mteval rank needs one source: --protocol (human annotations) or --autorank "
            "(metric scores)",
            hint="e.g. mteval rank --protocol wmt24 --human WAVE.csv --documents LP.docs, or "
            "mteval rank --autorank wmt25 --metric-scores DIR --systems-metadata FILE",
        )
    source = rank_autorank if rank_autorank.requested(args) else rank_human
    rankings = source.run(args)
    if args.format == "html":
        from mteval_core.report.rankings_html import rankings_html  # only this layout needs it

        return rankings_html(rankings)
    return rankings_json(rankings) if args.format == "json" else rankings_text(rankings)
