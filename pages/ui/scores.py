"""The Scores page's logic (pages/1_Scores.py is its layout): the resamples it offers, the
scores with their bootstrap, the table, the bars of one metric, the significance of its system
pairs (clusters or a heat map, by paired bootstrap or approximate randomization) and the
downloads; every number comes from mteval_core."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import streamlit as st
from pandas import DataFrame
from pandas.api.types import is_numeric_dtype
from plotly.graph_objects import Figure

from mteval_core.metrics.scoring import Progress, Scores
from mteval_core.model.testset import TestSet
from mteval_core.report.figures import (
    clickable_cells,
    significance_clusters_figure,
    significance_heatmap,
    system_scores_bar,
)
from mteval_core.report.frames import repeated_scores, scores_frame
from mteval_core.report.writers import metric_labels, to_csv, to_json, to_latex, too_few_resamples
from mteval_core.settings import limits
from mteval_core.settings.options import Options
from mteval_core.stats.approximate_randomization import (
    RandomizationOptions,
    approximate_randomization,
)
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import (
    SIGNIFICANCE_LEVEL,
    BootstrapResult,
    PairedTest,
    bootstrap_scores,
    resamples_needed,
    smallest_reachable_p,
    why_no_p_values,
)
from mteval_core.stats.system_clusters import cluster_systems
from pages.ui.caching import cache_key, cached, deferred
from pages.ui.compare import HEAT_MAP, link_to_compare, open_clicked_pair, remember_clicked_pair
from pages.ui.markdown_escape import escape_markdown
from pages.ui.resamples import (
    RESAMPLES_HELP,
    resample_choices,
    starting_resamples,
    warn_of_few_resamples,
)
from pages.ui.session import chosen_or, remember_choice
from pages.ui.session_scores import scores_of
from pages.ui.table_display import chosen_columns

# 20,000 (MAX_RESAMPLES): enough for Holm over 999 pairs (45 systems). 20 systems x 2,000
# segments, seven metrics: about 10 s of CPU and 0.8 GB at the peak.
RESAMPLE_CHOICES = resample_choices([0, 200, 1000, 2000, 5000, 10000, 20000])
HEAT_MAP_MAX_SYSTEMS = 15  # above this, clusters are shown first and the heat map on request
TESTS = ("paired bootstrap", "approximate randomization")
RESAMPLES_KEY = "scores_resamples"  # the slider's state, and the user's choice per test set


@dataclass(frozen=True)
class ResamplesOffer:
    """What the resamples slider offers for a test set: the counts (none over
    MAX_RESAMPLED_CELLS), the system pairs per metric, the count from which a pair can be
    significant, and where the slider starts (there, so that the map can show a difference)."""

    choices: list[int]
    n_pairs: int
    needed: int
    start: int
    n_segments: int


def resamples_offer(test_set: TestSet) -> ResamplesOffer:
    n_pairs = len(test_set.systems) * (len(test_set.systems) - 1) // 2  # per metric
    # looked up on every run, not bound at import: the limit is the settings' (tests patch it)
    cells = limits.MAX_RESAMPLED_CELLS
    choices = [n for n in RESAMPLE_CHOICES if n * test_set.n_segments <= cells]
    needed = resamples_needed(n_pairs) if n_pairs else 0
    start = starting_resamples(choices, BootstrapOptions().n_resamples, needed)
    return ResamplesOffer(choices, n_pairs, needed, start, test_set.n_segments)


def resamples_slider(test_set: TestSet, offer: ResamplesOffer) -> int:
    """The resamples slider, with what its counts can and cannot do in its help."""
    choices = offer.choices
    return st.select_slider(
        "Bootstrap resamples",
        choices,
        value=chosen_or(RESAMPLES_KEY, offer.start, choices),
        key=RESAMPLES_KEY,
        on_change=remember_choice,
        args=(RESAMPLES_KEY,),
        help="Segments are drawn with replacement this many times (fixed seed) for confidence "
        f"intervals and paired significance tests. 0: scores only. {RESAMPLES_HELP}"
        + (
            f" For {test_set.n_segments:,} segments, at most {choices[-1]:,} here."
            if choices[-1] < RESAMPLE_CHOICES[-1]
            else ""
        )
        + (
            f" With {offer.n_pairs:,} system pairs, a pair can reach p < {SIGNIFICANCE_LEVEL} "
            f"after Holm's correction from {offer.needed:,} resamples on; the page starts at "
            f"{offer.start:,}."
            if offer.n_pairs
            else ""
        ),
    )


@dataclass(frozen=True, eq=False)  # it holds a frame
class ScoredView:
    """The scores of every metric and, with resamples, their bootstrap; the table of both."""

    scores: Scores
    options: Options
    bootstrap: BootstrapOptions
    resampled: BootstrapResult | None  # None without resamples: scores only
    labels: dict[str, str]  # metric -> label
    table: DataFrame

    @property
    def undefined(self) -> dict[str, str]:
        """metric -> why it has no intervals and no paired tests (system scores only)"""
        return self.resampled.undefined if self.resampled else {}

    @property
    def interval_note(self) -> str | None:
        """said with the intervals wherever they go: the table, the bars, every download"""
        resampled = self.resampled
        return self.bootstrap.too_few_for_intervals if resampled and resampled.samples else None


def scored_view(test_set: TestSet, options: Options, bootstrap: BootstrapOptions) -> ScoredView:
    scores = scores_of(test_set, options)
    resampled = None
    if bootstrap.n_resamples:
        resampled = cached(
            cache_key("bootstrap", scores.signature, bootstrap, options=options),
            lambda progress: bootstrap_scores(scores, bootstrap, progress=progress),
            "Resampling...",
        )
    ci = resampled.ci if resampled else None
    # what follows is the same for every session with this content, options and resamples
    table = cached(cache_key("scores table", bootstrap), lambda _: scores_frame(scores, ci))
    labels = metric_labels(scores.metrics)
    return ScoredView(scores, options, bootstrap, resampled, labels, table)


def show_table(view: ScoredView) -> None:
    """The scores' table (the columns the user chose), what its intervals are, and the notes."""
    shown = chosen_columns(st, view.table, list(view.labels.values()))  # without intervals
    st.dataframe(
        shown,
        width="stretch",
        column_config={
            column: st.column_config.NumberColumn(format="%.4f")
            for column in shown
            if is_numeric_dtype(shown[column])  # not the "undefined" of a metric without them
        },
    )
    bootstrap = view.bootstrap
    if view.resampled:
        st.caption(
            f"low, high: {bootstrap.confidence:.0%} percentile bootstrap interval over segments "
            f"({bootstrap.n_resamples:,} resamples, seed {bootstrap.seed}). Click a column "
            "header to sort; the downloads below hold every column."
        )
        if view.interval_note:
            warn_of_few_resamples(bootstrap)
    else:
        st.caption("Click a column header to sort. Choose resamples above for intervals.")
    for line in repeated_scores(view.scores):  # GTM beside F1 at its default exponent
        st.caption(escape_markdown(line))
    for name, why in view.undefined.items():
        st.info(
            escape_markdown(f"{view.labels[name]}: intervals and paired tests undefined ({why}).")
        )
    for note in view.scores.notes:  # e.g. GTM segments too large for the grid, left out
        st.warning(escape_markdown(note))


