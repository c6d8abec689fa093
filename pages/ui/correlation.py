"""The Correlation page's logic (pages/2_Correlation.py is its layout): the choices above the
table, every metric's correlations with the human scores under every stemming variant, the
chosen metric's comparisons, scatters and disagreeing segments, and the reliability curves;
every number comes from mteval_core.stats."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from mteval_core.metrics.external import ExternalMetric
from mteval_core.metrics.scoring import Progress, Scores
from mteval_core.model.testset import TestSet
from mteval_core.report.comparison_frames import metric_comparison_frame
from mteval_core.report.figures import differential_scatter, reliability_figure, system_scatter
from mteval_core.report.frames import (
    correlation_frame,
    primary_correlation_columns,
    system_segments_frame,
)
from mteval_core.report.writers import metric_labels
from mteval_core.settings.languages import languages_of, stemmer_for
from mteval_core.settings.options import STEMMER_CHOICES, Options, stemming_variants
from mteval_core.stats import meta
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.reliability import ReliabilityOptions, is_quick, reliability_of_test_set
from mteval_core.stats.undefined import UNDEFINED
from pages.ui.caching import cache_key, cached
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.resamples import RESAMPLES_HELP, resample_choices, warn_of_few_resamples
from pages.ui.session_scores import scores_of
from pages.ui.table_display import chosen_columns, static_table


@dataclass(frozen=True)
class CorrelationChoice:
    """What the widgets above the table chose; ``segments``: whether the criterion has
    judgments of segments (else of systems only)."""

    criterion: str
    segments: bool
    resamples: int
    stemmer: str
    exclude: tuple[str, ...]
    rated_only: bool

    @property
    def key(self) -> tuple:
        """what every figure and table depends on"""
        return (self.criterion, self.exclude, self.rated_only, self.resamples)


def correlation_choice(test_set: TestSet, options: Options) -> CorrelationChoice:
    """The criterion, resamples and stemmer side by side, then the systems left out and the
    rated segments' toggle. The default first; every part below that is the same for every
    session with this content and these choices is cached, so a second session only draws it."""
    criteria = cached(
        cache_key("criteria"), lambda _: tuple(meta.criterion_choices(test_set.human))
    )
    left, middle, right = st.columns(3)
    if len(criteria) > 1:
        criterion = left.selectbox(
            "Human criterion", criteria, help="adequacy+fluency: Lavie's total"
        )
    else:
        criterion = criteria[0]
        left.caption(f"Human criterion: {escape_markdown(criterion)}, the only one judged.")
    segments = cached(
        cache_key("segment judgments", criterion),
        lambda _: meta.has_segment_judgments(test_set.human, criterion),
    )
    units = "Segments" if segments else "Systems (the judgments are system-level only)"
    resamples = middle.select_slider(
        "Bootstrap resamples",
        resample_choices([0, 200, 1000, 2000]),
        value=1000,
        help=f"{units} drawn with replacement, for the intervals and the comparisons of "
        f"metrics. {RESAMPLES_HELP}",
    )
    stemmer = right.selectbox(
        "Stemmed columns use",
        STEMMER_CHOICES,
        STEMMER_CHOICES.index(stemmer_for(options, languages_of(test_set))),
    )
    exclude = tuple(st.multiselect("Leave out systems", test_set.system_names))
    rated_only = segments and st.toggle(
        "Rated segments only",
        help="Score each system on the segments people rated, not on all of them (as the "
        "command line can): for judgments that cover part of the test set.",
    )
    return CorrelationChoice(criterion, segments, resamples, stemmer, exclude, rated_only)


@dataclass(frozen=True)
class Correlations:
    """The scores under the session's options, their meta-evaluation, and every stemming
    variant's correlations (for the table)."""

    scores: Scores
    result: meta.MetaEvaluation
    by_variant: dict[str, dict]

    @property
    def labels(self) -> dict[str, str]:
        return metric_labels(self.scores.metrics)


def correlations(test_set: TestSet, options: Options, choice: CorrelationChoice) -> Correlations:
    scores, result = _meta_evaluation(test_set, options, choice)  # the scatter's options
    by_variant = {
        name: _meta_evaluation(test_set, variant, choice)[1].correlations_as_dicts()
        for name, variant in stemming_variants(options, choice.stemmer).items()
    }
    return Correlations(scores, result, by_variant)


