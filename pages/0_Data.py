"""Data page: upload a test set (or keep the sample) and choose the options every page uses."""

import hashlib

import streamlit as st

from mteval_core.errors import InputError
from mteval_core.io.decoding import CARRIAGE_RETURNS, LoneCarriageReturn
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.io.plain import BYTE_ORDER_MARKS
from mteval_core.io.uploads import (
    ArchivePair,
    TextChoices,
    archive_pairs,
    check_upload_sizes,
    read_uploaded_metric,
    test_set_from_archive,
    test_set_from_uploads,
)
from mteval_core.model.testset import TestSet
from mteval_core.report.frames import files_summary, mqm_overview, segment_preview
from mteval_core.settings.languages import languages_of, stemming_advice
from mteval_core.settings.limits import (
    MAX_UPLOAD_MB,
    MAX_UPLOAD_SEGMENTS,
    MAX_UPLOAD_SYSTEMS,
    MAX_UPLOAD_TEXTS,
)
from mteval_core.settings.options import (
    GTM_MATCHINGS,
    SNOWBALL_LANGUAGES,
    SPM_TOKENIZERS,
    STEMMERS,
    TOKENIZERS,
    Options,
)
from mteval_core.text import require_tokenizer, stored_sentencepiece_model
from pages.ui import (
    cache_key,
    cached,
    escape_markdown,
    friendly_errors,
    session_external_metrics,
    session_mqm,
    session_options,
    session_stem_language,
    session_test_set,
    session_tokenizer,
    show_overview,
)
from pages.ui.metric_choice import choose_metrics, keep_metric_choice
from pages.ui.upload_chips import show_whole_file_names

st.set_page_config(page_title="mteval: data", layout="wide")

CARRIAGE_RETURN_LABEL = "Carriage returns without a line feed (CR inside a line, old Mac line ends)"
CARRIAGE_RETURN_CHOICES = {
    "refuse": "refuse the file",
    "split": "end the segment there, as sacreBLEU does",
    "space": "read as a space",
}
BYTE_ORDER_MARK_LABEL = "Byte order mark (U+FEFF) at the start of a plain-text file"
BYTE_ORDER_MARK_CHOICES = {
    "keep": "keep it as text, as sacreBLEU does",
    "drop": "drop it",
}
CARRIAGE_RETURN_OFFER = (  # said when a file is refused for one: the choice that loads it
    f"choose '{CARRIAGE_RETURN_CHOICES['split']}' or '{CARRIAGE_RETURN_CHOICES['space']}' under "
    "'Carriage returns without a line feed' above, then press 'Use this test set' again"
)


st.title("Data")
st.markdown(
    "Upload references and system outputs in any format mteval reads (plain text with one "
    "segment per line, CSV/TSV or JSON Lines long format, NIST mteval SGML, WMT XML); the "
    "format is recognised by the file's extension (.jsonl, .sgm, .xml, .tsv, .csv) or by its "
    "whole content, and anything else is plain text; a note says which reading a file got when "
    "it could be read two ways. Everything stays in your session: other users never see it."
)
st.caption(
    f"Limits of this shared server: files of up to {MAX_UPLOAD_MB} MB each; a test set of up to "
    f"{MAX_UPLOAD_SEGMENTS:,} segments, {MAX_UPLOAD_SYSTEMS} systems and {MAX_UPLOAD_TEXTS:,} "
    "segment texts in all (segments times references and systems). Score larger test sets with "
    "the command line (mteval score)."
)


def upload(file) -> tuple[str, bytes] | None:
    return (file.name, file.getvalue()) if file else None


def archive_choice(file) -> tuple[ArchivePair | None, str | None]:
    """The language pair and reference chosen among the archive's, once it has been sent (the
    first pair and its standard reference until the user chooses)."""
    if file is None:
        return None, None
    archive = upload(file)
    try:
        pairs = cached(
            cache_key("archive pairs", content=hashlib.sha256(archive[1]).hexdigest()),
            lambda _: archive_pairs(archive),
        )
    except InputError:  # 'Use this test set' reads the archive again and shows the problem
        return None, None
    left, right = st.columns(2)
    pair = left.selectbox(
        "Language pair of the archive",
        pairs,
        format_func=lambda p: p.label,
        help="Press 'Use this test set' to load the pair chosen here.",
    )
    references = sorted({name for p in pairs for name in p.references})
    reference = right.selectbox(
        "Reference of the archive",
        [None, *references],
        format_func=lambda name: (
            f"mt-metrics-eval's standard one ({pair.standard})" if name is None else name
        ),
    )
    return pair, reference


