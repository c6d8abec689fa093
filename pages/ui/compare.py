"""What the Compare page needs beside its core calls: the pair from the URL (?a=NAME&b=NAME,
checked against the test set and named as text when wrong), how the text is read (as Scores
reads it, or as compare-mt does), the choice of what to list, and the listed sentences,
highlighted (``report.highlighted_sentence``, which escapes every word) and each linked to its
Bitext grid."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from mteval_core.compare.analysis import (
    Comparison,
    ReferenceSide,
    SystemSide,
    compare_sides,
    reference_side,
    system_side,
)
from mteval_core.compare.readings import COMPARE_MT, Reading, TokenizedReading
from mteval_core.errors import InputError
from mteval_core.model.testset import TestSet
from mteval_core.report.comparison_text import value_cell
from mteval_core.report.figures import buckets_figure, ngram_figure, shown_ngrams
from mteval_core.report.figures.plotly_escape import escape_plotly
from mteval_core.report.highlighted_sentence import sentence_html
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions, resample_counts
from pages.ui.caching import cache_key, cached
from pages.ui.compare_spans import SpanDrawing
from pages.ui.markdown_escape import escape_markdown

SENTENCE_ANALYSES = ("length_buckets", "length_difference_buckets", "sentence_bleu_buckets")
WORD_ACCURACY = "word_accuracy"  # its buckets hold words: a bucket lists the sentences with them
LISTABLE = (*SENTENCE_ANALYSES, WORD_ACCURACY)
BY_BUCKET, BY_NGRAM = "a bucket", "an n-gram"
READING = "compare_reading"  # the choice of reading (its widget's key)
CHART = "compare_buckets_chart"  # the figure of every bucket analysis (its selection's key)
NGRAM_CHART = "compare_ngram_chart"  # the salient n-grams' figure (its selection's key)
SENTENCES_PER_PAGE = 10
BITEXT_PAGE = "pages/3_Bitext_grid.py"
COMPARE_PAGE = "pages/5_Compare.py"
# resample counts kept for every system's resampling up to this many cells (8 bytes each);
# above, each system draws its own from the same seed (the same numbers, blocks at a time)
MAX_SHARED_COUNTS = 4_000_000


@dataclass(frozen=True, eq=False)  # it holds figures
class PairView:
    """What the page draws of one pair: compare-mt's analyses and their two figures."""

    comparison: Comparison
    buckets: go.Figure  # every bucket analysis, with intervals
    ngrams: go.Figure  # the salient n-grams of each side


def choose_reading(options: Options) -> Reading:
    """The page's choice of how the analyses read the text: as Scores reads it under the Data
    page's ``options`` (the default, so that the page's BLEU is Scores' BLEU), or as
    compare-mt 0.2.10 does (its numbers)."""
    scores_reading = TokenizedReading(options)
    labels = {
        scores_reading.key: f"as Scores reads it ({scores_reading.how_split()}, Scores' BLEU)",
        COMPARE_MT.key: "as compare-mt 0.2.10 reads it (split on spaces, its own BLEU)",
    }
    chosen = st.radio(
        "Read the text",
        list(labels),
        format_func=lambda key: escape_markdown(labels[key]),
        horizontal=True,
        key=READING,
        help="Scores' reading tokenizes the text with the Data page's tokenizer (zh for "
        "Chinese, ...) and scores sacreBLEU's BLEU, so the BLEU here is the Scores page's "
        "against the chosen reference. compare-mt's reading splits each line on spaces and "
        "scores compare-mt's BLEU and NLTK's sentence BLEU, as compare-mt prints them: for "
        "text split into words already (Chinese or Japanese as written reads near zero).",
    )
    return COMPARE_MT if chosen == COMPARE_MT.key else scores_reading