def _meta_evaluation(
    test_set: TestSet, variant_options: Options, choice: CorrelationChoice
) -> tuple[Scores, meta.MetaEvaluation]:
    """Scores and every correlation (with intervals) under one set of options, cached."""
    scores = scores_of(test_set, variant_options)
    resamples = choice.resamples
    bootstrap = BootstrapOptions(n_resamples=resamples) if resamples else None
    key = cache_key(
        "meta",
        choice.criterion,
        choice.exclude,
        choice.rated_only,
        resamples,
        options=variant_options,
    )

    def compute(progress: Progress) -> meta.MetaEvaluation:
        return meta.evaluate_and_compare(
            test_set,
            scores,
            choice.criterion,
            choice.exclude,
            choice.rated_only,
            bootstrap,
            progress,
        )

    return scores, cached(key, compute, "Resampling...")


def show_table(found: Correlations, choice: CorrelationChoice) -> None:
    st.subheader("Every metric against the human scores")
    labels = found.labels
    table = cached(
        cache_key("correlation table", choice.stemmer, *choice.key),
        lambda _: correlation_frame(found.by_variant, labels),
    )
    st.dataframe(
        chosen_columns(st, table, primary_correlation_columns(list(table.columns))),
        width="stretch",
    )
    st.caption(
        f"Stemmed: {choice.stemmer}. {_interval_note(found.result, choice.resamples)} "
        + ("Metric scores on the rated segments only. " if choice.rated_only else "")
        + "Pairwise differences r: Coughlin's correlation of the differences between every two "
        "systems."
    )
    if found.result.resampled_units is not None:  # intervals from resamples: are they enough?
        warn_of_few_resamples(BootstrapOptions(n_resamples=choice.resamples))


def _interval_note(evaluation: meta.MetaEvaluation, resamples: int) -> str:
    """What the intervals of the table and of the comparisons come from."""
    if evaluation.resampled_units == "segments":
        return f"Intervals: {resamples:,} bootstrap resamples of the segments (95%, percentile)."
    if evaluation.resampled_units == "systems":
        return (
            f"Intervals: {resamples:,} bootstrap resamples of the systems (95%, percentile), as "
            "`mteval correlate` draws them: the judgments are system-level only, so there are "
            "no segments to resample."
        )
    return "No intervals: choose a number of bootstrap resamples above."


@dataclass(frozen=True)
class ChosenMetric:
    """The metric of the views below the table, and the system they mark."""

    name: str
    label: str
    system: str
    view: meta.MetricAgainstHuman


def choose_metric(found: Correlations, choice: CorrelationChoice) -> ChosenMetric:
    """The metric, and the system: typed, or the one clicked in the scatter."""
    left, right = st.columns(2)
    labels = found.labels
    metric = left.selectbox("Metric", found.scores.metric_names, format_func=labels.__getitem__)
    view = found.result.against_human(metric)
    clicked = st.session_state.get("scatter") or {}
    points = [  # the systems' trace only
        p for p in clicked.get("selection", {}).get("points", []) if p.get("curve_number", 0) == 0
    ]
    system = right.selectbox(
        "Segments of" if choice.segments else "Highlight system",
        view.systems,
        points[0]["point_index"] if points and points[0]["point_index"] < len(view.systems) else 0,
        help="Marked in both plots below (its pairs among the differences); click a point in the "
        "scatter to choose it, or type a name here.",
    )
    return ChosenMetric(metric, labels[metric], system, view)


def show_comparisons(found: Correlations, choice: CorrelationChoice, chosen: ChosenMetric) -> None:
    """The chosen metric against every other: Williams' test and the bootstrap's share."""
    comparisons = found.result.compared_with(chosen.name)
    if not comparisons:
        return
    static_table(
        st,
        cached(
            cache_key("metric comparisons", chosen.name, *choice.key),
            lambda _: metric_comparison_frame(comparisons, found.labels),
        ),
    )
    st.caption(
        f"{escape_markdown(chosen.label)} (selected) against every other metric: the other's "
        "Pearson r; Williams' test (Graham & Baldwin 2014), the one-sided p that one correlates "
        "better than the other; the share of the bootstrap resamples in which the selected "
        "metric's r is the higher."
    )


