"""`mteval compare`: why one system beats another, as compare-mt 0.2.10 analyses it.

    mteval compare --refs REF [REF ...] --hyps A B [--source SRC] [--train FILE]
                   [--bootstrap N] [--seed S] [--format text|json|html]

The files are read by the same readers as `mteval score` (plain text, SGML, XML, JSON Lines,
tables); the analyses are mteval_core.compare's, with compare-mt's numbers and an interval on
every bucket (1,000 resamples by default; --bootstrap 0 leaves them out).
"""

from __future__ import annotations

import argparse
import sys

from mteval_core.cli.arguments import (
    CARRIAGE_RETURNS_OFFER,
    add_byte_order_mark_argument,
    add_carriage_returns_argument,
    resample_count,
    seed,
)
from mteval_core.errors import InputError
from mteval_core.stats.bootstrap import DEFAULT_SEED

DEFAULT_RESAMPLES = 1000


def add_command(commands: argparse._SubParsersAction) -> None:
    compare = commands.add_parser(
        "compare",
        help="compare two systems: compare-mt's analyses with intervals",
        description="compare-mt 0.2.10's analyses of two systems, with its defaults and its "
        "numbers: corpus BLEU and length ratio, word accuracy by frequency bucket, sentences "
        "by reference length (BLEU), length difference and sentence BLEU, salient n-gram "
        "differences and the sentences where the two differ most; each bucket with a "
        "bootstrap interval. The text is read as compare-mt reads it: tokenised already, "
        "split on spaces.",
    )
    compare.add_argument(
        "--refs",
        nargs="+",
        required=True,
        metavar="REF",
        help="the reference (compare-mt's analyses take one; with several, the first is used "
        "and a note says so)",
    )
    compare.add_argument(
        "--hyps",
        nargs=2,
        required=True,
        metavar=("A", "B"),
        help="the two systems' outputs (or NAME=PATH)",
    )
    compare.add_argument("--source", metavar="SRC", help="the source, shown beside the examples")
    compare.add_argument(
        "--train",
        metavar="FILE",
        help="a training corpus (target side, one sentence a line) whose word counts make the "
        "frequency buckets, in place of the reference's (compare-mt's freq_corpus_file)",
    )
    compare.add_argument(
        "--bootstrap",
        type=resample_count,
        default=DEFAULT_RESAMPLES,
        metavar="N",
        help="resamples of the sentences for every bucket's interval (default: %(default)s; "
        "0: no intervals)",
    )
    compare.add_argument(
        "--seed", type=seed, default=DEFAULT_SEED, metavar="S", help="(default: %(default)s)"
    )
    compare.add_argument("--format", choices=("text", "json", "html"), default="text")
    add_carriage_returns_argument(compare, "the files")
    add_byte_order_mark_argument(compare, "the files")
    compare.set_defaults(run=run)


def run(args: argparse.Namespace) -> str:
    from mteval_core.cli.score import load_command_line_test_set
    from mteval_core.compare.analysis import compare_pair
    from mteval_core.stats.bootstrap import BootstrapOptions

    test_set = load_command_line_test_set(
        args.refs, args.hyps, args.carriage_returns, args.source, args.byte_order_mark
    )
    if len(test_set.systems) != 2:
        names = ", ".join(s.name for s in test_set.systems)
        raise InputError(
            f"compare takes two systems; the --hyps files hold {len(test_set.systems)} ({names})",
            hint="Give two plain-text files, or NAME=PATH for each.",
        )
    reference = test_set.references[0]
    if len(test_set.references) > 1:
        print(
            f"mteval: note: compare-mt's analyses take one reference; using {reference.name} "
            f"({reference.origin}), the other {len(test_set.references) - 1} are not read",
            file=sys.stderr,
        )
    training = read_training(args.train, args) if args.train else None
    bootstrap = BootstrapOptions(args.bootstrap, args.seed) if args.bootstrap else None
    comparison = compare_pair(
        reference.segments,
        [(s.name, s.segments) for s in test_set.systems],
        training=training,
        bootstrap=bootstrap,
        source=test_set.source.segments if test_set.source is not None else None,
    )
    if args.format == "json":
        from mteval_core.report.comparison_text import comparison_json

        return comparison_json(comparison)
    if args.format == "html":
        from mteval_core.report.comparison_html import comparison_html

        return comparison_html(comparison)
    from mteval_core.report.comparison_text import comparison_text

    return comparison_text(comparison)


def read_training(path: str, args: argparse.Namespace) -> tuple[str, ...]:
    """--train FILE: one sentence a line, plain text, decoded and checked as the other files."""
    from mteval_core.io import read_bytes
    from mteval_core.io.decoding import LoneCarriageReturn
    from mteval_core.io.plain import read_plain

    try:
        return read_plain(read_bytes(path), path, "train", args.byte_order_mark).segments
    except LoneCarriageReturn as error:
        raise error.offering(CARRIAGE_RETURNS_OFFER) from None
