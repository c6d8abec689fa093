"""Tables for people: a test set at a glance, a preview of its segments, scores as a DataFrame.

The dashboard shows these as they are; the command line has its own writers in ``writers``. Every
metric is called by its label (``writers.metric_labels``), as on the Scores page, never by the
registry name that the JSON reports use as a key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import PurePath

import numpy as np
import pandas as pd

from mteval_core.errors import listed_names
from mteval_core.loss.annotations import MqmAnnotations
from mteval_core.metrics.scoring import Scores
from mteval_core.model.testset import HumanScores, TestSet
from mteval_core.report.evaluation_report import ranked_systems
from mteval_core.report.writers import metric_labels
from mteval_core.settings.languages import languages_of
from mteval_core.stats.undefined import UNDEFINED, format_statistic

SHOWN_NAMES = 5  # names listed before "and N more": a list of 23 systems is read as a count
# A wide table shows every column up to this many (they fit a dashboard's width without
# scrolling); beyond, only its primary columns until the reader chooses more.
SHOWN_COLUMNS = 8


def overview(test_set: TestSet) -> dict[str, str]:
    """The facts a user checks first: languages, sizes, names, documents, human judgments."""
    facts = {}
    languages = languages_of(test_set).label()
    if languages is not None:
        facts["Languages"] = languages
    facts["Segments"] = f"{test_set.n_segments:,}"
    facts["References"] = _listed(test_set.reference_names)
    facts["Systems"] = _listed(test_set.system_names) or "none"
    facts["Source"] = "yes" if test_set.source is not None else "no"
    if test_set.documents is not None:
        facts["Documents"] = f"{len(dict.fromkeys(test_set.documents)):,}"
    if test_set.human is not None and len(test_set.human):
        facts["Human judgments"] = judgments_summary(test_set.human, test_set.reference_names)
    return facts


def files_summary(test_set: TestSet) -> str:
    """'23 files: ref-A.de, ... and 18 more': the files (or uploads) the texts came from."""
    columns = [*test_set.references, *test_set.systems]
    if test_set.source is not None:
        columns.insert(0, test_set.source)
    names = list(dict.fromkeys(PurePath(column.origin).name for column in columns))
    return f"{len(names):,} file{'s' if len(names) != 1 else ''}: {_first_names(names)}"


def judgments_summary(human: HumanScores, references: Sequence[str] = ()) -> str:
    """'MQM: 8 systems, 527 segments rated (5,850 rows)' per criterion; system-level ones say so.
    Judged references (WMT rates its human translations too) are named: the correlations leave
    them out, so the count a user compares with the Correlation page's n is the other one."""
    parts = []
    for criterion in human.criteria:
        rows = human.segment_rows[human.segment_rows["criterion"] == criterion]
        level = ""
        if not len(rows):
            rows = human.system_rows[human.system_rows["criterion"] == criterion]
            level = ", system-level"
        judged = list(dict.fromkeys(rows["system"]))
        counted = f"{criterion}: {len(judged):,} systems"
        judged_references = [name for name in judged if name in set(references)]
        if judged_references:
            kind = "reference" if len(judged_references) == 1 else "references"
            counted += (
                f" ({len(judged) - len(judged_references):,} outputs and the {kind} "
                f"{', '.join(judged_references)}, which correlations leave out)"
            )
        if level:
            parts.append(counted + level)
        else:
            parts.append(
                f"{counted}, {rows['segment'].nunique():,} segments rated ({len(rows):,} rows)"
            )
    return "; ".join(parts)


def _listed(names: Sequence[str]) -> str:
    """Every name when there are few, else the count, the first few and how many more."""
    if len(names) <= SHOWN_NAMES:
        return ", ".join(names)
    return f"{len(names):,}: {_first_names(names)}"


def _first_names(names: Sequence[str]) -> str:
    return listed_names(names, SHOWN_NAMES)


def mqm_overview(annotations: MqmAnnotations) -> str:
    """One line on what MQM annotations hold, so a user sees the right file was read."""
    systems = {system for system, _segment, _rater in annotations.ratings}
    raters = {rater for _system, _segment, rater in annotations.ratings}
    errors = int(annotations.counts.sum())
    return (
        f"{len(annotations.ratings):,} ratings of {len(systems)} systems by {len(raters)} raters, "
        f"{errors:,} errors of {len(annotations.error_types)} kinds ({annotations.origin})"
    )


