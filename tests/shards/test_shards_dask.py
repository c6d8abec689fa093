"""On dask.distributed: the same numbers as in this process, errors as one line that names the
shard, and a clear message where Dask is missing. Few tests, each a few seconds."""

from __future__ import annotations

import json
import sys

import pytest

from mteval_core.cli import main
from mteval_core.shards import cluster
from mteval_core.stats.bootstrap import BootstrapOptions

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    """An in-process cluster (threads, no worker processes: fast to start), by its address."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},
    ) as local:
        yield local.scheduler_address


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def json_of(capsys, *args: str) -> dict:
    code, out, err = run(capsys, *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


BOOTSTRAP = ["--metrics", "bleu,chrf,f1", "--bootstrap", "200", "--seed", "3"]


def test_a_local_cluster_of_worker_processes_gives_the_in_process_numbers(
    sample, write_shards, capsys
):
    """`--workers 2` (the default kind of run: a LocalCluster of processes) against one shard in
    this process: the same scores, intervals and paired tests."""
    one = json_of(
        capsys, "--shards", str(write_shards(sample, "tsv", 1)), "--workers", "0", *BOOTSTRAP
    )
    several = write_shards(sample, "parquet", 4, "blocks")
    on_dask = json_of(capsys, "--shards", str(several), "--workers", "2", *BOOTSTRAP)
    for key in ("signature", "scores", "ci", "pairs"):
        assert on_dask[key] == one[key], key
    assert on_dask["bootstrap"] == {
        "n_resamples": 200,
        "seed": 3,
        "confidence": 0.95,
        "note": BootstrapOptions(200).too_few_for_intervals,  # 200: fewer than 1,000
        "method": "poisson",
    }


def test_a_scheduler_runs_the_shards_and_writes_segment_scores(
    sample, write_shards, tmp_path, capsys, scheduler
):
    folder = write_shards(sample, "jsonl", 3, "segments")
    in_process = json_of(capsys, "--shards", str(folder), "--workers", "0", *BOOTSTRAP)
    out = tmp_path / "segment-scores"
    on_dask = json_of(
        capsys, "--shards", str(folder), "--scheduler", scheduler, *BOOTSTRAP,
        "--segment-scores-out", str(out),
    )  # fmt: skip
    assert {k: on_dask[k] for k in ("scores", "ci", "pairs")} == {
        k: in_process[k] for k in ("scores", "ci", "pairs")
    }
    assert sorted(p.name for p in out.iterdir()) == [
        f"part-{k}.segment-scores.parquet" for k in range(3)
    ]


def test_a_bad_shard_on_a_worker_is_one_line_naming_it(sample, write_shards, capsys, scheduler):
    folder = write_shards(sample, "tsv", 3)
    bad = folder / "part-1.tsv"
    bad.write_text(
        bad.read_text(encoding="utf-8").replace("hypothesis", "hypo", 1), encoding="utf-8"
    )
    code, out, err = run(
        capsys, "--shards", str(folder), "--scheduler", scheduler, "--metrics", "bleu"
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert f"{bad}, line 1: there is no 'hypothesis' column" in err


def test_without_dask_the_message_says_what_to_install(sample, write_shards, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    folder = write_shards(sample, "tsv", 2)
    code, _, err = run(capsys, "--shards", str(folder), "--metrics", "bleu")
    assert code == 2
    assert "needs dask.distributed, which is not installed" in err
    assert 'pip install "mteval-core[dask]"' in err and "--workers 0" in err
    code, _, err = run(capsys, "--shards", str(folder), "--metrics", "bleu", "--workers", "0")
    assert code == 0, err  # and without Dask, in this process


def test_an_unreachable_scheduler_is_a_clear_message(sample, write_shards, capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    folder = write_shards(sample, "tsv", 1)
    code, _, err = run(capsys, "--shards", str(folder), "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err


def test_local_workers_start_without_dasks_malloc_setting(monkeypatch):
    """Dask's nannies set MALLOC_TRIM_THRESHOLD_, which turns off glibc's adaptive mmap threshold
    (scoring took 1.5x as long); our local workers start without it, and keep Dask's others."""
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    with cluster._client(distributed, cluster.Cluster(workers=1), n_tasks=1) as client:
        environments = client.run(lambda: dict(__import__("os").environ))
    (environment,) = environments.values()
    assert "MALLOC_TRIM_THRESHOLD_" not in environment
    assert environment.get("OMP_NUM_THREADS") == "1"
