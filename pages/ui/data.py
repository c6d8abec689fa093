"""The Data page's logic (pages/0_Data.py is its layout): the upload form and what loading it
does, the options every page uses (the tokenizer offered for the test set's language, its
SentencePiece model, each metric's parameters, the metrics), and the metric scores computed
elsewhere; each problem shown by ``friendly_errors`` with the previous test set kept."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import streamlit as st

from mteval_core.errors import InputError
from mteval_core.io.decoding import CARRIAGE_RETURNS, LoneCarriageReturn
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.io.plain import BYTE_ORDER_MARKS, DROP_BYTE_ORDER_MARK
from mteval_core.io.uploads import (
    ArchivePair,
    TextChoices,
    archive_pairs,
    check_upload_sizes,
    read_uploaded_metric,
    single_file,
    test_set_from_archive,
    test_set_from_uploads,
)
from mteval_core.metrics.ter import UNSPACED_LANGUAGES, unspaced_note
from mteval_core.model.testset import TestSet
from mteval_core.report.frames import files_summary
from mteval_core.settings.languages import (
    NAMES,
    Languages,
    default_tokenizer,
    languages_of,
    missing_default,
    stemming_advice,
)
from mteval_core.settings.limits import MAX_LOADED_SENTENCEPIECE_MODELS
from mteval_core.settings.options import (
    SNOWBALL_LANGUAGES,
    SPM_TOKENIZERS,
    STEMMERS,
    TOKENIZERS,
    Options,
    SentencePieceModel,
)
from mteval_core.text.outside_tokenizers import require_tokenizer
from mteval_core.text.sentencepiece_models import uploaded_model
from pages.ui.caching import cache_key, cached
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.metric_choice import choose_metrics, keep_metric_choice
from pages.ui.parameter_widgets import parameter_widgets
from pages.ui.session import (
    TOKENIZER_CHOSEN,
    TokenizerOffer,
    session_external_metrics,
    session_options,
    session_stem_language,
    session_tokenizer,
)
from pages.ui.spans import MQM_UPLOAD
from pages.ui.upload_state import (
    ARCHIVE_CRITERION,
    forget_upload,
    upload_outcome,
    upload_was_refused,
)

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
BYTE_ORDER_MARK_OFFER = (  # the Data page's words for what the core's note says neutrally
    f"choose '{BYTE_ORDER_MARK_CHOICES['drop']}' under 'Byte order mark' above, then press "
    "'Use this test set' again"
)
SPM_UPLOAD = "spm_upload"  # session state: (upload's file id, UploadedModel) of the model in use
TOKENIZER_HINT = (  # the Data page's "what to do" when the tokenizer cannot run here
    "Choose another tokenizer above (for Japanese, char is what WMT's official BLEU uses), or "
    "have the package installed on the server. Until then every page that tokenizes (BLEU, "
    "NIST, the unigram metrics, GTM, the Bitext grid) says so instead of scoring."
)


def upload(file: Any) -> tuple[str, bytes] | None:
    return (file.name, file.getvalue()) if file else None


@dataclass(frozen=True)
class UploadForm:
    """The upload form's files (Streamlit's UploadedFile, or None) and choices, as sent."""

    references: list
    systems: list
    source: Any
    human: Any
    lower_is_better: bool
    segment_ids: Any
    mqm: Any
    archive: Any
    pair: ArchivePair | None
    reference: str | None
    carriage_returns: str
    byte_order_mark: str
    submitted: bool

    def sent(self) -> list:
        """Every file sent, in the form's order."""
        files = [*self.references, *self.systems, self.source, self.human, self.segment_ids]
        return [file for file in [*files, self.mqm, self.archive] if file]


