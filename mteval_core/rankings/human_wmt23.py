"""Human rankings from a DA+SQM export, by WMT23's procedure.

The protocol ``wmt23`` is Appraise's ``Campaign/management/commands/ComputeWMT23Results.py``
(AppraiseDev/Appraise @ 12103f1), run as the organisers ran it for WMT23.results.txt
(``--csv-file``, ``--task-type Document``, without ``--wmt22-format``, ``--use-ar`` or combo
systems), step by step; every choice below is the command's:

1. per language pair (the file's source and target codes), each annotator's mean and *sample*
   standard deviation over all their kept ratings in the pair (``n - 1``; 1 when ``n`` is 1; a
   standard deviation of 0 divides by 1), and each rating's z-score ``(score - mean) / sd``;
2. an item is a segment of a document (``SegmentID:DocumentID``, the command's ``Document``
   task type: the export's segment ids count within a document); a system's ratings of one item
   by several annotators (or a ``CHK`` repeat) are averaged first. That WMT23 ran it so is read
   from WMT23.results.txt: its per-system means of integer H scores are fractions over 1,009
   items (cs-uk), 509 (de-en), 549 (en-de) or 1,098 (en-cs), as many as the test sets' rated
   segments, where a document-relative id alone would give as few as a document is long;
3. a system's score is the mean over its items of their mean raw score (WMT23 ranks by raw
   scores, not z-scores); its z-score (``Ave. z``) is the same mean of mean z-scores, reported
   only; the systems are ordered by score, best first;
4. each pair of systems, the higher-scored one first, is tested on the items both have: a
   one-sided Mann-Whitney U test (scipy's ``mannwhitneyu(a, b, alternative="greater")``,
   its defaults: continuity correction, exact or asymptotic by scipy's choice) of the
   higher-scored system's per-item means against the other's, *unpaired*; no common item gives
   p = 1. The command also tests each system against itself; that p-value is never below 0.5
   (the statistic is exactly its mean), so it never counts and is not repeated here;
5. with alpha 0.05, the higher-scored system wins a significant pair and the other loses it;
   the rank range is ``[losses + 1, N - wins]``;
6. a cluster line is drawn after the k-th system when the fewest wins among the first k systems
   equals ``N - k`` (the command's ``min_wins_current_cluster`` never resets); clusters are
   numbered from 1 between the lines.

The floating-point sums are Python's, in the command's order (file order within an item, first
appearance of an item for a system), so that every mean is bit-identical to the command's.
Where the command and this module differ: two systems with exactly the same score are one key
of the command's table (the later one overwrites the earlier, and one system vanishes from its
output); here both are kept, in file order, and a note names them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise

from mteval_core.io.appraise_da_sqm import DASQMRating
from mteval_core.rankings.table import LanguagePairRanking, RankedSystem

ALPHA = 0.05
# Appraise's ISO 639-3 codes -> the codes WMT23 names its pairs with (the command's table).
LANGUAGE_CODES = {
    "eng": "en",
    "deu": "de",
    "ces": "cs",
    "fra": "fr",
    "isl": "is",
    "zho": "zh",
    "hau": "ha",
    "jpn": "ja",
    "rus": "ru",
    "aeb": "ae",
    "spa": "es",
    "sgg": "dsgs",
    "hrv": "hr",
    "ukr": "uk",
    "sah": "sah",
    "liv": "liv",
    "por": "pt",
    "heb": "he",
}


@dataclass(frozen=True)
class SystemScores:
    """One system's numbers before the tests: its per-item mean raw scores, by item."""

    system: str
    ratings: int
    raw: float
    z: float
    items: dict[str, float]  # item key -> mean raw score, in first-appearance order


def rank_wmt23(ratings: Sequence[DASQMRating]) -> list[LanguagePairRanking]:
    """Every language pair of ``ratings``, ranked by WMT23's procedure, in file order."""
    by_pair: dict[tuple[str, str], list[DASQMRating]] = defaultdict(list)
    for rating in ratings:
        by_pair[rating.languages].append(rating)
    return [_ranked(pair, rows) for pair, rows in by_pair.items()]


def pair_name(languages: tuple[str, str]) -> str:
    """'en-de' for ('eng', 'deu'), by the command's table; a code the table lacks is kept as
    written (the command stops with a KeyError on it)."""
    source, target = (LANGUAGE_CODES.get(code, code) for code in languages)
    return f"{source}-{target}"


