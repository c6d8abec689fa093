"""Where a sharded run's time goes: bench_scaling.py --profile.

One shard of the benchmark's corpus, stage by stage, in this process (as `--workers 0` and `1`
score it): reading the Parquet file, checking its rows, building its test sets, tokenizing,
the metrics' statistics, the sums, and pickling the result (what a Dask worker sends back).
Then, for each N of --workers, what Dask adds: starting the local cluster, importing mteval's
scoring on every worker, and the round trip of a task.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def shard_stages(path: Path, metrics: tuple[str, ...]) -> dict[str, float]:
    """Seconds per stage of scoring one shard as ``score_partition`` does."""
    from mteval_core.engine.ngrams import EncodedCorpus
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.settings.options import Options
    from mteval_core.shards.coverage import index_of
    from mteval_core.shards.partition import PartitionResult, group_sums, grouped_test_sets
    from mteval_core.shards.reading import _parquet_rows, _parquet_table

    _, import_seconds = timed(lambda: __import__("pyarrow.parquet"))
    options = Options()
    stages: dict[str, float] = {"importing pyarrow (once per process)": import_seconds}
    table, stages["Parquet reading (pyarrow)"] = timed(lambda: _parquet_table(str(path)))
    rows, stages["rows checked"] = timed(lambda: _parquet_rows(table, str(path)))
    groups, stages["test sets built"] = timed(lambda: list(grouped_test_sets(rows)))

    def tokenize() -> None:
        for _, test_set in groups:
            corpus = EncodedCorpus(test_set, options)
            for system in test_set.system_names:
                corpus.systems[system]

    _, stages["tokenizing (references and systems)"] = timed(tokenize)
    scored, total = timed(lambda: [(s, score_test_set(t, metrics, options)) for s, t in groups])
    stages["statistics (score_test_set less tokenizing)"] = (
        total - stages["tokenizing (references and systems)"]
    )
    sums, stages["sums and index"] = timed(
        lambda: ([group_sums(scores, s, None) for s, scores in scored], index_of(rows))
    )
    result = PartitionResult(sums[0][0], sums[1], len(rows.reference_keys))
    data, stages["result pickled"] = timed(lambda: pickle.dumps(result))
    stages["result size (kB, not seconds)"] = len(data) / 1000
    return stages


def dask_costs(workers: int) -> dict[str, float]:
    """Seconds Dask adds to a run on ``workers`` local workers, besides the scoring."""
    import distributed

    from mteval_core.shards import cluster
    from mteval_core.shards.sums import exactly_summed

    def import_mteval() -> None:
        __import__("mteval_core.shards.partition")

    costs: dict[str, float] = {}
    start = time.perf_counter()
    with cluster._client(distributed, cluster.Cluster(workers=workers), workers) as client:
        client.wait_for_workers(workers)
        costs["cluster start-up"] = time.perf_counter() - start
        _, costs["importing mteval's scoring on every worker"] = timed(
            lambda: client.run(import_mteval)
        )
        tasks = [np.zeros(4)] * workers
        _, costs["a task's round trip (one per worker)"] = timed(
            lambda: client.gather(client.map(exactly_summed, tasks, pure=False))
        )
        start = time.perf_counter()
    costs["cluster shut-down"] = time.perf_counter() - start
    return costs


def print_profile(shard: Path, metrics: tuple[str, ...], workers: list[int]) -> dict:
    stages = shard_stages(shard, metrics)
    print(f"  one shard ({shard.name}), in this process:")
    for name, seconds in stages.items():
        print(f"    {name:48s} {seconds:8.2f}")
    report: dict = {"shard": stages}
    for n in (n for n in workers if n >= 2):
        costs = dask_costs(n)
        print(f"  Dask, {n} local workers:")
        for name, seconds in costs.items():
            print(f"    {name:48s} {seconds:8.2f}")
        report[f"dask_{n}"] = costs
    return report