def segment_preview(test_set: TestSet, rows: int = 10) -> pd.DataFrame:
    """The first segments side by side: source, references, then every system."""
    columns: dict[str, tuple[str, ...]] = {}
    if test_set.documents is not None:
        columns["document"] = test_set.documents[:rows]
    if test_set.source is not None:
        columns["source"] = test_set.source.segments[:rows]
    for column in (*test_set.references, *test_set.systems):
        columns[column.name] = column.segments[:rows]
    frame = pd.DataFrame(columns)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="segment")
    return frame


CORRELATION_COLUMNS = {
    "pearson": "Pearson",
    "spearman": "Spearman",
    "kendall": "Kendall",
    "differential_pearson": "pairwise differences r",
    "pairwise_accuracy": "pairwise accuracy",
}
# Shown first in a wide correlation table: Pearson (with its interval), the correlation WMT
# reported for years, and pairwise accuracy, its system-level statistic since 2021.
PRIMARY_CORRELATIONS = ("pearson", "pairwise_accuracy")


def shown_columns(columns: Sequence[str], primary: Sequence[str]) -> list[str]:
    """The columns a table shows until the reader chooses: every one up to ``SHOWN_COLUMNS``,
    else those in ``primary`` (in the table's order), so that a table of 21 columns opens on the
    7 scores rather than on a scroll bar."""
    if len(columns) <= SHOWN_COLUMNS:
        return list(columns)
    wanted = set(primary)
    return [column for column in columns if column in wanted]


def primary_correlation_columns(columns: Sequence[str]) -> list[str]:
    """The columns of a ``correlation_frame`` that ``shown_columns`` keeps in a wide one: the
    number of systems and every variant's ``PRIMARY_CORRELATIONS`` (with their intervals)."""
    starts = tuple(f"{CORRELATION_COLUMNS[key]} " for key in PRIMARY_CORRELATIONS)
    return [column for column in columns if column == "n" or column.startswith(starts)]


def correlation_frame(
    variants: dict[str, dict[str, dict]], labels: Mapping[str, str]
) -> pd.DataFrame:
    """One row per metric; for each statistic one column per variant (e.g. unstemmed and
    stemmed) side by side, numbers kept numeric so the table sorts, Pearson's interval as text.

    A statistic without a value reads "undefined (constant human scores)", with its reason; its
    column is then text throughout (numbers to 3 decimals), since a column holds one type.

    ``variants``: variant label -> metric -> the statistics of ``stats.meta.correlations`` (with
    ``pearson_ci`` when bootstrapped); ``labels``: metric -> its row's label."""
    first = next(iter(variants.values()))
    rows: dict[str, dict[str, object]] = {}
    for metric in first:
        row: dict[str, object] = {"n": first[metric]["n"]}
        for key, label in CORRELATION_COLUMNS.items():
            for variant, correlations in variants.items():
                statistics = correlations[metric]
                value = statistics[key]
                row[f"{label} ({variant})"] = (
                    format_statistic(statistics, key) if value is None else round(value, 3)
                )
                if key == "pearson" and "pearson_ci" in statistics:
                    row[f"{label} 95% CI ({variant})"] = format_statistic(statistics, "pearson_ci")
        rows[labels[metric]] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    for column in frame.columns:
        if frame[column].map(lambda cell: isinstance(cell, str)).any():
            frame[column] = frame[column].map(
                lambda cell: cell if isinstance(cell, str) else f"{cell:.3f}"
            )
    return frame


def system_segments_frame(
    test_set: TestSet,
    metric_scores: np.ndarray,
    human_scores: np.ndarray,
    system: str,
    higher_is_better: bool = True,
) -> pd.DataFrame:
    """One system's segments with the metric's and the human score side by side, and how far
    their ranks among the rated segments disagree (large: the metric misjudges that segment);
    then the system's output, the source (when there is one) and every reference, so that a
    reader can judge the segment. An error rate (TER, ``higher_is_better`` False) is ranked
    turned round, so that its best segments meet the best judged ones."""
    rated = np.isfinite(human_scores)
    oriented = metric_scores if higher_is_better else -np.asarray(metric_scores)
    metric_rank = pd.Series(np.where(rated, oriented, np.nan)).rank(pct=True).to_numpy()
    human_rank = pd.Series(human_scores).rank(pct=True).to_numpy()
    columns: dict[str, object] = {
        "metric": metric_scores,
        "human": human_scores,
        "rank disagreement": np.abs(metric_rank - human_rank).round(3),
    }
    columns[_free(system, "system", columns)] = test_set.system(system)
    if test_set.source is not None:
        columns[_free("source", "source", columns)] = test_set.source.segments
    for reference in test_set.references:
        columns[_free(reference.name, "reference", columns)] = reference.segments
    frame = pd.DataFrame(columns, index=pd.RangeIndex(1, test_set.n_segments + 1, name="segment"))
    return frame.sort_values(
        "rank disagreement", ascending=False, kind="stable", na_position="last"
    )


