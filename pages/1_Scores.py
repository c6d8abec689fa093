"""Scores page: every system under every metric, how sure each score is (bootstrap intervals) and
which system differences are significant (paired bootstrap, Holm-corrected: systems in
significance clusters, or every pair in a heat map), ready to export."""

from functools import partial

import streamlit as st
from pandas.api.types import is_numeric_dtype
from plotly.graph_objects import Figure

from mteval_core.metrics.scoring import Progress
from mteval_core.report.figures import (
    clickable_cells,
    significance_clusters_figure,
    significance_heatmap,
    system_scores_bar,
)
from mteval_core.report.frames import repeated_scores, scores_frame
from mteval_core.report.writers import metric_labels, to_csv, to_json, to_latex, too_few_resamples
from mteval_core.settings.limits import MAX_RESAMPLED_CELLS
from mteval_core.stats.approximate_randomization import (
    RandomizationOptions,
    approximate_randomization,
)
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import (
    SIGNIFICANCE_LEVEL,
    bootstrap_scores,
    resamples_needed,
    smallest_reachable_p,
    why_no_p_values,
)
from mteval_core.stats.system_clusters import cluster_systems
from pages.ui.caching import cache_key, cached, deferred
from pages.ui.compare import (
    HEAT_MAP,
    link_to_compare,
    open_clicked_pair,
    remember_clicked_pair,
)
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.resamples import (
    RESAMPLES_HELP,
    resample_choices,
    starting_resamples,
    warn_of_few_resamples,
)
from pages.ui.session import chosen_or, remember_choice, session_options, session_test_set
from pages.ui.session_scores import scores_of
from pages.ui.table_display import chosen_columns
from pages.ui.upload_state import show_refused_upload

# 20,000 (MAX_RESAMPLES): enough for Holm over 999 pairs (45 systems). 20 systems x 2,000
# segments, seven metrics: about 10 s of CPU and 0.8 GB at the peak.
RESAMPLE_CHOICES = resample_choices([0, 200, 1000, 2000, 5000, 10000, 20000])
HEAT_MAP_MAX_SYSTEMS = 15  # above this, clusters are shown first and the heat map on request
TESTS = ("paired bootstrap", "approximate randomization")
RESAMPLES_KEY = "scores_resamples"  # the slider's state, and the user's choice per test set

st.set_page_config(page_title="mteval: scores", layout="wide")
show_refused_upload()  # while the last upload is refused


test_set = session_test_set()
options = session_options()
n_pairs = len(test_set.systems) * (len(test_set.systems) - 1) // 2  # per metric
choices = [n for n in RESAMPLE_CHOICES if n * test_set.n_segments <= MAX_RESAMPLED_CELLS]
needed = resamples_needed(n_pairs) if n_pairs else 0
# the page opens where a pair can be significant: an all-grey map tells nobody anything
start = starting_resamples(choices, BootstrapOptions().n_resamples, needed)
st.title("Scores")
st.caption(
    f"{escape_markdown(test_set.name)}; options from the Data page: "
    f"`{options.preprocessing_signature()}`"
)
resamples = st.select_slider(
    "Bootstrap resamples",
    choices,
    value=chosen_or(RESAMPLES_KEY, start, choices),
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
        f" With {n_pairs:,} system pairs, a pair can reach p < {SIGNIFICANCE_LEVEL} after "
        f"Holm's correction from {needed:,} resamples on; the page starts at {start:,}."
        if n_pairs
        else ""
    ),
)
bootstrap = BootstrapOptions(n_resamples=resamples)

