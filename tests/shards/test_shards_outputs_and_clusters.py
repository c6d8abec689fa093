"""Where `mteval score --shards` meets the machine (issue 26): the --segment-scores-out folder
(names that are no folder, a folder nobody may write in, a full disk, file names taken by
folders) and the Dask cluster (a scheduler without workers, a worker that dies, a scheduler that
stops or is no scheduler). Each is one message, exit status 2, within a bounded time, and a run
that fails leaves no segment-score file of its own (an older run's stay)."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mteval_core.cli import main, score_shards
from mteval_core.shards import cluster, segment_scores

try:
    import dask
    import distributed
except ImportError:  # the folder tests run all the same
    dask = distributed = None
needs_dask = pytest.mark.skipif(distributed is None, reason="needs dask.distributed")

HEADER = "system\tsegment\thypothesis\treference\n"
FIRST = HEADER + "A\t1\tthe cat\tthe cat\nB\t1\tcat\tthe cat\n"
SECOND = HEADER + "A\t2\ta dog\tthe dog\nB\t2\tdog\tthe dog\n"
BAD = FIRST.replace("hypothesis", "hypo", 1)  # no hypothesis column: refused on reading


def shard_folder(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "shards"
    folder.mkdir()
    for name, text in files.items():
        (folder / name.replace("_", ".")).write_text(text, encoding="utf-8")
    return folder


def score(capsys, *args: str) -> tuple[int, str]:
    code = main(["score", "--metrics", "bleu", *args])
    captured = capsys.readouterr()
    return code, captured.err


def files_under(folder: Path) -> set[Path]:
    return set(folder.rglob("*"))


# ------------------------------------------------------------------ the segment-score folder
@pytest.fixture
def tsv_out(monkeypatch) -> None:
    """Segment scores as TSV, as without pyarrow: these tests need no pyarrow."""
    monkeypatch.setattr(score_shards, "default_format", lambda: "tsv")


@pytest.mark.parametrize(
    ("folder", "message"),
    [
        (
            "{d}/a-file/scores",
            "{d}/a-file/scores: --segment-scores-out: {d}/a-file is a file, not a",
        ),
        ("{d}/a-file", "{d}/a-file: --segment-scores-out: this is a file, not a folder"),
        ("{d}/sc\0res", "{d}/sc\\0res: --segment-scores-out: a folder name cannot hold a NUL byte"),
        ("{d}/" + "x" * 300, "x: --segment-scores-out: this is no folder name: File name too long"),
        ("/proc/mteval-scores", "/proc/mteval-scores: --segment-scores-out: cannot write in this"),
    ],
    ids=["under-a-file", "a-file", "nul-byte", "name-too-long", "proc"],
)
def test_a_folder_that_cannot_be_written_is_refused_before_any_work(
    tmp_path, capsys, tsv_out, folder, message
):
    if folder.startswith("/proc") and not Path("/proc/self").exists():
        pytest.skip("needs Linux's /proc")
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=SECOND)
    (tmp_path / "a-file").write_text("not a folder\n", encoding="utf-8")
    before = files_under(tmp_path)
    d = str(tmp_path)
    code, err = score(capsys, "--shards", str(shards), "--workers", "0",
                      "--segment-scores-out", folder.format(d=d))  # fmt: skip
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("mteval: error: "), err
    assert message.format(d=d) in err
    assert files_under(tmp_path) == before


def test_a_file_name_taken_by_a_folder_is_refused_before_any_work(tmp_path, capsys, tsv_out):
    """The second shard's file name is a folder: refused before any shard is scored, so the
    first shard's file is neither written nor published, and nothing else is touched."""
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=SECOND)
    out = tmp_path / "scores"
    (out / "b.segment-scores.tsv").mkdir(parents=True)
    code, err = score(capsys, "--shards", str(shards), "--workers", "0",
                      "--segment-scores-out", str(out))  # fmt: skip
    assert code == 2
    assert f"{out}: --segment-scores-out: b.segment-scores.tsv is a folder, where the " in err
    assert files_under(out) == {out / "b.segment-scores.tsv"}


