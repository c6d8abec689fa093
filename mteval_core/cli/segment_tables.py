"""`mteval correlate --human-segments --metric-segments`: a human and a metric segment table
matched into the matrices the segment-level statistics take (``stats.segment_meta``).

The statistics know nothing of files or flags; here the two tables' systems are matched (a
system only one file has is set aside with a note), the metrics named by --lower-is-better are
negated, and every problem is said in the command's terms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mteval_core.errors import InputError, listed_names
from mteval_core.io.wide_metric_scores import SegmentMetricTable
from mteval_core.model.judgment_matrices import criterion_matrix, default_criterion
from mteval_core.model.testset import HumanScores
from mteval_core.stats.segment_meta import SegmentMatrices, judgment_origins


@dataclass(frozen=True, eq=False)
class TableMatrices:
    """``segment_matrices`` of two segment tables, and the systems only one of them has."""

    matrices: SegmentMatrices
    notes: tuple[str, ...]


def table_matrices(
    judgments: HumanScores,
    table: SegmentMetricTable,
    criterion: str | None = None,
    exclude: Sequence[str] = (),
    lower_is_better: Sequence[str] = (),
) -> TableMatrices:
    """The matrices of `mteval correlate --human-segments --metric-segments`: every metric
    column of ``table`` (those in ``lower_is_better`` negated) and the human ``criterion`` over
    the systems both files have, minus ``exclude``; segment numbers are shared by the two files.
    A system only one file has is set aside with a note."""
    if not len(judgments.segment_rows):
        raise InputError(
            "these judgments are system-level only",
            origin=judgment_origins(judgments),
            hint="--human-segments needs a segment column (system, segment_id, score); "
            "system-level judgments go to --human.",
        )
    for name in lower_is_better:
        if name not in table.metrics:
            raise InputError(
                f"--lower-is-better {name}: there is no metric column {name!r}",
                origin=table.origin,
                hint=f"The metric columns are: {', '.join(table.metrics)}.",
            )
    criterion = criterion or default_criterion(judgments)
    rated = set(judgments.segment_rows["system"].drop_duplicates().tolist())
    both = [s for s in table.systems if s in rated]
    notes = _one_file_only(table, judgments, both)
    systems = tuple(s for s in both if s not in set(exclude))
    n_segments = max(table.n_segments, int(judgments.segment_rows["segment"].max()))
    human = criterion_matrix(judgments, systems, n_segments, criterion)
    if not systems:  # with one or two, each statistic says whether it is defined, and why
        raise InputError(
            "no system has both metric scores and judgments",
            origin=f"{judgment_origins(judgments)}, {table.origin}",
            hint="Check that the two files name the systems alike.",
        )
    metrics = {}
    for name in table.metrics:
        matrix = table.matrix(name, systems, n_segments)
        metrics[name] = -matrix if name in lower_is_better else matrix
    negated = tuple(m for m in table.metrics if m in lower_is_better)
    return TableMatrices(SegmentMatrices(criterion, systems, human, metrics, negated), notes)


def _one_file_only(
    table: SegmentMetricTable, judgments: HumanScores, both: Sequence[str]
) -> tuple[str, ...]:
    notes, shared = [], set(both)
    metric_only = [s for s in table.systems if s not in shared]
    rated = judgments.segment_rows["system"].drop_duplicates().tolist()
    human_only = [s for s in rated if s not in shared]
    if metric_only:
        notes.append(
            f"{table.origin}: {len(metric_only):,} system(s) without judgments set aside: "
            + listed_names(metric_only)
        )
    if human_only:
        notes.append(
            f"{judgment_origins(judgments)}: {len(human_only):,} system(s) without metric scores "
            "set aside: " + listed_names(human_only)
        )
    return tuple(notes)