def show_scatters(found: Correlations, choice: CorrelationChoice, chosen: ChosenMetric) -> None:
    """The systems' scatter (click a point to choose it) and the pairwise differences'."""
    view, label, system = chosen.view, chosen.label, chosen.system
    left, right = st.columns(2)
    scatter, differences = cached(  # cached figures are only read (drawn), never changed
        cache_key("correlation scatters", chosen.name, system, *choice.key),
        lambda _: (
            system_scatter(view, label, choice.criterion, system),
            differential_scatter(
                view.pair_labels,
                view.metric_differences,
                view.human_differences,
                label,
                view.correlations.differential_pearson,
                view.correlations.reason("differential_pearson"),
                view.pairs_with(system),
            ),
        ),
    )
    left.plotly_chart(
        scatter, width="stretch", on_select="rerun", selection_mode="points", key="scatter"
    )
    right.plotly_chart(differences, width="stretch")
    scores = found.scores
    st.caption(
        f"Signature: `{scores.signature}`. Names of the systems on hover, on the extremes of "
        "each axis and on the highlighted system; click a point to highlight it"
        + (" and see its segments below." if choice.segments else ".")
        + (
            ""
            if scores.metrics[scores.metric_names.index(chosen.name)].higher_is_better
            else f" {escape_markdown(label)} is lower-is-better: the plots show its scores as "
            "they are (agreement slopes down), and every r is computed on them negated, as "
            "mt-metrics-eval does, so that a positive r means agreement."
        )
    )


def show_system_segments(
    test_set: TestSet, found: Correlations, choice: CorrelationChoice, chosen: ChosenMetric
) -> None:
    """With segment-level judgments, the system's segments people and metric disagree on
    most; the link to them in the bitext grid."""
    system, metric, label = chosen.system, chosen.name, chosen.label
    without_segments = found.scores.without_segments()  # metric -> why it has none
    if choice.segments and metric in without_segments:
        st.info(
            escape_markdown(
                f"{system}'s segments under {label}: {UNDEFINED} ({without_segments[metric]})."
            )
        )
    elif choice.segments:
        st.dataframe(
            cached(
                cache_key("segments against human", metric, system, choice.criterion),
                lambda _: _disagreements(test_set, found.scores, choice.criterion, chosen),
            ),
            width="stretch",
        )
        st.caption(
            f"{escape_markdown(system)}'s rated segments, those where "
            f"{escape_markdown(label)} and people disagree most first."
        )
    st.page_link(
        "pages/3_Bitext_grid.py",
        label=f"Open {escape_markdown(system)}'s segments in the bitext grid",
        query_params={"system": system},
    )


def _disagreements(
    test_set: TestSet, scores: Scores, criterion: str, chosen: ChosenMetric
) -> pd.DataFrame:
    """The system's 50 segments where the metric and people disagree most."""
    system, metric = chosen.system, chosen.name
    segment_scores = meta.segment_scores_against_human(test_set, scores, system, metric, criterion)
    assert segment_scores is not None  # segment-level judgments
    higher = scores.metrics[scores.metric_names.index(metric)].higher_is_better
    return system_segments_frame(test_set, *segment_scores, system, higher).head(50)


def show_reliability(
    test_set: TestSet,
    options: Options,
    found: Correlations,
    choice: CorrelationChoice,
    chosen: ChosenMetric,
) -> None:
    """Melamed et al.'s reliability curves of the chosen metric, when asked (or quick)."""
    st.subheader("Reliability against test size")
    st.caption(
        "Melamed et al. (2003), Figure 3: pseudo-documents of k random segments of one system, "
        "the metric on their summed statistics against their mean human score; 300 documents "
        "per size, 10 repetitions, one line per set of references."
    )
    scores, metric, label = found.scores, chosen.name, chosen.label
    if isinstance(scores.metrics[scores.metric_names.index(metric)], ExternalMetric):
        st.info(
            escape_markdown(
                f"{label}'s scores come from a file: the curves score every pseudo-document "
                "again with every set of references, which only the built-in metrics can do. "
                "Choose one of them above for its curves."
            )
        )
    elif st.toggle(
        "Draw the reliability curves",
        value=cached(cache_key("reliability is quick"), lambda _: is_quick(test_set)),
        key=f"reliability_{test_set.content_hash}",
        help="On by itself where it takes about a second; with several references every "
        "combination of them is scored again (several seconds on a WMT set).",
    ):
        with friendly_errors():
            curves = cached(
                cache_key("reliability", metric, choice.criterion, choice.exclude, options=options),
                lambda progress: reliability_of_test_set(
                    test_set,
                    metric,
                    choice.criterion,
                    options,
                    ReliabilityOptions(),
                    choice.exclude,
                    progress,
                ),
                "Drawing pseudo-documents...",
            )
        st.plotly_chart(reliability_figure(curves, label), width="stretch")
