"""Run one task per shard, in this process or on dask.distributed, and add up the results.

Dask is imported here only, when a run asks for it: the base install and the in-memory path
never load it. A local run starts a ``LocalCluster`` of worker processes (one thread each: the
tokenizers and sacreBLEU's chrF and TER hold the GIL), a ``--scheduler`` run connects to a running
cluster whose workers can read the shard paths (a shared file system) and import mteval.

Results are added in shard order, whatever order the tasks finish in: float sums that are not
exact (see ``sums``) then come out the same from run to run.

Dask waits without a word for a cluster that has lost its workers, or its scheduler: while
waiting for results the run looks at its cluster every ``POLL_SECONDS`` and stops with a message
once the cluster has had no worker for ``NO_WORKERS_SECONDS``, or its futures were cancelled (the
scheduler stopped). A failed run cancels the shards not yet started and tells those running, by
a Dask ``Event``, to remove the segment-score file they write: the driver removes the ones
already written, and a late one would outlive it.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

from mteval_core.errors import InputError
from mteval_core.metrics import REGISTRY
from mteval_core.shards.coverage import ShardIndex
from mteval_core.shards.nist_counts import corpus_counts, count_shard
from mteval_core.shards.partition import PartitionResult, PartitionTask, score_partition
from mteval_core.shards.sums import Sums

if TYPE_CHECKING:
    from distributed import Client, Future

Result = TypeVar("Result")

DASK_HINT = 'Install it with pip install "mteval-core[dask]", or run without Dask: --workers 0.'
CONNECT_SECONDS = 20.0  # to reach a --scheduler
# Dask's connect timeout does not cover a server that accepts the connection and never answers
# (the dashboard's HTTP port, say): the run gives up on such a server this much later.
ANSWER_GRACE_SECONDS = 5.0
# Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536. Setting it turns off glibc's
# adaptive mmap threshold, so every numpy array over 128 kB is mapped and unmapped afresh: our
# scoring took 1.5x as long (200k segments: 32 s, against 21 s in this process). Local workers
# start without it; mteval_core.engine.memory hands freed memory back after each large step instead.
WORKER_MALLOC_SETTING = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
POLL_SECONDS = 1.0  # how often a run waiting for results looks at its cluster
NO_WORKERS_SECONDS = 30.0  # a cluster without a worker this long stops the run
# What the driver's last call to a scheduler that went away may raise (CommClosedError is an
# OSError; a closed connection pool a RuntimeError).
LOST = (OSError, RuntimeError, TimeoutError)
# What making a client of an address that is no scheduler raises: a refused or timed-out
# connection (OSError), a malformed address (ValueError), a tls:// address without TLS settings
# (TypeError), a server whose first bytes Dask reads as a frame length of exabytes (MemoryError).
UNREACHABLE = (OSError, ValueError, TypeError, MemoryError)


@dataclass(frozen=True)
class Cluster:
    """Where the shards are scored: ``scheduler``'s cluster, else ``workers`` local worker
    processes (None: one per CPU core, at most one per shard; 0 or 1: in this process, no
    Dask)."""

    workers: int | None = None
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.scheduler is not None and self.workers is not None:
            raise InputError(
                "--workers and --scheduler do not go together",
                hint="--workers starts a local cluster; a --scheduler cluster has its own "
                "workers. Give one of them.",
            )
        if self.scheduler is not None and not self.scheduler.strip():
            raise InputError(
                "--scheduler needs the address of a Dask scheduler",
                hint="e.g. --scheduler tcp://HOST:8786, or leave it out to start a local cluster.",
            )

    def worker_died(self, shards: Sequence[str]) -> InputError:
        """Dask does not know which task of a dead worker killed it: every shard it was
        scoring fails with it, and the message names them all."""
        instead = (
            "give the workers more memory (dask worker --memory-limit)"
            if self.scheduler
            else "run fewer workers (--workers)"
        )
        if len(shards) == 1:
            problem = "the Dask worker scoring this shard died (out of memory?)"
        else:
            others = ", ".join(shards[1:4]) + (", ..." if len(shards) > 4 else "")
            problem = (
                f"the Dask workers scoring this shard and {len(shards) - 1} more ({others}) died "
                "(out of memory?); any of these shards may be the cause"
            )
        return InputError(
            problem, origin=shards[0], hint=f"Split the shard into smaller ones, or {instead}."
        )

    def no_workers(self) -> InputError:
        seconds = f"{NO_WORKERS_SECONDS:g} s"
        if self.scheduler:
            return InputError(
                f"the Dask scheduler at {self.scheduler} has had no workers for {seconds}, so "
                "no shard can be scored",
                hint=f"Start workers with: dask worker {self.scheduler} (they need mteval and "
                "the shard files), or leave out --scheduler to score on this machine.",
            )
        return InputError(
            f"the local Dask cluster has had no workers for {seconds} (they died and were not "
            "restarted: out of memory?)",
            hint="Run fewer workers (--workers N), or score in this process: --workers 0.",
        )

    def lost(self, shard: str | None = None) -> InputError:
        """The scheduler went away (its futures were cancelled, or it no longer answers)."""
        where = f"the Dask scheduler at {self.scheduler}" if self.scheduler else "the Dask cluster"
        return InputError(
            f"lost {where}" + (": the scoring of this shard was cancelled" if shard else ""),
            origin=shard,
            hint="Did the scheduler stop? Start it (and its workers) again, and run again.",
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
    """Score every shard where ``cluster`` says, and add up the results in shard order. With
    a metric that needs the corpus's counts (NIST), a first pass counts the reference n-grams
    of every shard (``nist_counts``), and each shard is scored with the whole corpus's counts
    of its n-grams."""
    if any(REGISTRY[name].needs_corpus_counts for name in tasks[0].metric_names):
        counts = corpus_counts(
            [task.path for task in tasks],
            tasks[0].options,
            lambda counting: list(results_in_order(counting, cluster, count_shard)),
        )
        tasks = [
            replace(task, corpus_counts=shard) for task, shard in zip(tasks, counts, strict=True)
        ]
    corpus = Corpus()
    for result in results_in_order(tasks, cluster):
        corpus.add(result)
    return corpus


def results_in_order(
    tasks: Sequence[PartitionTask],
    cluster: Cluster,
    work: Callable[[PartitionTask], Result] | None = None,
) -> Iterator[Result]:
    """``work``'s result of every task (None: ``score_partition``'s, looked up when the task
    runs), in the order of ``tasks``; a task's InputError is raised here."""
    if cluster.scheduler is None and local_workers(cluster, len(tasks)) <= 1:
        yield from map(work or score_partition, tasks)
        return
    distributed = _import_distributed()
    with _client(distributed, cluster, len(tasks)) as client:
        # this run's Event, set if it fails; a local cluster's workers end before the driver
        # removes the segment-score files, a scheduler's go on
        abandoned = f"mteval-abandoned-{uuid.uuid4().hex}" if cluster.scheduler else None
        futures = client.map(_scored, tasks, abandoned=abandoned, work=work, pure=False)
        watch = _Watch(client, cluster)
        try:
            yield from _in_order(distributed, futures, [task.path for task in tasks], watch)
        except BaseException:
            _abandon(distributed, client, futures, abandoned)
            raise


