"""Sums over pairs of cells for the system and none groupings, for every resample at once.

A resample is a row of segment weights w (how often each segment is drawn); a cell counts as
often as its segment. Within a group of cells (a system's cells, or all cells), every statistic of
``segment_level`` is a function of a few sums over the pairs of replicated cells -- concordant
minus discordant pairs, pairs tied in x, in y or in both, pairs acc23 counts right, Kendall-like's
pairs -- and, for Spearman, of the weighted mid-ranks. Per resample these would take a sort or an
enumeration of the pairs. Here each is a product of the whole weight matrix with a fixed matrix:

- a sum over tie runs (x ties, y ties, joint ties, distinct values) is W @ (segment x run counts);
- a sum over pairs is a quadratic form w' K w. People's scores take few values (levels), and a
  pair within one level adds nothing to most sums, so K is only needed on the rows of the cells
  outside the largest level: F = W @ K[rows]' is one matrix product, and the sum is w[rows] . F;
- a cell's mid-rank is w . (its row of [x_d < x_c] + [x_d = x_c] / 2), on the same rows; the
  rank sum of the largest level is what is left of n (n + 1) / 2;
- for the none grouping the rows of K are sums over cells (one row per segment and level), built
  from cumulative counts of segments in x order, level range against level range;
- for a large system the products (rows x cells^2) cost more than cumulating the weights of its
  cells in x order, level range against level range (rows x cells x the depth of the ranges).

Every count is a whole number (half-integers for ranks), and each product is exact: in float32
when its bound allows, two fields packed into one product where they fit, float64 otherwise.

The package, in the order its modules depend on each other: ``weights`` (the resample weights and
the exact products with them), ``cells`` (a grouping's cells ordered by human score, the sums over
tie runs, the trees over the levels), ``cumulative_counts`` (cumulative segment counts of sorted
cells), ``system_forms`` and ``none_forms`` (the pair sums of each grouping) and ``grouped`` (every
statistic from those sums, what ``segment_level`` calls).
"""

from mteval_core.stats.pairs.cells import CellGroups, cell_groups, monotone_end
from mteval_core.stats.pairs.grouped import grouped_values
from mteval_core.stats.pairs.weights import Weights, as_weights

__all__ = ["CellGroups", "Weights", "as_weights", "cell_groups", "grouped_values", "monotone_end"]
