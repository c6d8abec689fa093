"""Pairwise Difference Pearson (PDP), as mt-metrics-eval computes it (2025).

Source: google-research/mt-metrics-eval @ 68a481a, ``mt_metrics_eval/stats.py``:
``Correlation.Pearson(average_by, pdp=True)``, that is ``AverageCorrelation`` with ``pdp=True``
and its ``_enumerate_pairwise_diffs``. PDP is Pearson's r between the human and the metric
*differences* of every ordered pair of cells (i, j) within a group, the pair of a cell with
itself included, all groups pooled into one sample (not a correlation per group averaged):

- ``system`` level: the system scores are one group (mt-metrics-eval's ``average_by='none'`` on
  system scores);
- segment level, a system x segment matrix grouped by ``item`` (the systems' scores of one
  segment, mt-metrics-eval's ``average_by='item'``), by ``system`` (``'sys'``: one system's
  segments) or ``none`` (every cell one group).

A cell without a human score (NaN here, None there) leaves out every pair it is in. Every
group's differences sum to 0 (each pair comes in both orders), so the pooled differences have
mean 0 and r is sum(dx dy) / sqrt(sum(dx^2) sum(dy^2)), with, within a group of n cells,
sum over pairs (x_i - x_j)(y_i - y_j) = 2 n sum (x_i - mean x)(y_i - mean y). That closed form
is computed here: O(cells), where the enumeration holds n^2 pairs per group (47 million for
``none`` on 13 systems x 529 segments). One consequence, checked by the tests: over a single
group PDP *is* Pearson's r, so system-level PDP equals system-level Pearson over the systems
that have human scores (and mt-metrics-eval's own test gives 0.776 for both).

Where mt-metrics-eval returns 0 (no pair, a constant side: it turns scipy's constant-input
result into NaN and an average of nothing into 0), this module returns None and says why.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GROUPINGS = ("none", "item", "system")
FEWER_THAN_TWO_CELLS = "no group has two cells with human scores"
CONSTANT_HUMAN = "constant human scores within every group"
CONSTANT_METRIC = "constant metric scores within every group"


@dataclass(frozen=True)
class PairwiseDifferencePearson:
    value: float | None
    n_pairs: int  # ordered pairs of cells with human scores, each cell with itself included
    undefined: str | None = None  # why value is None


def system_pdp(metric: np.ndarray, human: np.ndarray) -> PairwiseDifferencePearson:
    """PDP of system scores (one score per system; NaN human: a system without a human score)."""
    metric, human = _as_rows(metric, human, 1)
    return _pooled(metric, human)


def segment_pdp(
    metric: np.ndarray, human: np.ndarray, grouping: str = "item"
) -> PairwiseDifferencePearson:
    """PDP of a system x segment matrix: pairs within each segment (``item``), within each
    system (``system``) or among all cells (``none``), pooled."""
    if grouping not in GROUPINGS:
        raise ValueError(f"grouping must be one of {GROUPINGS}, got {grouping!r}")
    metric, human = _as_rows(metric, human, 2)
    if grouping == "item":
        metric, human = metric.T, human.T
    elif grouping == "none":
        metric, human = metric.reshape(1, -1), human.reshape(1, -1)
    return _pooled(metric, human)


def _as_rows(metric: np.ndarray, human: np.ndarray, ndim: int) -> tuple[np.ndarray, np.ndarray]:
    metric = np.asarray(metric, dtype=np.float64)
    human = np.asarray(human, dtype=np.float64)
    if metric.shape != human.shape or metric.ndim != ndim:
        raise ValueError(
            f"need two arrays of {ndim} dimension(s) and one shape, got "
            f"{metric.shape} and {human.shape}"
        )
    if not np.isfinite(metric[np.isfinite(human)]).all():
        raise ValueError("a metric score is missing where people gave a score")
    return metric.reshape(-1, metric.shape[-1]), human.reshape(-1, human.shape[-1])


def _pooled(metric: np.ndarray, human: np.ndarray) -> PairwiseDifferencePearson:
    """Groups are rows; the sums of the closed form, over every row."""
    cells = np.isfinite(human)
    n = cells.sum(axis=1, keepdims=True)
    n_pairs = int((n**2).sum())
    if not (n >= 2).any():
        return PairwiseDifferencePearson(None, n_pairs, FEWER_THAN_TWO_CELLS)
    x, y = _centred(metric, cells, n), _centred(human, cells, n)
    sxy = float((n[:, 0] * (x * y).sum(axis=1)).sum())
    sxx = float((n[:, 0] * (x * x).sum(axis=1)).sum())
    syy = float((n[:, 0] * (y * y).sum(axis=1)).sum())
    if syy == 0.0:
        return PairwiseDifferencePearson(None, n_pairs, CONSTANT_HUMAN)
    if sxx == 0.0:
        return PairwiseDifferencePearson(None, n_pairs, CONSTANT_METRIC)
    return PairwiseDifferencePearson(sxy / np.sqrt(sxx * syy), n_pairs)


def _centred(values: np.ndarray, cells: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Each row minus its mean over its cells, 0 elsewhere; exactly 0 on a row whose cells are
    equal (their differences are exact zeros there, where a mean may round)."""
    present = np.where(cells, values, 0.0)
    mean = present.sum(axis=1, keepdims=True) / np.maximum(n, 1)
    highest = np.where(cells, values, -np.inf).max(axis=1, keepdims=True)
    lowest = np.where(cells, values, np.inf).min(axis=1, keepdims=True)
    return np.where(cells & (highest != lowest), values - mean, 0.0)