def _free(name: str, role: str, taken: Mapping[str, object]) -> str:
    """``name``, or ``name (role)`` when a column already has that name (a system named 'human')."""
    return name if name not in taken else f"{name} ({role})"


def scores_frame(
    scores: Scores, ci: Mapping[str, Mapping[str, Sequence[float]]] | None = None
) -> pd.DataFrame:
    """Systems x metrics corpus scores, columns headed by the metrics' labels, the systems best
    first under the first metric (``evaluation_report.ranked_systems``: the Scores page's order).

    With ``ci`` (system -> metric -> [low, high]) every metric's column is followed by
    "<label> low" and "<label> high": plain numbers, so a table sorts by any of them. A metric
    that ``ci`` leaves out (system scores only: nothing to resample, see
    ``Scores.without_segments``) reads "undefined" there, as the command line writes a statistic
    without a value; the page says why beside the table.
    """
    corpus = scores.corpus()
    systems = ranked_systems(scores)
    columns: dict[str, list[float] | list[str]] = {}
    for name, label in metric_labels(scores.metrics).items():
        columns[label] = [corpus[s][name] for s in systems]
        if ci:
            intervals = [ci[s].get(name) for s in systems]
            for end, position in (("low", 0), ("high", 1)):
                columns[f"{label} {end}"] = [
                    UNDEFINED if interval is None else interval[position] for interval in intervals
                ]
    return pd.DataFrame(columns, index=pd.Index(systems, name="system"))


def repeated_scores(scores: Scores) -> list[str]:
    """A line for each reason why a metric gives every system the same score as another one
    shown beside it (GTM and F1 at GTM's exponent 1 with one reference), naming those pairs, so
    that a reader takes the second column neither for a mistake nor for a second opinion."""
    corpus = scores.corpus()
    labels = metric_labels(scores.metrics)
    pairs: dict[str, list[str]] = {}  # reason -> "GTM repeats F1", ...
    for position, metric in enumerate(scores.metrics):
        for other in scores.metrics[:position]:
            why = metric.why_equal_to(other) or other.why_equal_to(metric)
            if why and all(corpus[s][metric.name] == corpus[s][other.name] for s in corpus):
                pairs.setdefault(why, []).append(
                    f"{labels[metric.name]} repeats {labels[other.name]}"
                )
    return [
        f"{_and_list(repeats)}: every system has the same score under "
        f"{'both' if len(repeats) == 1 else 'each pair'}, since {why}."
        for why, repeats in pairs.items()
    ]


def _and_list(parts: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def segment_level_frame(
    correlations: Mapping[str, Mapping],
    statistic: str,
    groupings: Sequence[str],
    labels: Mapping[str, str],
) -> pd.DataFrame:
    """Metrics (rows by their ``labels``) x groupings for one segment-level statistic
    (``segment_meta.segment_correlations`` records), each cell the value and its interval when
    resampled, and the constant metric's score as the last row for the accuracies (the baseline
    every metric must beat)."""
    rows = {}
    for metric, record in correlations.items():
        rows[labels[metric]] = {g: _with_interval(record, f"{statistic}_{g}") for g in groupings}
    if statistic in ("acc23", "acc_eq") and correlations:
        record = next(iter(correlations.values()))
        rows["constant baseline"] = {
            g: _with_interval(record, f"constant_baseline_{statistic}_{g}") for g in groupings
        }
    return pd.DataFrame.from_dict(rows, orient="index", columns=list(groupings))


def _with_interval(record: Mapping, key: str) -> str:
    if key not in record:
        return ""
    text = format_statistic(record, key)
    if record.get(f"{key}_ci") is not None:
        text += " " + format_statistic(record, f"{key}_ci")
    return text
