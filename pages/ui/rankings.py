"""The Rankings page's logic: its own uploads (WMT25's automatic scores and systems metadata,
Appraise ESA waves and their .docs files), the rankings they give, cached by content (never by a
session), the session's own AutoRank when nothing is uploaded, and one pair's table, figure and
test.

Every user string (system, pair, domain, metric and file names) reaches the page as text: Markdown
through ``escape_markdown``, the table through ``st.dataframe`` (plain text), the figure through
``escape_plotly`` (in the builder).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from mteval_core.errors import InputError
from mteval_core.io.appraise_da_sqm import da_sqm_of_bytes
from mteval_core.io.human_layout import KIND_PROTOCOLS, human_upload_kind
from mteval_core.io.pearmut import pearmut_of_bytes
from mteval_core.io.ranking_uploads import (
    automatic_scores_of_uploads,
    check_human_uploads,
    esa_of_uploads,
    systems_metadata_of_upload,
)
from mteval_core.io.uploads import Upload
from mteval_core.io.wmt25_humeval import humeval_of_bytes
from mteval_core.model.metric_segments import MetricSegments
from mteval_core.rankings import human_custom
from mteval_core.rankings.autorank import wmt25_ranking
from mteval_core.rankings.human import rank_wmt24
from mteval_core.rankings.human_custom import CustomProtocol
from mteval_core.rankings.human_wmt23 import rank_wmt23
from mteval_core.rankings.human_wmt25 import rank_wmt25
from mteval_core.rankings.scored_autorank import rankable_metrics, scored_autorank
from mteval_core.rankings.table import LanguagePairRanking
from mteval_core.report.figures import rank_ranges_figure
from mteval_core.report.ranking_rows import (
    PairTest,
    RankingRow,
    breakdown_kind,
    pair_test,
    ranking_rows,
)
from mteval_core.settings.limits import MAX_RANKED_SYSTEMS
from mteval_core.stats.bootstrap import DEFAULT_SEED
from pages.ui.caching import cache_key, cached
from pages.ui.markdown_escape import escape_markdown
from pages.ui.resamples import RESAMPLES_HELP
from pages.ui.session import session_options, session_test_set
from pages.ui.session_scores import scores_of

COMPARE_PAGE = "pages/5_Compare.py"
# The table shows every system without scrolling up to this many (WMT25's largest pair: 43)
TABLE_ROWS = 45
ROW_PIXELS = 35  # Streamlit's own row height, set so that the height below fits it
TABLE_PIXELS = (TABLE_ROWS + 1) * ROW_PIXELS + 3  # the header, the rows, the border
RESAMPLE_CHOICES = (0, 200, 1000)
DISAGREES = "background-color: #fbe3e3"  # a row whose two rank ranges do not overlap
SECOND_CLUSTER = "background-color: #f0f2f6"  # every other cluster, so that clusters read apart
HUMAN_CAPTION = (
    "WMT24's human ranking from the ESA waves: each system's score is the mean over domains of "
    "its mean ESA score in each domain; rank range [losses + 1, N - wins] from Wilcoxon "
    "signed-rank tests per domain combined by Stouffer's method (p < 0.05); systems that no "
    "test separates share a cluster (shaded in turn; dashed lines in the figure)."
)
HUMAN_CAPTIONS = {
    "wmt24": HUMAN_CAPTION,
    "wmt23": "WMT23's human ranking from the DA+SQM export (Appraise's ComputeWMT23Results): "
    "each system's score is the mean over its items of their mean raw score; each pair of "
    "systems is tested by a one-sided Mann-Whitney U test of the higher-scored one's item means "
    "(p < 0.05); rank range [losses + 1, N - wins]; clusters shaded in turn.",
    "wmt25": "WMT25's human ranking (the organisers' 08-compute_clusters.py): each system's score "
    "is the mean of its annotations, both waves pooled; one-sided Wilcoxon signed-rank tests "
    "with the waves swapped (p < 0.025); rank ranges walked down the table; clusters shaded in "
    "turn.",
    "custom": "A human ranking by the parts chosen above ({name}): rank range [1 + significantly "
    "better, N - significantly worse]; systems that no test separates share a cluster.",
}
PROCEDURES = {"wmt23": "WMT23", "wmt24": "WMT24", "wmt25": "WMT25", "custom": "custom"}
FAMILIES = {"esa": "esa", "da-sqm": "da-sqm", "wmt25-humeval": "wmt25", "pearmut": "wmt25"}
FAMILY_NAMES = {
    "esa": "Appraise ESA waves",
    "da-sqm": "a DA+SQM export",
    "wmt25": "WMT25 humeval or Pearmut logs",
}
WMT25_CAPTION = (
    "WMT25's AutoRank from the organisers' automatic scores, by their protocol (its metrics "
    "for the pair, the systems the metadata lists for it): 1 is the best, N the worst. The "
    "columns are each metric's mean over the pair's segments."
)


@dataclass(frozen=True)
class RankingUploads:
    """What the page's own uploaders hold: (file name, bytes) each."""

    scores: tuple[Upload, ...] = ()
    metadata: Upload | None = None
    waves: tuple[Upload, ...] = ()
    documents: tuple[Upload, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.scores or self.waves or self.documents)

    def digest(self, *parts: Sequence[Upload]) -> str:
        """The content hash of some of the uploads: names and bytes, in order."""
        digest = hashlib.sha256()
        for uploads in parts:
            for name, data in uploads:
                digest.update(hashlib.sha256(name.encode()).digest())
                digest.update(hashlib.sha256(data).digest())
            digest.update(b"|")
        return digest.hexdigest()