def pair_view(
    test_set: TestSet,
    pair: tuple[str, str],
    reference: int,
    bootstrap: BootstrapOptions | None,
    reading: Reading,
) -> PairView:
    """compare-mt's analyses of ``pair`` (a first, the baseline), the text read as ``reading``
    says, and their figures, one cache entry per pair, from each system's side computed once
    per reference, reading and resamples (shared by every pair it is in, and by every session):
    switching one system of the pair counts only the new one, and the pair's own work is a few
    vector operations and two figures."""
    if pair[0] == pair[1]:
        raise InputError(f"compare two different systems, not {pair[0]!r} with itself")
    for name in pair:
        if name not in test_set.system_names:
            raise InputError(
                f"there is no system {name!r} to compare",
                hint=f"Choose among: {', '.join(test_set.system_names)}.",
            )

    def compute() -> PairView:
        ref = cached(
            cache_key("compare reference side", reference, reading),
            lambda _: reference_side(test_set.references[reference].segments, reading),
        )
        sides = [_side_of(test_set, ref, name, reference, bootstrap) for name in pair]
        source = test_set.source.segments if test_set.source is not None else None
        comparison = compare_sides(ref, sides[0], sides[1], bootstrap, source)
        charts = comparison.analyses[1:]  # word accuracy and the sentence buckets
        return PairView(
            comparison, buckets_figure(charts, pair), ngram_figure(comparison.ngrams, pair)
        )

    return cached(
        cache_key("compare pair", *pair, reference, bootstrap, reading), lambda _: compute()
    )


def _side_of(
    test_set: TestSet,
    reference: ReferenceSide,
    name: str,
    reference_number: int,
    bootstrap: BootstrapOptions | None,
) -> SystemSide:
    """One system's side; resampled from a generator seeded as ``compare_pair`` seeds it, so
    both systems of any pair see the same resamples and the numbers are ``compare_pair``'s."""
    resamples = bootstrap.n_resamples if bootstrap is not None else 0
    counts = None
    if bootstrap is not None and 0 < resamples * test_set.n_segments <= MAX_SHARED_COUNTS:
        seed = bootstrap.seed
        counts = cached(  # drawn once for every system
            cache_key("compare resample counts", resamples, seed),
            lambda _: resample_counts(test_set.n_segments, resamples, np.random.default_rng(seed)),
        )
    return cached(
        cache_key(
            "compare system side", name, reference_number, resamples, bootstrap, reference.reading
        ),
        lambda _: system_side(
            reference,
            name,
            test_set.system(name),
            resamples,
            np.random.default_rng(bootstrap.seed) if bootstrap is not None else None,
            counts,
        ),
    )


def preselect_pair(ranked: Sequence[str]) -> None:
    """On arrival, ?a= and ?b= give the pair's widgets their first values (else the two best);
    names the test set does not have are named in a warning, as text, and ignored."""
    for key, fallback in (("compare_a", ranked[0]), ("compare_b", ranked[1])):
        if st.session_state.get(key) in ranked:
            continue
        name = st.query_params.get(key.removeprefix("compare_"))
        if name is not None and name not in ranked:
            st.warning(
                f"The link asks for system “{escape_markdown(name)}”, which this test set does "
                "not have."
            )
        st.session_state[key] = name if name in ranked else fallback
    if st.session_state["compare_a"] == st.session_state["compare_b"]:
        st.session_state["compare_b"] = next(
            s for s in ranked if s != st.session_state["compare_a"]
        )


def select_clicked_bar(analyses: Sequence[str], chart: str) -> None:
    """A clicked bar lists its bucket's sentences: the chart's ``on_select`` callback, run
    before the widgets below it are drawn again. ``analyses`` are the figure's analyses in the
    order ``buckets_figure`` draws them (trace 2k + s: analysis k, system s)."""
    points = st.session_state[chart]["selection"]["points"]
    if not points:
        return
    choice = clicked_bucket(points[0], analyses)
    if choice is None:
        return
    st.session_state["compare_list"] = BY_BUCKET
    (
        st.session_state["compare_analysis"],
        st.session_state["compare_bucket"],
        st.session_state["compare_side"],
    ) = choice


def select_clicked_ngram(comparison: Comparison, chart: str) -> None:
    """A clicked bar of the n-gram figure lists that n-gram's sentences: the chart's
    ``on_select`` callback (a bar's point index is its n-gram's place in ``shown_ngrams``)."""
    points = st.session_state[chart]["selection"]["points"]
    shown = shown_ngrams(comparison.ngrams)
    index = points[0].get("point_index") if points else None
    if index is None or not 0 <= int(index) < len(shown):
        return
    st.session_state["compare_list"] = BY_NGRAM
    st.session_state["compare_ngram"] = shown[int(index)].ngram


