"""Run one task per shard, in this process or on dask.distributed, and add up the results.

Dask is imported here only, when a run asks for it: the base install and the in-memory path
never load it. A local run starts a ``LocalCluster`` of worker processes (one thread each: the
tokenizers and sacreBLEU's chrF and TER hold the GIL), a ``--scheduler`` run connects to a running
cluster whose workers can read the shard paths (a shared file system) and import mteval.

Results are added in shard order, whatever order the tasks finish in: float sums that are not
exact (see ``sums``) then come out the same from run to run.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING

from mteval_core.errors import InputError
from mteval_core.shards.coverage import ShardIndex
from mteval_core.shards.partition import PartitionResult, PartitionTask, score_partition
from mteval_core.shards.sums import Sums

if TYPE_CHECKING:
    from distributed import Client, Future

DASK_HINT = 'Install it with pip install "mteval[dask]", or run without Dask: --workers 0.'
CONNECT_TIMEOUT = "20s"  # to reach a --scheduler
# Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536. Setting it turns off glibc's
# adaptive mmap threshold, so every numpy array over 128 kB is mapped and unmapped afresh: our
# scoring took 1.5x as long (200k segments: 32 s, against 21 s in this process). Local workers
# start without it; mteval_core.engine.memory hands freed memory back after each large step instead.
WORKER_MALLOC_SETTING = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"


@dataclass(frozen=True)
class Cluster:
    """Where the shards are scored: ``scheduler``'s cluster, else ``workers`` local worker
    processes (None: one per CPU core, at most one per shard; 0: in this process, no Dask)."""

    workers: int | None = None
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.scheduler is not None and self.workers is not None:
            raise InputError(
                "--workers and --scheduler do not go together",
                hint="--workers starts a local cluster; a --scheduler cluster has its own "
                "workers. Give one of them.",
            )


@dataclass
class Corpus:
    """The shards' results added up, and what the checks across shards need."""

    sums: Sums = field(default_factory=Sums)
    indexes: list[ShardIndex] = field(default_factory=list)
    n_references: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, result: PartitionResult) -> None:
        self.sums = self.sums.plus(result.sums)
        self.indexes.append(result.index)
        self.n_references = result.n_references
        self.notes += result.notes


def score_shards(tasks: Sequence[PartitionTask], cluster: Cluster) -> Corpus:
    """Score every shard where ``cluster`` says, and add up the results in shard order."""
    corpus = Corpus()
    for result in results_in_order(tasks, cluster):
        corpus.add(result)
    return corpus


def results_in_order(tasks: Sequence[PartitionTask], cluster: Cluster) -> Iterator[PartitionResult]:
    """Every task's result, in the order of ``tasks``; a task's InputError is raised here."""
    if cluster.scheduler is None and cluster.workers == 0:
        yield from map(score_partition, tasks)
        return
    distributed = _import_distributed()
    with _client(distributed, cluster, len(tasks)) as client:
        futures = client.map(_scored, tasks, pure=False)  # one task per shard
        yield from _in_order(distributed, futures, [task.path for task in tasks])


def _in_order(
    distributed: ModuleType, futures: list[Future], paths: Sequence[str]
) -> Iterator[PartitionResult]:
    """Results as ``futures`` finish, held back until those before them are out."""
    position = {future.key: k for k, future in enumerate(futures)}
    waiting: dict[int, PartitionResult] = {}
    ready = 0
    for future in distributed.as_completed(futures):
        k = position[future.key]
        try:
            result = future.result()  # a bug's exception is raised here
        except distributed.KilledWorker:
            raise InputError(
                "the Dask worker scoring this shard died (out of memory?)",
                origin=paths[k],
                hint="Split the shard into smaller ones, or run fewer workers (--workers).",
            ) from None
        future.release()
        if isinstance(result, InputError):
            raise result
        waiting[k] = result
        while ready in waiting:
            yield waiting.pop(ready)
            ready += 1


def _scored(task: PartitionTask) -> PartitionResult | InputError:
    """``score_partition`` on a worker, a user's error returned rather than raised: a worker
    logs a raised exception as a failure of its own, lines of traceback on stderr."""
    try:
        return score_partition(task)
    except InputError as error:
        return error


def _import_distributed() -> ModuleType:
    try:
        import distributed
    except ImportError:
        raise InputError(
            "scoring shards on Dask needs dask.distributed, which is not installed",
            hint=DASK_HINT,
        ) from None
    return distributed


@contextmanager
def _client(distributed: ModuleType, cluster: Cluster, n_tasks: int) -> Iterator[Client]:
    if cluster.scheduler is not None:
        try:
            client = distributed.Client(cluster.scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as error:
            raise InputError(
                f"cannot reach the Dask scheduler at {cluster.scheduler} ({error})",
                hint="Check the address (e.g. tcp://host:8786) and that the scheduler runs, "
                "or leave out --scheduler to start a local cluster.",
            ) from None
        with client:
            yield client
        return
    import dask

    workers = cluster.workers or min(os.cpu_count() or 1, n_tasks)
    with (
        dask.config.set({WORKER_MALLOC_SETTING: None}),
        distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,  # no dashboard; its HTTP server on any free port, so that
            scheduler_kwargs={"dashboard_address": ":0"},  # a busy 8787 warns nobody
            silence_logs=logging.ERROR,
        ) as local,
        distributed.Client(local) as client,
    ):
        yield client