with friendly_errors():
    scores = scores_of(test_set, options)
    resampled = None  # no resamples: scores only
    if resamples:
        resampled = cached(
            cache_key("bootstrap", scores.signature, bootstrap, options=options),
            lambda progress: bootstrap_scores(scores, bootstrap, progress=progress),
            "Resampling...",
        )
    ci = resampled.ci if resampled else None
    # metric -> why it has no intervals and no paired tests (system scores only)
    undefined = resampled.undefined if resampled else {}

    labels = metric_labels(scores.metrics)
    # what follows is the same for every session with this content, options and resamples
    table = cached(cache_key("scores table", bootstrap), lambda _: scores_frame(scores, ci))
    shown = chosen_columns(st, table, list(labels.values()))  # the scores, without intervals
    st.dataframe(
        shown,
        width="stretch",
        column_config={
            column: st.column_config.NumberColumn(format="%.4f")
            for column in shown
            if is_numeric_dtype(shown[column])  # not the "undefined" of a metric without them
        },
    )
    # said with the intervals wherever they go: the table, the bars, every download
    interval_note = bootstrap.too_few_for_intervals if resampled and resampled.samples else None
    if resampled:
        st.caption(
            f"low, high: {bootstrap.confidence:.0%} percentile bootstrap interval over segments "
            f"({resamples:,} resamples, seed {bootstrap.seed}). Click a column header to sort; "
            "the downloads below hold every column."
        )
        if interval_note:
            warn_of_few_resamples(bootstrap)
    else:
        st.caption("Click a column header to sort. Choose resamples above for intervals.")
    for line in repeated_scores(scores):  # GTM beside F1 at its default exponent
        st.caption(escape_markdown(line))
    for name, why in undefined.items():
        st.info(escape_markdown(f"{labels[name]}: intervals and paired tests undefined ({why})."))
    for note in scores.notes:  # e.g. GTM segments too large for the grid, left out
        st.warning(escape_markdown(note))

    metric = st.selectbox("Metric for the charts", list(labels), format_func=labels.__getitem__)
    label = labels[metric]
    higher = scores.metrics[scores.metric_names.index(metric)].higher_is_better  # TER: lower
    by_system = table[label].to_dict()
    # None without resamples, or for a metric with system scores only (nothing to resample)
    intervals = (
        resampled.intervals_of(metric) if resampled and metric in resampled.samples else None
    )
    bars = cached(
        cache_key("scores bars", metric, bootstrap),
        lambda _: system_scores_bar(by_system, label, intervals, higher),
    )
    st.plotly_chart(bars, width="stretch")  # cached figures are only read, never changed
    if resampled and n_pairs:
        st.subheader("Significant differences")
    if resampled and n_pairs and metric in undefined:
        st.info(escape_markdown(f"Undefined for {label}: {undefined[metric]}."))
    without_p = None  # why the pairs have no p-values (too few segments)
    if intervals and n_pairs:
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
        pairs = resampled.pairs
        if test == TESTS[1]:
            randomization = RandomizationOptions(resamples, bootstrap.seed)
            pairs = cached(
                cache_key("approximate randomization", randomization, options=options),
                lambda progress: approximate_randomization(
                    scores, randomization, progress=progress
                ),
                "Randomizing...",
            ).pairs
        without_p = why_no_p_values(pairs)
        if without_p:  # too few segments: no p-value to show
            st.info(escape_markdown(f"No significant differences to show: {without_p}."))
        floor = smallest_reachable_p(resamples, n_pairs)
        warning = too_few_resamples(resamples, n_pairs, choices[-1], test_set.n_segments)
        if warning and not without_p:  # said first, above the figure it explains
            st.warning(escape_markdown(warning))
    if intervals and n_pairs and not without_p:
        st.caption(
            (
                "p: the paired bootstrap p-value (computed as sacreBLEU does, on the resamples "
                "of the intervals)"
                if test == TESTS[0]
                else f"p: the approximate randomization p-value ({resamples:,} trials, seed "
                f"{bootstrap.seed}, as sacreBLEU's paired approximate randomization)"
            )
            + f", Holm-corrected over this metric's {n_pairs} system pairs. A pair "
            f"can reach p < {SIGNIFICANCE_LEVEL} from {needed:,} resamples on (with "
            f"{resamples:,}, the smallest p is {floor:.4f}); separating many pairs takes more."
        )
        heat_map = st.toggle(
            "Every pair (heat map)",
            value=len(scores.systems) <= HEAT_MAP_MAX_SYSTEMS,
            help="Off: systems in significance clusters, the view WMT reports; on: the p-value "
            "of every pair.",
        )
        if heat_map:
            st.caption(
                "Each cell: the row system's score minus the column system's, and p. Blue: "
                f"p < {SIGNIFICANCE_LEVEL}, a significant difference. Hover for the uncorrected p"
                + ("." if len(scores.systems) <= HEAT_MAP_MAX_SYSTEMS else " and the numbers.")
                + " Click a cell to compare its two systems."
            )
            st.plotly_chart(
                cached(
                    cache_key("significance heat map", metric, bootstrap, test),
                    lambda _: clickable_cells(
                        significance_heatmap(by_system, pairs, metric, label, higher)
                    ),
                ),
                width="stretch",
                key=HEAT_MAP,  # a clicked cell opens its pair on the Compare page
                on_select=partial(remember_clicked_pair, list(by_system)),
                selection_mode="points",
            )
            open_clicked_pair()
        else:
            higher_is_better = higher

            def clusters_view(_progress: Progress) -> tuple[Figure, list[dict]]:
                """The clusters' figure and their rows for the table below it."""
                ranking = cluster_systems(by_system, pairs, metric, higher_is_better, intervals)
                rows = [entry.to_row() for entry in ranking]
                return significance_clusters_figure(ranking, label), rows

            figure, rows = cached(
                cache_key("significance clusters", metric, bootstrap, test), clusters_view
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
    if intervals and n_pairs:
        link_to_compare(list(table.sort_values(label, ascending=not higher).index))

    st.caption(f"Signature: `{scores.signature}`")
    # made when clicked, once for every session (JSON: with the intervals, pairs, bootstrap
    # options and the reasons of what is undefined)
    downloads = [
        (
            "CSV",
            lambda: to_csv(scores, ci=ci, labelled=True, interval_note=interval_note),
            "scores.csv",
            "text/csv",
        ),
        (
            "JSON",
            lambda: to_json(scores, extra=resampled.to_dict() if resampled else {}, labelled=True),
            "scores.json",
            "application/json",
        ),
        ("LaTeX", lambda: to_latex(scores, ci, interval_note), "scores.tex", "text/x-tex"),
    ]
    for column, (form, build, name, mime) in zip(st.columns(3), downloads):
        column.download_button(
            f"Download {form}",
            deferred(cache_key("scores download", form, bootstrap), build),
            file_name=name,
            mime=mime,
            on_click="ignore",  # a download needs no rerun of the page
        )
