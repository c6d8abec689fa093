"""``mteval rank --protocol wmt24|wmt25``: a human ranking from raw annotations.

    mteval rank --protocol wmt24 --human WAVE.csv... --documents LP.docs... [--lp LP ...]
                [--format text|json]
    mteval rank --protocol wmt25 --human FILE.jsonl... [--lp LP ...] [--format text|json]

The annotations are Appraise's ESA exports as WMT24 ships them
(``humeval/esa_generalMT2024_wave*.csv``), the documents files ``txt/documents/<LP>.docs``
(each segment's domain). The procedure is the organisers' (``rankings.human``): score the
macro-average over domains, rank ranges from Wilcoxon tests per domain combined by Stouffer's
method, clusters. In the output, ``extra`` holds each system's domain scores, wins, losses,
items and its p-value against every other system.

For ``wmt25`` the annotations are WMT25's humeval JSON Lines (``data/wmt25-genmt-humeval.jsonl``)
or Pearmut's output logs, told apart by their first line (``io.wmt25_humeval``, ``io.pearmut``);
the procedure is ``rankings.human_wmt25`` (one-sided Wilcoxon with the waves swapped, rank ranges
walked down the table, clusters); ``extra`` holds each system's domain and wave means, its number
of annotations and its p-value of being better than every other system.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.io.appraise_esa import read_documents, read_esa_exports
from mteval_core.io.pearmut import is_pearmut_log, read_pearmut_logs
from mteval_core.io.wmt25_humeval import HumanAnnotations, read_wmt25_humeval
from mteval_core.rankings.human import rank_wmt24
from mteval_core.rankings.human_wmt25 import rank_wmt25
from mteval_core.rankings.table import LanguagePairRanking

PROTOCOLS = ("wmt24", "wmt25")


def add_arguments(group: argparse._ArgumentGroup) -> None:
    """The human ranking's options, in their own argument group."""
    group.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        help="the year's procedure (WMT24's: ESA waves; WMT25's: its humeval JSON Lines or "
        "Pearmut logs)",
    )
    group.add_argument(
        "--human",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="Appraise ESA exports (WMT24's humeval/esa_generalMT2024_wave*.csv); for wmt25 "
        "WMT25's data/wmt25-genmt-humeval.jsonl or Pearmut's output JSON Lines",
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
    if args.protocol == "wmt25":
        return _run_wmt25(args)
    if not args.human or not args.documents:
        raise InputError(
            "--protocol wmt24 needs --human (the ESA exports) and --documents (<LP>.docs)",
            hint="e.g. mteval rank --protocol wmt24 --human wave2.csv wave3.csv "
            "--documents en-cs.docs",
        )
    export = read_esa_exports(args.human)
    documents = dict(read_documents(path) for path in args.documents)
    rankings = _only_requested(rank_wmt24(export.ratings, documents), args.lp)
    return [
        LanguagePairRanking(r.language_pair, r.protocol, r.systems, (*export.notes, *r.notes))
        for r in rankings
    ]


def _only_requested(
    rankings: list[LanguagePairRanking], pairs: list[str] | None
) -> list[LanguagePairRanking]:
    """The rankings of ``--lp``'s pairs (all without it); a pair not ranked is refused."""
    if not pairs:
        return rankings
    unknown = [pair for pair in pairs if pair not in {r.language_pair for r in rankings}]
    if unknown:
        raise InputError(
            f"--lp: no ranking of {', '.join(unknown)}",
            hint="Ranked: " + ", ".join(r.language_pair for r in rankings) + ".",
        )
    return [r for r in rankings if r.language_pair in pairs]


def _run_wmt25(args: argparse.Namespace) -> list[LanguagePairRanking]:
    if not args.human:
        raise InputError(
            "--protocol wmt25 needs --human (WMT25's humeval JSON Lines or Pearmut logs)",
            hint="e.g. mteval rank --protocol wmt25 --human wmt25-genmt-humeval.jsonl",
        )
    if args.documents:
        raise InputError(
            "--protocol wmt25 takes no --documents: each segment's id names its domain",
            hint="Leave out --documents.",
        )
    logs = [path for path in args.human if is_pearmut_log(path)]
    humeval = [path for path in args.human if path not in logs]
    read = [read_pearmut_logs(logs)] if logs else []
    read += [read_wmt25_humeval(humeval)] if humeval else []
    annotations = HumanAnnotations(
        tuple(a for part in read for a in part.annotations),
        tuple(note for part in read for note in part.notes),
    )
    rankings = _only_requested(rank_wmt25(annotations.annotations), args.lp)
    return [
        LanguagePairRanking(r.language_pair, r.protocol, r.systems, (*annotations.notes, *r.notes))
        for r in rankings
    ]
