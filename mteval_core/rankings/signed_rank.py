"""The Wilcoxon signed-rank p-value exactly as ``scipy.stats.wilcoxon(d, alternative=...)``
gives it with its defaults (zero_method "wilcox", no continuity correction, method "auto"), and
the normal distribution the rankings combine p-values with, without importing scipy.stats.

Why: the human rankings run one test per pair of systems and domain (WMT24: 2,600 on waves
2-3; 16 pairs x 60 systems: 28,000+), and scipy's wrapper costs about 2 ms a call besides the
arithmetic; importing scipy.stats costs 1-2 s more on this machine. The arithmetic is scipy
1.17's (``scipy/stats/_wilcoxon.py``), step by step:

- zeros are dropped; the others ranked by absolute value, ties sharing their average rank;
- with 50 or fewer differences, no zero and no tie: the exact distribution of the sum of the
  positive ranks (``_get_wilcoxon_distr``'s recursion, the same float operations);
- with 13 or fewer differences and a zero or a tie, scipy runs a permutation test: that case
  is handed to scipy itself;
- otherwise the normal approximation: ``z = (R+ - n(n+1)/4) / sqrt((n(n+1)(2n+1) - sum(t^3 -
  t)/2) / 24)`` over the n non-zero differences and the tie groups' sizes t, the p-value from
  the standard normal (scipy's ``ndtr``, here its formula over the C library's erf/erfc: equal
  to the last bit or two).

tests/rankings/test_signed_rank.py checks every branch against scipy itself.
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np

EXACT_UP_TO = 50  # differences, scipy's limit of the exact distribution
PERMUTATION_UP_TO = 13  # differences, with a tie or a zero: scipy's permutation test
_STANDARD = NormalDist()


def wilcoxon_p(differences: np.ndarray, alternative: str = "two-sided") -> float:
    """The p-value of scipy's ``wilcoxon(differences, alternative=alternative)`` (NaN where
    scipy gives NaN: no non-zero difference)."""
    d = np.asarray(differences, dtype=float)
    if d.size == 0 or np.isnan(d).any() or alternative not in _SIDES:
        return _scipy_p(d, alternative)
    nonzero = d[d != 0]
    count = nonzero.size
    ranks, tie_sizes = _average_ranks(np.abs(nonzero))
    has_ties = bool((tie_sizes > 1).any())
    has_zero = count < d.size
    r_plus = float(np.sum((nonzero > 0) * ranks))
    if d.size <= EXACT_UP_TO and not has_ties and not has_zero:
        return _exact_p(r_plus, count, alternative)
    if d.size <= PERMUTATION_UP_TO:
        return _scipy_p(d, alternative)
    if count == 0:
        return math.nan
    mean = count * (count + 1.0) * 0.25
    variance = count * (count + 1.0) * (2.0 * count + 1.0)
    tie_correction = float(np.sum(tie_sizes**3 - tie_sizes))
    se = math.sqrt((variance - tie_correction / 2) / 24)
    z = (r_plus - mean) / se
    if alternative == "greater":
        return ndtr(-z)
    if alternative == "less":
        return ndtr(z)
    return 2 * ndtr(-abs(z))


_SIDES = ("two-sided", "greater", "less")


def _average_ranks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ranks 1..n (ties: their average) and the size of every group of equal values."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
    sizes = np.diff(np.append(starts, values.size))
    average = starts + 1 + (sizes - 1) / 2
    ranks = np.empty(values.size)
    ranks[order] = np.repeat(average, sizes)
    return ranks, sizes.astype(float)


def _exact_p(r_plus: float, count: int, alternative: str) -> float:
    pmf = _distribution(count)
    mean = count * (count + 1) / 4

    def cdf(k: int) -> float:
        return float(pmf[: k + 1].sum()) if k <= mean else 1 - float(pmf[k + 1 :].sum())

    def sf(k: int) -> float:
        return float(pmf[k:].sum()) if not k <= mean else 1 - float(pmf[:k].sum())

    if alternative == "less":
        return cdf(math.ceil(r_plus))
    if alternative == "greater":
        return sf(math.floor(r_plus))
    return min(max(2 * min(sf(math.floor(r_plus)), cdf(math.ceil(r_plus))), 0.0), 1.0)


@lru_cache(maxsize=EXACT_UP_TO + 1)
def _distribution(n: int) -> np.ndarray:
    """P(R+ = r), r = 0 .. n(n+1)/2, by scipy's recursion (the same float operations)."""
    c = np.ones(1, dtype=np.float64)
    for k in range(1, n + 1):
        previous = c
        c = np.zeros(k * (k + 1) // 2 + 1, dtype=np.float64)
        m = len(previous)
        c[:m] = previous * 0.5
        c[-m:] += previous * 0.5
    return c


def _scipy_p(d: np.ndarray, alternative: str) -> float:
    from scipy.stats import wilcoxon  # only for scipy's permutation test and odd inputs

    try:
        return float(wilcoxon(d.tolist(), alternative=alternative).pvalue)
    except ValueError:  # e.g. no differences under an older scipy
        return math.nan


# ------------------------------------------------------------------------------ the normal
def ndtr(x: float) -> float:
    """The standard normal's cdf, cephes' ``ndtr`` formula (what scipy's ``norm.cdf`` is)."""
    if math.isnan(x):
        return math.nan
    t = x * math.sqrt(0.5)
    z = abs(t)
    if z < math.sqrt(0.5):
        return 0.5 + 0.5 * math.erf(t)
    y = 0.5 * math.erfc(z)
    return 1 - y if t > 0 else y


def ndtri(p: float) -> float:
    """The standard normal's quantile (scipy's ``norm.ppf``): -inf at 0, inf at 1, NaN
    outside [0, 1]."""
    if math.isnan(p) or p < 0 or p > 1:
        return math.nan
    if p == 0:
        return -math.inf
    if p == 1:
        return math.inf
    return _STANDARD.inv_cdf(p)