show_whole_file_names()  # WMT file names differ past the 20 characters a chip shows
with st.form("upload"):
    references = st.file_uploader("References (one file per reference)", accept_multiple_files=True)
    systems = st.file_uploader("System outputs (one file per system)", accept_multiple_files=True)
    source = st.file_uploader("Source (optional)")
    human = st.file_uploader(
        "Human judgments (optional): system, segment_id, score[, rater, criterion], or "
        "Google's MQM error TSV"
    )
    lower_is_better = st.checkbox("These human scores count errors (lower is better): negate them")
    segment_ids = st.file_uploader(
        "Segment-id map (optional): line, segment_id[, doc], when the human scores use the data "
        "set's own segment ids instead of line numbers"
    )
    mqm = st.file_uploader(
        "MQM error annotations (optional): Google's TSV, 2020-2024 layouts (system, doc, "
        "seg_id or docSegId, rater, category, severity); the Loss page then ranks systems under "
        "your own error weights, and without other human judgments its MQM scores are the "
        "Correlation page's"
    )
    archive = st.file_uploader(
        "mt-metrics-eval archive (optional, in place of references, systems and source): a .zip "
        "or .tar.gz of a test set's folders (sources/, references/, system-outputs/, "
        "documents/, human-scores/, metric-scores/), of the data root that holds test sets, or "
        "of one language pair's files in those folders; its human and metric scores come along"
    )
    pair, reference = archive_choice(archive)
    carriage_returns = st.radio(
        CARRIAGE_RETURN_LABEL,
        CARRIAGE_RETURNS,
        format_func=CARRIAGE_RETURN_CHOICES.__getitem__,
        horizontal=True,
        help="In references, system outputs and the source. sacreBLEU and most tools end a line "
        "at a lone CR; mteval refuses it unless you choose: ending the segment there reads the "
        "file as they do, a space keeps the segments as they are. CRLF line ends are always "
        "fine.",
    )
    byte_order_mark = st.radio(
        BYTE_ORDER_MARK_LABEL,
        BYTE_ORDER_MARKS,
        format_func=BYTE_ORDER_MARK_CHOICES.__getitem__,
        horizontal=True,
        help="sacreBLEU, mteval-v13a and GTM 1.4 read a byte order mark at the start of a "
        "plain-text file as the first character of its first segment, and so does mteval by "
        "default, so that the scores equal theirs; a note names every file that has one. XML, "
        "SGML, JSON Lines, CSV and TSV files always drop it.",
    )
    submitted = st.form_submit_button("Use this test set")


def uploaded_test_set(notes: list[str]) -> TestSet:
    """The test set of the form's files; a refused lone CR names the form's choice."""
    try:
        return test_set_from_uploads(
            [upload(f) for f in references or []],
            [upload(f) for f in systems or []],
            upload(source),
            upload(human) or upload(mqm),  # MQM scores are judgments when there are no others
            lower_is_better,
            upload(segment_ids),
            notes=notes,
            reading=TextChoices(carriage_returns, byte_order_mark),
        )
    except LoneCarriageReturn as error:
        raise error.offering(CARRIAGE_RETURN_OFFER) from None


if submitted:
    # which reading a file got, judgments set aside: shown also when the files do not fit
    notes: list[str] = []
    with friendly_errors(stop=False):  # on a problem the previous test set stays loaded
        external = {}
        if archive:  # the archive's texts, judgments and metric scores, with the files' judgments
            given = [*(references or []), *(systems or []), source, segment_ids]
            read = test_set_from_archive(
                upload(archive),
                pair,
                reference,
                upload(human) or upload(mqm),
                lower_is_better,
                text_files=[file.name for file in given if file],
            )
            test_set, external = read.test_set, read.external
            notes.extend(read.notes)
        else:
            test_set = uploaded_test_set(notes)
        annotations = None
        if mqm:
            check_upload_sizes([upload(mqm)])
            annotations = read_mqm(mqm.getvalue(), mqm.name)
        st.session_state["test_set"] = test_set
        st.session_state["mqm"] = annotations
        st.session_state["external_metrics"] = external  # those read for the previous set go
        st.success(
            "Loaded. Every page now shows this test set, read from "
            f"{escape_markdown(files_summary(test_set))}."
        )
    for note in notes:
        st.info(escape_markdown(note))
if "test_set" in st.session_state and st.button("Go back to the sample test set"):
    del st.session_state["test_set"]
    st.session_state.pop("mqm", None)
    st.session_state.pop("external_metrics", None)

test_set = session_test_set()
st.subheader(f"Current test set: {escape_markdown(test_set.name)}")
show_overview(test_set)
if (annotations := session_mqm()) is not None:
    st.markdown("**MQM annotations:** " + escape_markdown(mqm_overview(annotations)))
st.dataframe(segment_preview(test_set, rows=5), width="stretch")

