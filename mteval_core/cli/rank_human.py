"""``mteval rank --protocol wmt24|wmt23|wmt25|custom``: a human ranking from raw annotations.

    mteval rank --protocol wmt24 --human WAVE.csv... --documents LP.docs... [--lp LP ...]
                [--format text|json]
    mteval rank --protocol wmt23 --human scores_all.csv [--exclude-annotators ID ...]
    mteval rank --protocol wmt25 --human FILE.jsonl... [--lp LP ...] [--format text|json]
    mteval rank --protocol custom --human FILE... [--documents LP.docs...]  (ESA, DA+SQM, .rating)
                [--custom-normalise raw|z] [--custom-average micro|domain]
                [--custom-test wilcoxon|wilcoxon-stouffer|mann-whitney|bootstrap|ar]
                [--custom-alpha 0.05] [--custom-correction holm|bonferroni|none]
                [--custom-resamples 1000] [--custom-seed 12345]

The annotations are Appraise's ESA exports as WMT24 ships them
(``humeval/esa_generalMT2024_wave*.csv``), the documents files ``txt/documents/<LP>.docs``
(each segment's domain). The procedure is the organisers' (``rankings.human``): score the
macro-average over domains, rank ranges from Wilcoxon tests per domain combined by Stouffer's
method, clusters. In the output, ``extra`` holds each system's domain scores, wins, losses,
items and its p-value against every other system.

``wmt23`` reads WMT23's DA+SQM export (``humaneval/DA+SQM/WMT23.scores_all.csv``, the layout in
``io.appraise_da_sqm``) and ranks as Appraise's ComputeWMT23Results does (``rankings.human_wmt23``).
``custom`` reads ESA exports with their ``.docs`` files, DA+SQM exports (the two told apart by
the number of fields of their rows) or mt-metrics-eval's ``.rating`` files (by their name, with
the test set's ``documents/<LP>.docs`` for domains if given) and ranks by the parts given
(``rankings.human_custom``).
``wmt25`` reads WMT25's humeval JSON Lines (``data/wmt25-genmt-humeval.jsonl``) or Pearmut's
output logs, told apart by their first line (``io.wmt25_humeval``, ``io.pearmut``); the
procedure is ``rankings.human_wmt25`` (one-sided Wilcoxon with the waves swapped, rank ranges
walked down the table, clusters); ``extra`` holds each system's domain and wave means, its number
of annotations and its p-value of being better than every other system.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.io.appraise_da_sqm import read_da_sqm_exports
from mteval_core.io.appraise_esa import read_documents, read_esa_exports
from mteval_core.io.human_layout import export_layout
from mteval_core.io.mtme_ratings import read_rating_files
from mteval_core.io.pearmut import is_pearmut_log, read_pearmut_logs
from mteval_core.io.wmt25_humeval import read_wmt25_humeval
from mteval_core.rankings import human_custom
from mteval_core.rankings.human import rank_wmt24
from mteval_core.rankings.human_wmt23 import rank_wmt23
from mteval_core.rankings.human_wmt25 import rank_wmt25
from mteval_core.rankings.table import LanguagePairRanking

PROTOCOLS = ("wmt24", "wmt23", "wmt25", "custom")
CUSTOM_PARTS = ("normalise", "average", "test", "alpha", "correction", "resamples", "seed")


def add_arguments(group: argparse._ArgumentGroup) -> None:
    """The human ranking's options, in their own argument group."""
    group.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        help="the year's procedure (wmt24: ESA waves; wmt23: the DA+SQM export; wmt25: its "
        "humeval JSON Lines or Pearmut logs), or custom (its parts from the --custom-* options)",
    )
    group.add_argument(
        "--human",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="Appraise ESA exports (WMT24's humeval/esa_generalMT2024_wave*.csv), DA+SQM "
        "exports (WMT23's humaneval/DA+SQM/WMT23.scores_all.csv), for wmt25 WMT25's "
        "data/wmt25-genmt-humeval.jsonl or Pearmut's output JSON Lines, or, for --protocol "
        "custom, mt-metrics-eval's human-scores/LP.NAME.seg.rating files",
    )
    group.add_argument(
        "--documents",
        nargs="+",
        type=Path,
        metavar="LP.docs",
        help="each pair's txt/documents/<LP>.docs (the domain of every segment)",
    )
    group.add_argument(
        "--exclude-annotators",
        nargs="+",
        metavar="ID",
        default=[],
        help="DA+SQM exports: leave out these annotators (ComputeWMT23Results' --exclude-ids, "
        "e.g. the ids of WMT23.unreliable_annotators.txt)",
    )


def add_custom_arguments(group: argparse._ArgumentGroup) -> None:
    """The parts of ``--protocol custom``, each prefixed --custom- (rankings.human_custom)."""
    defaults = human_custom.CustomProtocol()
    for part, choices in (
        ("normalise", human_custom.NORMALISATIONS),
        ("average", human_custom.AVERAGES),
        ("test", human_custom.TESTS),
        ("correction", human_custom.CORRECTIONS),
    ):
        group.add_argument(
            f"--custom-{part}",
            choices=choices,
            help=f"({getattr(defaults, part)})",
        )
    group.add_argument(
        "--custom-alpha", type=float, metavar="LEVEL", help=f"significance level ({defaults.alpha})"
    )
    group.add_argument(
        "--custom-resamples",
        type=int,
        metavar="N",
        help=f"bootstrap resamples or randomisation trials ({defaults.resamples:,})",
    )
    group.add_argument(
        "--custom-seed", type=int, metavar="SEED", help=f"of the resampling ({defaults.seed})"
    )


def requested(args: argparse.Namespace) -> bool:
    return args.protocol is not None