def upload_form() -> UploadForm:  # long: one widget after the other, in the form's order
    with st.form("upload"):
        references = st.file_uploader(
            "References (one file per reference)", accept_multiple_files=True
        )
        systems = st.file_uploader(
            "System outputs (one file per system)", accept_multiple_files=True
        )
        source = st.file_uploader("Source (optional)")
        human = st.file_uploader(
            "Human judgments (optional): system, segment_id, score[, rater, criterion], or "
            "Google's MQM error TSV (also as the .tar.gz of one TSV that Google ships)"
        )
        lower_is_better = st.checkbox(
            "These human scores count errors (lower is better): negate them"
        )
        segment_ids = st.file_uploader(
            "Segment-id map (optional): line, segment_id[, doc], when the human scores use the "
            "data set's own segment ids instead of line numbers"
        )
        mqm = st.file_uploader(
            "MQM error annotations (optional): Google's TSV, 2020-2024 layouts (system, doc, "
            "seg_id or docSegId, rater, category, severity), or the .tar.gz of one TSV that "
            "Google ships; the Loss page then ranks systems under your own error weights, and "
            "without other human judgments its MQM scores are the Correlation page's"
        )
        archive = st.file_uploader(
            "mt-metrics-eval archive (optional, in place of references, systems and source): a "
            ".zip or .tar.gz of a test set's folders (sources/, references/, system-outputs/, "
            "documents/, human-scores/, metric-scores/), of the data root that holds test sets, "
            "or of one language pair's files in those folders; its human and metric scores come "
            "along"
        )
        pair, reference = archive_choice(archive)
        carriage_returns = st.radio(
            CARRIAGE_RETURN_LABEL,
            CARRIAGE_RETURNS,
            format_func=CARRIAGE_RETURN_CHOICES.__getitem__,
            horizontal=True,
            help="In references, system outputs and the source. sacreBLEU and most tools end a "
            "line at a lone CR; mteval refuses it unless you choose: ending the segment there "
            "reads the file as they do, a space keeps the segments as they are. CRLF line ends "
            "are always fine.",
        )
        byte_order_mark = st.radio(
            BYTE_ORDER_MARK_LABEL,
            BYTE_ORDER_MARKS,
            format_func=BYTE_ORDER_MARK_CHOICES.__getitem__,
            horizontal=True,
            help="sacreBLEU, mteval-v13a and GTM 1.4 read a byte order mark at the start of a "
            "plain-text file as the first character of its first segment, and so does mteval by "
            "default, so that the scores equal theirs; a note names every file that has one. "
            "XML, SGML, JSON Lines, CSV and TSV files always drop it.",
        )
        submitted = st.form_submit_button("Use this test set")
    return UploadForm(
        references or [],
        systems or [],
        source,
        human,
        lower_is_better,
        segment_ids,
        mqm,
        archive,
        pair,
        reference,
        carriage_returns,
        byte_order_mark,
        submitted,
    )


def archive_choice(file: Any) -> tuple[ArchivePair | None, str | None]:
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


def load_upload(form: UploadForm) -> None:
    """Read the form's files into this session's test set, with its MQM annotations and the
    archive's metric scores; on a problem the previous test set stays loaded, and every page
    says so (upload_outcome). Which reading a file got is shown also when the files do not fit.
    """
    notes: list[str] = []  # judgments set aside
    with friendly_errors(stop=False), upload_outcome([file.name for file in form.sent()]):
        external, criterion = {}, None
        judgments = single_file(upload(form.human)) or single_file(upload(form.mqm))
        if form.archive:  # the archive's texts, judgments and scores, with the files' judgments
            given = [*form.references, *form.systems, form.source, form.segment_ids]
            read = test_set_from_archive(
                upload(form.archive),
                form.pair,
                form.reference,
                judgments,
                form.lower_is_better,
                text_files=[file.name for file in given if file],
            )
            test_set, external, criterion = read.test_set, read.external, read.criterion
            notes.extend(read.notes)
        else:
            test_set = uploaded_test_set(form, notes, judgments)
        annotations, mqm_file = None, None
        if form.mqm:
            mqm_file = single_file(upload(form.mqm))
            annotations = read_mqm(mqm_file[1], mqm_file[0])
        st.session_state["test_set"] = test_set
        st.session_state["mqm"] = annotations
        st.session_state[MQM_UPLOAD] = mqm_file  # the Spans page reads its marks from the bytes
        st.session_state["external_metrics"] = external  # those read for the previous set go
        st.session_state[ARCHIVE_CRITERION] = criterion
        st.success(
            "Loaded. Every page now shows this test set, read from "
            f"{escape_markdown(files_summary(test_set))}."
        )
    for note in notes:
        st.info(escape_markdown(note.replace(DROP_BYTE_ORDER_MARK, BYTE_ORDER_MARK_OFFER)))


def uploaded_test_set(
    form: UploadForm, notes: list[str], judgments: tuple[str, bytes] | None
) -> TestSet:
    """The test set of the form's files, with ``judgments`` (the human judgments, else the MQM
    annotations, whose scores are judgments when there are no others); a refused lone CR names
    the form's choice."""
    try:
        return test_set_from_uploads(
            [upload(f) for f in form.references],
            [upload(f) for f in form.systems],
            upload(form.source),
            judgments,
            form.lower_is_better,
            upload(form.segment_ids),
            notes=notes,
            reading=TextChoices(form.carriage_returns, form.byte_order_mark),
        )
    except LoneCarriageReturn as error:
        raise error.offering(CARRIAGE_RETURN_OFFER) from None


