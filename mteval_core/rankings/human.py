"""Human rankings from raw annotations, by WMT24's procedure.

The protocol ``wmt24`` is the organisers' ``humeval/calculate_clusters.py`` and ``tools.py``
(wmt-conference/wmt24-news-systems @ bfa937e, macro-average, the default), step by step:

1. the ratings of one item (system, document, segment, wave) by several annotators are averaged;
2. a pair is ranked when its systems have at least 100 items each on average;
3. a system's score is the mean over domains of its mean score in each domain (the domain of a
   segment from ``<LP>.docs``), the systems ordered by it, best first;
4. each pair of systems is tested on the segments both have (joined on document and segment;
   a segment with items from two waves pairs every item of one system with every item of the
   other, as pandas' join does): per domain a two-sided Wilcoxon signed-rank test of the
   differences (scipy's defaults), the domains' p-values combined by Stouffer's method,
   ``p = 1 - Phi(sum_d Phi^-1(1 - p_d) / sqrt(D))``;
5. with alpha 0.05, a system's wins and losses are the significant pairs where its score is
   higher and where it is not; its rank range is ``[losses + 1, N - wins]``;
6. clusters walk the ordered systems: a system joins the cluster of the ones above it while some
   system above is not significantly different from a system at or below it (``get_clusters``).

A p-value scipy cannot give (no paired segment in a domain) stays NaN and counts as not
significant in either direction, as in the organisers' comparisons.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.appraise_esa import ESARating
from mteval_core.rankings.signed_rank import ndtr, ndtri, wilcoxon_p
from mteval_core.rankings.table import LanguagePairRanking, RankedSystem

ALPHA = 0.05
MIN_ITEMS_PER_SYSTEM = 100  # on average, below which WMT24 does not rank a pair


@dataclass(frozen=True)
class _Item:
    system: str
    segment: tuple[str, str]  # document, segment id
    domain: str
    score: float


def rank_wmt24(
    ratings: Sequence[ESARating], documents: Mapping[str, list[tuple[str, str]]]
) -> list[LanguagePairRanking]:
    """Every language pair of ``ratings`` with enough items, ranked by WMT24's procedure;
    ``documents`` gives each pair's ``.docs`` lines."""
    by_pair: dict[str, list[ESARating]] = defaultdict(list)
    for rating in ratings:
        by_pair[rating.language_pair].append(rating)
    rankings = []
    for pair in sorted(by_pair):
        if pair not in documents:
            raise InputError(
                f"no documents file for {pair}",
                hint=f"Give its txt/documents/{pair}.docs, which names each segment's domain.",
            )
        items = _items(by_pair[pair], documents[pair])
        per_system = len(items) / len({item.system for item in items})
        if per_system < MIN_ITEMS_PER_SYSTEM:
            continue
        rankings.append(_ranked(pair, items, per_system))
    return rankings


def _items(ratings: list[ESARating], lines: list[tuple[str, str]]) -> list[_Item]:
    """One item per (system, document, segment, wave): its annotators' mean score."""
    scores: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)
    first: dict[tuple[str, str, str, str], ESARating] = {}
    for rating in ratings:
        key = (rating.system, rating.document, rating.segment, rating.wave)
        scores[key].append(rating.score)
        first.setdefault(key, rating)
    items = []
    for key, values in scores.items():
        rating = first[key]
        index = int(rating.segment)  # 0-based line of the .docs file (line 0: the canary)
        if index >= len(lines) or lines[index][1] != rating.document:
            named = lines[index][1] if index < len(lines) else "no line"
            raise InputError(
                f"segment {rating.segment} is in document {rating.document!r}, but the "
                f"documents file has {named!r} on its line {index + 1}",
                origin=rating.wave,
                line=rating.line,
                hint="Give the .docs file of this test set's language pair.",
            )
        items.append(
            _Item(rating.system, (rating.document, rating.segment), lines[index][0], _mean(values))
        )
    return items


def _mean(values: list[float]) -> float:
    return float(np.mean(values))


def _ranked(pair: str, items: list[_Item], per_system: float) -> LanguagePairRanking:
    domains = sorted({item.domain for item in items})
    domain_means = _domain_means(items)
    systems = sorted(domain_means, key=lambda s: -_mean(list(domain_means[s].values())))
    scores = {s: _mean(list(domain_means[s].values())) for s in systems}
    p, per_domain = _p_values(items, systems)
    wins = {
        s: sum(p[s, o] < ALPHA and scores[s] > scores[o] for o in systems if o != s)
        for s in systems
    }
    losses = {
        s: sum(p[s, o] < ALPHA and not scores[s] > scores[o] for o in systems if o != s)
        for s in systems
    }
    clusters = _clusters(systems, p)
    counts = defaultdict(int)
    for item in items:
        counts[item.system] += 1
    ranked = tuple(
        RankedSystem(
            system,
            scores[system],
            (losses[system] + 1, len(systems) - wins[system]),
            clusters[system],
            None,
            {
                "domains": {d: domain_means[system].get(d) for d in domains},
                "wins": wins[system],
                "losses": losses[system],
                "items": counts[system],
                "p_values": {o: _finite(p[system, o]) for o in systems if o != system},
                "domain_p_values": {
                    o: {d: _finite(v) for d, v in per_domain[system, o].items()}
                    for o in systems
                    if o != system
                },
            },
        )
        for system in systems
    )
    notes = (f"{per_system:,.1f} items per system on average, in {len(domains)} domains",)
    return LanguagePairRanking(pair, "wmt24", ranked, notes)


def _domain_means(items: list[_Item]) -> dict[str, dict[str, float]]:
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for item in items:
        sums[item.system][item.domain].append(item.score)
    return {s: {d: _mean(v) for d, v in by.items()} for s, by in sums.items()}


def _p_values(
    items: list[_Item], systems: list[str]
) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], dict[str, float]]]:
    """Every ordered pair's Stouffer-combined p-value (symmetric), and the domains' p-values it
    combines (domain -> p; the Rankings page shows them beside the combined one)."""
    by_system: dict[str, dict[tuple[str, str], list[_Item]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for item in items:
        by_system[item.system][item.segment].append(item)
    p: dict[tuple[str, str], float] = {}
    per_domain: dict[tuple[str, str], dict[str, float]] = {}
    for a, b in combinations(systems, 2):
        differences: dict[str, list[float]] = defaultdict(list)
        for segment, of_a in by_system[a].items():
            for x in of_a:
                for y in by_system[b].get(segment, ()):
                    differences[x.domain].append(x.score - y.score)
        by_domain = {d: wilcoxon_p(np.array(v)) for d, v in sorted(differences.items())}
        p_domains = [by_domain[d] for d in differences]  # combined in the order met, as before
        z = sum(ndtri(1 - value) for value in p_domains)
        combined = float(1 - ndtr(z / math.sqrt(len(p_domains)))) if p_domains else math.nan
        p[a, b] = p[b, a] = combined
        per_domain[a, b] = per_domain[b, a] = by_domain
    return p, per_domain


def _clusters(systems: list[str], p: dict[tuple[str, str], float]) -> dict[str, int]:
    """WMT24's ``get_clusters``, on the systems ordered best first."""
    clusters = {}
    same_until = -1
    cluster = 1
    for i, system in enumerate(systems):
        if same_until <= i:
            same_until = -1
        for j in range(i + 1, len(systems)):
            if p[system, systems[j]] > ALPHA:
                same_until = max(j, same_until)
        clusters[system] = cluster
        if same_until == -1:
            cluster += 1
    return clusters


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value