def annotator_scales(ratings: Sequence[DASQMRating]) -> dict[str, tuple[float, float]]:
    """Each annotator's mean and sample standard deviation, as step 1 computes them."""
    scores: dict[str, list[int]] = defaultdict(list)
    for rating in ratings:
        scores[rating.annotator].append(rating.score)
    scales = {}
    for annotator, values in scores.items():
        mean = sum(values) / float(len(values) or 1)
        squares = sum([(x - mean) ** 2 for x in values])
        scales[annotator] = (mean, math.sqrt(squares / float((len(values) - 1) or 1)))
    return scales


def system_scores(ratings: Sequence[DASQMRating]) -> list[SystemScores]:
    """Steps 1-3: every system's score and z-score, in the order systems first appear."""
    scales = annotator_scales(ratings)
    raw: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    z: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    counts: dict[str, int] = defaultdict(int)
    for rating in ratings:
        mean, sd = scales[rating.annotator]
        item = f"{rating.segment}:{rating.document}"
        raw[rating.system][item].append(rating.score)
        z[rating.system][item].append((rating.score - mean) / float(sd or 1))
        counts[rating.system] += 1
    out = []
    for system, by_item in raw.items():
        means = {item: _mean(values) for item, values in by_item.items()}
        z_means = [_mean(values) for values in z[system].values()]
        out.append(
            SystemScores(system, counts[system], _mean(list(means.values())), _mean(z_means), means)
        )
    return out


def _mean(values: Sequence[float]) -> float:
    return sum(values) / float(len(values) or 1)


def one_sided_p(better: SystemScores, worse: SystemScores) -> float:
    """Step 4: Mann-Whitney U, 'greater', on the per-item means of the items both have."""
    from scipy.stats import mannwhitneyu  # the rankings' own dependency, loaded when used

    common = better.items.keys() & worse.items.keys()
    a = [better.items[item] for item in sorted(common)]
    b = [worse.items[item] for item in sorted(common)]
    if not a:
        return 1.0
    return float(mannwhitneyu(a, b, alternative="greater").pvalue)


def clusters_from_wins(wins: Sequence[int]) -> list[int]:
    """Step 6: each system's cluster from the wins of the systems in score order."""
    total = len(wins)
    clusters, cluster, fewest = [], 1, total
    for k, won in enumerate(wins, start=1):
        clusters.append(cluster)
        fewest = min(fewest, won)
        if fewest == total - k:
            cluster += 1
    return clusters


def _ranked(languages: tuple[str, str], ratings: list[DASQMRating]) -> LanguagePairRanking:
    scores = system_scores(ratings)
    ordered = sorted(scores, key=lambda s: -s.raw)  # stable: equal scores stay in file order
    p: dict[tuple[str, str], float] = {}
    wins: dict[str, int] = defaultdict(int)
    losses: dict[str, int] = defaultdict(int)
    for better, worse in combinations(ordered, 2):
        value = one_sided_p(better, worse)
        p[better.system, worse.system] = p[worse.system, better.system] = value
        if value < ALPHA:
            wins[better.system] += 1
            losses[worse.system] += 1
    clusters = clusters_from_wins([wins[s.system] for s in ordered])
    total = len(ordered)
    ranked = tuple(
        RankedSystem(
            s.system,
            s.raw,
            (losses[s.system] + 1, total - wins[s.system]),
            cluster,
            None,
            {
                "z": s.z,
                "ratings": s.ratings,
                "items": len(s.items),
                "wins": wins[s.system],
                "losses": losses[s.system],
                "p_values": {o.system: p[s.system, o.system] for o in ordered if o is not s},
            },
        )
        for s, cluster in zip(ordered, clusters)
    )
    return LanguagePairRanking(pair_name(languages), "wmt23", ranked, _notes(ratings, ordered))


def _notes(ratings: list[DASQMRating], ordered: list[SystemScores]) -> tuple[str, ...]:
    notes = [
        f"{len(ratings):,} ratings by {len({r.annotator for r in ratings}):,} annotators; "
        "p-values are one-sided, that the higher-scored system of a pair is better"
    ]
    for a, b in pairwise(ordered):
        if a.raw == b.raw:
            notes.append(
                f"{a.system} and {b.system} have exactly the same score: both are ranked here, "
                "ComputeWMT23Results keys its table by the score and lists only one of them"
            )
    return tuple(notes)
