"""``mteval rank --protocol wmt24``: a human ranking from raw annotations.

    mteval rank --protocol wmt24 --human WAVE.csv... --documents LP.docs... [--lp LP ...]
                [--format text|json]

The annotations are Appraise's ESA exports as WMT24 ships them
(``humeval/esa_generalMT2024_wave*.csv``), the documents files ``txt/documents/<LP>.docs``
(each segment's domain). The procedure is the organisers' (``rankings.human``): score the
macro-average over domains, rank ranges from Wilcoxon tests per domain combined by Stouffer's
method, clusters. In the output, ``extra`` holds each system's domain scores, wins, losses,
items and its p-value against every other system.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.io.appraise_esa import read_documents, read_esa_exports
from mteval_core.rankings.human import rank_wmt24
from mteval_core.rankings.table import LanguagePairRanking

PROTOCOLS = ("wmt24",)


def add_arguments(group: argparse._ArgumentGroup) -> None:
    """The human ranking's options, in their own argument group."""
    group.add_argument(
        "--protocol", choices=PROTOCOLS, help="the year's procedure (WMT24's: ESA waves)"
    )
    group.add_argument(
        "--human",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="Appraise ESA exports (WMT24's humeval/esa_generalMT2024_wave*.csv)",
    )
    group.add_argument(
        "--documents",
        nargs="+",
        type=Path,
        metavar="LP.docs",
        help="each pair's txt/documents/<LP>.docs (the domain of every segment)",
    )


def requested(args: argparse.Namespace) -> bool:
    return args.protocol is not None


def run(args: argparse.Namespace) -> list[LanguagePairRanking]:
    if not args.human or not args.documents:
        raise InputError(
            "--protocol wmt24 needs --human (the ESA exports) and --documents (<LP>.docs)",
            hint="e.g. mteval rank --protocol wmt24 --human wave2.csv wave3.csv "
            "--documents en-cs.docs",
        )
    export = read_esa_exports(args.human)
    documents = dict(read_documents(path) for path in args.documents)
    rankings = rank_wmt24(export.ratings, documents)
    if args.lp:
        unknown = [pair for pair in args.lp if pair not in {r.language_pair for r in rankings}]
        if unknown:
            raise InputError(
                f"--lp: no ranking of {', '.join(unknown)}",
                hint="Ranked: " + ", ".join(r.language_pair for r in rankings) + ".",
            )
        rankings = [r for r in rankings if r.language_pair in args.lp]
    return [
        LanguagePairRanking(r.language_pair, r.protocol, r.systems, (*export.notes, *r.notes))
        for r in rankings
    ]