def clicked_bucket(point: dict, analyses: Sequence[str]) -> tuple[str, int, int] | None:
    """(analysis, bucket, system) of a clicked bar of ``buckets_figure``; None for a point
    that is no bar of a listable analysis."""
    curve, bucket = point.get("curve_number"), point.get("point_index")
    if curve is None or bucket is None or not 0 <= int(curve) < 2 * len(analyses):
        return None
    analysis = analyses[int(curve) // 2]
    return (analysis, int(bucket), int(curve) % 2) if analysis in LISTABLE else None


def keep_valid(key: str, offered: Sequence[object]) -> None:
    """Forget a widget's value that is no longer offered (another pair's n-gram)."""
    if key in st.session_state and st.session_state[key] not in offered:
        del st.session_state[key]


def show_sentences(
    comparison: Comparison,
    lines: Sequence[int],
    key: str,
    word_bucket: int | None = None,
    drawing: SpanDrawing | None = None,
) -> None:
    """``lines`` (1-based) a page at a time: each with the reference and both outputs marked
    (and the words of frequency bucket ``word_bucket`` underlined), or with the error spans of
    ``drawing`` where it is given, drawn as one block, and a way to open each in the Bitext grid
    of either system."""
    if not lines:
        st.info("No sentence here.")
        return
    pages = (len(lines) - 1) // SENTENCES_PER_PAGE + 1
    page = 1
    if pages > 1:
        page = int(st.number_input(f"Page (of {pages})", 1, pages, 1, key=f"compare_page_{key}"))
    first = (page - 1) * SENTENCES_PER_PAGE
    shown = lines[first : first + SENTENCES_PER_PAGE]
    st.caption(f"Sentences {first + 1} to {first + len(shown)} of {len(lines):,}.")
    blocks = [_sentence_block(comparison, line, word_bucket, drawing) for line in shown]
    st.html("".join(blocks))  # one element for the page of sentences: quick to draw
    chosen, *links = st.columns([2, 3, 3], vertical_alignment="bottom")
    line = chosen.selectbox("Open line", shown, key=f"compare_open_{key}")
    for column, side, name in zip(links, "ab", comparison.systems):
        column.page_link(
            BITEXT_PAGE,
            label=f"Line {line} of system {side} in the Bitext grid",
            query_params={"system": name, "segment": str(line)},
        )


def _sentence_block(
    comparison: Comparison, line: int, word_bucket: int | None, drawing: SpanDrawing | None
) -> str:
    """Line ``line`` (1-based) as HTML: its outputs' words marked against the reference (those
    of frequency bucket ``word_bucket`` underlined), or their spans as ``drawing`` draws them."""
    i = line - 1
    reference, out_a, out_b = comparison.texts
    source = comparison.source[i] if comparison.source is not None else None
    if drawing is not None:
        return drawing.sentence(
            line, comparison.systems, reference[i], (out_a[i], out_b[i]), source
        )
    split = comparison.reading.split
    underlined = None
    if word_bucket is not None:
        words = {w for text in (reference[i], out_a[i], out_b[i]) for w in split(text)}
        underlined = {w for w in words if comparison.word_bucket(w) == word_bucket}
    return sentence_html(
        line, comparison.systems, reference[i], (out_a[i], out_b[i]), source, underlined, split
    )


def link_to_compare(ranked: Sequence[str]) -> None:
    """The Scores page's way to the Compare page: two systems (the two best first) and a link
    that opens Compare on them (?a=...&b=...)."""
    if len(ranked) < 2:
        return
    st.markdown("**Why does one system beat another?**")
    left, right, link = st.columns([3, 3, 2], vertical_alignment="bottom")
    first = left.selectbox("Compare", ranked, key="scores_compare_a")
    others = [s for s in ranked if s != first]
    keep_valid("scores_compare_b", others)
    second = right.selectbox("with", others, key="scores_compare_b")
    if link.button("Open on the Compare page", key="scores_open_compare"):
        st.switch_page(COMPARE_PAGE, query_params={"a": first, "b": second})


HEAT_MAP = "scores_heat_map"  # the Scores page's heat map (its selection's key)
CLICKED_PAIR = "scores_clicked_pair"  # a clicked cell's pair, until the page opens Compare on it


def pair_of_cell(point: dict, systems: Sequence[str]) -> tuple[str, str] | None:
    """The (row, column) systems of a clicked cell of ``significance_heatmap`` (its ``y`` and
    ``x``, the names as the axes show them, escaped); None for a point that is no cell of two
    of ``systems``."""
    shown = {escape_plotly(system): system for system in systems}
    row, column = shown.get(str(point.get("y"))), shown.get(str(point.get("x")))
    if row is None or column is None or row == column:
        return None
    return row, column


def remember_clicked_pair(systems: Sequence[str]) -> None:
    """The heat map's ``on_select`` callback: keep the clicked cell's pair for
    ``open_clicked_pair``, which the page calls after drawing the map."""
    points = st.session_state[HEAT_MAP]["selection"]["points"]
    pair = pair_of_cell(points[0], systems) if points else None
    if pair is not None:
        st.session_state[CLICKED_PAIR] = pair


def open_clicked_pair() -> None:
    """Open the Compare page on the pair of a clicked cell (a = the row's system, the
    baseline; b = the column's), once."""
    pair = st.session_state.pop(CLICKED_PAIR, None)
    if pair is not None:
        st.switch_page(COMPARE_PAGE, query_params={"a": pair[0], "b": pair[1]})


@dataclass(frozen=True)
class PairChoice:
    """The two systems (a, the baseline, and b), the reference compare-mt reads, the
    resamples of the whiskers (None: no intervals) and the reading of the text."""

    a: str
    b: str
    reference: int
    bootstrap: BootstrapOptions | None
    reading: Reading


def choose_pair(test_set: TestSet, ranked: Sequence[str], options: Options) -> PairChoice:
    """The controls in one row (a, b, the reference, the resamples), then the reading; the
    pair goes to the address bar, and a caption says what the analyses read."""
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
    bootstrap = BootstrapOptions(resamples) if resamples else None
    return PairChoice(a, b, reference, bootstrap, reading)


def show_pair(view: PairView, choice: PairChoice) -> None:
    """The comparison's notes, each system's corpus BLEU, and the two clickable figures."""
    comparison = view.comparison
    for note in comparison.notes:  # e.g. text not split into words: every BLEU near zero
        st.warning(escape_markdown(note[0].upper() + note[1:] + "."))
    corpus = comparison.analysis("scores")  # the reading's corpus BLEU (0-100), length ratio
    for column, side, name in zip(st.columns(2), range(2), (choice.a, choice.b)):
        label = f"{choice.reading.bleu_label} of {'ab'[side]}"
        column.metric(label, value_cell(corpus, side, 0, 0))
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


@dataclass(frozen=True)
class ListedSentences:
    """The lines to list, what they were chosen by (the listing's key) and the frequency
    bucket whose words they underline (None: no words underlined)."""

    lines: Sequence[int]
    listed: str
    word_bucket: int | None = None


def chosen_sentences(comparison: Comparison, choice: PairChoice) -> ListedSentences:
    """What to list: a bucket of an analysis, or an n-gram; stops the page when no n-gram
    differs."""
    st.subheader("Sentences")
    st.caption("Click a bar of a chart above (a bucket or an n-gram), or choose here.")
    listing = st.radio(
        "List the sentences of", [BY_BUCKET, BY_NGRAM], horizontal=True, key="compare_list"
    )
    if listing == BY_BUCKET:
        return _bucket_sentences(comparison, choice)
    return _ngram_sentences(comparison)


def _bucket_sentences(comparison: Comparison, choice: PairChoice) -> ListedSentences:
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
        pick[2].caption(
            "Sentences whose reference has words of this frequency bucket; those words are "
            "underlined."
        )
        return ListedSentences(comparison.lines_with_word_bucket(bucket), f"{key} {bucket}", bucket)
    pair = (choice.a, choice.b)
    side = pick[2].radio(
        "As which system's bucket",
        [0, 1],
        format_func=lambda s: f"{'ab'[s]}: {escape_markdown(pair[s])}",
        key="compare_side",
        help="The length of the reference is the same for both; length difference and "
        "sentence BLEU are each system's own.",
    )
    return ListedSentences(comparison.lines_in(key, bucket, side), f"{key} {bucket} {side}")


def _ngram_sentences(comparison: Comparison) -> ListedSentences:
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
    return ListedSentences(lines, f"ngram {ngram}")
