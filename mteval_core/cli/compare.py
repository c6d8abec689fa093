"""`mteval compare`: why one system beats another, as compare-mt 0.2.10 analyses it.

    mteval compare --refs REF [REF ...] --hyps A B [--source SRC] [--train FILE]
                   [--reading tokenized|compare-mt] [--tokenize T] [--lowercase]
                   [--stem S [--stem-language L]] [--bootstrap N] [--seed S]
                   [--format text|json|html]

The files are read by the same readers as `mteval score` (plain text, SGML, XML, JSON Lines,
tables); the analyses are mteval_core.compare's, with an interval on every bucket (1,000
resamples by default; --bootstrap 0 leaves them out). By default the text is tokenized as
`mteval score` tokenizes it and scored with its BLEU, so the two commands give one BLEU;
--reading compare-mt reads it as compare-mt does (split on spaces, its BLEU), for its numbers.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from mteval_core.cli.arguments import (
    CARRIAGE_RETURNS_OFFER,
    add_byte_order_mark_argument,
    add_carriage_returns_argument,
    add_preprocessing_arguments,
    given_options,
    resample_count,
    seed,
)
from mteval_core.errors import InputError
from mteval_core.stats.bootstrap import DEFAULT_SEED

if TYPE_CHECKING:
    from mteval_core.compare.readings import Reading
    from mteval_core.model.testset import TestSet
    from mteval_core.settings.options import Options

DEFAULT_RESAMPLES = 1000
# compare/readings.READINGS, written out: building the parser must not import the analyses
READINGS = ("tokenized", "compare-mt")
# what --reading compare-mt cannot take: it splits on spaces, whatever these say
TOKENIZER_FLAGS = {
    "tokenize": "--tokenize",
    "spm_model": "--spm-model",
    "lowercase": "--lowercase",
    "stem": "--stem",
}


def add_command(commands: argparse._SubParsersAction) -> None:
    compare = commands.add_parser(
        "compare",
        help="compare two systems: compare-mt's analyses with intervals",
        description="compare-mt 0.2.10's analyses of two systems, with its defaults: corpus "
        "BLEU and length ratio, word accuracy by frequency bucket, sentences by reference "
        "length (BLEU), length difference and sentence BLEU, salient n-gram differences and "
        "the sentences where the two differ most; each bucket with a bootstrap interval. The "
        "text is tokenized as `mteval score` tokenizes it, and its BLEU is score's; "
        "--reading compare-mt reads it as compare-mt does, for compare-mt's numbers.",
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
    add_reading_argument(compare)
    add_preprocessing_arguments(compare)
    add_carriage_returns_argument(compare, "the files")
    add_byte_order_mark_argument(compare, "the files")
    # resolved_options, shared with score, also chooses METEOR's language: none is given here
    compare.set_defaults(run=run, meteor_language=None)


def add_reading_argument(parser: argparse.ArgumentParser) -> None:
    """--reading tokenized|compare-mt: how the comparison reads the text (`compare`, `report`)."""
    parser.add_argument(
        "--reading",
        choices=READINGS,
        default=READINGS[0],
        help="how the comparison reads the text: tokenized (default) as `mteval score` "
        "tokenizes it, with its BLEU and sentence BLEU (sacreBLEU's), so the comparison's BLEU "
        "is score's against the same reference; compare-mt splits each line on spaces and "
        "scores compare-mt 0.2.10's BLEU and NLTK's sentence BLEU, for compare-mt's numbers "
        "(give it text split into words: Chinese or Japanese as written reads near zero)",
    )


def run(args: argparse.Namespace) -> str:
    from mteval_core.cli.score_inputs import load_command_line_test_set
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
    reading = reading_of(args, test_set)
    reference = test_set.references[0]
    if len(test_set.references) > 1:
        print(
            f"mteval: note: compare-mt's analyses take one reference; using {reference.name} "
            f"({reference.origin}), the other {len(test_set.references) - 1} are not read"
            + ("" if reading.key == READINGS[1] else " (its BLEU is score's with it alone)"),
            file=sys.stderr,
        )
    training = read_training(args.train, args) if args.train else None
    bootstrap = BootstrapOptions(args.bootstrap, args.seed) if args.bootstrap else None
    comparison = compare_pair(
        reference.segments,
        [(s.name, s.segments) for s in test_set.systems],
        reading,
        training=training,
        bootstrap=bootstrap,
        source=test_set.source.segments if test_set.source is not None else None,
    )
    print_notes(comparison.notes, reading)
    if args.format == "json":
        from mteval_core.report.comparison_text import comparison_json

        return comparison_json(comparison)
    if args.format == "html":
        from mteval_core.report.comparison_html import comparison_html

        return comparison_html(comparison)
    from mteval_core.report.comparison_text import comparison_text

    return comparison_text(comparison)


def reading_of(args: argparse.Namespace, test_set: TestSet) -> Reading:
    """--reading: the tokenized reading under --tokenize (or the target language's default),
    --lowercase and --stem, resolved as `mteval score` resolves them; or compare-mt's, which
    takes none of them."""
    from mteval_core.compare.readings import COMPARE_MT, TokenizedReading

    if args.reading == COMPARE_MT.key:
        unset = (None, False, "none")  # each flag's default
        given = [flag for name, flag in TOKENIZER_FLAGS.items() if getattr(args, name) not in unset]
        if given:
            raise InputError(
                f"{', '.join(given)} with --reading compare-mt: compare-mt splits each line on "
                "spaces, whatever the tokenizer",
                hint=f"Leave out {', '.join(given)}, or --reading compare-mt.",
            )
        return COMPARE_MT
    return TokenizedReading(tokenizer_options(args, test_set))


def tokenizer_options(args: argparse.Namespace, test_set: TestSet) -> Options:
    """The options of --tokenize, --spm-model, --lowercase and --stem, the tokenizer resolved
    by the target language as `mteval score` resolves it (with its note on stderr)."""
    from mteval_core.cli.score_inputs import resolved_options
    from mteval_core.settings.languages import languages_of

    return resolved_options(args, given_options(args), languages_of(test_set))


def print_notes(notes: tuple[str, ...], reading: Reading) -> None:
    """The comparison's notes on stderr, with what to give on the command line."""
    flag = "leave out --reading compare-mt" if reading.key == READINGS[1] else "give --tokenize"
    for note in notes:
        print(f"mteval: note: {note} ({flag})", file=sys.stderr)


def read_training(path: str, args: argparse.Namespace) -> tuple[str, ...]:
    """--train FILE: one sentence a line, plain text, decoded and checked as the other files."""
    from mteval_core.io import read_bytes
    from mteval_core.io.decoding import LoneCarriageReturn
    from mteval_core.io.plain import read_plain

    try:
        return read_plain(read_bytes(path), path, "train", args.byte_order_mark).segments
    except LoneCarriageReturn as error:
        raise error.offering(CARRIAGE_RETURNS_OFFER) from None