def ranking_uploads() -> RankingUploads:
    """The page's uploaders, in an expander (open until something is uploaded)."""

    def files(widget: Sequence | None) -> tuple[Upload, ...]:
        return tuple((f.name, f.getvalue()) for f in widget or ())

    with st.expander("Upload WMT's files", expanded=True):
        automatic, human = st.columns(2)
        automatic.markdown("**AutoRank from WMT25's automatic scores**")
        scores = automatic.file_uploader(
            "Score files (one SYSTEM.jsonl per system), or one archive of them (.tar.xz, "
            ".tar.gz, .zip), as WMT25 ships data/automatic_scores/",
            accept_multiple_files=True,
            key="rankings_scores",
        )
        metadata = automatic.file_uploader(
            "Systems metadata (JSON: which systems count for each pair)",
            type=["json"],
            key="rankings_metadata",
        )
        human.markdown("**Human ranking (WMT23, WMT24, WMT25 or your own procedure)**")
        waves = human.file_uploader(
            "Human annotations: Appraise ESA waves or a DA+SQM export (CSV), WMT25's humeval "
            "JSON Lines or Pearmut logs",
            accept_multiple_files=True,
            key="rankings_waves",
        )
        documents = human.file_uploader(
            "Documents files (LP.docs: each segment's domain, for ESA waves)",
            accept_multiple_files=True,
            key="rankings_documents",
        )
    chosen = files([metadata] if metadata is not None else [])
    return RankingUploads(
        files(scores), chosen[0] if chosen else None, files(waves), files(documents)
    )


# ------------------------------------------------------------------------------ uploaded rankings
@dataclass(frozen=True)
class UploadedRankings:
    """What the uploads give: the automatic scores by pair (ranked one pair at a time, when
    shown), the metadata, the human rankings, and the readers' notes."""

    scores: dict[str, MetricSegments]
    metadata: dict[str, frozenset[str]] | None
    human: dict[str, LanguagePairRanking]
    notes: tuple[str, ...]
    scores_digest: str

    @property
    def pairs(self) -> list[str]:
        return sorted({*self.scores, *self.human})


