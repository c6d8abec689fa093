"""Compare page: why one system beats another. compare-mt's analyses of two systems (word
accuracy by frequency, sentence BLEU by length, length difference and sentence BLEU, salient
n-grams), each bucket with a bootstrap interval, the text read as Scores reads it (one BLEU on
both pages) or as compare-mt does; a bucket or an n-gram lists its sentences, each with the
words one system gets right and the other misses highlighted, as MT-ComparEval shows them.
?a=NAME&b=NAME in the URL opens a pair (the Scores page links here)."""

from functools import partial

import streamlit as st

from mteval_core.report.comparison_text import value_cell
from mteval_core.report.evaluation_report import ranked_systems
from mteval_core.report.highlighted_sentence import legend_html
from mteval_core.stats.bootstrap import BootstrapOptions
from pages.ui.compare import (
    BY_BUCKET,
    BY_NGRAM,
    CHART,
    LISTABLE,
    NGRAM_CHART,
    WORD_ACCURACY,
    choose_reading,
    keep_valid,
    pair_view,
    preselect_pair,
    select_clicked_bar,
    select_clicked_ngram,
    show_sentences,
)
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.resamples import warn_of_few_resamples
from pages.ui.session import session_options, session_test_set
from pages.ui.session_scores import scores_of
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: compare", layout="wide")
show_refused_upload()  # while the last upload is refused
test_set = session_test_set()
st.title("Compare two systems")
if len(test_set.systems) < 2:
    st.info("Comparing takes two systems; this test set has one. Upload more on the Data page.")
    st.stop()
options = session_options()
with friendly_errors():
    ranked = ranked_systems(scores_of(test_set, options))
preselect_pair(ranked)
controls = st.columns([3, 3, 3, 2])
a = controls[0].selectbox("System a (baseline)", ranked, key="compare_a")
others = [s for s in ranked if s != a]
keep_valid("compare_b", others)
b = controls[1].selectbox("System b", others, key="compare_b")
references = test_set.reference_names
reference = controls[2].selectbox(
    "Reference",
    range(len(references)),
    format_func=references.__getitem__,
    help="compare-mt's analyses read one reference.",
    key="compare_reference",
)
resamples = controls[3].select_slider(
    "Bootstrap resamples", [0, 200, 1000], value=1000, key="compare_resamples"
)
reading = choose_reading(options)
st.query_params.update({"a": a, "b": b})
bootstrap = BootstrapOptions(resamples) if resamples else None
st.caption(
    f"Systems best first by the first metric on Scores. The analyses read the reference "
    f"“{escape_markdown(references[reference])}”"
    + (
        f" alone (one of {len(references)}; Scores' BLEU reads all of them)"
        if len(references) > 1
        else ""
    )
    + f", {escape_markdown(reading.description())}"
    + (f"; whiskers: 95% bootstrap intervals ({resamples:,} resamples)." if resamples else ".")
)
warn_of_few_resamples(bootstrap)  # the whiskers' bounds

with friendly_errors():
    view = pair_view(test_set, (a, b), reference, bootstrap, reading)
    comparison = view.comparison
    for note in comparison.notes:  # e.g. text not split into words: every BLEU near zero
        st.warning(escape_markdown(note[0].upper() + note[1:] + "."))
    corpus = comparison.analysis("scores")  # the reading's corpus BLEU (0-100), length ratio
    for column, side, name in zip(st.columns(2), range(2), (a, b)):
        column.metric(f"{reading.bleu_label} of {'ab'[side]}", value_cell(corpus, side, 0, 0))
        column.caption(escape_markdown(name))
    charts = tuple(c.key for c in comparison.analyses[1:])  # the figure's, in its order
    st.plotly_chart(
        view.buckets,
        width="stretch",
        key=CHART,
        on_select=partial(select_clicked_bar, charts, CHART),
        selection_mode="points",
    )
    st.plotly_chart(
        view.ngrams,
        width="stretch",
        key=NGRAM_CHART,
        on_select=partial(select_clicked_ngram, comparison, NGRAM_CHART),
        selection_mode="points",
    )

st.subheader("Sentences")
st.caption("Click a bar of a chart above (a bucket or an n-gram), or choose here.")
listing = st.radio(
    "List the sentences of", [BY_BUCKET, BY_NGRAM], horizontal=True, key="compare_list"
)
word_bucket = None  # a frequency bucket whose words the listed sentences underline
if listing == BY_BUCKET:
    titles = {k: comparison.analysis(k).title for k in LISTABLE}
    pick = st.columns(3)
    key = pick[0].selectbox(
        "Analysis", list(titles), format_func=titles.get, key="compare_analysis"
    )
    labels = comparison.analysis(key).labels
    keep_valid("compare_bucket", range(len(labels)))
    bucket = pick[1].selectbox(
        "Bucket", range(len(labels)), format_func=labels.__getitem__, key="compare_bucket"
    )
    if key == WORD_ACCURACY:  # the reference's words decide: the same sentences for both
        lines = comparison.lines_with_word_bucket(bucket)
        word_bucket = bucket
        pick[2].caption(
            "Sentences whose reference has words of this frequency bucket; those words are "
            "underlined."
        )
        listed = f"{key} {bucket}"
    else:
        side = pick[2].radio(
            "As which system's bucket",
            [0, 1],
            format_func=lambda s: f"{'ab'[s]}: {escape_markdown((a, b)[s])}",
            key="compare_side",
            help="The length of the reference is the same for both; length difference and "
            "sentence BLEU are each system's own.",
        )
        lines = comparison.lines_in(key, bucket, side)
        listed = f"{key} {bucket} {side}"
else:
    ngrams = [d.ngram for side_ngrams in comparison.ngrams for d in side_ngrams]
    keep_valid("compare_ngram", ngrams)
    if not ngrams:
        st.info("No salient n-gram differs between the two.")
        st.stop()
    better = {d.ngram: "a" for d in comparison.ngrams[0]} | {
        d.ngram: "b" for d in comparison.ngrams[1]
    }
    ngram = st.selectbox(
        "n-gram",
        ngrams,
        format_func=lambda g: f"{g}  (more matches in {better[g]})",
        key="compare_ngram",
    )
    lines = [line for line, _, _ in comparison.lines_with_ngram(ngram)]
    listed = f"ngram {ngram}"
st.html(f"<div style='font-size:0.9em'>{legend_html()}</div>")
show_sentences(comparison, lines, listed, word_bucket)