def offer_the_sample() -> None:
    """The button back to the sample, once an upload is loaded or was refused."""
    if ("test_set" in st.session_state or upload_was_refused()) and st.button(
        "Go back to the sample test set"
    ):
        st.session_state.pop("test_set", None)
        st.session_state.pop("mqm", None)
        st.session_state.pop("external_metrics", None)
        forget_upload()


@dataclass(frozen=True)
class Preprocessing:
    """What the preprocessing widgets chose."""

    tokenize: str
    stem: str
    stem_language: str
    spm_model: SentencePieceModel | None
    lowercase: bool


def preprocessing_widgets(
    test_set: TestSet, current: Options, languages: Languages, offer: TokenizerOffer
) -> Preprocessing:
    """The tokenizer, stemming and Snowball language side by side, the SentencePiece model for
    the tokenizers that take one, and lowercasing."""
    left, middle, right = st.columns(3)
    # Keyed, and its value set here rather than by an index: a widget whose index changes is a
    # new widget, which would drop the user's choice on the run after it (the stored options
    # lag one run). The key goes when another page runs, so it is set again from the options.
    if not offer.chosen or "tokenizer" not in st.session_state:
        st.session_state["tokenizer"] = offer.name
    tokenize = left.selectbox(
        "Tokenizer",
        TOKENIZERS,
        key="tokenizer",
        on_change=lambda: st.session_state.update({TOKENIZER_CHOSEN: test_set.content_hash}),
        help="BLEU, NIST, the unigram metrics and GTM read these tokens. A new test set starts "
        "on its target language's default, as sacreBLEU's BLEU chooses it. none splits on "
        "whitespace as sacreBLEU's none; gtm14 splits as GTM 1.4 and METEOR 1.5 (space, tab, "
        "line ends and form feed only).",
    )
    stem = middle.selectbox("Stemming", STEMMERS, STEMMERS.index(current.stem))
    language = right.selectbox(
        "Snowball language",
        SNOWBALL_LANGUAGES,
        SNOWBALL_LANGUAGES.index(session_stem_language(languages.target)),
        on_change=lambda: st.session_state.update(stem_language_chosen=True),
    )
    st.caption(stemming_advice(languages))
    if offer.note is not None:
        st.caption(escape_markdown(f"{offer.note[0].upper()}{offer.note[1:]}."))
    spm_model = sentencepiece_upload(current) if tokenize in SPM_TOKENIZERS else None
    if tokenize not in SPM_TOKENIZERS:
        st.session_state.pop(SPM_UPLOAD, None)  # its bytes are this session's memory
    lowercase = st.checkbox(
        "Lowercase",
        current.lowercase,
        help="Unicode lowercasing, for every metric (TER is case-insensitive anyway unless "
        "asked otherwise; it is METEOR's -lower).",
    )
    return Preprocessing(tokenize, stem, language, spm_model, lowercase)


def sentencepiece_upload(current: Options) -> SentencePieceModel | None:
    """The SentencePiece model: one uploaded now, checked (it loads) before anything keeps it
    and then held in this session's memory, never on the server's disk; else the options'."""
    model = st.file_uploader(
        "SentencePiece model (.model; sacreBLEU downloads flores101's and flores200's, mteval "
        "takes the file you have; the signature names it by its SHA-256)",
        help="Read in memory and checked before it is kept; it stays in your session, never on "
        f"the server's disk. The server keeps at most {MAX_LOADED_SENTENCEPIECE_MODELS} models "
        "loaded for all its users at once and loads yours again from your upload when needed.",
    )
    if model is None:
        return current.spm_model
    kept = st.session_state.get(SPM_UPLOAD)
    if kept is not None and kept[0] == model.file_id:  # this upload, checked on an earlier run
        return kept[1].model
    with friendly_errors(stop=False):  # a refused file: the options keep their model
        check_upload_sizes([upload(model)])
        uploaded = uploaded_model(model.name, model.getvalue())
        st.session_state[SPM_UPLOAD] = (model.file_id, uploaded)
        return uploaded.model
    return current.spm_model