st.subheader("Options for every page")
current = session_options()
left, middle, right = st.columns(3)
languages = languages_of(test_set)
offered, tokenizer_note, tokenizer_warning = session_tokenizer(languages)
# Keyed, and its value set here rather than by an index: a widget whose index changes is a new
# widget, which would drop the user's choice on the run after it (the stored options lag one run).
# The key goes when another page runs, so it is set again from the options then.
if not st.session_state.get("tokenizer_chosen") or "tokenizer" not in st.session_state:
    st.session_state["tokenizer"] = offered
tokenize = left.selectbox(
    "Tokenizer",
    TOKENIZERS,
    key="tokenizer",
    on_change=lambda: st.session_state.update(tokenizer_chosen=True),
)
stem = middle.selectbox("Stemming", STEMMERS, STEMMERS.index(current.stem))
language = right.selectbox(
    "Snowball language",
    SNOWBALL_LANGUAGES,
    SNOWBALL_LANGUAGES.index(session_stem_language(languages.target)),
    on_change=lambda: st.session_state.update(stem_language_chosen=True),
)
st.caption(stemming_advice(languages))
if tokenizer_note is not None:
    shown = tokenizer_note[0].upper() + tokenizer_note[1:]
    (st.warning if tokenizer_warning else st.caption)(escape_markdown(shown))
spm_model = current.spm_model if tokenize in SPM_TOKENIZERS else None
if tokenize in SPM_TOKENIZERS:
    model = st.file_uploader(
        "SentencePiece model (.model; sacreBLEU downloads flores101's and flores200's, mteval "
        "takes the file you have)"
    )
    if model is not None:
        spm_model = stored_sentencepiece_model(model.getvalue())
left, middle, right = st.columns(3)
lowercase = left.checkbox("Lowercase", current.lowercase)
alpha = middle.number_input("Fmean alpha (weight of recall)", 0.0, 1.0, current.fmean_alpha, 0.05)
exponent = right.number_input(
    "GTM exponent",
    0.1,
    10.0,
    float(current.gtm_exponent),
    0.5,
    help="GTM's reward for runs: 1 is GTM 1.4's default, where GTM with one reference equals "
    "unigram F1 (the two columns agree); Melamed et al. use 2. Scores, Correlation and the "
    "Bitext grid use it (the grid's own slider can override it there).",
)
left, right = st.columns(2)
matching = left.radio(
    "GTM matching", GTM_MATCHINGS, GTM_MATCHINGS.index(current.gtm_matching), horizontal=True
)
ter_case_sensitive = right.checkbox(
    "Case-sensitive TER",
    current.ter_case_sensitive,
    help="TER is case-insensitive by default, as sacreBLEU's (case:lc in its signature), so "
    "that it matches published TER numbers; tick this to count case differences as edits.",
)
metric_choice = choose_metrics(languages.target)
keep_metric_choice(metric_choice)  # whatever the options below say
try:
    options = Options(
        tokenize=tokenize,
        lowercase=lowercase,
        stem=stem,
        stem_language=language,
        fmean_alpha=alpha,
        gtm_exponent=exponent,
        gtm_matching=matching,
        ter_case_sensitive=ter_case_sensitive,
        spm_model=spm_model,
        meteor_language=metric_choice.meteor_language,
        meteor_modules=metric_choice.meteor_modules,
    )
    require_tokenizer(options)  # a missing MeCab is said here, not on every page
    st.session_state["options"] = options
except InputError as error:
    st.error(escape_markdown(error))
    options = current
st.caption(f"Preprocessing signature: `{options.preprocessing_signature()}`")

st.subheader("Metric scores computed elsewhere")
with st.form("external metric"):
    scores_file = st.file_uploader(
        "Scores (COMET, MetricX, ...): system, segment_id, score rows; system, score rows; or "
        "mt-metrics-eval's NAME-REF.seg.score / .sys.score"
    )
    left, right = st.columns(2)
    metric_name = left.text_input("Metric name", max_chars=60)
    direction = right.radio("Better scores are", ("higher", "lower"), index=None, horizontal=True)
    added = st.form_submit_button("Add this metric")
if added:
    with friendly_errors(stop=False):  # the metrics already added stay
        metric = read_uploaded_metric(
            upload(scores_file), metric_name, direction, test_set, session_external_metrics()
        )
        st.session_state["external_metrics"] = {**session_external_metrics(), **metric}
        st.success(f"Added {escape_markdown(metric_name)}: every page now shows it.")
        for note in next(iter(metric.values())).notes:
            st.info(escape_markdown(note))
if external := session_external_metrics():
    names = ", ".join(metric.name for metric in external.values())
    st.markdown(f"**Metrics from files:** {escape_markdown(names)}")
    if st.button("Remove the metrics from files"):
        st.session_state["external_metrics"] = {}
        st.rerun()