def test_a_file_name_taken_during_the_run_publishes_no_file(tmp_path, capsys, monkeypatch, tsv_out):
    """A folder appears at the second shard's file name while the shards are scored: publishing
    checks every name first, so the first shard's file is not published either, and every file
    of the run is removed; an older run's file stays as it was."""
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=SECOND)
    out = tmp_path / "scores"
    out.mkdir()
    older = out / "a.segment-scores.tsv"
    older.write_text("an older run's scores\n", encoding="utf-8")
    check_coverage = score_shards.check_coverage

    def coverage_then_a_folder(indexes):
        (out / "b.segment-scores.tsv").mkdir()
        return check_coverage(indexes)

    monkeypatch.setattr(score_shards, "check_coverage", coverage_then_a_folder)
    code, err = score(capsys, "--shards", str(shards), "--workers", "0",
                      "--segment-scores-out", str(out))  # fmt: skip
    assert code == 2
    assert "b.segment-scores.tsv is a folder" in err
    assert files_under(out) == {older, out / "b.segment-scores.tsv"}
    assert older.read_text(encoding="utf-8") == "an older run's scores\n"


@pytest.mark.parametrize("form", ["tsv", "parquet"])
def test_a_full_disk_is_one_message_and_leaves_no_file(tmp_path, capsys, monkeypatch, form):
    """The disk fills up while the second shard's file is written (half of it is on disk): one
    message naming the folder, and no file of the run is left, in a folder the run made."""
    if form == "parquet":
        pytest.importorskip("pyarrow")
    monkeypatch.setattr(score_shards, "default_format", lambda: form)
    write_table = segment_scores._write_table

    def fills_the_disk(path, form, systems, segments, scores):
        if path.name.startswith("b."):
            path.write_bytes(b"half a file")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        write_table(path, form, systems, segments, scores)

    monkeypatch.setattr(segment_scores, "_write_table", fills_the_disk)
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=SECOND)
    out = tmp_path / "scores" / "new"
    code, err = score(capsys, "--shards", str(shards), "--workers", "0",
                      "--segment-scores-out", str(out))  # fmt: skip
    assert code == 2
    assert err.count("\n") == 1
    assert (
        f"{out}: --segment-scores-out: cannot write b.segment-scores.{form}: the disk is full. "
        "Free space on that disk, or give a folder on another one." in err
    )
    assert not (tmp_path / "scores").exists()


def test_a_folder_the_run_made_is_removed_when_a_shard_is_refused(tmp_path, capsys, tsv_out):
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=BAD)
    out = tmp_path / "scores" / "new"
    code, err = score(capsys, "--shards", str(shards), "--workers", "0",
                      "--segment-scores-out", str(out))  # fmt: skip
    assert code == 2 and "there is no 'hypothesis' column" in err
    assert not (tmp_path / "scores").exists()


# ------------------------------------------------------------------------------ Dask clusters
@pytest.fixture
def quick_watch(monkeypatch) -> None:
    """A cluster without workers is given up after 1 s, looked at every 0.1 s."""
    monkeypatch.setattr(cluster, "NO_WORKERS_SECONDS", 1.0)
    monkeypatch.setattr(cluster, "POLL_SECONDS", 0.1)


def scheduler_here() -> distributed.LocalCluster:
    """A scheduler in this process with no worker of its own, on TCP (not inproc://, which
    a worker process could not reach)."""
    return distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp", dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},
    )  # fmt: skip


@pytest.fixture
def no_workers():
    with scheduler_here() as local:
        yield local


@pytest.fixture
def two_threads():
    """A scheduler in this process with one worker of two threads, in this process too."""
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},
    ) as local:  # fmt: skip
        yield local


class Run(threading.Thread):
    """`mteval score` on a thread, so that a test can act on the cluster meanwhile; a daemon,
    so that a run that never ends fails its test (``finish``) without holding up pytest."""

    def __init__(self, *args: str) -> None:
        super().__init__(daemon=True)
        self.args = ["score", "--metrics", "bleu", *args]
        self.code: int | None = None

    def run(self) -> None:
        self.code = main(self.args)

    def finish(self, capsys, seconds: float = 60) -> tuple[int, str]:
        self.join(seconds)
        assert not self.is_alive(), f"the run was still waiting after {seconds} s"
        assert self.code is not None
        return self.code, capsys.readouterr().err


