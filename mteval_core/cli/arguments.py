"""What the commands share: the parser that turns usage errors into one line, the checked types of
--bootstrap and --seed, the checks of --exclude, and --carriage-returns and --byte-order-mark for
commands that read text files."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mteval_core.errors import InputError, listed_names
from mteval_core.settings.limits import MAX_RESAMPLES
from mteval_core.settings.options import METEOR_ALIGNMENTS, METEOR_TASKS
from mteval_core.stats.bootstrap import DEFAULT_SEED, BootstrapOptions

if TYPE_CHECKING:
    from mteval_core.io.mtme import MtmeRead

MAX_SEED = 2**32 - 1  # 32-bit seeds: every numpy generator and most other tools take them
# io.decoding.CARRIAGE_RETURNS, written out: building the parser must not import the readers
CARRIAGE_RETURNS = ("refuse", "split", "space")
BYTE_ORDER_MARKS = ("keep", "drop")  # io.plain.BYTE_ORDER_MARKS, for the same reason
# What the refusal of a lone carriage return offers, where --carriage-returns is taken.
CARRIAGE_RETURNS_OFFER = (
    "give --carriage-returns split to end the segment there, as sacreBLEU does, or "
    "--carriage-returns space to read it as a space"
)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(f"{message} (see '{self.prog} --help')")


def resample_count(text: str) -> int:
    """--bootstrap N: 0 (no resampling) up to MAX_RESAMPLES, checked before any work is done."""
    n = _whole_number(text)
    if n < 0:
        raise argparse.ArgumentTypeError(
            f"{n} is negative; give 0 (no resampling) or a number of resamples up to "
            f"{MAX_RESAMPLES:,}"
        )
    if n > MAX_RESAMPLES:
        raise argparse.ArgumentTypeError(
            f"{n:,} resamples are more than the limit of {MAX_RESAMPLES:,} (1,000 to 10,000 "
            "are usual)"
        )
    return n


def worker_count(text: str) -> int:
    """--workers N: 0 (no Dask: the shards one after another in this process) or more."""
    n = _whole_number(text)
    if n < 0:
        raise argparse.ArgumentTypeError(
            f"{n} is negative; give a number of worker processes, or 0 to run without Dask"
        )
    return n


def seed(text: str) -> int:
    """--seed S: a whole number from 0 to 2**32 - 1 (numpy refuses negative seeds)."""
    value = _whole_number(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"{value} is not a seed; give a whole number from 0 to {MAX_SEED}"
        )
    return value


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def add_resampling_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """--bootstrap N and --seed S; ``what`` says what the resamples give."""
    parser.add_argument(
        "--bootstrap",
        type=resample_count,
        default=0,
        metavar="N",
        help=f"N resamples (at most {MAX_RESAMPLES:,}): {what}",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        default=DEFAULT_SEED,
        metavar="S",
        help=f"seed of the resamples, 0 to {MAX_SEED} (default: %(default)s)",
    )


def add_carriage_returns_argument(parser: argparse.ArgumentParser, files: str) -> None:
    """--carriage-returns refuse|split|space: what a CR without a LF in ``files`` means."""
    parser.add_argument(
        "--carriage-returns",
        choices=CARRIAGE_RETURNS,
        default="refuse",
        help=f"what a carriage return (CR) without a line feed in {files} means: refuse "
        "(default) stops with the CR's file, line and column; split ends the line there, a new "
        "segment, as sacreBLEU and Python's universal newlines read it; space reads it as a "
        "space, so the segments stay as they are. CRLF line ends are always fine.",
    )


def add_byte_order_mark_argument(parser: argparse.ArgumentParser, files: str) -> None:
    """--byte-order-mark keep|drop: what a UTF-8 byte order mark at the start of a plain-text
    file among ``files`` becomes."""
    parser.add_argument(
        "--byte-order-mark",
        choices=BYTE_ORDER_MARKS,
        default="keep",
        help=f"what a byte order mark (U+FEFF) at the start of a plain-text file among {files} "
        "becomes: keep (default) reads it as the first character of the first segment, as "
        "sacreBLEU, mteval-v13a and GTM 1.4 do, so the scores equal theirs; drop drops it. A "
        "note names each file that has one. XML, SGML, JSON Lines, CSV and TSV files always "
        "drop it.",
    )


def add_ranking_arguments(parser: argparse.ArgumentParser) -> None:
    """--rank-metrics STATISTIC and --permutations N, as `score` and `correlate` take them."""
    parser.add_argument(
        "--rank-metrics",
        metavar="STATISTIC",
        help="rank the metrics by STATISTIC (e.g. acc_eq_item, pearson_system, spa, "
        "pairwise_accuracy_with_ties) in significance clusters (mt-metrics-eval's permutation "
        "tests); needs segment-level judgments",
    )
    parser.add_argument(
        "--permutations",
        type=resample_count,
        default=1000,
        metavar="N",
        help="permutations of each test of --rank-metrics (default: %(default)s)",
    )


def bootstrap_options(args: argparse.Namespace) -> BootstrapOptions | None:
    return BootstrapOptions(args.bootstrap, args.seed) if args.bootstrap else None


def check_excluded(excluded: list[str], known: list[str]) -> None:
    """An --exclude of a system that is not there is a typo, not a no-op: say so."""
    for name in excluded:
        if name not in known:
            raise InputError(
                f"--exclude {name}: there is no system {name!r}",
                hint=f"The systems are: {listed_names(known)}.",
            )


def add_mtme_arguments(parser: argparse.ArgumentParser) -> None:
    """--mtme DIR --test-set NAME --lp LP [--reference REF] [--with-human-outputs]: a test set
    as google-research/mt-metrics-eval shares it (mteval_core.io.mtme)."""
    parser.add_argument(
        "--mtme",
        metavar="DIR",
        help="an mt-metrics-eval data folder (e.g. mt-metrics-eval-v2) holding --test-set's "
        "folder: source, references, system outputs, documents, human and metric scores",
    )
    parser.add_argument("--test-set", metavar="NAME", help="with --mtme: e.g. wmt21.news")
    parser.add_argument("--lp", metavar="LP", help="with --mtme: the language pair, e.g. en-de")
    parser.add_argument(
        "--reference",
        metavar="REF",
        help="with --mtme: the reference (default: mt-metrics-eval's standard one of the set)",
    )
    parser.add_argument(
        "--with-human-outputs",
        action="store_true",
        help="with --mtme: score the other references' texts as systems too (by default they "
        "are set aside, and so are their human and metric scores)",
    )


MTME_ONLY_OPTIONS = {
    "test_set": "--test-set",
    "lp": "--lp",
    "reference": "--reference",
    "with_human_outputs": "--with-human-outputs",
}


def load_mtme(args: argparse.Namespace, refused: dict[str, str]) -> MtmeRead | None:
    """The --mtme test set, or None without --mtme. ``refused`` (dest -> option) are options
    that give the test set another way and cannot be combined with it; its notes go to stderr."""
    import sys

    if not args.mtme:
        given = [option for dest, option in MTME_ONLY_OPTIONS.items() if getattr(args, dest)]
        if given:
            raise InputError(f"{', '.join(given)} works with --mtme", hint="Give --mtme DIR.")
        return None
    clash = [option for dest, option in refused.items() if getattr(args, dest)]
    if clash:
        raise InputError(
            f"--mtme gives the test set; {', '.join(clash)} cannot be given with it",
            hint="Leave out " + ", ".join(clash) + ", or --mtme.",
        )
    missing = [o for o in ("--test-set", "--lp") if not getattr(args, o[2:].replace("-", "_"))]
    if missing:
        raise InputError(
            f"--mtme needs {' and '.join(missing)}",
            hint="e.g. --mtme mt-metrics-eval-v2 --test-set wmt21.news --lp en-de",
        )
    from mteval_core.io.mtme import read_mtme

    read = read_mtme(
        args.mtme,
        args.test_set,
        args.lp,
        args.reference,
        human_outputs=args.with_human_outputs,
    )
    for note in read.notes:
        print(f"mteval: note: {note}", file=sys.stderr)
    return read


def add_meteor_arguments(parser: argparse.ArgumentParser) -> None:
    """METEOR 1.5's options, named as the jar's (-l -m -w -p -t -norm); --lowercase is -lower."""
    parser.add_argument(
        "--meteor-language",
        metavar="LANG",
        help="METEOR's language (en, de, fr, es, cz, ru, ..., other; default: the target "
        "language when the files say it, else en)",
    )
    parser.add_argument(
        "--meteor-modules",
        type=text_list,
        metavar="M,...",
        help="METEOR's matching modules in order, from exact, stem, synonym, paraphrase "
        "(default: the language's, as the jar's)",
    )
    parser.add_argument(
        "--meteor-weights",
        type=number_list,
        metavar="W,...",
        help="one weight per METEOR module (default: the jar's for the language and task)",
    )
    parser.add_argument(
        "--meteor-parameters",
        type=number_list,
        metavar="ALPHA,BETA,GAMMA,DELTA",
        help="METEOR's parameters (default: the jar's for the language and task)",
    )
    parser.add_argument(
        "--meteor-task",
        choices=METEOR_TASKS,
        help="the task METEOR's defaults are tuned for (default: rank, or li for a language "
        "the jar has no tuned parameters for)",
    )
    parser.add_argument(
        "--meteor-normalize",
        action="store_true",
        help="METEOR's normaliser before scoring (the jar's -norm; it also lowercases)",
    )
    parser.add_argument(
        "--meteor-data",
        metavar="PATH",
        help="meteor-1.5.jar or the folder holding it (default: the one pycocoevalcap installs)",
    )
    parser.add_argument(
        "--meteor-alignment",
        choices=METEOR_ALIGNMENTS,
        default="beam",
        help="beam: the jar's beam search (default); exact: the alignment of most weighted "
        "coverage and then fewest chunks, found exactly",
    )


def text_list(text: str) -> tuple[str, ...]:
    """'exact, stem' -> ('exact', 'stem')."""
    return tuple(part.strip().lower() for part in text.split(",") if part.strip())


def number_list(text: str) -> tuple[float, ...]:
    """'0.85,0.2' -> (0.85, 0.2), with a clear error for anything but numbers."""
    values = []
    for part in text.split(","):
        try:
            values.append(float(part))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{part.strip()!r} is not a number (give numbers separated by commas, "
                "e.g. 0.85,0.2,0.6,0.75)"
            ) from None
    return tuple(values)
