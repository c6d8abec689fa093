"""A human ranking whose parts the user picks: the protocol ``custom``.

The built-in protocols (``rankings.human``: WMT24, ``rankings.human_wmt23``: WMT23) fix every
choice as the organisers made it; this one lets each be chosen, so that a reader can see what a
choice changes on the same ratings. The parts, in the order they apply (the defaults first):

1. ``normalise``: ``raw`` scores, or ``z``: each annotator's ratings in the language pair minus
   their mean, over their *sample* standard deviation (``n - 1``; a deviation of 0, or a single
   rating, divides by 1), as WMT23's ComputeWMT23Results computes them;
2. an item is a segment of a document; a system's ratings of one item by several annotators
   are averaged first (on the normalised scale);
3. ``average``: ``micro``, the mean over the system's items; or ``domain``, the mean over the
   domains the system has items in of its mean in each domain (WMT24's macro-average; a domain
   without items of the system is left out of its mean and shows as null in its columns);
4. ``test``, on the items both systems of a pair have (a pair without a common item has no
   test: p is undefined and counts as not significant), every p-value two-sided:
   ``wilcoxon``, scipy's signed-rank test of the paired differences (its defaults: zero
   differences dropped); ``wilcoxon-stouffer``, that test per domain, the domains' p-values
   combined as WMT24 does, ``1 - Phi(sum_d Phi^-1(1 - p_d) / sqrt(D))``; ``mann-whitney``,
   scipy's unpaired U test of the two systems' item means (WMT23's test, two-sided here);
   ``bootstrap``, the paired bootstrap over the common items as ``stats.significance``
   computes it (sacreBLEU's draws, ties count against significance); ``ar``, paired
   approximate randomisation, a fair coin per item swapping the two systems' means
   (``stats.approximate_randomization``'s coins; +1 smoothing, a difference of 0 has p = 1).
   The resampling tests draw ``resamples`` times from ``numpy.random.default_rng(seed)``, one
   generator for all, drawn language pair by language pair and pair by pair in ranking order;
5. ``correction`` over the language pair's defined p-values: ``holm`` (step-down), ``bonferroni``
   (times the number of tests, at most 1) or ``none``;
6. with ``alpha``, the ranking, clusters and rank ranges are ``stats.system_clusters``'s
   (mt-metrics-eval's AssignRanks; rank range ``[1 + significantly better, N - significantly
   worse]``).

Each system's ``extra`` holds its domain means, items and ratings, and its (corrected) p-value
against every other system; ``p_values_uncorrected`` when a correction was applied.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.appraise_da_sqm import DASQMRating
from mteval_core.io.appraise_esa import ESARating
from mteval_core.io.mtme_ratings import MtmeRatings
from mteval_core.rankings.human_wmt23 import pair_name
from mteval_core.rankings.signed_rank import ndtr, ndtri, wilcoxon_p
from mteval_core.rankings.table import LanguagePairRanking, RankedSystem
from mteval_core.settings.limits import MAX_RESAMPLES
from mteval_core.stats.bootstrap import DEFAULT_SEED, resampled_sums
from mteval_core.stats.significance import (
    holm,
    paired_p_values,
    resamples_needed,
    smallest_reachable_p,
)

NORMALISATIONS = ("raw", "z")
AVERAGES = ("micro", "domain")
TESTS = ("wilcoxon", "wilcoxon-stouffer", "mann-whitney", "bootstrap", "ar")
CORRECTIONS = ("holm", "bonferroni", "none")


@dataclass(frozen=True)
class HumanRating:
    """One rating as every reader gives it to this protocol."""

    annotator: str
    system: str
    item: str  # the segment within its document, e.g. "doc7:3"
    domain: str
    score: float


@dataclass(frozen=True)
class CustomProtocol:
    normalise: str = "raw"
    average: str = "micro"
    test: str = "wilcoxon"
    alpha: float = 0.05
    correction: str = "holm"
    resamples: int = 1_000  # of the bootstrap and of approximate randomisation
    seed: int = DEFAULT_SEED

    def name(self) -> str:
        parts = [self.normalise, self.average, self.test, f"alpha={self.alpha:g}", self.correction]
        if self.test in ("bootstrap", "ar"):
            parts.append(f"{self.resamples:,} resamples, seed {self.seed}")
        return "custom(" + ", ".join(parts) + ")"

    def check(self) -> None:
        """Refuse parts this protocol has not, before any work."""
        for value, allowed, what in (
            (self.normalise, NORMALISATIONS, "normalisation"),
            (self.average, AVERAGES, "average"),
            (self.test, TESTS, "test"),
            (self.correction, CORRECTIONS, "correction"),
        ):
            if value not in allowed:
                raise InputError(f"no {what} {value!r}", hint="Choose " + ", ".join(allowed) + ".")
        if not 0 < self.alpha < 1:
            raise InputError(
                f"the significance level {self.alpha} is not between 0 and 1",
                hint="e.g. 0.05",
            )
        if not 1 <= self.resamples <= MAX_RESAMPLES:
            raise InputError(
                f"{self.resamples:,} resamples: from 1 to MAX_RESAMPLES ({MAX_RESAMPLES:,}) "
                "are allowed",
                hint="1,000 are enough for p-values at 0.05 over a few pairs.",
            )


def rank_custom(
    ratings: Mapping[str, Sequence[HumanRating]], protocol: CustomProtocol
) -> list[LanguagePairRanking]:
    """Every language pair of ``ratings`` (pair -> its ratings), ranked by ``protocol``."""
    protocol.check()
    rng = np.random.default_rng(protocol.seed)
    return [_ranked(pair, rows, protocol, rng) for pair, rows in ratings.items() if rows]


@dataclass(frozen=True)
class _System:
    name: str
    ratings: int
    items: dict[str, float]  # item -> mean (normalised) score
    domains: dict[str, float]  # domain -> mean of its items
    score: float


def _normalised(ratings: Sequence[HumanRating], normalise: str) -> list[float]:
    if normalise == "raw":
        return [r.score for r in ratings]
    by_annotator: dict[str, list[float]] = defaultdict(list)
    for rating in ratings:
        by_annotator[rating.annotator].append(rating.score)
    scales = {}
    for annotator, values in by_annotator.items():
        mean = sum(values) / len(values)
        squares = sum((x - mean) ** 2 for x in values)
        scales[annotator] = (mean, math.sqrt(squares / ((len(values) - 1) or 1)) or 1.0)
    return [(r.score - scales[r.annotator][0]) / scales[r.annotator][1] for r in ratings]


def _systems(ratings: Sequence[HumanRating], protocol: CustomProtocol) -> list[_System]:
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    domain_of: dict[str, str] = {}
    for rating, value in zip(ratings, _normalised(ratings, protocol.normalise)):
        scores[rating.system][rating.item].append(value)
        domain_of.setdefault(rating.item, rating.domain)
    systems = []
    for system, by_item in scores.items():
        items = {item: float(np.mean(values)) for item, values in by_item.items()}
        in_domain: dict[str, list[float]] = defaultdict(list)
        for item, value in items.items():
            in_domain[domain_of[item]].append(value)
        domains = {d: float(np.mean(v)) for d, v in sorted(in_domain.items())}
        micro = float(np.mean(list(items.values())))
        score = micro if protocol.average == "micro" else float(np.mean(list(domains.values())))
        count = sum(len(values) for values in by_item.values())
        systems.append(_System(system, count, items, domains, score))
    return systems


def _ranked(
    pair: str, ratings: Sequence[HumanRating], protocol: CustomProtocol, rng: np.random.Generator
) -> LanguagePairRanking:
    from mteval_core.stats.system_clusters import significance_clusters  # loads scipy

    systems = sorted(_systems(ratings, protocol), key=lambda s: -s.score)
    domain_of = {r.item: r.domain for r in ratings}
    n = len(systems)
    raw = np.full((n, n), np.nan)
    for a in range(n):
        for b in range(a + 1, n):
            raw[a, b] = raw[b, a] = pair_p_value(systems[a], systems[b], domain_of, protocol, rng)
    corrected = corrected_p_values(raw, protocol.correction)
    clusters = significance_clusters(
        np.array([s.score for s in systems]), corrected, level=protocol.alpha
    )
    all_domains = sorted({r.domain for r in ratings})
    ranked = []
    for position, index in enumerate(clusters.order):
        system = systems[index]
        extra = {
            "domains": {d: system.domains.get(d) for d in all_domains},
            "items": len(system.items),
            "ratings": system.ratings,
            "p_values": _column(systems, corrected, index),
        }
        if protocol.correction != "none":
            extra["p_values_uncorrected"] = _column(systems, raw, index)
        first, last = (int(x) for x in clusters.rank_range[position])
        ranked.append(
            RankedSystem(
                system.name,
                system.score,
                (first, last),
                int(clusters.cluster[position]),
                None,
                extra,
            )
        )
    undefined = int(np.isnan(raw[np.triu_indices(n, 1)]).sum())
    notes = [f"{len(ratings):,} ratings, {len(all_domains)} domain(s)"]
    if undefined:
        notes.append(
            f"{undefined} pair(s) without a test (no common item, or no non-zero "
            "difference): not significant"
        )
    notes += _unreachable(protocol, n * (n - 1) // 2 - undefined)
    return LanguagePairRanking(pair, protocol.name(), tuple(ranked), tuple(notes))


def _unreachable(protocol: CustomProtocol, n_tests: int) -> list[str]:
    """A note when the resampling tests cannot reach alpha after the correction."""
    if protocol.test not in ("bootstrap", "ar") or n_tests < 1:
        return []
    family = 1 if protocol.correction == "none" else n_tests
    if smallest_reachable_p(protocol.resamples, family) < protocol.alpha:
        return []
    needed = resamples_needed(family, protocol.alpha)
    return [
        f"with {protocol.resamples:,} resamples and {protocol.correction} over {family} tests "
        f"no pair can reach p < {protocol.alpha:g}: {needed:,} resamples at least are needed"
    ]


def _column(systems: list[_System], p: np.ndarray, index: int) -> dict[str, float | None]:
    return {
        other.name: (None if math.isnan(p[index, j]) else float(p[index, j]))
        for j, other in enumerate(systems)
        if j != index
    }


def corrected_p_values(p: np.ndarray, correction: str) -> np.ndarray:
    """The symmetric matrix ``p`` corrected over its defined upper-triangle p-values."""
    n = len(p)
    upper = np.triu_indices(n, 1)
    values = p[upper]
    defined = ~np.isnan(values)
    adjusted = values.copy()
    if correction == "holm":
        adjusted[defined] = holm(values[defined])
    elif correction == "bonferroni":
        adjusted[defined] = np.minimum(1.0, values[defined] * int(defined.sum()))
    out = np.full((n, n), np.nan)
    out[upper] = adjusted
    out.T[upper] = adjusted
    return out


def pair_p_value(
    a: _System,
    b: _System,
    domain_of: Mapping[str, str],
    protocol: CustomProtocol,
    rng: np.random.Generator,
) -> float:
    """The two-sided p-value of the chosen test on the items both systems have (NaN: none)."""
    common = sorted(a.items.keys() & b.items.keys())
    if not common:
        return math.nan
    x = np.array([a.items[i] for i in common])
    y = np.array([b.items[i] for i in common])
    if protocol.test == "wilcoxon-stouffer":
        return _stouffer(x, y, [domain_of[i] for i in common])
    if protocol.test == "wilcoxon":
        return _wilcoxon(x - y)
    if protocol.test == "mann-whitney":
        from scipy.stats import mannwhitneyu

        return float(mannwhitneyu(x, y, alternative="two-sided").pvalue)
    if protocol.test == "bootstrap":
        return _bootstrap(x, y, protocol.resamples, rng)
    return _randomisation(x, y, protocol.resamples, rng)


def _wilcoxon(differences: np.ndarray) -> float:
    if not np.any(differences):  # scipy has no statistic when every difference is 0
        return math.nan
    return wilcoxon_p(differences, alternative="two-sided")


def _stouffer(x: np.ndarray, y: np.ndarray, domains: list[str]) -> float:
    p_domains = [
        _wilcoxon(x[mask] - y[mask])
        for mask in (np.array([d == domain for d in domains]) for domain in sorted(set(domains)))
    ]
    z = sum(ndtri(1 - p) for p in p_domains)
    return float(1 - ndtr(z / math.sqrt(len(p_domains))))


def _bootstrap(x: np.ndarray, y: np.ndarray, resamples: int, rng: np.random.Generator) -> float:
    sums = resampled_sums([np.column_stack([x, y])], resamples, rng)[0]
    observed = np.array([x.mean(), y.mean()])
    return float(paired_p_values(sums / len(x), observed)[0, 1])


def _randomisation(x: np.ndarray, y: np.ndarray, trials: int, rng: np.random.Generator) -> float:
    from mteval_core.stats.approximate_randomization import trial_sums

    differences = x - y
    observed = abs(differences.sum())
    if observed == 0:
        return 1.0
    swapped = trial_sums([differences[:, None]], trials, rng)[0][:, 0]
    pseudo = np.abs(differences.sum() - 2 * swapped)
    return float((np.sum(pseudo > observed) + 1) / (trials + 1))


# ------------------------------------------------------------------ the readers' ratings
def from_da_sqm(ratings: Sequence[DASQMRating]) -> dict[str, list[HumanRating]]:
    """A DA+SQM export's kept ratings by language pair; the export names no domain, so every
    item is in the one domain ``all``."""
    by_pair: dict[str, list[HumanRating]] = defaultdict(list)
    for r in ratings:
        by_pair[pair_name(r.languages)].append(
            HumanRating(r.annotator, r.system, f"{r.document}:{r.segment}", "all", r.score)
        )
    return dict(by_pair)


def from_esa(
    ratings: Sequence[ESARating], documents: Mapping[str, list[tuple[str, str]]]
) -> dict[str, list[HumanRating]]:
    """ESA exports' kept ratings by language pair, each item's domain from its pair's ``.docs``
    file (segment ``i`` is the file's line ``i`` from 0, as for WMT24)."""
    by_pair: dict[str, list[HumanRating]] = defaultdict(list)
    for r in ratings:
        lines = documents.get(r.language_pair)
        if lines is None:
            raise InputError(
                f"no documents file for {r.language_pair}",
                hint=f"Give its {r.language_pair}.docs, which names each segment's domain.",
            )
        index = int(r.segment)
        if index >= len(lines) or lines[index][1] != r.document:
            raise InputError(
                f"segment {r.segment} is in document {r.document!r}, but the documents file "
                f"of {r.language_pair} has another document on its line {index + 1}",
                origin=r.wave,
                line=r.line,
                hint="Give the .docs file of this test set's language pair.",
            )
        by_pair[r.language_pair].append(
            HumanRating(
                r.annotator, r.system, f"{r.document}:{r.segment}", lines[index][0], r.score
            )
        )
    return dict(by_pair)


def from_mtme(
    files: Sequence[MtmeRatings], documents: Mapping[str, list[tuple[str, str]]]
) -> dict[str, list[HumanRating]]:
    """mt-metrics-eval ``.rating`` files' ratings by language pair; segment k's domain is line k
    of the pair's ``documents/<LP>.docs`` where one is given, else every item is in ``all``."""
    by_pair: dict[str, list[HumanRating]] = defaultdict(list)
    for file in files:
        lines = documents.get(file.language_pair)
        for r in file.ratings:
            if lines is not None and r.segment >= len(lines):
                raise InputError(
                    f"{r.system}'s segment {r.segment + 1} is past the {len(lines):,} lines of "
                    f"{file.language_pair}.docs",
                    origin=f"{file.language_pair}.{file.name}.seg.rating",
                    line=r.line,
                    hint="Give the documents file of this test set's language pair.",
                )
            domain = lines[r.segment][0] if lines is not None else "all"
            by_pair[file.language_pair].append(
                HumanRating(r.rater, r.system, str(r.segment), domain, r.score)
            )
    return dict(by_pair)