def uploaded_rankings(
    uploads: RankingUploads, procedure: tuple[HumanFiles, str, CustomProtocol | None] | None
) -> UploadedRankings:
    """Read every upload once per content (whoever asks); each part raises its own message. The
    human files are ranked by ``procedure`` (the files, the protocol, a custom one's parts)."""
    scores: dict[str, MetricSegments] = {}
    notes: tuple[str, ...] = ()
    score_digest = uploads.digest(uploads.scores, [uploads.metadata] if uploads.metadata else [])
    if uploads.scores:
        scores, notes = cached(
            cache_key("rankings scores", content=uploads.digest(uploads.scores)),
            lambda _: automatic_scores_of_uploads(uploads.scores),
            "Reading the automatic scores",
        )
    metadata = None
    if uploads.metadata is not None:
        metadata = cached(
            cache_key("rankings metadata", content=uploads.digest([uploads.metadata])),
            lambda _: systems_metadata_of_upload(uploads.metadata),
        )
    human: dict[str, LanguagePairRanking] = {}
    if procedure is not None:
        files, protocol, custom = procedure
        parts = tuple(vars(custom).items()) if custom is not None else ()
        ranked = cached(
            cache_key("rankings human", protocol, parts, content=files.digest),
            lambda _: human_rankings(files, protocol, custom),
            "Testing every pair of systems",
        )
        human = {r.language_pair: r for r in ranked}
    return UploadedRankings(scores, metadata, human, notes, score_digest)


@dataclass(frozen=True)
class HumanFiles:
    """The human upload sorted by kind: the annotation files (each with its kind), the .docs
    files, the one family of procedures they fit, and their content hash."""

    annotations: tuple[tuple[Upload, str], ...]
    documents: tuple[Upload, ...]
    family: str  # "esa", "da-sqm" or "wmt25"
    digest: str

    @property
    def protocols(self) -> tuple[str, ...]:
        kind = next(kind for kind, family in FAMILIES.items() if family == self.family)
        return KIND_PROTOCOLS[kind]


def human_files(uploads: RankingUploads) -> HumanFiles | None:
    """The human upload's files by kind (bounded before they are read, told apart once per
    content); files of two families, or a family without what it needs, are refused."""
    if not uploads.waves and not uploads.documents:
        return None
    check_human_uploads([*uploads.waves, *uploads.documents], "the human ranking's upload")
    digest = uploads.digest(uploads.waves, uploads.documents)
    kinds = cached(
        cache_key("rankings human kinds", content=digest),
        lambda _: tuple(human_upload_kind(data, name) for name, data in uploads.waves),
    )
    annotations = tuple((u, k) for u, k in zip(uploads.waves, kinds) if k != "docs")
    documents = (*(u for u, k in zip(uploads.waves, kinds) if k == "docs"), *uploads.documents)
    families = {FAMILIES[kind]: upload[0] for upload, kind in annotations}
    if len(families) > 1:
        said = "; ".join(f"{name} is {FAMILY_NAMES[f]}" for f, name in families.items())
        raise InputError(
            f"the human annotations mix kinds of files: {said}",
            origin="the human ranking's upload",
            hint="Rank one kind of annotations at a time.",
        )
    family = next(iter(families), "esa")
    if family == "esa" and (not annotations or not documents):
        raise InputError(
            "a human ranking needs both the ESA waves and the documents files",
            origin="the human ranking's upload",
            hint="Upload the waves (CSV) and each pair's LP.docs file together.",
        )
    if family != "esa" and documents:
        raise InputError(
            f"{FAMILY_NAMES[family]} takes no documents files: its procedure needs no .docs",
            origin=documents[0][0],
            hint="Remove the LP.docs files, or upload ESA waves with them.",
        )
    return HumanFiles(annotations, tuple(documents), family, digest)


def human_rankings(
    files: HumanFiles, protocol: str, custom: CustomProtocol | None
) -> list[LanguagePairRanking]:
    """Every pair of the human files ranked by ``protocol``, the readers' notes first on each; a
    pair of more than :data:`MAX_RANKED_SYSTEMS` systems is refused before its tests run (WMT25's
    ranking refuses its own beyond MAX_HUMAN_RANKED_SYSTEMS)."""
    given = [(data, name) for (name, data), _ in files.annotations]
    if files.family == "wmt25":
        logs = [(d, n) for (n, d), kind in files.annotations if kind == "pearmut"]
        humeval = [(d, n) for (n, d), kind in files.annotations if kind != "pearmut"]
        read = [pearmut_of_bytes(logs)] if logs else []
        read += [humeval_of_bytes(humeval)] if humeval else []
        notes = tuple(note for part in read for note in part.notes)
        rankings = rank_wmt25(tuple(a for part in read for a in part.annotations))
    elif files.family == "da-sqm":
        export = da_sqm_of_bytes(given)
        notes, by_pair = export.notes, human_custom.from_da_sqm(export.ratings)
        _check_systems(by_pair, "the DA+SQM export")
        rankings = (
            rank_wmt23(export.ratings)
            if protocol == "wmt23"
            else human_custom.rank_custom(by_pair, custom or CustomProtocol())
        )
    else:
        esa, documents = esa_of_uploads([u for u, _ in files.annotations], files.documents)
        notes, by_pair = esa.notes, human_custom.from_esa(esa.ratings, documents)
        _check_systems(by_pair, "the ESA waves")
        rankings = (
            rank_wmt24(esa.ratings, documents)
            if protocol == "wmt24"
            else human_custom.rank_custom(by_pair, custom or CustomProtocol())
        )
    return [
        LanguagePairRanking(r.language_pair, r.protocol, r.systems, (*notes, *r.notes))
        for r in rankings
    ]