# A worker preload (a module run as the worker starts): scoring a shard whose name starts with
# "crash" ends the worker process at once, as the kernel's out-of-memory killer does; scoring any
# shard first touches the file MTEVAL_TEST_STARTED and, with MTEVAL_TEST_STUCK set, never ends.
PRELOAD = """
import os, threading
from pathlib import Path
import mteval_core.shards.cluster as cluster

score_partition = cluster.score_partition

def scoring(task):
    if os.environ.get("MTEVAL_TEST_STARTED"):
        Path(os.environ["MTEVAL_TEST_STARTED"]).touch()
    if Path(task.path).name.startswith("crash"):
        os._exit(1)
    if os.environ.get("MTEVAL_TEST_STUCK"):
        threading.Event().wait()
    return score_partition(task)

cluster.score_partition = scoring
"""


def preload(tmp_path: Path) -> str:
    path = tmp_path / "mteval_test_preload.py"
    path.write_text(PRELOAD, encoding="utf-8")
    return str(path)


def wait_for(path: Path, seconds: float = 60) -> None:
    """Until ``path`` exists (a worker has started scoring): a deadline, not a timing."""
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"no worker started scoring within {seconds} s"
        time.sleep(0.05)


@pytest.fixture
def stuck_worker(tmp_path):
    """start(scheduler) -> a `dask worker` process (no nanny: killed, it stays dead) whose shards
    never finish, once it has joined the scheduler; and the file that says it has started one."""
    started = tmp_path / "started"
    workers: list[subprocess.Popen] = []

    def start(local: distributed.LocalCluster) -> tuple[subprocess.Popen, Path]:
        environment = dict(os.environ, MTEVAL_TEST_STARTED=str(started), MTEVAL_TEST_STUCK="1")
        address = local.scheduler_address
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny",
             "--nthreads", "1", "--no-dashboard", "--preload", preload(tmp_path)],
            env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        workers.append(worker)
        local.wait_for_workers(1, timeout=60)
        return worker, started

    yield start
    for worker in workers:
        worker.kill()
        worker.wait()


@needs_dask
def test_a_scheduler_without_workers_stops_the_run_with_a_message(
    tmp_path, capsys, quick_watch, no_workers
):
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=SECOND)
    address = no_workers.scheduler_address
    run = Run("--shards", str(shards), "--scheduler", address)
    run.start()
    code, err = run.finish(capsys)
    assert code == 2
    assert (
        f"mteval: error: the Dask scheduler at {address} has had no workers for 1 s, so no shard "
        f"can be scored. Start workers with: dask worker {address}" in err
    )


@needs_dask
def test_the_run_stops_when_the_only_worker_dies(tmp_path, capsys, quick_watch, no_workers,
                                                  stuck_worker):  # fmt: skip
    """The worker dies while it scores a shard (killed: no nanny restarts it): Dask would wait
    for another worker forever; the run says that there is none."""
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=SECOND)
    address = no_workers.scheduler_address
    worker, started = stuck_worker(no_workers)
    run = Run("--shards", str(shards), "--scheduler", address)
    run.start()
    wait_for(started)
    worker.kill()
    code, err = run.finish(capsys)
    assert code == 2
    assert f"the Dask scheduler at {address} has had no workers for 1 s" in err


@needs_dask
def test_a_scheduler_that_stops_is_one_message_naming_a_shard(
    tmp_path, capsys, quick_watch, stuck_worker
):
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=SECOND)
    with scheduler_here() as local:
        address = local.scheduler_address
        _, started = stuck_worker(local)
        run = Run("--shards", str(shards), "--scheduler", address)
        run.start()
        wait_for(started)
        local.close()  # the scheduler stops while a worker scores a shard
        code, err = run.finish(capsys)
    assert code == 2
    assert f"lost the Dask scheduler at {address}" in err and "Did the scheduler stop?" in err