def choose_options(test_set: TestSet) -> None:
    """Every option widget, then the options they make stored for every page (also when their
    tokenizer cannot run here: then every page refuses, none uses another tokenizer in its
    place), or why they cannot be made; the preprocessing signature."""
    current = session_options()
    languages = languages_of(test_set)
    offer = session_tokenizer(languages)
    chosen = preprocessing_widgets(test_set, current, languages, offer)
    st.markdown("**Each metric's own parameters** (changing one re-scores that metric alone)")
    parameters = parameter_widgets(current)
    if languages.target in UNSPACED_LANGUAGES and not (
        parameters["ter_normalized"] and parameters["ter_asian_support"]
    ):
        st.caption(escape_markdown(unspaced_note(NAMES[languages.target])))
    metric_choice = choose_metrics(languages.target)
    keep_metric_choice(metric_choice)  # whatever the options below say
    try:
        if chosen.tokenize in SPM_TOKENIZERS and chosen.spm_model is None:
            raise InputError(
                f"the {chosen.tokenize} tokenizer needs its SentencePiece model",
                hint="Upload its .model file above. Until then every page keeps the options of "
                "the signature below.",
            )
        options = Options.from_flags(
            tokenize=chosen.tokenize,
            lowercase=chosen.lowercase,
            stem=chosen.stem,
            stem_language=chosen.stem_language,
            spm_model=chosen.spm_model,
            **parameters,
            meteor_language=metric_choice.meteor_language,
            meteor_modules=metric_choice.meteor_modules,
        )
        st.session_state["options"] = options
    except InputError as error:
        st.error(escape_markdown(error))
        options = current
    else:
        if (refusal := tokenizer_refusal(options, languages, offer)) is not None:
            st.error(escape_markdown(refusal))
    st.caption(f"Preprocessing signature: `{options.preprocessing_signature()}`")


def tokenizer_refusal(options: Options, languages: Languages, offer: TokenizerOffer) -> str | None:
    """Why the options' tokenizer cannot run on this server (its package, or its SentencePiece
    model), in the words of ``mteval score`` (the language default named as such), with the
    Data page's hint; None when it can run."""
    try:
        require_tokenizer(options)
    except InputError as error:
        if error.origin is not None:  # the SentencePiece model: its own message
            return str(error)
        problem = error.problem
        if not offer.chosen and options.tokenize == default_tokenizer(languages):
            problem = missing_default(languages, problem)
        return str(InputError(problem[0].upper() + problem[1:], hint=TOKENIZER_HINT))
    return None


def add_external_metric(test_set: TestSet) -> None:
    """The form for metric scores computed elsewhere; what was added, and how to remove it."""
    with st.form("external metric"):
        scores_files = st.file_uploader(
            "Scores (COMET, MetricX, ...): system, segment_id, score rows; system, score rows; "
            "mt-metrics-eval's NAME-REF.seg.score / .sys.score; comet-score's JSON; MetricX's "
            "predictions; pymarian-eval's or gemba's scores, GEMBA-MQM's error lists, WMT25's "
            "automatic scores (one file per system, named after it; for WMT25's, the name "
            "given below picks one of its metrics and the test set needs WMT25's document ids)",
            accept_multiple_files=True,
        )
        left, right = st.columns(2)
        metric_name = left.text_input("Metric name", max_chars=60)
        direction = right.radio(
            "Better scores are", ("higher", "lower"), index=None, horizontal=True
        )
        signature = st.text_input(
            "Signature: what produced the scores, where the files do not say (optional)",
            placeholder="model=Unbabel/wmt22-comet-da,version=2.2.6,precision=fp16",
            help="Fields: model, checkpoint, package, version, precision, reference_based (yes "
            "or no), scale. comet-score's, MetricX's, GEMBA-MQM's and WMT25's files say their "
            "direction; other files need it.",
            max_chars=600,
        )
        added = st.form_submit_button("Add this metric")
    if added:
        with friendly_errors(stop=False):  # the metrics already added stay
            metric = read_uploaded_metric(
                [upload(file) for file in scores_files or []],
                metric_name,
                direction,
                test_set,
                session_external_metrics(),
                signature,
            )
            st.session_state["external_metrics"] = {**session_external_metrics(), **metric}
            st.success(f"Added {escape_markdown(metric_name)}: every page now shows it.")
            for note in next(iter(metric.values())).notes:
                st.info(escape_markdown(note))
    if external := session_external_metrics():
        names = ", ".join(
            f"{metric.name} ({metric.signature.describe()})" for metric in external.values()
        )
        st.markdown(f"**Metrics from files:** {escape_markdown(names)}")
        if st.button("Remove the metrics from files"):
            st.session_state["external_metrics"] = {}
            st.rerun()