def _check_systems(by_pair: dict[str, list[human_custom.HumanRating]], origin: str) -> None:
    for pair, ratings in by_pair.items():
        count = len({rating.system for rating in ratings})
        if count > MAX_RANKED_SYSTEMS:
            raise InputError(
                f"{pair} has {count:,} systems; a ranking here takes up to "
                f"MAX_RANKED_SYSTEMS ({MAX_RANKED_SYSTEMS}) (it tests every pair of them)",
                origin=origin,
                hint="Rank the pair with the command line, which has no such limit.",
            )


def procedure_choice(files: HumanFiles) -> tuple[str, CustomProtocol | None]:
    """The procedure the human files fit (the select offers only those), and with custom its
    parts, chosen in an expander."""
    protocol = st.selectbox(
        "Procedure",
        files.protocols,
        format_func=PROCEDURES.get,
        help="The year's procedure as its organisers ran it, or custom: each part chosen.",
        key="rankings_procedure",
    )
    if protocol != "custom":
        return protocol, None
    defaults = CustomProtocol()
    with st.expander("The custom procedure's parts", expanded=True):
        columns = st.columns(5)
        chosen = {
            part: column.selectbox(
                part, options, index=options.index(getattr(defaults, part)), key=f"rankings_{part}"
            )
            for column, (part, options) in zip(
                columns,
                (
                    ("normalise", human_custom.NORMALISATIONS),
                    ("average", human_custom.AVERAGES),
                    ("test", human_custom.TESTS),
                    ("correction", human_custom.CORRECTIONS),
                ),
            )
        }
        alpha = columns[4].number_input(
            "alpha", 0.001, 0.5, defaults.alpha, 0.01, format="%.3f", key="rankings_alpha"
        )
    return protocol, CustomProtocol(**chosen, alpha=float(alpha))


def pair_autorank(found: UploadedRankings, pair: str, resamples: int) -> LanguagePairRanking:
    """WMT25's AutoRank of one uploaded pair, computed when shown and cached by content."""
    return cached(
        cache_key("rankings autorank", pair, resamples, DEFAULT_SEED, content=found.scores_digest),
        lambda _: wmt25_ranking(found.scores[pair], found.metadata, resamples, DEFAULT_SEED),
        f"AutoRank of {pair}" + (f" with {resamples:,} resamples" if resamples else ""),
    )


# ------------------------------------------------------------------------------ the session's
def session_autorank(metrics: Sequence[str], resamples: int) -> LanguagePairRanking:
    """AutoRank of the session's test set over ``metrics``, cached with the session's key."""
    test_set = session_test_set()
    scores = scores_of(test_set, session_options())
    return cached(
        cache_key("rankings session autorank", tuple(metrics), resamples, DEFAULT_SEED),
        lambda _: scored_autorank(scores, metrics, resamples, DEFAULT_SEED, test_set.name),
        "AutoRank of the test set",
    )


def session_metric_choice() -> list[str]:
    """The session's metrics AutoRank can combine, all chosen at first."""
    scores = scores_of(session_test_set(), session_options())
    offered = rankable_metrics(scores)
    labels = {m.name: m.label for m in scores.metrics}
    return st.multiselect(
        "Metrics",
        offered,
        default=offered,
        format_func=labels.get,
        help="The Data page's metrics that have segment scores; lower-is-better ones (TER) "
        "enter with their sign flipped.",
        key="rankings_metrics",
    )


