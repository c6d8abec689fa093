"""``mteval rank``: official rankings as WMT makes them.

Its source today is ``--autorank wmt24|wmt25`` over segment-level metric scores
(``cli.rank_autorank``); human rankings from raw annotations (``--protocol``) will join it with
their own argument group. The output layout (text, or JSON as ``rankings.table`` documents it)
is one for every source.
"""

from __future__ import annotations

import argparse

from mteval_core.cli import rank_autorank
from mteval_core.errors import InputError
from mteval_core.rankings.table import rankings_json, rankings_text


def add_command(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "rank",
        help="rank systems as WMT does: AutoRank from metric scores",
        description="AutoRank as WMT24 or WMT25 computes it, from segment-level metric scores "
        "(WMT25's data/automatic_scores/ as shipped), with bootstrap intervals and rank ranges "
        "(--bootstrap) and the ranking without each metric (--leave-one-out).",
    )
    rank_autorank.add_arguments(parser.add_argument_group("AutoRank"))
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output layout (text)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> str:
    if not rank_autorank.requested(args):
        raise InputError(
            "mteval rank needs a source: --autorank wmt24 or wmt25",
            hint="e.g. mteval rank --autorank wmt25 --metric-scores DIR --systems-metadata FILE",
        )
    rankings = rank_autorank.run(args)
    return rankings_json(rankings) if args.format == "json" else rankings_text(rankings)
