"""`mteval gtm`: GTM with GTM 1.4's command line and output, a drop-in for `java -jar gtm.jar`.

    mteval gtm [+s|-s] [+d|-d] [-e E] [--matching greedy|exact] CANDIDATE REFERENCE [REFERENCE ...]

gtm.jar prints, for each document in file order, a line `DOCID SEGID F` per segment (with +s)
and a line `DOCID F` for the document (on by default, off with -d); numbers as Java prints a
double. A document's F comes from the summed segment statistics, as in GTM 1.4.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from decimal import Decimal

from mteval_core.cli.arguments import add_byte_order_mark_argument, in_command_words
from mteval_core.errors import InputError
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options
from mteval_core.settings.parameters import GTM_MATCHINGS, GTMParameters


def add_command(commands: argparse._SubParsersAction) -> None:
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
    add_byte_order_mark_argument(gtm, "the candidate and reference files")
    gtm.add_argument("candidate", help="the system output (one system)")
    gtm.add_argument("references", nargs="+", help="one or more reference files")
    gtm.set_defaults(run=run, segment_lines=False, document_lines=True)


def run(args: argparse.Namespace) -> str:
    options = Options(tokenize="gtm14", gtm=GTMParameters(args.exponent, args.matching))
    candidate, documents, segment_ids = _read_gtm_file(args.candidate, args.byte_order_mark)
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
        columns, reference_documents, _ = _read_gtm_file(path, args.byte_order_mark)
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


def _read_gtm_file(
    path: str, byte_order_mark: str = "keep"
) -> tuple[list[TextColumn], tuple[str, ...] | None, tuple[str, ...]]:
    """Columns, document id (None for plain text) and segment id of every segment; a byte order
    mark at the start of plain text is kept (as GTM 1.4 reads it) or dropped, with a note."""
    from mteval_core.io import read_bytes
    from mteval_core.io.detect import detect
    from mteval_core.io.mteval_sgml import read_sgml
    from mteval_core.io.plain import byte_order_mark_note, read_plain

    data = read_bytes(path)
    detection = detect(data, path)
    if detection.note:  # e.g. a file that starts with <doc> but does not parse: read as plain
        print(f"mteval: note: {detection.note}", file=sys.stderr)
    if detection.format == "mteval-sgml":
        found = read_sgml(data, path)
        return found.columns, found.documents, found.seg_ids
    column = read_plain(data, path, _stem(path), byte_order_mark)
    if note := byte_order_mark_note(data, path, byte_order_mark):
        print(f"mteval: note: {in_command_words(note)}", file=sys.stderr)
    return [column], None, tuple(str(i) for i in range(1, len(column) + 1))


def _stem(path: str) -> str:
    from mteval_core.io.plain import system_name_from_path

    return system_name_from_path(path)


def java_double(value: float) -> str:
    """Java's Double.toString: '0.5', '1.0', '0.0', and '5.0E-4' below 10^-3 or from 10^7 up."""
    if value == 0:
        return "0.0"
    if 1e-3 <= abs(value) < 1e7:
        text = repr(value)
        return text if "." in text else f"{text}.0"
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    mantissa = "".join(map(str, digits))
    power = exponent + len(mantissa) - 1
    return f"{'-' if sign else ''}{mantissa[0]}.{mantissa[1:] or '0'}E{power}"


def gtm14_lines(
    test_set: TestSet,
    options: Options,
    segment_ids: Sequence[str],
    segments: bool = False,
    documents: bool = True,
) -> list[str]:
    """The lines gtm.jar prints for the one system of ``test_set``, which has document ids."""
    (system,) = test_set.system_names
    document_of = test_set.documents or ("doc",) * test_set.n_segments
    from mteval_core.metrics.scoring import score_test_set

    scores = score_test_set(test_set, ["gtm"], options)
    by_document = scores.documents(document_of)[system]["gtm"]
    segment_scores = scores.segments()[system]["gtm"]
    members: dict[str, list[int]] = {}
    for index, document in enumerate(document_of):
        members.setdefault(document, []).append(index)
    lines: list[str] = []
    for document, indices in members.items():
        if segments:
            lines += [
                f"{document} {segment_ids[i]} {java_double(float(segment_scores[i]))}"
                for i in indices
            ]
        if documents:
            lines.append(f"{document} {java_double(by_document[document])}")
    return lines