def resamples_choice() -> int:
    return st.select_slider(
        "Bootstrap resamples",
        RESAMPLE_CHOICES,
        value=1000,
        help="Intervals and 95% rank ranges of the AutoRank; 0 for none. " + RESAMPLES_HELP,
        key="rankings_resamples",
    )


def session_caption(name: str, resamples: int) -> str:
    ranges = (
        f"rank ranges hold 95% of a system's ranks over {resamples:,} bootstrap resamples of "
        "the segments"
        if resamples
        else "without resamples each rank range is the system's place"
    )
    return (
        f"AutoRank of this session's test set, {escape_markdown(name)}: WMT25's recipe (each "
        "metric's corpus score made a robust z-score over the systems, their mean mapped to "
        f"[1, N]; 1 is the best) over the metrics chosen here; {ranges}. Upload WMT's files "
        "above for its official rankings."
    )


# ------------------------------------------------------------------------------ one pair shown
def rows_frame(rows: Sequence[RankingRow], ranking: LanguagePairRanking) -> pd.DataFrame:
    """The table: rank range, cluster, system, score, AutoRank beside a human score, and the
    per-domain (or per-metric) columns."""
    kind = breakdown_kind(ranking)
    own_autorank = ranking.protocol.startswith("autorank")
    records = []
    for row in rows:
        record: dict[str, object] = {
            "rank": _range(row.rank),
            "cluster": row.cluster,
            "system": row.system,
            "AutoRank" if own_autorank else "score": row.score,
        }
        if not own_autorank and any(r.autorank is not None for r in rows):
            record["AutoRank"] = row.autorank
            other = row.autorank_rank
            record["AutoRank rank"] = None if other is None else _range(other)
        for column, value in row.columns.items():
            record[f"{kind} {column}"] = value
        records.append(record)
    frame = pd.DataFrame.from_records(records)
    if frame["cluster"].isna().all():
        frame = frame.drop(columns="cluster")
    return frame


def styled(frame: pd.DataFrame, rows: Sequence[RankingRow]):
    """Disagreeing rows in red, every other cluster shaded."""
    shades = []
    band = 0
    for i, row in enumerate(rows):
        if i and row.cluster != rows[i - 1].cluster:
            band += 1
        shades.append(DISAGREES if row.disagrees else SECOND_CLUSTER if band % 2 else "")
    return frame.style.apply(lambda line: [shades[line.name]] * len(line), axis=1).format(
        precision=4, na_rep=""
    )


def show_pair(ranking: LanguagePairRanking, autorank: LanguagePairRanking | None) -> None:
    """One pair's table, notes and figure of rank ranges."""
    rows = ranking_rows(ranking, autorank)
    disagreeing = [row.system for row in rows if row.disagrees]
    st.dataframe(
        styled(rows_frame(rows, ranking), rows),
        hide_index=True,
        width="stretch",
        height="content" if len(rows) <= TABLE_ROWS else TABLE_PIXELS,
        row_height=ROW_PIXELS,
    )
    if autorank is not None:
        st.caption(
            f"{len(disagreeing)} system(s) in red: their human and AutoRank rank ranges do not "
            "overlap."
            if disagreeing
            else "Every system's human and AutoRank rank ranges overlap."
        )
    for note in ranking.notes:
        st.caption(escape_markdown(note))
    own = "AutoRank" if ranking.protocol.startswith("autorank") else "human"
    title = f"{ranking.language_pair}: rank ranges"
    st.plotly_chart(rank_ranges_figure(rows, title, own), width="stretch")


def show_pair_test(ranking: LanguagePairRanking, compare_systems: Collection[str]) -> None:
    """Two systems of the pair chosen: their test (or intervals), and the Compare page on them
    where the session's test set holds both."""
    names = [entry.system for entry in ranking.systems]
    st.subheader("Two systems")
    left, right = st.columns(2)
    a = left.selectbox("System", names, key="rankings_a")
    others = [name for name in names if name != a]
    b = right.selectbox("against", others, key="rankings_b")
    if b is None:
        return
    st.markdown(pair_test_text(pair_test(ranking, a, b), ranking))
    if a in compare_systems and b in compare_systems:
        st.page_link(
            COMPARE_PAGE,
            label="Open both on the Compare page (their segments, side by side)",
            query_params={"a": a, "b": b},
        )
    else:
        st.caption(
            "The session's test set does not hold both systems' outputs: upload them on the "
            "Data page to compare their segments."
        )