@dataclass(frozen=True)
class ChartedMetric:
    """The metric of the charts: its label, direction, system scores and intervals."""

    name: str
    label: str
    higher: bool  # TER: lower is better
    by_system: dict[str, float]
    # None without resamples, or for a metric with system scores only (nothing to resample)
    intervals: dict | None


def choose_metric(view: ScoredView) -> ChartedMetric:
    labels = view.labels
    metric = st.selectbox("Metric for the charts", list(labels), format_func=labels.__getitem__)
    scores, resampled = view.scores, view.resampled
    higher = scores.metrics[scores.metric_names.index(metric)].higher_is_better
    intervals = (
        resampled.intervals_of(metric) if resampled and metric in resampled.samples else None
    )
    return ChartedMetric(
        metric, labels[metric], higher, view.table[labels[metric]].to_dict(), intervals
    )


def show_bars(view: ScoredView, chart: ChartedMetric) -> None:
    bars = cached(
        cache_key("scores bars", chart.name, view.bootstrap),
        lambda _: system_scores_bar(chart.by_system, chart.label, chart.intervals, chart.higher),
    )
    st.plotly_chart(bars, width="stretch")  # cached figures are only read, never changed


def show_significance(view: ScoredView, chart: ChartedMetric, offer: ResamplesOffer) -> None:
    """Which of the metric's system pairs differ significantly, by the test the user chooses,
    said first when no p-value exists or none can be small enough; the link to Compare."""
    n_pairs = offer.n_pairs
    if view.resampled and n_pairs:
        st.subheader("Significant differences")
    if view.resampled and n_pairs and chart.name in view.undefined:
        st.info(escape_markdown(f"Undefined for {chart.label}: {view.undefined[chart.name]}."))
    if not (chart.intervals and n_pairs):
        return
    test, pairs = chosen_test(view)
    without_p = why_no_p_values(pairs)
    if without_p:  # too few segments: no p-value to show
        st.info(escape_markdown(f"No significant differences to show: {without_p}."))
    resamples = view.bootstrap.n_resamples
    warning = too_few_resamples(resamples, n_pairs, offer.choices[-1], offer.n_segments)
    if warning and not without_p:  # said first, above the figure it explains
        st.warning(escape_markdown(warning))
    if not without_p:
        show_pairs(view, chart, offer, test, pairs)
    link_to_compare(list(view.table.sort_values(chart.label, ascending=not chart.higher).index))


