"""``mteval rank``: official rankings as WMT makes them.

Two sources, one output layout (``rankings.table``):
- ``--autorank wmt24|wmt25`` over segment-level metric scores (``cli.rank_autorank``);
- ``--protocol wmt23|wmt24|wmt25|custom`` over raw human annotations (``cli.rank_human``).
Each source's options are an argument group of its own module; this module only dispatches and
writes the result as text or JSON.
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
        description=__doc__.split("\n\n")[0],
    )
    rank_autorank.add_arguments(parser.add_argument_group("AutoRank"))
    rank_human.add_arguments(parser.add_argument_group("human ranking"))
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output layout (text)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> str:
    if rank_autorank.requested(args) == rank_human.requested(args):
        raise InputError(
            "mteval rank needs one source: --autorank (metric scores) or --protocol (human "
            "annotations)",
            hint="e.g. mteval rank --autorank wmt25 --metric-scores DIR --systems-metadata FILE",
        )
    rankings = rank_autorank.run(args) if rank_autorank.requested(args) else rank_human.run(args)
    return rankings_json(rankings) if args.format == "json" else rankings_text(rankings)