def run(args: argparse.Namespace) -> list[LanguagePairRanking]:
    given = [f"--custom-{p}" for p in CUSTOM_PARTS if getattr(args, f"custom_{p}") is not None]
    if given and args.protocol != "custom":
        raise InputError(
            f"{given[0]} is a part of --protocol custom, not of --protocol {args.protocol}",
            hint="Add --protocol custom, or leave the --custom-* options out.",
        )
    if args.exclude_annotators and args.protocol in ("wmt24", "wmt25"):
        raise InputError(
            "--exclude-annotators is for DA+SQM exports (--protocol wmt23 or custom)",
            hint="WMT24's procedure keeps every annotator; leave the option out.",
        )
    protocols = {"wmt23": _wmt23, "wmt24": _wmt24, "wmt25": _wmt25, "custom": _custom}
    return _selected(args, *protocols[args.protocol](args))


def _wmt24(args: argparse.Namespace) -> tuple[list[LanguagePairRanking], tuple[str, ...]]:
    if not args.human or not args.documents:
        raise InputError(
            "--protocol wmt24 needs --human (the ESA exports) and --documents (<LP>.docs)",
            hint="e.g. mteval rank --protocol wmt24 --human wave2.csv wave3.csv "
            "--documents en-cs.docs",
        )
    export = read_esa_exports(args.human)
    documents = dict(read_documents(path) for path in args.documents)
    return rank_wmt24(export.ratings, documents), export.notes


def _wmt23(args: argparse.Namespace) -> tuple[list[LanguagePairRanking], tuple[str, ...]]:
    if not args.human:
        raise InputError(
            "--protocol wmt23 needs --human (the DA+SQM export)",
            hint="e.g. mteval rank --protocol wmt23 --human WMT23.scores_all.csv",
        )
    if args.documents:
        raise InputError(
            "--protocol wmt23 takes no --documents: WMT23's procedure has no domains",
            hint="Leave --documents out, or rank with --protocol custom.",
        )
    export = read_da_sqm_exports(args.human, args.exclude_annotators)
    return rank_wmt23(export.ratings), export.notes


def _wmt25(args: argparse.Namespace) -> tuple[list[LanguagePairRanking], tuple[str, ...]]:
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
    annotations = tuple(a for part in read for a in part.annotations)
    return rank_wmt25(annotations), tuple(note for part in read for note in part.notes)


def _custom(args: argparse.Namespace) -> tuple[list[LanguagePairRanking], tuple[str, ...]]:
    if not args.human:
        raise InputError(
            "--protocol custom needs --human (ESA or DA+SQM exports, or .rating files)",
            hint="e.g. mteval rank --protocol custom --human WMT23.scores_all.csv "
            "--custom-normalise z --custom-test mann-whitney",
        )
    chosen = {p: getattr(args, f"custom_{p}") for p in CUSTOM_PARTS}
    protocol = human_custom.CustomProtocol(
        **{part: value for part, value in chosen.items() if value is not None}
    )
    protocol.check()  # before any file is read
    layouts = {_layout(path) for path in args.human}
    if len(layouts) > 1:
        raise InputError(
            "--human mixes kinds of files (ESA, DA+SQM exports, mt-metrics-eval .rating files)",
            hint="Rank one kind of export at a time.",
        )
    layout = layouts.pop()
    _refuse_unused(args, layout)
    if layout == "mtme":
        files = read_rating_files(args.human)
        documents = dict(read_documents(path) for path in args.documents or ())
        notes = tuple(note for file in files for note in file.notes)
        return human_custom.rank_custom(human_custom.from_mtme(files, documents), protocol), notes
    if layout == "esa":
        if not args.documents:
            raise InputError(
                "ESA exports need --documents (<LP>.docs), which give each segment's domain",
                hint="e.g. --documents en-cs.docs",
            )
        esa = read_esa_exports(args.human)
        documents = dict(read_documents(path) for path in args.documents)
        by_pair, notes = human_custom.from_esa(esa.ratings, documents), esa.notes
    else:
        export = read_da_sqm_exports(args.human, args.exclude_annotators)
        by_pair, notes = human_custom.from_da_sqm(export.ratings), export.notes
    return human_custom.rank_custom(by_pair, protocol), notes


def _refuse_unused(args: argparse.Namespace, layout: str) -> None:
    """An option the files' kind has no use for is refused, not ignored."""
    if args.exclude_annotators and layout != "da-sqm":
        raise InputError(
            "--exclude-annotators is for DA+SQM exports",
            hint="Leave it out for ESA exports and .rating files.",
        )
    if args.documents and layout == "da-sqm":
        raise InputError(
            "a DA+SQM export takes no --documents: its documents name no domain",
            hint="Leave --documents out; its items are ranked in one domain.",
        )


def _layout(path: Path) -> str:
    """The kind of export ``path`` is (io.human_layout)."""
    if path.name.endswith(".rating"):
        return "mtme"
    return export_layout(path.read_bytes(), str(path))


def _selected(
    args: argparse.Namespace, rankings: list[LanguagePairRanking], notes: tuple[str, ...]
) -> list[LanguagePairRanking]:
    """The pairs --lp asks for (all without it), each with the readers' notes first."""
    if args.lp:
        ranked = {r.language_pair for r in rankings}
        unknown = [pair for pair in args.lp if pair not in ranked]
        if unknown:
            raise InputError(
                f"--lp: no ranking of {', '.join(unknown)}",
                hint="Ranked: " + ", ".join(r.language_pair for r in rankings) + ".",
            )
        rankings = [r for r in rankings if r.language_pair in args.lp]
    return [
        LanguagePairRanking(r.language_pair, r.protocol, r.systems, (*notes, *r.notes))
        for r in rankings
    ]