def chosen_test(view: ScoredView) -> tuple[str, Sequence[PairedTest]]:
    """The significance test's radio, and the pairs it gives (the intervals' own resamples for
    the paired bootstrap; as many trials for approximate randomization)."""
    test = st.radio(
        "Significance test",
        TESTS,
        horizontal=True,
        key="scores_test",
        help="Paired bootstrap: the resamples of the intervals, as sacreBLEU's "
        "paired bootstrap. Approximate randomization: as many trials as resamples, each "
        "swapping the two systems' outputs on a random half of the segments (sacreBLEU's "
        "paired approximate randomization, the same p-values on the same seed).",
    )
    if test == TESTS[0]:
        return test, view.resampled.pairs
    randomization = RandomizationOptions(view.bootstrap.n_resamples, view.bootstrap.seed)
    scores = view.scores
    return test, cached(
        cache_key("approximate randomization", randomization, options=view.options),
        lambda progress: approximate_randomization(scores, randomization, progress=progress),
        "Randomizing...",
    ).pairs


def show_pairs(
    view: ScoredView,
    chart: ChartedMetric,
    offer: ResamplesOffer,
    test: str,
    pairs: Sequence[PairedTest],
) -> None:
    """What p is, then the pairs as significance clusters or, toggled, a heat map."""
    bootstrap, n_pairs = view.bootstrap, offer.n_pairs
    resamples = bootstrap.n_resamples
    floor = smallest_reachable_p(resamples, n_pairs)
    st.caption(
        (
            "p: the paired bootstrap p-value (computed as sacreBLEU does, on the resamples "
            "of the intervals)"
            if test == TESTS[0]
            else f"p: the approximate randomization p-value ({resamples:,} trials, seed "
            f"{bootstrap.seed}, as sacreBLEU's paired approximate randomization)"
        )
        + f", Holm-corrected over this metric's {n_pairs} system pairs. A pair "
        f"can reach p < {SIGNIFICANCE_LEVEL} from {offer.needed:,} resamples on (with "
        f"{resamples:,}, the smallest p is {floor:.4f}); separating many pairs takes more."
    )
    few_systems = len(view.scores.systems) <= HEAT_MAP_MAX_SYSTEMS
    heat_map = st.toggle(
        "Every pair (heat map)",
        value=few_systems,
        help="Off: systems in significance clusters, the view WMT reports; on: the p-value "
        "of every pair.",
    )
    if heat_map:
        show_heat_map(view, chart, test, pairs, few_systems)
    else:
        show_clusters(view, chart, test, pairs)


