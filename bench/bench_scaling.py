"""Benchmark: `mteval score` in memory against the sharded path on Dask, as the corpus grows.

A synthetic corpus from WMT17 en-de (../shared/data/wmt17-newstest2017-ende): its reference and
first 4 systems, repeated until the size asked for, every copy's lines made distinct by a suffix
(" #2", " #3", ...: no two segments are the same text, so no cache of repeated segments helps).
Each size is written twice to a temporary folder: as plain files (one segment per line) for the
in-memory path, and as Parquet shards of 100,000 rows (25,000 segments x 4 systems) for the
sharded path. Then, as whole processes, one after the other:
  - mteval score --refs REF --hyps SYS1..SYS4 --metrics M
  - mteval score --shards FOLDER --workers N --metrics M      for each N of --workers
Wall time is the whole process (start-up, reading, Dask's cluster). Memory covers the process
and all its descendants (Dask's nannies and workers), three ways:
  - tree: the peak of their summed resident memory, sampled every 0.1 s (a spike between two
    samples is missed; shared library pages count once per process);
  - sum of peaks: the sum of each process's own peak (Linux's VmHWM): misses no spike, but adds
    peaks that need not coincide, so an upper bound;
  - largest: the largest peak of any one process (the kernel's ru_maxrss of the finished
    process, which covers its waited-for descendants: with Dask, usually a worker).

With --profile, each size first prints where one shard's time goes, stage by stage (reading,
checking, tokenizing, statistics, pickling the result) and what Dask adds for each N >= 2 of
--workers (start-up, importing mteval on the workers, a task's round trip): see
shard_profile.py. Every line says the load average, as the machine is shared.

    python bench/bench_scaling.py [--sizes 1000 10000 100000] [--workers 1 2 4] [--runs 1]
                                  [--metrics bleu,chrf,f1] [--bootstrap 0] [--profile]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import psutil
from bench_score import DATA, executable
from shard_profile import print_profile

N_SYSTEMS = 4
SEGMENTS_PER_SHARD = 25_000  # x 4 systems: 100,000 rows per Parquet shard
POLL_SECONDS = 0.1
DEFAULT_METRICS = "bleu,chrf,f1"  # chrF: sacreBLEU's per-segment statistics, the slowest part


# ------------------------------------------------------------------------------- the corpus
def corpus_line(lines: list[str], index: int) -> str:
    """Line ``index`` of ``lines`` repeated without end, copy c > 1 suffixed with " #c"."""
    copy = index // len(lines) + 1
    return lines[index % len(lines)] + ("" if copy == 1 else f" #{copy}")


def write_corpus(folder: Path, n_segments: int) -> tuple[list[str], list[str], Path]:
    """Plain files (reference, systems) and a folder of Parquet shards of the same corpus,
    written a shard's lines at a time. Run in a process of its own (``written_corpus``)."""
    import pyarrow
    import pyarrow.parquet

    sources = {"ref": DATA / "ref" / "ref.de"}
    sources |= {p.name.split(".")[0]: p for p in sorted((DATA / "sys").iterdir())[:N_SYSTEMS]}
    lines = {
        name: path.read_text(encoding="utf-8").split("\n")[:-1] for name, path in sources.items()
    }
    shards = folder / "shards"
    shards.mkdir()
    plain = {name: (folder / f"{name}.de").open("w", encoding="utf-8") for name in lines}
    systems = [name for name in lines if name != "ref"]
    for first in range(0, n_segments, SEGMENTS_PER_SHARD):
        block = range(first, min(first + SEGMENTS_PER_SHARD, n_segments))
        texts = {name: [corpus_line(lines[name], i) for i in block] for name in lines}
        for name, out in plain.items():
            out.write("".join(text + "\n" for text in texts[name]))
        table = {
            "system": [name for name in systems for _ in block],
            "segment": [i + 1 for _ in systems for i in block],
            "hypothesis": [text for name in systems for text in texts[name]],
            "reference": texts["ref"] * len(systems),
        }
        path = shards / f"part-{first // SEGMENTS_PER_SHARD:05d}.parquet"
        pyarrow.parquet.write_table(pyarrow.table(table), path)
    for out in plain.values():
        out.close()
    return [str(folder / "ref.de")], [str(folder / f"{name}.de") for name in systems], shards


def written_corpus(folder: Path, n_segments: int) -> tuple[list[str], list[str], Path]:
    """``write_corpus`` in a spawned process: this one stays small, because a child's ru_maxrss
    starts at its parent's peak (Linux counts the parent's memory at exec), and pyarrow alone
    would add 100 MB to every measured process."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(write_corpus, folder, n_segments).result()


def in_spawned(shard: Path, metrics: tuple[str, ...], args: argparse.Namespace) -> dict:
    """``shard_profile.print_profile`` in a spawned process, as ``written_corpus``: mteval and
    pyarrow would otherwise add to every measured process's peak."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(print_profile, shard, metrics, args.workers).result()


