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
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from mteval_core.errors import InputError
from mteval_core.io.ranking_uploads import (
    automatic_scores_of_uploads,
    esa_of_uploads,
    systems_metadata_of_upload,
)
from mteval_core.io.uploads import Upload
from mteval_core.model.metric_segments import MetricSegments
from mteval_core.rankings.autorank import wmt25_ranking
from mteval_core.rankings.human import rank_wmt24
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
        human.markdown("**Human ranking from Appraise ESA exports (WMT24)**")
        waves = human.file_uploader(
            "ESA waves (CSV, as Appraise exports them)",
            type=["csv"],
            accept_multiple_files=True,
            key="rankings_waves",
        )
        documents = human.file_uploader(
            "Documents files (LP.docs: each segment's domain)",
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


def uploaded_rankings(uploads: RankingUploads) -> UploadedRankings:
    """Read every upload once per content (whoever asks); each part raises its own message."""
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
    if uploads.waves or uploads.documents:
        if not uploads.waves or not uploads.documents:
            raise InputError(
                "a human ranking needs both the ESA waves and the documents files",
                origin="the human ranking's upload",
                hint="Upload the waves (CSV) and each pair's LP.docs file together.",
            )
        ranked = cached(
            cache_key("rankings human", content=uploads.digest(uploads.waves, uploads.documents)),
            lambda _: human_rankings(uploads.waves, uploads.documents),
            "Testing every pair of systems",
        )
        human = {r.language_pair: r for r in ranked}
    return UploadedRankings(scores, metadata, human, notes, score_digest)


def human_rankings(
    waves: Sequence[Upload], documents: Sequence[Upload]
) -> list[LanguagePairRanking]:
    """WMT24's human ranking of every pair of the waves, the readers' notes on each; a pair of
    more than :data:`MAX_RANKED_SYSTEMS` systems is refused before its tests run."""
    export, lines = esa_of_uploads(waves, documents)
    systems: dict[str, set[str]] = {}
    for rating in export.ratings:
        systems.setdefault(rating.language_pair, set()).add(rating.system)
    for pair, names in systems.items():
        if len(names) > MAX_RANKED_SYSTEMS:
            raise InputError(
                f"{pair} has {len(names):,} systems; a ranking here takes up to "
                f"{MAX_RANKED_SYSTEMS} (it tests every pair of them)",
                origin="the ESA waves",
                hint="Rank the pair with the command line, which has no such limit.",
            )
    return [
        LanguagePairRanking(r.language_pair, r.protocol, r.systems, (*export.notes, *r.notes))
        for r in rank_wmt24(export.ratings, lines)
    ]


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
    """What the ranking says of the two systems, in Markdown with their names escaped."""
    a, b = escape_markdown(test.a), escape_markdown(test.b)
    if not test.tested:
        by_name = {entry.system: entry for entry in ranking.systems}
        first, second = by_name[test.a], by_name[test.b]
        return (
            f"{a}: rank range {_range(first.rank)}, AutoRank {first.score:.4f}"
            + _interval(first.extra.get("autorank_interval"))
            + f"; {b}: rank range {_range(second.rank)}, AutoRank {second.score:.4f}"
            + _interval(second.extra.get("autorank_interval"))
            + ". AutoRank has no test of two systems; its rank ranges come from the bootstrap."
        )
    p_value = "not defined (no paired segment)" if test.p_value is None else f"{test.p_value:.4g}"
    verdict = (
        "significantly different"
        if test.p_value is not None and test.p_value < 0.05
        else "not significantly different"
    )
    domains = "; ".join(
        f"{escape_markdown(domain)} {'undefined' if p is None else f'{p:.4g}'}"
        for domain, p in test.domains.items()
    )
    return (
        f"{a} against {b}: p = {p_value} (Wilcoxon signed-rank per domain, combined by "
        f"Stouffer's method), {verdict} at 0.05"
        + (f"; the domains' p-values: {domains}" if domains else "")
        + f". {a} wins {test.wins[0]} and loses {test.losses[0]} of its tests; {b} wins "
        f"{test.wins[1]} and loses {test.losses[1]}."
    )


def _interval(value: object) -> str:
    if not isinstance(value, list | tuple) or len(value) != 2:
        return ""
    return f" [{value[0]:.3f}, {value[1]:.3f}]"


def _range(rank: tuple[int, int]) -> str:
    first, last = rank
    return str(first) if first == last else f"{first}-{last}"