def show_heat_map(
    view: ScoredView, chart: ChartedMetric, test: str, pairs: Sequence[PairedTest], few: bool
) -> None:
    st.caption(
        "Each cell: the row system's score minus the column system's, and p. Blue: "
        f"p < {SIGNIFICANCE_LEVEL}, a significant difference. Hover for the uncorrected p"
        + ("." if few else " and the numbers.")
        + " Click a cell to compare its two systems."
    )
    st.plotly_chart(
        cached(
            cache_key("significance heat map", chart.name, view.bootstrap, test),
            lambda _: clickable_cells(
                significance_heatmap(chart.by_system, pairs, chart.name, chart.label, chart.higher)
            ),
        ),
        width="stretch",
        key=HEAT_MAP,  # a clicked cell opens its pair on the Compare page
        on_select=partial(remember_clicked_pair, list(chart.by_system)),
        selection_mode="points",
    )
    open_clicked_pair()


def show_clusters(
    view: ScoredView, chart: ChartedMetric, test: str, pairs: Sequence[PairedTest]
) -> None:
    def clusters_view(_progress: Progress) -> tuple[Figure, list[dict]]:
        """The clusters' figure and their rows for the table below it."""
        ranking = cluster_systems(chart.by_system, pairs, chart.name, chart.higher, chart.intervals)
        rows = [entry.to_row() for entry in ranking]
        return significance_clusters_figure(ranking, chart.label), rows

    figure, rows = cached(
        cache_key("significance clusters", chart.name, view.bootstrap, test), clusters_view
    )
    st.caption(
        "Systems best first. A system opens a new cluster when a system of the current "
        f"cluster is significantly better (p < {SIGNIFICANCE_LEVEL}), so no two systems "
        "of a cluster differ significantly (mt-metrics-eval's AssignRanks, as WMT's "
        "metrics task ranks). Rank: from 1 + the systems significantly better to n - "
        "the systems significantly worse."
    )
    st.plotly_chart(figure, width="stretch")
    with st.expander("Clusters as a table"):
        st.dataframe(rows, width="stretch", hide_index=True)


def show_downloads(view: ScoredView) -> None:
    """The signature, and the downloads, made when clicked, once for every session (JSON: with
    the intervals, pairs, bootstrap options and the reasons of what is undefined)."""
    scores, resampled, note = view.scores, view.resampled, view.interval_note
    ci = resampled.ci if resampled else None
    st.caption(f"Signature: `{scores.signature}`")
    downloads = [
        (
            "CSV",
            lambda: to_csv(scores, ci=ci, labelled=True, interval_note=note),
            "scores.csv",
            "text/csv",
        ),
        (
            "JSON",
            lambda: to_json(scores, extra=resampled.to_dict() if resampled else {}, labelled=True),
            "scores.json",
            "application/json",
        ),
        ("LaTeX", lambda: to_latex(scores, ci, note), "scores.tex", "text/x-tex"),
    ]
    for column, (form, build, name, mime) in zip(st.columns(3), downloads):
        column.download_button(
            f"Download {form}",
            deferred(cache_key("scores download", form, view.bootstrap), build),
            file_name=name,
            mime=mime,
            on_click="ignore",  # a download needs no rerun of the page
        )
