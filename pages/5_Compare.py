"""Compare page: why one system beats another. compare-mt's analyses of two systems (word
accuracy by frequency, sentence BLEU by length, length difference and sentence BLEU, salient
n-grams), each bucket with a bootstrap interval, the text read as Scores reads it (one BLEU on
both pages) or as compare-mt does; a bucket or an n-gram lists its sentences, each with the
words one system gets right and the other misses highlighted, as MT-ComparEval shows them.
The listed outputs can be drawn with the session's error spans instead (MQM raters, span
files, xCOMET's errors), and comet-compare's wins, ties and t-test close the page.
?a=NAME&b=NAME in the URL opens a pair (the Scores page links here)."""

import streamlit as st

from mteval_core.report.evaluation_report import ranked_systems
from mteval_core.report.highlighted_sentence import legend_html
from pages.ui.compare import choose_pair, chosen_sentences, pair_view, show_pair, show_sentences
from pages.ui.compare_spans import chosen_drawing, show_comet_compare, spans_legend_and_note
from pages.ui.friendly_errors import friendly_errors
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
choice = choose_pair(test_set, ranked, options)
warn_of_few_resamples(choice.bootstrap)  # the whiskers' bounds
with friendly_errors():
    view = pair_view(
        test_set, (choice.a, choice.b), choice.reference, choice.bootstrap, choice.reading
    )
    show_pair(view, choice)
listed = chosen_sentences(view.comparison, choice)
with friendly_errors():
    drawing = chosen_drawing(test_set, (choice.a, choice.b))
if drawing is None:
    st.html(f"<div style='font-size:0.9em'>{legend_html()}</div>")
else:
    spans_legend_and_note(drawing, (choice.a, choice.b), listed.lines)
show_sentences(view.comparison, listed.lines, listed.listed, listed.word_bucket, drawing)
with friendly_errors():
    show_comet_compare(scores_of(test_set, options), (choice.a, choice.b))
