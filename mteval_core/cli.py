"""The `mteval` command: a stable interface that scripts and CI pipelines depend on.

User errors exit with status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence

from mteval_core import __version__
from mteval_core.config import BREVITY_PENALTIES, GTM_MATCHINGS, STEMMERS, TOKENIZERS, Options
from mteval_core.errors import InputError
from mteval_core.export import to_csv, to_json, to_latex, to_text
from mteval_core.loss_cli import add_loss_command
from mteval_core.meta_cli import (
    add_correlate_command,
    add_meta_arguments,
    meta_evaluation,
    render_meta_text,
)
from mteval_core.metrics import DEFAULT_METRICS, REGISTRY, parse_metric_list
from mteval_core.testset import TestSet, TextColumn

EXIT_USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mteval", description="Machine translation evaluation.")
    parser.add_argument("--version", action="version", version=f"mteval {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    score = commands.add_parser(
        "score",
        help="score system outputs against references",
        description="Score system outputs against one or more references. Plain text files have "
        "one segment per line; NIST mteval SGML and WMT XML files are read too.",
    )
    score.add_argument(
        "--refs",
        nargs="+",
        required=True,
        metavar="REF",
        help="reference files; each is one complete reference translation",
    )
    score.add_argument(
        "--hyps",
        nargs="+",
        required=True,
        metavar="HYP",
        help="system outputs; each is named after its file (without the last extension), "
        "or give NAME=PATH",
    )
    score.add_argument(
        "--metrics",
        default=",".join(DEFAULT_METRICS),
        help=f"comma-separated, from: {', '.join(REGISTRY)} (default: %(default)s)",
    )
    score.add_argument("--tokenize", choices=TOKENIZERS, default="13a")
    score.add_argument("--lowercase", action="store_true", help="Unicode lowercasing")
    score.add_argument("--stem", choices=STEMMERS, default="none")
    score.add_argument(
        "--stem-language",
        default="english",
        metavar="LANG",
        help="language of the Snowball stemmer (default: english)",
    )
    score.add_argument(
        "--fmean-alpha",
        type=float,
        default=0.9,
        metavar="A",
        help="Fmean = PR / (A P + (1 - A) R); 0.9 as Lavie et al. 2004 (default)",
    )
    score.add_argument(
        "--bp",
        choices=BREVITY_PENALTIES,
        default="closest",
        help="BLEU brevity penalty reference length (default: closest)",
    )
    score.add_argument(
        "--gtm-exponent",
        type=float,
        default=1.0,
        metavar="E",
        help="GTM's reward for runs, e > 0 (default: 1, as GTM 1.4; the paper uses 2)",
    )
    score.add_argument(
        "--gtm-matching",
        choices=GTM_MATCHINGS,
        default="greedy",
        help="greedy: GTM 1.4 bit for bit (default); exact: the paper's maximum matching",
    )
    score.add_argument("--segments", action="store_true", help="also print segment scores")
    score.add_argument(
        "--documents",
        action="store_true",
        help="also print document scores (json; csv prints them instead of system rows); "
        "needs SGML or XML input, which carries document ids",
    )
    score.add_argument("--format", choices=("text", "json", "csv", "latex"), default="text")
    add_meta_arguments(score)
    score.set_defaults(run=run_score)
    add_correlate_command(commands)
    add_loss_command(commands)

    gtm = commands.add_parser(
        "gtm",
        prefix_chars="-+",
        help="GTM with GTM 1.4's command line and output (a drop-in for gtm.jar)",
        description="Print what gtm.jar prints: 'DOCID SEGID F' per segment (+s) and 'DOCID F' "
        "per document (on by default; -d turns it off). Input: GTM/mteval SGML or plain text; "
        "tokens are split on whitespace only, as GTM 1.4 does.",
    )
    gtm.add_argument("+s", dest="segment_lines", action="store_true", help="segment lines on")
    gtm.add_argument("-s", dest="segment_lines", action="store_false", help="off (default)")
    gtm.add_argument("+d", dest="document_lines", action="store_true", help="document lines on")
    gtm.add_argument("-d", dest="document_lines", action="store_false", help="off")
    gtm.add_argument("-e", dest="exponent", type=float, default=1.0, help="exponent (default 1)")
    gtm.add_argument("--matching", choices=GTM_MATCHINGS, default="greedy")
    gtm.add_argument("candidate", help="the system output (one system)")
    gtm.add_argument("references", nargs="+", help="one or more reference files")
    gtm.set_defaults(run=run_gtm, segment_lines=False, document_lines=True)
    return parser


def run_score(args: argparse.Namespace) -> str:
    # Imported here so that `mteval --help` stays instant.
    from mteval_core.scoring import score_test_set

    metrics = parse_metric_list(args.metrics)
    options = Options(
        tokenize=args.tokenize,
        lowercase=args.lowercase,
        stem=args.stem,
        stem_language=args.stem_language,
        fmean_alpha=args.fmean_alpha,
        bp=args.bp,
        gtm_exponent=args.gtm_exponent,
        gtm_matching=args.gtm_matching,
    )
    test_set = load_command_line_test_set(args.refs, args.hyps)
    documents = test_set.documents if args.documents else None
    if args.documents and documents is None:
        raise InputError(
            "--documents needs document ids, and plain text files have none",
            hint="Give NIST mteval SGML or WMT XML files, or leave out --documents.",
        )
    if args.documents and args.format in ("text", "latex"):
        raise InputError("--documents works with --format json or csv")
    if (args.human or args.bootstrap) and args.format in ("csv", "latex"):
        raise InputError("--human and --bootstrap work with --format json or text")
    scores = score_test_set(test_set, metrics, options)
    extra = meta_evaluation(args, test_set, scores)
    if args.format == "json":
        return to_json(scores, args.segments, documents, extra) + "\n"
    if args.format == "csv":
        return to_csv(scores, segments=args.segments, documents=documents)
    if args.format == "latex":
        return to_latex(scores)
    return to_text(scores, segments=args.segments) + render_meta_text(extra)


def run_gtm(args: argparse.Namespace) -> str:
    from mteval_core.gtm14 import gtm14_lines

    options = Options(tokenize="none", gtm_exponent=args.exponent, gtm_matching=args.matching)
    candidate, documents, segment_ids = _read_gtm_file(args.candidate)
    if documents is None:  # plain text: one document named after the file
        documents = (_stem(args.candidate),) * len(candidate[0])
    if len(candidate) != 1:
        raise InputError(
            f"the file holds {len(candidate)} systems",
            origin=args.candidate,
            hint="Give one system output per run, as with gtm.jar.",
        )
    references: list[TextColumn] = []
    for path in args.references:
        columns, reference_documents, _ = _read_gtm_file(path)
        if reference_documents not in (None, documents):
            raise InputError(
                f"its documents or segments differ from those of {args.candidate}",
                origin=path,
                hint="References need the candidate's documents, in the same order.",
            )
        references += columns
    test_set = TestSet(references=references, systems=candidate, documents=documents)
    lines = gtm14_lines(test_set, options, segment_ids, args.segment_lines, args.document_lines)
    return "".join(f"{line}\n" for line in lines)


def _read_gtm_file(path: str) -> tuple[list[TextColumn], tuple[str, ...] | None, tuple[str, ...]]:
    """Columns, document id (None for plain text) and segment id of every segment."""
    from mteval_core.io import read_bytes
    from mteval_core.io.detect import detect_format
    from mteval_core.io.mteval_sgml import read_sgml
    from mteval_core.io.plain import read_plain

    data = read_bytes(path)
    if detect_format(data, path) == "mteval-sgml":
        found = read_sgml(data, path)
        return found.columns, found.documents, found.seg_ids
    column = read_plain(data, path, _stem(path))
    return [column], None, tuple(str(i) for i in range(1, len(column) + 1))


def _stem(path: str) -> str:
    from mteval_core.io.plain import system_name_from_path

    return system_name_from_path(path)


def load_command_line_test_set(ref_args: Sequence[str], hyp_args: Sequence[str]) -> TestSet:
    """Read every --refs and --hyps file; SGML/XML files may carry several columns and doc ids,
    and their segments are matched by id (mteval_core.io.alignment), plain text by position."""
    from mteval_core.io import ColumnsRead, read_bytes, read_columns
    from mteval_core.io.alignment import align_by_ids

    reads: dict[str, list[ColumnsRead]] = {"ref": [], "sys": []}
    for role, args in (("ref", ref_args), ("sys", hyp_args)):
        for arg in args:
            name, path = _split_name(arg) if role == "sys" else (None, arg)
            read = read_columns(read_bytes(path), path, role, name)
            for note in read.notes:  # e.g. skipped test-suite documents: worth knowing, not fatal
                print(f"mteval: note: {note}", file=sys.stderr)
            reads[role].append(read)
    aligned = align_by_ids(reads["ref"], reads["sys"])
    return TestSet(
        references=aligned.references, systems=aligned.systems, documents=aligned.documents
    )


def _split_name(arg: str) -> tuple[str | None, str]:
    """'NAME=PATH' -> (NAME, PATH); a path that exists as given is never split."""
    if "=" in arg and not os.path.exists(arg):
        name, path = arg.split("=", 1)
        if not name:
            raise InputError(f"empty system name in {arg!r}", hint="Write NAME=PATH.")
        return name, path
    return None, arg


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings (e.g. an exact matching that fell back to greedy) as one line each on stderr."""
    print(f"mteval: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    warnings.showwarning = _show_warning
    try:
        args = build_parser().parse_args(argv)
        output = args.run(args)
        sys.stdout.write(output)
        sys.stdout.flush()
    except InputError as error:
        print(f"mteval: error: {error}", file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:  # e.g. `mteval score ... | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug of ours: still one line, with a way to see more
        if os.environ.get("MTEVAL_DEBUG"):
            raise
        print(
            f"mteval: internal error: {type(error).__name__}: {error} "
            "(please report it; set MTEVAL_DEBUG=1 to see the traceback)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