def pair_test_text(test: PairTest, ranking: LanguagePairRanking) -> str:
    """What the ranking says of the two systems, in Markdown with their names escaped; each
    procedure's own test, and only what its ``extra`` holds."""
    if ranking.protocol == "wmt25":
        return _one_sided_text(ranking, test.a, test.b)
    if not test.tested:
        return _autorank_text(ranking, test.a, test.b)
    a, b = escape_markdown(test.a), escape_markdown(test.b)
    method, alpha = _test_method(ranking.protocol)
    p_value = "not defined (no paired segment)" if test.p_value is None else f"{test.p_value:.4g}"
    verdict = (
        "significantly different"
        if test.p_value is not None and test.p_value < alpha
        else "not significantly different"
    )
    domains = "; ".join(
        f"{escape_markdown(domain)} {'undefined' if p is None else f'{p:.4g}'}"
        for domain, p in test.domains.items()
    )
    text = (
        f"{a} against {b}: p = {p_value} ({method}), {verdict} at {alpha:g}"
        + (f"; the domains' p-values: {domains}" if domains else "")
        + "."
    )
    if None not in (*test.wins, *test.losses):
        text += (
            f" {a} wins {test.wins[0]} and loses {test.losses[0]} of its tests; {b} wins "
            f"{test.wins[1]} and loses {test.losses[1]}."
        )
    return text


def _test_method(protocol: str) -> tuple[str, float]:
    """The test behind a protocol's p-values, and its significance level."""
    if protocol == "wmt23":
        return "one-sided Mann-Whitney U test of the higher-scored system's item means", 0.05
    if protocol.startswith("custom"):
        found = re.search(r"alpha=([0-9.eE+-]+)", protocol)
        return escape_markdown(protocol), float(found.group(1)) if found else 0.05
    return "Wilcoxon signed-rank per domain, combined by Stouffer's method", 0.05


def _one_sided_text(ranking: LanguagePairRanking, a: str, b: str) -> str:
    """WMT25's two one-sided tests of the pair: each system better than the other."""
    by_name = {entry.system: entry.extra for entry in ranking.systems}

    def p_of(first: str, second: str) -> str:
        value = by_name[first].get("p_better_than", {}).get(second)
        return "not defined (no common segment)" if value is None else f"{value:.4g}"

    shown_a, shown_b = escape_markdown(a), escape_markdown(b)
    return (
        f"{shown_a} better than {shown_b}: p = {p_of(a, b)}; {shown_b} better than {shown_a}: "
        f"p = {p_of(b, a)} (one-sided Wilcoxon signed-rank tests, the waves paired and swapped; "
        "significant below 0.025)."
    )


def _autorank_text(ranking: LanguagePairRanking, a: str, b: str) -> str:
    by_name = {entry.system: entry for entry in ranking.systems}
    first, second = by_name[a], by_name[b]
    return (
        f"{escape_markdown(a)}: rank range {_range(first.rank)}, AutoRank {first.score:.4f}"
        + _interval(first.extra.get("autorank_interval"))
        + f"; {escape_markdown(b)}: rank range {_range(second.rank)}, AutoRank "
        f"{second.score:.4f}"
        + _interval(second.extra.get("autorank_interval"))
        + ". AutoRank has no test of two systems; its rank ranges come from the bootstrap."
    )


def human_caption(ranking: LanguagePairRanking) -> str:
    """The caption of a human ranking by its protocol."""
    if ranking.protocol.startswith("custom"):
        return HUMAN_CAPTIONS["custom"].format(name=escape_markdown(ranking.protocol))
    return HUMAN_CAPTIONS.get(ranking.protocol, HUMAN_CAPTION)


def _interval(value: object) -> str:
    if not isinstance(value, list | tuple) or len(value) != 2:
        return ""
    return f" [{value[0]:.3f}, {value[1]:.3f}]"


def _range(rank: tuple[int, int]) -> str:
    first, last = rank
    return str(first) if first == last else f"{first}-{last}"
