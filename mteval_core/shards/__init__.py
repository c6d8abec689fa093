"""`mteval score --shards`: a corpus larger than memory, given as shards, scored shard by shard.

A shard is a long-format file (TSV, CSV, JSON Lines or Parquet; one row per segment and system, see
``io.long_format``). Every metric extracts its statistics segment by segment, and a corpus score
is the score of their column sums, so each shard is scored on its own and the sums are added.
NIST's statistics also need the reference n-gram counts of the whole corpus: a first pass makes
them. The modules, in the order a run uses them:

- ``reading``: find the shards, read one and check its rows;
- ``nist_counts``: with NIST, the first pass: every shard's reference n-gram counts, added up;
- ``partition``: score one shard (statistic sums, Poisson bootstrap sums, segment scores out);
- ``poisson_bootstrap``: the streaming bootstrap, whose weights do not depend on the sharding;
- ``sums``: the additive results of a shard, and their sum;
- ``coverage``: the checks only all shards together can make (each segment once per system,
  the same references wherever a segment is, segments 1..n with none missing);
- ``segment_scores``: the segment-score shards that ``--segment-scores-out`` writes;
- ``cluster``: run the shards in this process or on dask.distributed (the only Dask import);
- ``results``: the summed statistics as ``Scores`` and ``BootstrapResult``, for the writers.

``mteval score --shards`` itself, its options and its output, is ``cli.score_shards``.
"""