@needs_dask
def test_a_shard_that_kills_its_local_worker_is_named(tmp_path, capsys):
    """A local worker process dies scoring a shard (Dask then fails the task: KilledWorker)."""
    shards = shard_folder(tmp_path, a_tsv=FIRST, crash_tsv=SECOND)
    settings = {
        "distributed.worker.preload": [preload(tmp_path)],
        "distributed.scheduler.allowed-failures": 0,  # the first death fails the task
    }
    with dask.config.set(settings):
        code, err = score(capsys, "--shards", str(shards), "--workers", "2")
    assert code == 2
    assert err.count("\n") == 1, err
    assert "died (out of memory?)" in err and str(shards / "crash.tsv") in err
    assert "Split the shard into smaller ones, or run fewer workers (--workers)." in err


@needs_dask
def test_a_failed_run_leaves_no_file_of_a_shard_still_being_scored(
    tmp_path, capsys, monkeypatch, tsv_out, two_threads
):
    """On a --scheduler, a shard still running when the run fails writes its segment scores
    after the driver has removed the others: the worker removes it, told by the run's Event.
    Threads in this process: the scoring function can be held until the driver is done."""
    started, resume, written = threading.Event(), threading.Event(), threading.Event()
    score_partition = cluster.score_partition

    def scoring(task):
        if Path(task.path).name == "a.tsv":
            started.set()
            resume.wait(60)
            try:
                return score_partition(task)
            finally:
                written.set()
        started.wait(60)  # the bad shard fails once the good one runs
        return score_partition(task)

    monkeypatch.setattr(cluster, "score_partition", scoring)
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=BAD)
    out = tmp_path / "scores"  # made before the run, so the run leaves it (and a late file)
    out.mkdir()
    code, err = score(capsys, "--shards", str(shards), "--scheduler",
                      two_threads.scheduler_address, "--segment-scores-out", str(out))  # fmt: skip
    assert code == 2 and "there is no 'hypothesis' column" in err
    resume.set()  # the good shard goes on, after the run has failed and cleaned up
    assert written.wait(60)
    deadline = time.monotonic() + 30  # the worker removes its file just after ``written``
    while any(out.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(out.iterdir()) == []


# -------------------------------------------------------------------- schedulers that are not
@pytest.fixture
def quick_connect(monkeypatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    monkeypatch.setattr(cluster, "ANSWER_GRACE_SECONDS", 1.0)


def listening(answer: bytes | None) -> tuple[socket.socket, str]:
    """A local TCP server: with ``answer``, it sends that to whoever connects and hangs up;
    without, it never answers (the kernel accepts the connections all the same)."""
    server = socket.create_server(("127.0.0.1", 0))
    if answer is not None:

        def serve() -> None:
            with server:
                while True:
                    try:
                        connection, _ = server.accept()
                    except OSError:  # closed by the test
                        return
                    with connection:
                        connection.sendall(answer)

        threading.Thread(target=serve, daemon=True).start()
    return server, f"tcp://127.0.0.1:{server.getsockname()[1]}"


@needs_dask
@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (None, "no Dask scheduler answered at {address} within 2 s. Check the address"),
        (b"HTTP/1.1 400 Bad Request\r\n\r\n", "the server at {address} does not speak Dask's"),
    ],
    ids=["never-answers", "a-web-server"],
)
def test_a_server_that_is_no_scheduler_is_a_message_within_the_timeout(
    tmp_path, capsys, quick_connect, answer, message
):
    shards = shard_folder(tmp_path, a_tsv=FIRST, b_tsv=SECOND)
    server, address = listening(answer)
    with server:
        run = Run("--shards", str(shards), "--scheduler", address)
        run.start()
        code, err = run.finish(capsys)
    assert code == 2
    assert message.format(address=address) in err
    assert "8787 is its dashboard" in err


def test_an_empty_scheduler_address_is_refused(tmp_path, capsys):
    shards = shard_folder(tmp_path, a_tsv=FIRST)
    code, err = score(capsys, "--shards", str(shards), "--scheduler", " ")
    assert code == 2
    assert "--scheduler needs the address of a Dask scheduler" in err