def _in_order(
    distributed: ModuleType, futures: list[Future], paths: Sequence[str], watch: _Watch
) -> Iterator[Result]:
    """Results as ``futures`` finish, held back until those before them are out."""
    position = {future.key: k for k, future in enumerate(futures)}
    waiting: dict[int, Result] = {}
    ready = 0
    pending = set(futures)
    while pending:
        finished = sorted(_finished(distributed, pending, watch), key=lambda f: position[f.key])
        pending.difference_update(finished)
        died = [paths[position[f.key]] for f in finished if _killed_worker(distributed, f)]
        if died:
            raise watch.cluster.worker_died(died)
        for future in finished:
            k = position[future.key]
            if future.cancelled():
                raise watch.cluster.lost(paths[k])
            result = future.result()  # a bug's exception is raised here
            future.release()
            if isinstance(result, InputError):
                raise result
            waiting[k] = result
        while ready in waiting:
            yield waiting.pop(ready)
            ready += 1


def _finished(distributed: ModuleType, pending: set[Future], watch: _Watch) -> list[Future]:
    """The futures of ``pending`` that are done, once one is; meanwhile ``watch`` looks at the
    cluster every POLL_SECONDS."""
    while True:
        try:
            with watch.client.as_current():  # our client is no default (set_as_default=False)
                distributed.wait(list(pending), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
        except TimeoutError:
            watch.check()
            continue
        except CancelledError:  # the scheduler is gone: the caller says so, naming a shard
            pass
        return [future for future in pending if future.done()]


def _killed_worker(distributed: ModuleType, future: Future) -> bool:
    """Whether the task failed because the workers running it died (KilledWorker)."""
    return future.status == "error" and isinstance(future.exception(), distributed.KilledWorker)


@dataclass
class _Watch:
    """Notices a cluster that has had no worker for NO_WORKERS_SECONDS: Dask would wait for one
    forever."""

    client: Client
    cluster: Cluster
    since: float | None = None  # when the cluster was first seen without workers

    def check(self) -> None:
        try:
            workers = self.client.nthreads()
        except LOST:
            raise self.cluster.lost() from None
        if workers:
            self.since = None
            return
        now = time.monotonic()
        if self.since is None:
            self.since = now
        if now - self.since >= NO_WORKERS_SECONDS:
            raise self.cluster.no_workers()


def _abandon(
    distributed: ModuleType, client: Client, futures: list[Future], name: str | None
) -> None:
    """The run failed: shards not started never start, and those running remove the segment
    scores they write (``_scored``). A scheduler that is gone (the client is reconnecting) runs
    nothing, and asking it would wait for the connect timeout."""
    if client.status != "running":
        return
    with suppress(*LOST):
        if name is not None:
            distributed.Event(name, client=client).set()
        client.cancel(futures)


def _scored(
    task: PartitionTask,
    abandoned: str | None = None,
    work: Callable[[PartitionTask], Result] | None = None,
) -> Result | InputError:
    """``work`` (None: ``score_partition``; or NIST's first pass) on a worker, a user's error
    returned rather than raised: a worker logs a raised exception as a failure of its own,
    lines of traceback on stderr. If the run was given up meanwhile (the Event ``abandoned``
    is set), the shard's segment-score file, written after the driver removed the others, is
    removed here."""
    try:
        result: Result | InputError = (work or score_partition)(task)
    except InputError as error:
        result = error
    writes = work is None and task.segment_scores is not None
    if writes and abandoned is not None and _given_up(abandoned):
        task.segment_scores.staging_path_for(task.path).unlink(missing_ok=True)
    return result


def _given_up(name: str) -> bool:
    """Whether the driver set the Event ``name``; a scheduler that cannot be asked means yes
    (the driver's futures went with it)."""
    import distributed

    try:
        return bool(distributed.Event(name).is_set())
    except LOST:
        return True


def local_workers(cluster: Cluster, n_tasks: int) -> int:
    """How many local worker processes score the shards: as asked, else one per core (at most
    one per shard). One worker scores in this process, without Dask: a cluster of one process
    does the same work and adds its start-up (3-4 s), the pickling of every task and result,
    and a second process's memory."""
    if cluster.workers is not None:
        return cluster.workers
    return min(os.cpu_count() or 1, n_tasks)


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
        with _connected(distributed, cluster.scheduler) as client:
            yield client
        return
    import dask

    workers = local_workers(cluster, n_tasks)
    with (
        dask.config.set({WORKER_MALLOC_SETTING: None}),
        distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,  # no dashboard; its HTTP server on any free port, so that
            scheduler_kwargs={"dashboard_address": ":0"},  # a busy 8787 warns nobody
            # a worker's death is our message (KilledWorker), not the scheduler's log line too
            silence_logs=logging.CRITICAL,
        ) as local,
        distributed.Client(local, set_as_default=False) as client,
    ):
        yield client


