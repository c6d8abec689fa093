"""Scores page: every system under every metric, how sure each score is (bootstrap intervals) and
which system differences are significant (paired bootstrap, Holm-corrected), ready to export."""

import streamlit as st

from mteval_core.export import to_csv, to_json, to_latex
from mteval_core.figures import significance_heatmap, system_scores_bar
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import (
    SIGNIFICANCE_LEVEL,
    bootstrap_scores,
    smallest_reachable_p,
)
from mteval_core.tables import scores_frame
from pages.ui import (
    DASHBOARD_METRICS,
    RESAMPLES_HELP,
    cached,
    escape_markdown,
    friendly_errors,
    resample_choices,
    scores_of,
    session_external_metrics,
    session_options,
    session_test_set,
)

# 5000: enough for Holm over 78 pairs (13 systems)
RESAMPLE_CHOICES = resample_choices([0, 200, 1000, 2000, 5000])

st.set_page_config(page_title="mteval: scores", layout="wide")


test_set = session_test_set()
options = session_options()
st.title("Scores")
st.caption(
    f"{escape_markdown(test_set.name)}; options from the Data page: "
    f"`{options.preprocessing_signature()}`"
)
resamples = st.select_slider(
    "Bootstrap resamples",
    RESAMPLE_CHOICES,
    value=BootstrapOptions().n_resamples,
    help="Segments are drawn with replacement this many times (fixed seed) for confidence "
    f"intervals and paired significance tests. 0: scores only. {RESAMPLES_HELP}",
)
bootstrap = BootstrapOptions(n_resamples=resamples)

with friendly_errors():
    scores = scores_of(test_set, DASHBOARD_METRICS, options)
    external = tuple(session_external_metrics())  # part of the key, as in scores_of
    resampled = None  # no resamples: scores only
    if resamples:
        resampled = cached(
            ("bootstrap", test_set.content_hash, options, scores.signature, external, bootstrap),
            lambda progress: bootstrap_scores(scores, bootstrap, progress=progress),
            "Resampling...",
        )
    ci = resampled.ci if resampled else None

    table = scores_frame(scores, ci)
    st.dataframe(
        table,
        width="stretch",
        column_config={column: st.column_config.NumberColumn(format="%.4f") for column in table},
    )
    if resampled:
        st.caption(
            f"low, high: {bootstrap.confidence:.0%} percentile bootstrap interval over segments "
            f"({resamples:,} resamples, seed {bootstrap.seed}). Click a column header to sort."
        )
    else:
        st.caption("Click a column header to sort. Choose resamples above for intervals.")
    for note in scores.notes:  # e.g. GTM segments too large for the grid, left out
        st.warning(escape_markdown(note))

    labels = {metric.label: metric.name for metric in scores.metrics}
    label = st.selectbox("Metric for the charts", list(labels))
    metric = labels[label]
    by_system = table[label].to_dict()
    intervals = resampled.intervals_of(metric) if resampled else None
    st.plotly_chart(system_scores_bar(by_system, label, intervals), width="stretch")
    if resampled and len(scores.systems) > 1:
        st.plotly_chart(
            significance_heatmap(by_system, resampled.pairs, metric, label), width="stretch"
        )
        pairs_per_metric = len(scores.systems) * (len(scores.systems) - 1) // 2
        st.caption(
            "Each cell: the row system's score minus the column system's, and p: the paired "
            "bootstrap p-value (computed as sacreBLEU does, on the resamples of the intervals), "
            f"Holm-corrected over this metric's {pairs_per_metric} system pairs. "
            f"Blue: p < {SIGNIFICANCE_LEVEL}, a significant difference. Hover for the "
            "uncorrected p."
        )
        floor = smallest_reachable_p(resamples, pairs_per_metric)
        if floor >= SIGNIFICANCE_LEVEL:
            st.warning(
                f"With {resamples:,} resamples and Holm's correction over {pairs_per_metric} "
                f"pairs, the smallest p-value a pair can get is {floor:.4f}: no pair can reach "
                f"p < {SIGNIFICANCE_LEVEL}. Choose more resamples."
            )

    extra = resampled.to_dict() if resampled else {}  # intervals, pairs and bootstrap options
    st.caption(f"Signature: `{scores.signature}`")
    downloads = st.columns(3)
    for column, (button, text, name, mime) in zip(
        downloads,
        [
            ("Download CSV", to_csv(scores, ci=ci), "scores.csv", "text/csv"),
            ("Download JSON", to_json(scores, extra=extra), "scores.json", "application/json"),
            ("Download LaTeX", to_latex(scores, ci), "scores.tex", "text/x-tex"),
        ],
    ):
        column.download_button(button, text, file_name=name, mime=mime)
