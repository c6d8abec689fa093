"""Human rankings from raw annotations, by WMT25's procedure.

The protocol ``wmt25`` is the organisers' ``humeval/08-compute_clusters.py``
(wmt-conference/wmt25-general-mt @ e0cb47f2b289b1615f2eec0d790befac681443e9; the version
stored at 1b42381 differs only by a ``CONSTRAINED_ONLY`` switch, off), step by step, per pair:

1. every system's scores are one vector per wave over the pair's segments, NaN where the
   system's segment was not annotated in that wave (the file has two waves: two annotations of
   the same segment); there is no minimum number of annotations and no averaging of annotators;
2. a system's score is the mean of all its annotated entries, both waves pooled (``np.mean``);
   the systems are ordered by it best first (sorted by ``statistics.mean`` as they are: equal
   means keep the input order, here the systems' names, where the organisers' set order is
   Python's string hashing);
3. "A is significantly better than B" is a one-sided Wilcoxon signed-rank test (scipy's
   defaults, ``alternative="greater"``) of the differences A - B paired on segment and wave and
   again with B's waves swapped (A's wave 1 against B's wave 2 and A's wave 2 against B's wave
   1), a difference with a NaN side dropped, with p < 0.05 / 2. With W waves the pairing is every
   cyclic shift of B's waves (W = 2: exactly the organisers' a + a against b + b[half:] +
   b[:half]); with one wave (Pearmut logs) it is the segments both have;
4. rank ranges walk the ordered table: a system's first rank is 1 + the position of the nearest
   system above it that is significantly better (1 if none), its last the position just before
   the nearest system below it that it is significantly better than (the table's end if none).
   Systems between are not tested for that bound: the walk stops at the first significant one;
5. a cluster ends after position i when every system at or above i has its last rank <= i and
   every system below it its first rank > i (``does_cluster_end_here``);
6. per-domain columns: the mean of a system's annotated entries in each domain (domains from the
   ``doc_id``), None where it has none.

Every ordered pair's p-value (A better than B) is reported in ``extra`` too, though the walk uses
only some of them. A test scipy cannot give (no segment both systems have) is NaN: not
significant, as ``nan < 0.025`` is false in the organisers' code.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.wmt25_humeval import HumanAnnotation
from mteval_core.rankings.signed_rank import wilcoxon_p
from mteval_core.rankings.table import LanguagePairRanking, RankedSystem
from mteval_core.settings.limits import MAX_HUMAN_RANKED_SYSTEMS

ALPHA = 0.05 / 2  # the organisers' threshold for one one-sided test


@dataclass(frozen=True)
class PairScores:
    """One language pair's annotations as arrays: ``scores[s, w, i]`` is system ``s``'s score of
    segment ``i`` in wave ``w`` (NaN: not annotated); ``domains[i]`` segment ``i``'s domain."""

    systems: tuple[str, ...]
    scores: np.ndarray  # (systems, waves, segments)
    domains: tuple[str, ...]


def rank_wmt25(annotations: Sequence[HumanAnnotation]) -> list[LanguagePairRanking]:
    """Every language pair of ``annotations``, ranked by WMT25's procedure, pairs by name; a
    pair with more than MAX_HUMAN_RANKED_SYSTEMS systems is refused before any test."""
    by_pair: dict[str, list[HumanAnnotation]] = defaultdict(list)
    for annotation in annotations:
        by_pair[annotation.language_pair].append(annotation)
    for pair, of_pair in by_pair.items():
        systems = len({a.system for a in of_pair})
        if systems > MAX_HUMAN_RANKED_SYSTEMS:
            raise InputError(
                f"{pair} has {systems:,} systems: the WMT25 ranking tests every ordered pair "
                f"({systems * (systems - 1):,} Wilcoxon tests) and takes at most "
                f"{MAX_HUMAN_RANKED_SYSTEMS:,} systems per language pair",
                origin=of_pair[0].origin,
                hint="Rank fewer systems at once: leave some out of the file.",
            )
    return [ranked(pair, pair_scores(by_pair[pair])) for pair in sorted(by_pair)]


def pair_scores(annotations: Sequence[HumanAnnotation]) -> PairScores:
    """The arrays of one pair; segments in order of first appearance, systems by name. One
    system's segment annotated twice in one wave is refused: the organisers' code would count
    the two lines as two segments, and keeping either would drop the other (the readers give
    each once: Pearmut's keeps the later re-rating)."""
    segments: dict[str, int] = {}
    domains: list[str] = []
    for annotation in annotations:
        if annotation.item not in segments:
            segments[annotation.item] = len(segments)
            domains.append(annotation.domain)
    systems = tuple(sorted({a.system for a in annotations}))
    row = {system: s for s, system in enumerate(systems)}
    waves = max(a.wave for a in annotations)
    scores = np.full((len(systems), waves, len(segments)), np.nan)
    first: dict[tuple[int, int, int], HumanAnnotation] = {}
    for annotation in annotations:
        cell = (row[annotation.system], annotation.wave - 1, segments[annotation.item])
        if cell in first:
            _refuse_twice(first[cell], annotation)
        first[cell] = annotation
        scores[cell] = annotation.score
    return PairScores(systems, scores, tuple(domains))