def _connected(distributed: ModuleType, address: str) -> Client:
    """A client of the scheduler at ``address``, or a message within CONNECT_SECONDS (and the
    grace): the client is made on a thread of its own, which a server that never answers
    leaves waiting (a daemon thread, so it does not hold up the exit)."""
    clients: list[Client] = []
    errors: list[Exception] = []

    def connect() -> None:
        try:
            clients.append(
                distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
            )
        except Exception as error:  # reported by the caller, in words where it is the user's
            errors.append(error)

    thread = threading.Thread(target=connect, name="mteval-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + ANSWER_GRACE_SECONDS)
    if clients:
        return clients[0]
    if errors and not isinstance(errors[0], UNREACHABLE):
        raise errors[0]  # a bug: its traceback
    raise _unreachable(address, errors[0] if errors else None)


def _unreachable(address: str, error: Exception | None) -> InputError:
    """Why the scheduler at ``address`` cannot be used, in words; None: it did not answer."""
    hint = (
        "Check the address: a scheduler listens on tcp://HOST:8786 unless told otherwise (8787 "
        "is its dashboard). Or leave out --scheduler to start a local cluster."
    )
    if error is None:
        seconds = f"{CONNECT_SECONDS + ANSWER_GRACE_SECONDS:g} s"
        return InputError(f"no Dask scheduler answered at {address} within {seconds}", hint=hint)
    if isinstance(error, MemoryError):  # the server's first bytes read as a huge frame length
        return InputError(
            f"the server at {address} does not speak Dask's protocol (is it a web server?)",
            hint=hint,
        )
    if isinstance(error, TypeError | ValueError) and address.startswith("tls://"):
        return InputError(
            f"cannot reach the Dask scheduler at {address} ({error})",
            hint="A tls:// scheduler needs Dask's TLS settings (distributed.comm.tls in the Dask "
            "configuration: its CA file, and the client's certificate and key).",
        )
    return InputError(f"cannot reach the Dask scheduler at {address} ({error})", hint=hint)
