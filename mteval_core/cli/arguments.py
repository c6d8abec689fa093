"""What the commands share: the parser that turns usage errors into one line, the checked types of
--bootstrap and --seed, the checks of --exclude, and --carriage-returns and --byte-order-mark for
commands that read text files."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mteval_core.errors import InputError, listed_names
from mteval_core.settings.languages import DEFAULT_TOKENIZER
from mteval_core.settings.limits import MAX_RESAMPLES
from mteval_core.settings.options import (
    SPM_TOKENIZERS,
    STEMMERS,
    TOKENIZERS,
    Options,
    SentencePieceModel,
)
from mteval_core.settings.parameters import FAMILIES, Declared
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
    """--workers N: 0 or 1 (no Dask: the shards one after another in this process) or more."""
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


def in_command_words(message: str) -> str:
    """A message or note of the core with the command line's flags where the core says what to
    give or choose in neutral words (the Data page says it in its own)."""
    # the readers, imported only once a message is shown: building the parser must not import them
    from mteval_core.io.detect import GIVE_IT_AS
    from mteval_core.io.metric_scores import SAY_THE_DIRECTION
    from mteval_core.io.plain import DROP_BYTE_ORDER_MARK
    from mteval_core.io.wmt25_automatic_scores import DOCUMENT_IDS_FOR_TEXT
    from mteval_core.model.testset import SEGMENT_ID_MAP
    from mteval_core.spans.span_files import GEMBA_NEEDS_TRANSLATIONS

    flags = {
        GEMBA_NEEDS_TRANSLATIONS: f"{GEMBA_NEEDS_TRANSLATIONS} (--translations FILE)",
        DOCUMENT_IDS_FOR_TEXT: f"{DOCUMENT_IDS_FOR_TEXT} (--segment-ids FILE)",
        DROP_BYTE_ORDER_MARK: "give --byte-order-mark drop",
        SEGMENT_ID_MAP: f"{SEGMENT_ID_MAP[:-1]}, --segment-ids FILE)",
        GIVE_IT_AS["ref"]: "Pass it with --refs.",
        GIVE_IT_AS["sys"]: "Pass it with --hyps.",
        SAY_THE_DIRECTION: SAY_THE_DIRECTION[:-1]
        + ": give --metric-scores NAME:higher=FILE or NAME:lower=FILE.",
    }
    for neutral, flag in flags.items():
        message = message.replace(neutral, flag)
    return message


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
    from mteval_core.io.mtme import HowToChoose, read_mtme

    read = read_mtme(
        args.mtme,
        args.test_set,
        args.lp,
        args.reference,
        human_outputs=args.with_human_outputs,
        how_to_choose=HowToChoose("choose another with --reference", "--with-human-outputs"),
    )
    for note in read.notes:
        print(f"mteval: note: {note}", file=sys.stderr)
    return read


def add_preprocessing_arguments(parser: argparse.ArgumentParser) -> None:
    """--tokenize, --spm-model, --lowercase, --stem and --stem-language: the preprocessing every
    metric that reads tokens shares (`score`, `compare`, `report`)."""
    parser.add_argument(
        "--tokenize",
        choices=TOKENIZERS,
        default=None,
        help="default: the one sacreBLEU's BLEU uses for the target language the file names "
        "give (zh for Chinese, ja-mecab for Japanese, ko-mecab for Korean), else 13a; WMT's "
        "official BLEU uses char for Japanese; none splits on whitespace as sacreBLEU's none, "
        "gtm14 as GTM 1.4 and METEOR (space, tab, LF, CR, form feed only)",
    )
    parser.add_argument(
        "--spm-model",
        metavar="PATH",
        help="the SentencePiece model file of --tokenize flores101, flores200, spBLEU-1K or spm "
        "(sacreBLEU downloads it; mteval reads it from here); signatures name it by its SHA-256 "
        "(spm-model:...)",
    )
    parser.add_argument("--lowercase", action="store_true", help="Unicode lowercasing")
    parser.add_argument("--stem", choices=STEMMERS, default="none")
    parser.add_argument(
        "--stem-language",
        default="english",
        metavar="LANG",
        help="language of the Snowball stemmer (default: english)",
    )


def given_options(args: argparse.Namespace) -> Options:
    """The options of the preprocessing flags and of every family parameter the command takes,
    with 13a until the test set's language resolves --tokenize
    (cli.score_inputs.resolved_options)."""
    return options_from_arguments(
        args,
        tokenize=args.tokenize or DEFAULT_TOKENIZER,
        spm_model=given_spm_model(args),
        lowercase=args.lowercase,
        stem=args.stem,
        stem_language=args.stem_language,
    )


def given_spm_model(args: argparse.Namespace) -> SentencePieceModel | None:
    """--spm-model PATH, read (its SHA-256 signs it) where --tokenize takes one."""
    if args.spm_model and args.tokenize not in SPM_TOKENIZERS:
        raise InputError(
            "--spm-model works with --tokenize flores101, flores200, spBLEU-1K or spm",
            hint="Give one of them, or leave out --spm-model.",
        )
    if args.tokenize not in SPM_TOKENIZERS:
        return None
    if not args.spm_model:
        raise InputError(
            f"--tokenize {args.tokenize} needs its SentencePiece model file",
            hint="sacreBLEU downloads it; mteval reads the copy you give: --spm-model PATH (the "
            "file sacreBLEU keeps in ~/.sacrebleu/models/), or choose another tokenizer.",
        )
    from mteval_core.text.sentencepiece_models import model_file

    return model_file(args.spm_model)


def add_parameter_arguments(
    parser: argparse.ArgumentParser, families: Sequence[str] = tuple(FAMILIES)
) -> None:
    """Every parameter of each metric family in ``families`` (Options' field names), as
    declared in settings.parameters: ``--<prefix>-<name>`` in an argument group per family,
    whose dest is the flat name ``Options.from_flags`` takes (``gtm_exponent``). Values left out
    are None here and the family's defaults in ``options_from_arguments``."""
    from mteval_core.metrics import REGISTRY

    for name in families:
        family = FAMILIES[name]
        metrics = [m for m, cls in REGISTRY.items() if cls.family == name]
        group = parser.add_argument_group(
            f"{family.title} parameters", f"what --metrics {', '.join(metrics)} read"
        )
        for declared in family.declared():
            _add_parameter(group, family, declared)


def _add_parameter(group: argparse._ArgumentGroup, family: type, declared: Declared) -> None:
    spec = declared.spec
    flags = [family.flag(declared.name), *spec.aliases]
    dest = f"{family.prefix}_{declared.name}"
    shown = f"{declared.default:g}" if declared.kind is float else declared.default
    default = "" if shown is None or "default:" in spec.help else f" (default: {shown})"
    if declared.kind is bool:
        group.add_argument(*flags, dest=dest, action="store_true", help=spec.help)
        return
    group.add_argument(
        *flags,
        dest=dest,
        choices=spec.choices,
        type=_argument_type(spec.parse or (float if declared.kind is float else str)),
        metavar=spec.metavar,
        help=spec.help + default,
    )


def _argument_type(parse: Callable[[str], object]) -> Callable[[str], object]:
    """``parse`` for argparse: its ValueError's reason becomes the usage error's."""

    def parsed(text: str) -> object:
        try:
            return parse(text)
        except ValueError as error:
            reason = str(error) if parse not in (float, str) else f"{text!r} is not a number"
            raise argparse.ArgumentTypeError(reason) from None

    parsed.__name__ = getattr(parse, "__name__", "value")
    return parsed


def options_from_arguments(args: argparse.Namespace, **shared: object) -> Options:
    """Options of the shared preprocessing (``shared``: tokenize, lowercase, ...) and of every
    family parameter the arguments hold (those ``add_parameter_arguments`` added); a parameter
    left out keeps its family's default."""
    flags = dict(shared)
    for family in FAMILIES.values():
        for declared in family.declared():
            value = getattr(args, f"{family.prefix}_{declared.name}", None)
            if value is not None and value is not False:
                flags[f"{family.prefix}_{declared.name}"] = value
    return Options.from_flags(**flags)
