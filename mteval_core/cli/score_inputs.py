"""What `mteval score` reads beside its options: the test set from --refs, --hyps and --source
(or --mtme), --segment-ids, --metric-scores with --metric-signature, and the tokenizer that the
test set's language chooses. `mteval compare`, `report` and `rank` read their files with these
too, so that one file gives one test set whichever command reads it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from mteval_core.cli.arguments import CARRIAGE_RETURNS_OFFER, in_command_words
from mteval_core.errors import InputError
from mteval_core.metrics.meteor.configuration import default_language as default_meteor_language
from mteval_core.model.testset import TestSet
from mteval_core.settings.languages import Languages, missing_default, resolve_tokenizer
from mteval_core.settings.options import Options

if TYPE_CHECKING:
    from mteval_core.io.mtme import MtmeRead
    from mteval_core.metrics.external import ExternalMetric
    from mteval_core.model.metric_signature import MetricSignature

# said when a tokenizer cannot run, the language default or one given (the core's hint names none)
TOKENIZER_HINT = (
    "Or choose another tokenizer with --tokenize (char: WMT's official BLEU for Japanese; 13a as "
    "for languages written with spaces)."
)


def resolved_options(args: argparse.Namespace, options: Options, languages: Languages) -> Options:
    """The options with --tokenize, or the target language's default (said in a note on
    stderr), once its package is known to be there: a missing MeCab is one line, not a
    traceback from deep inside scoring."""
    from mteval_core.text.outside_tokenizers import require_tokenizer

    options, note = resolve_tokenizer(options, languages, args.tokenize)
    if args.meteor_language is None:  # METEOR's language: the target's when the files say it
        options = options.updated(meteor_language=default_meteor_language(languages.target))
    try:
        require_tokenizer(options)
    except InputError as error:
        if error.origin is not None:  # the SentencePiece model file
            raise
        problem = error.problem if note is None else missing_default(languages, error.problem)
        raise InputError(problem, hint=TOKENIZER_HINT) from None
    if note is not None:
        print(f"mteval: note: {note} (give --tokenize to choose another)", file=sys.stderr)
    return options


def mtme_test_set(args: argparse.Namespace, mtme: MtmeRead) -> TestSet:
    """The --mtme test set, its human scores taken as --human (and its standard criterion as
    --criterion's default); --human replaces them."""
    if mtme.test_set.human is not None and not args.human:
        if args.human_lower_is_better:
            raise InputError(
                "--human-lower-is-better: mt-metrics-eval's human scores are higher-is-better "
                "already (MQM as negative error points)",
                hint="Leave it out, or give your own judgments with --human.",
            )
        args.criterion = args.criterion or mtme.criterion
    return mtme.test_set


def with_segment_ids(path: str | None, test_set: TestSet) -> tuple[TestSet, dict[str, int] | None]:
    """--segment-ids FILE: the test set with the map's documents (its doc column, unless the
    text files gave documents), and segment id -> 1-based line (None without a segment_id
    column), checked against the test set's size. The documents place the 2022-2024 MQM
    layout's rows by doc and docSegId, as the Data page's map does, instead of by source
    text, which gives repeated sources each other's errors."""
    if path is None:
        return test_set, None
    from mteval_core.io import read_bytes
    from mteval_core.io.directory import parse_segment_ids

    read = parse_segment_ids(read_bytes(path), path, test_set.n_segments)
    if read.lines is None and read.documents is None:
        raise InputError(
            "there is no segment_id column and no doc column",
            origin=path,
            hint="A segment-id map has the columns line, segment_id and doc (either may be "
            "left out), one row per line.",
        )
    if read.documents is not None and test_set.documents is None:
        test_set = replace(test_set, documents=read.documents)
    return test_set, read.lines


def read_externals(
    specs: Sequence[str],
    signatures: Sequence[str],
    test_set: TestSet,
    segment_ids: dict[str, int] | None = None,
) -> list[ExternalMetric]:
    """--metric-scores NAME[:DIRECTION]=FILE (the files of one NAME read as one metric) and
    --metric-signature NAME:FIELD=VALUE,... -> the metrics, read for this test set; what their
    files set aside (systems without text) is printed as notes by the scoring."""
    from mteval_core.io import read_bytes
    from mteval_core.io.metric_scores import read_metric_files

    files: dict[str, list[tuple[bytes, str]]] = {}
    directions: dict[str, bool | None] = {}
    for spec in specs:
        name, higher_is_better, path = _metric_spec(spec)
        if name in directions and directions[name] != higher_is_better:
            raise InputError(
                f"--metric-scores {spec}: metric {name!r} is given another direction before",
                hint="Give every file of one metric the same direction.",
            )
        directions[name] = higher_is_better
        files.setdefault(name, []).append((read_bytes(path), path))
    given = _metric_signatures(signatures, set(files))
    return [
        read_metric_files(
            read,
            test_set,
            name=name,
            higher_is_better=directions[name],
            segment_ids=segment_ids,
            signature=given.get(name),
        )
        for name, read in files.items()
    ]


def _metric_spec(spec: str) -> tuple[str, bool | None, str]:
    """NAME:DIRECTION=FILE -> (NAME, higher is better, FILE); NAME=FILE leaves the direction to
    the file's tool (the reader refuses a file that does not say it)."""
    from mteval_core.io.metric_scores import parse_direction

    form = "Write NAME:higher=FILE or NAME:lower=FILE."
    label, equals, path = spec.partition("=")
    if not equals or not path:
        raise InputError(f"--metric-scores {spec}: the file is missing", hint=form)
    name, colon, direction = label.partition(":")
    if colon and not direction:
        raise InputError(
            f"--metric-scores {spec}: the direction of metric {name!r} is missing (are higher "
            "or lower scores better?)",
            hint=form,
        )
    return name, parse_direction(direction, name) if colon else None, path


def _metric_signatures(specs: Sequence[str], names: set[str]) -> dict[str, MetricSignature]:
    """--metric-signature NAME:FIELD=VALUE,... -> name -> signature, for metrics that are read."""
    from mteval_core.model.metric_signature import parse_signature_fields

    given: dict[str, MetricSignature] = {}
    for spec in specs:
        name, colon, text = spec.partition(":")
        if not colon or name not in names:
            raise InputError(
                f"--metric-signature {spec}: "
                + (f"no --metric-scores names metric {name!r}" if colon else "NAME: is missing"),
                hint="Write --metric-signature NAME:model=...,version=... for a metric that "
                "--metric-scores NAME... reads.",
            )
        if name in given:
            raise InputError(f"--metric-signature {spec}: metric {name!r} has one already")
        given[name] = parse_signature_fields(text, f"--metric-signature {name}")
    return given


def load_command_line_test_set(
    ref_args: Sequence[str],
    hyp_args: Sequence[str],
    carriage_returns: str = "refuse",
    source_arg: str | None = None,
    byte_order_mark: str = "keep",
) -> TestSet:
    """Read every --refs and --hyps file (and --source) with io.test_set_files, the reader the
    Python API shares; a --hyps NAME=PATH names its system, notes go to stderr, and the
    carriage-return refusal names --carriage-returns."""
    from mteval_core.io.decoding import LoneCarriageReturn
    from mteval_core.io.test_set_files import read_test_set_files

    try:
        return read_test_set_files(
            ref_args,
            [_split_name(arg) for arg in hyp_args],
            source_arg,
            carriage_returns,
            byte_order_mark,
            note=_print_note,
            naming_hint="or give NAME=PATH",
        )
    except LoneCarriageReturn as error:
        raise error.offering(CARRIAGE_RETURNS_OFFER) from None


def _print_note(note: str) -> None:
    print(f"mteval: note: {in_command_words(note)}", file=sys.stderr)


def _split_name(arg: str) -> tuple[str | None, str]:
    """'NAME=PATH' -> (NAME, PATH); a path that exists as given is never split."""
    if "=" in arg and not os.path.exists(arg):
        name, path = arg.split("=", 1)
        if not name:
            raise InputError(f"empty system name in {arg!r}", hint="Write NAME=PATH.")
        return name, path
    return None, arg
