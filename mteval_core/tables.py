"""Tables for people: a test set at a glance, a preview of its segments, scores as a DataFrame.

The dashboard shows these as they are; the command line has its own writers in ``export``.
"""

from __future__ import annotations

import pandas as pd

from mteval_core.io.mqm import MqmAnnotations
from mteval_core.scoring import Scores
from mteval_core.testset import TestSet


def overview(test_set: TestSet) -> dict[str, str]:
    """The facts a user checks first: sizes, names, documents, human judgments."""
    facts = {
        "Segments": f"{test_set.n_segments:,}",
        "References": ", ".join(test_set.reference_names),
        "Systems": ", ".join(test_set.system_names) or "none",
        "Source": "yes" if test_set.source is not None else "no",
    }
    if test_set.documents is not None:
        facts["Documents"] = f"{len(dict.fromkeys(test_set.documents)):,}"
    if test_set.human is not None and len(test_set.human):
        facts["Human judgments"] = (
            f"{len(test_set.human):,} rows: {', '.join(test_set.human.criteria)}"
        )
    return facts


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


def correlation_frame(correlations: dict[str, dict]) -> pd.DataFrame:
    """One row per metric: n, Pearson with its interval, Spearman, Kendall, Coughlin's
    differential Pearson and pairwise accuracy, rounded for reading."""
    rows = {}
    for metric, r in correlations.items():
        row = {"n": r["n"], "Pearson": f"{r['pearson']:.3f}"}
        if "pearson_ci" in r:
            row["Pearson 95% CI"] = f"[{r['pearson_ci'][0]:.3f}, {r['pearson_ci'][1]:.3f}]"
        row |= {
            "Spearman": f"{r['spearman']:.3f}",
            "Kendall": f"{r['kendall']:.3f}",
            "pairwise differences r": f"{r['differential_pearson']:.3f}",
            "pairwise accuracy": f"{r['pairwise_accuracy']:.2f}",
        }
        rows[metric] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def scores_frame(scores: Scores) -> pd.DataFrame:
    """Systems x metrics corpus scores, columns labelled as the metrics print themselves."""
    corpus = scores.corpus()
    frame = pd.DataFrame(
        [[corpus[s][m.name] for m in scores.metrics] for s in scores.systems],
        index=pd.Index(scores.systems, name="system"),
        columns=[m.label for m in scores.metrics],
    )
    return frame