# ------------------------------------------------------------------------------ measuring
def run_tree(command: list[str]) -> dict[str, float]:
    """Wall time; the sampled peak of the tree's summed RSS; the sum of each process's own peak
    (VmHWM, as last sampled: no spike between samples is missed, but the peaks of different
    processes need not coincide, so an upper bound); the largest single process's peak."""
    with tempfile.TemporaryFile() as errors, tempfile.TemporaryFile() as output:
        start = time.perf_counter()  # (files: a pipe could fill up and stop the process)
        process = subprocess.Popen(command, stdout=output, stderr=errors)
        root, tree_peak, own_peaks = psutil.Process(process.pid), 0, {}
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            tree_peak = max(tree_peak, _sample_tree(root, own_peaks))
            time.sleep(POLL_SECONDS)
        elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status):
            errors.seek(0)
            raise SystemExit(f"failed: {' '.join(command)}\n{errors.read().decode()}")
        output.seek(0)
        scores = json.loads(output.read())["scores"]
    return {
        "scores": scores,
        "seconds": elapsed,
        "tree_peak_mb": tree_peak / 2**20,
        "sum_of_process_peaks_mb": sum(own_peaks.values()) / 2**20,
        "largest_process_mb": usage.ru_maxrss / 1024,
    }


def _sample_tree(root: psutil.Process, own_peaks: dict[int, int]) -> int:
    """The tree's summed RSS now; records each process's own peak (VmHWM) in ``own_peaks``."""
    try:
        processes = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for process in processes:
        try:
            total += process.memory_info().rss
            peak = _high_water_mark(process.pid)  # 0 once it has ended (a zombie)
            own_peaks[process.pid] = max(own_peaks.get(process.pid, 0), peak)
        except (psutil.NoSuchProcess, FileNotFoundError, ProcessLookupError):  # just ended
            continue
    return total


def _high_water_mark(pid: int) -> int:
    """A process's peak resident memory in bytes, from Linux's /proc/PID/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def measure(n_segments: int, args: argparse.Namespace) -> list[dict]:
    """Every configuration on one corpus size, ``args.runs`` times each."""
    mteval = [executable("mteval"), "score", "--metrics", args.metrics, "--format", "json"]
    if args.bootstrap:
        mteval += ["--bootstrap", str(args.bootstrap)]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        references, systems, shards = written_corpus(Path(folder), n_segments)
        commands = {"in-memory": [*mteval, "--refs", *references, "--hyps", *systems]}
        for workers in args.workers:
            commands[f"sharded, {workers} workers"] = [
                *mteval, "--shards", str(shards), "--workers", str(workers)
            ]  # fmt: skip
        n_shards = len(list(shards.iterdir()))
        expected: dict | None = None
        if args.profile:
            print(f"  profile, {n_segments:,} segments, load {os.getloadavg()[0]:.2f}:")
            first = sorted(shards.iterdir())[0]
            metrics = tuple(args.metrics.split(","))
            rows.append({"segments": n_segments, "profile": in_spawned(first, metrics, args)})
        for name, command in commands.items():
            load = os.getloadavg()[0]
            runs = [run_tree(command) for _ in range(args.runs)]
            expected = expected or runs[0]["scores"]  # the in-memory command's, first
            for run in runs:
                check_equal(run.pop("scores"), expected, name)
            rows.append(
                {
                    "segments": n_segments,
                    "shards": n_shards,
                    "configuration": name,
                    "median_seconds": statistics.median(r["seconds"] for r in runs),
                    "tree_peak_mb": max(r["tree_peak_mb"] for r in runs),
                    "sum_of_process_peaks_mb": max(r["sum_of_process_peaks_mb"] for r in runs),
                    "largest_process_mb": max(r["largest_process_mb"] for r in runs),
                    "runs_seconds": [r["seconds"] for r in runs],
                    "load_before": load,
                }
            )
            print_row(rows[-1])
    return rows


def check_equal(scores: dict, expected: dict, name: str) -> None:
    """A configuration's scores are the in-memory command's: exactly, but for statistics that
    are not whole numbers (NIST's), summed in another order (relative 1e-12)."""
    for system, by_metric in expected.items():
        for metric, value in by_metric.items():
            got = scores[system][metric]
            if got != value and abs(got - value) > 1e-12 * abs(value):
                raise SystemExit(f"{name}: {system} {metric} is {got}, in memory {value}")


def print_row(row: dict) -> None:
    print(
        f"  {row['segments']:>9,} segments ({row['shards']} shards)  {row['configuration']:20s}"
        f"  {row['median_seconds']:7.1f} s  tree {row['tree_peak_mb']:6.0f} MB"
        f"  sum of peaks {row['sum_of_process_peaks_mb']:6.0f} MB"
        f"  largest {row['largest_process_mb']:6.0f} MB  load {row['load_before']:.2f}",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--metrics", default=DEFAULT_METRICS)
    parser.add_argument("--bootstrap", type=int, default=0, metavar="R")
    parser.add_argument("--profile", action="store_true", help="where one shard's time goes")
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"skipped: {DATA} is not available")
        return 0
    print(
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; {N_SYSTEMS} systems, "
        f"1 reference; metrics {args.metrics}; bootstrap {args.bootstrap}; {args.runs} run(s)"
    )
    rows = [row for size in sorted(args.sizes) for row in measure(size, args)]
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    report = {"settings": vars(args), "rows": rows}
    suffix = "" if args.metrics == DEFAULT_METRICS else "_" + args.metrics.replace(",", "-")
    suffix += f"_bootstrap{args.bootstrap}" if args.bootstrap else ""
    (out / f"bench_scaling{suffix}.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
