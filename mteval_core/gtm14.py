"""GTM 1.4's output, so that pipelines that call gtm.jar can call `mteval gtm` instead.

gtm.jar prints, for each document in file order, a line `DOCID SEGID F` per segment (with +s)
and a line `DOCID F` for the document (on by default, off with -d); numbers as Java prints a
double. A document's F comes from the summed segment statistics, as in GTM 1.4.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from mteval_core.config import Options
from mteval_core.scoring import score_test_set
from mteval_core.testset import TestSet


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