def _refuse_twice(earlier: HumanAnnotation, later: HumanAnnotation) -> None:
    raise InputError(
        f"{later.system}'s segment {later.item} is annotated twice in wave {later.wave}: here "
        f"and in {earlier.origin}, line {earlier.line}",
        origin=later.origin,
        line=later.line,
        hint="Give each segment once (wmt25-genmt-humeval.jsonl and its -noyoutube copy hold "
        "the same segments: give one of them).",
    )


def ranked(pair: str, data: PairScores) -> LanguagePairRanking:
    """The ordered table of one pair: scores, rank ranges, clusters, domain columns, p-values."""
    order = system_order(data.scores)
    systems = [data.systems[s] for s in order]
    vectors = [data.scores[s] for s in order]
    p = {
        (a, b): p_better(vectors[a], vectors[b])
        for a in range(len(order))
        for b in range(len(order))
        if a != b
    }
    ranks = rank_ranges(len(order), lambda a, b: p[a, b] < ALPHA)
    clusters = clusters_from_ranks(ranks)
    domains = sorted(set(data.domains))
    in_domain = {d: np.array([x == d for x in data.domains]) for d in domains}
    entries = []
    for position, (system, vector) in enumerate(zip(systems, vectors)):
        annotated = vector[~np.isnan(vector)]
        extra = {
            "domains": {d: _mean_or_none(vector[:, in_domain[d]]) for d in domains},
            "waves": [_mean_or_none(wave) for wave in vector],
            "annotations": int(annotated.size),
            "p_better_than": {
                other: _finite(p[position, o]) for o, other in enumerate(systems) if o != position
            },
        }
        entries.append(
            RankedSystem(
                system, float(np.mean(annotated)), ranks[position], clusters[position], None, extra
            )
        )
    waves = data.scores.shape[1]
    notes = (
        f"{len(data.domains):,} segments in {len(domains)} domain"
        f"{'' if len(domains) == 1 else 's'}, {waves} wave{'' if waves == 1 else 's'}",
    )
    return LanguagePairRanking(pair, "wmt25", tuple(entries), notes)


def system_order(scores: np.ndarray) -> list[int]:
    """Rows best first by the mean of their annotated entries (``statistics.mean``, exact, as
    the organisers sort); a stable sort, so equal means keep the rows' order."""
    means = [statistics.mean(row[~np.isnan(row)].tolist()) for row in scores]
    return sorted(range(len(means)), key=lambda s: means[s], reverse=True)


def p_better(a: np.ndarray, b: np.ndarray) -> float:
    """One-sided Wilcoxon p-value of "a better than b" over (waves, segments) arrays, b's waves
    paired with a's at every cyclic shift, NaN differences dropped (step 3)."""
    waves = a.shape[0]
    differences = np.concatenate(
        [(a - np.roll(b, -shift, axis=0)).ravel() for shift in range(waves)]
    )
    return wilcoxon_p(differences[~np.isnan(differences)], alternative="greater")


def rank_ranges(count: int, better) -> list[tuple[int, int]]:
    """Each position's [first, last] rank by the organisers' walk (step 4); ``better(a, b)``
    says whether position a is significantly better than position b."""
    ranges = []
    for position in range(count):
        first = position + 1
        for above in reversed(range(position)):
            if better(above, position):
                break
            first -= 1
        last = position + 1
        for below in range(position + 1, count):
            if better(position, below):
                break
            last += 1
        ranges.append((first, last))
    return ranges


def clusters_from_ranks(ranks: Sequence[tuple[int, int]]) -> list[int]:
    """Each position's cluster (1 the top): a boundary after position i where the ranks allow
    none of the systems to cross it (step 5)."""
    clusters = []
    cluster = 1
    for i in range(len(ranks)):
        clusters.append(cluster)
        above, below = ranks[: i + 1], ranks[i + 1 :]
        if all(last <= i + 1 for _, last in above) and all(first > i + 1 for first, _ in below):
            cluster += 1
    return clusters


def _mean_or_none(values: np.ndarray) -> float | None:
    annotated = values[~np.isnan(values)]
    return float(np.mean(annotated)) if annotated.size else None


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value
