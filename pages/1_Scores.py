"""Scores page: every system under every metric, how sure each score is (bootstrap intervals) and
which system differences are significant (paired bootstrap, Holm-corrected: systems in
significance clusters, or every pair in a heat map), ready to export."""

import streamlit as st

from mteval_core.report.figures import (
    significance_clusters_figure,
    significance_heatmap,
    system_scores_bar,
)
from mteval_core.report.frames import scores_frame
from mteval_core.report.writers import metric_labels, to_csv, to_json, to_latex, too_few_resamples
from mteval_core.settings.limits import MAX_RESAMPLED_CELLS
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import (
    SIGNIFICANCE_LEVEL,
    bootstrap_scores,
    resamples_needed,
    smallest_reachable_p,
)
from mteval_core.stats.system_clusters import cluster_systems
from pages.ui import (
    DASHBOARD_METRICS,
    RESAMPLES_HELP,
    cache_key,
    cached,
    escape_markdown,
    friendly_errors,
    resample_choices,
    scores_of,
    session_options,
    session_test_set,
)
from pages.ui.table_display import chosen_columns

# 20,000 (MAX_RESAMPLES): enough for Holm over 999 pairs (45 systems). 20 systems x 2,000
# segments, seven metrics: about 10 s of CPU and 0.8 GB at the peak.
RESAMPLE_CHOICES = resample_choices([0, 200, 1000, 2000, 5000, 10000, 20000])
HEAT_MAP_MAX_SYSTEMS = 15  # above this, clusters are shown first and the heat map on request

st.set_page_config(page_title="mteval: scores", layout="wide")


test_set = session_test_set()
options = session_options()
n_pairs = len(test_set.systems) * (len(test_set.systems) - 1) // 2  # per metric
choices = [n for n in RESAMPLE_CHOICES if n * test_set.n_segments <= MAX_RESAMPLED_CELLS]
st.title("Scores")
st.caption(
    f"{escape_markdown(test_set.name)}; options from the Data page: "
    f"`{options.preprocessing_signature()}`"
)
resamples = st.select_slider(
    "Bootstrap resamples",
    choices,
    value=BootstrapOptions().n_resamples,
    help="Segments are drawn with replacement this many times (fixed seed) for confidence "
    f"intervals and paired significance tests. 0: scores only. {RESAMPLES_HELP}"
    + (
        f" For {test_set.n_segments:,} segments, at most {choices[-1]:,} here."
        if choices[-1] < RESAMPLE_CHOICES[-1]
        else ""
    )
    + (
        f" With {n_pairs:,} system pairs, a pair can reach p < {SIGNIFICANCE_LEVEL} after "
        f"Holm's correction from {resamples_needed(n_pairs):,} resamples on."
        if n_pairs
        else ""
    ),
)
bootstrap = BootstrapOptions(n_resamples=resamples)

with friendly_errors():
    scores = scores_of(test_set, DASHBOARD_METRICS, options)
    resampled = None  # no resamples: scores only
    if resamples:
        resampled = cached(
            cache_key("bootstrap", scores.signature, bootstrap, options=options),
            lambda progress: bootstrap_scores(scores, bootstrap, progress=progress),
            "Resampling...",
        )
    ci = resampled.ci if resampled else None

    labels = metric_labels(scores.metrics)
    table = scores_frame(scores, ci)
    shown = chosen_columns(st, table, list(labels.values()))  # the scores, without intervals
    st.dataframe(
        shown,
        width="stretch",
        column_config={column: st.column_config.NumberColumn(format="%.4f") for column in shown},
    )
    if resampled:
        st.caption(
            f"low, high: {bootstrap.confidence:.0%} percentile bootstrap interval over segments "
            f"({resamples:,} resamples, seed {bootstrap.seed}). Click a column header to sort; "
            "the downloads below hold every column."
        )
    else:
        st.caption("Click a column header to sort. Choose resamples above for intervals.")
    for note in scores.notes:  # e.g. GTM segments too large for the grid, left out
        st.warning(escape_markdown(note))

    metric = st.selectbox("Metric for the charts", list(labels), format_func=labels.__getitem__)
    label = labels[metric]
    by_system = table[label].to_dict()
    # None without resamples, or for a metric with system scores only (nothing to resample)
    intervals = (
        resampled.intervals_of(metric) if resampled and metric in resampled.samples else None
    )
    st.plotly_chart(system_scores_bar(by_system, label, intervals), width="stretch")
    if intervals and n_pairs:
        st.subheader("Significant differences")
        floor = smallest_reachable_p(resamples, n_pairs)
        needed = resamples_needed(n_pairs)
        warning = too_few_resamples(resamples, n_pairs, choices[-1], test_set.n_segments)
        if warning:  # said first, above the figure it explains
            st.warning(escape_markdown(warning))
        st.caption(
            "p: the paired bootstrap p-value (computed as sacreBLEU does, on the resamples of "
            f"the intervals), Holm-corrected over this metric's {n_pairs} system pairs. A pair "
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
            )
            st.plotly_chart(
                significance_heatmap(by_system, resampled.pairs, metric, label), width="stretch"
            )
        else:
            higher_is_better = scores.metrics[scores.metric_names.index(metric)].higher_is_better
            ranking = cluster_systems(
                by_system, resampled.pairs, metric, higher_is_better, intervals
            )
            st.caption(
                "Systems best first. A system opens a new cluster when a system of the current "
                f"cluster is significantly better (p < {SIGNIFICANCE_LEVEL}), so no two systems "
                "of a cluster differ significantly (mt-metrics-eval's AssignRanks, as WMT's "
                "metrics task ranks). Rank: from 1 + the systems significantly better to n - "
                "the systems significantly worse."
            )
            st.plotly_chart(significance_clusters_figure(ranking, label), width="stretch")
            with st.expander("Clusters as a table"):
                st.dataframe(
                    [entry.to_row() for entry in ranking], width="stretch", hide_index=True
                )

    extra = resampled.to_dict() if resampled else {}  # intervals, pairs and bootstrap options
    st.caption(f"Signature: `{scores.signature}`")
    downloads = st.columns(3)
    for column, (button, text, name, mime) in zip(
        downloads,
        [
            ("Download CSV", to_csv(scores, ci=ci, labelled=True), "scores.csv", "text/csv"),
            (
                "Download JSON",
                to_json(scores, extra=extra, labelled=True),
                "scores.json",
                "application/json",
            ),
            ("Download LaTeX", to_latex(scores, ci), "scores.tex", "text/x-tex"),
        ],
    ):
        column.download_button(button, text, file_name=name, mime=mime)
