"""Benchmark: every metric of `mteval score` against sacreBLEU's BLEU alone, in the same run.

Scores all 16 WMT17 en-de systems x 3,004 segments (../shared/data/wmt17-newstest2017-ende):
  - sacreBLEU's command line, BLEU only:        sacrebleu REF -i SYS... -m bleu
  - mteval's command line, all its metrics:     mteval score --refs REF --hyps SYS... --metrics ...
Both are timed as whole processes (start-up and file reading included), alternating, several
runs each; the report gives medians, the ratio mteval / sacreBLEU and each one's peak memory.

    python bench/bench_score.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wmt17-newstest2017-ende"
METRICS = "bleu,nist,precision,recall,f1,fmean,gtm"  # all seven of the papers' metrics


def run(command: list[str]) -> tuple[float, float]:
    """Wall time in seconds and peak resident memory in MB of one whole process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    return elapsed, usage.ru_maxrss / 1024


def median_seconds(work: Callable[[], object], runs: int) -> float:
    """The median wall time of ``runs`` calls of ``work`` in this process."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def executable(name: str) -> str:
    """A command of this Python's environment (e.g. .venv/bin/mteval), else from PATH."""
    return shutil.which(name, path=str(Path(sys.executable).parent)) or name


def arguments(doc: str, default_runs: int) -> argparse.Namespace | None:
    """The benchmark's command line, or None (after saying so) when the data is not there."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--runs", type=int, default=default_runs)
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"skipped: {DATA} is not available")
        return None
    return args


def wmt17_files() -> tuple[str, list[str]]:
    """The reference and the 16 system outputs of WMT17 en-de."""
    return str(DATA / "ref" / "ref.de"), sorted(str(p) for p in (DATA / "sys").iterdir())


def main() -> int:
    args = arguments(__doc__, default_runs=5)
    if args is None:
        return 0
    ref, systems = wmt17_files()
    commands = {
        "sacrebleu bleu": [
            executable("sacrebleu"),
            ref,
            "-i",
            *systems,
            "-m",
            "bleu",
            "-f",
            "text",
        ],
        "mteval all metrics": [
            executable("mteval"),
            "score",
            "--refs",
            ref,
            "--hyps",
            *systems,
            "--metrics",
            METRICS,
            "--format",
            "json",
        ],
    }
    result = compare(commands, args.runs)
    ratio = result.median["mteval all metrics"] / result.median["sacrebleu bleu"]
    print(f"WMT17 en-de: {len(systems)} systems x 3,004 segments, {args.runs} runs each")
    result.print_table()
    print(f"  ratio mteval / sacreBLEU: {ratio:.2f}  (goal: <= 0.2, issue 24; metrics: {METRICS})")
    result.save("bench_score", ratio=ratio)
    return 0


@dataclass
class Comparison:
    """Wall times and peak memory of several commands, run alternately."""

    times: dict[str, list[float]]
    peak_mb: dict[str, float]

    @property
    def median(self) -> dict[str, float]:
        return {name: statistics.median(values) for name, values in self.times.items()}

    def print_table(self) -> None:
        base = self.median.get("sacrebleu bleu")
        for name, values in self.times.items():
            median = self.median[name]
            ratio = f"  ratio to sacreBLEU {median / base:.2f}" if base else ""
            runs = ", ".join(f"{t:.2f}" for t in values)
            print(
                f"  {name:20s} median {median:6.2f} s{ratio}  peak {self.peak_mb[name]:.0f} MB"
                f"  (runs: {runs})"
            )

    def save(self, name: str, **extra: float) -> None:
        report = {"median_seconds": self.median, "runs": self.times, "peak_mb": self.peak_mb}
        out = Path(__file__).parent / "results"
        out.mkdir(exist_ok=True)
        (out / f"{name}.json").write_text(json.dumps({**report, **extra}, indent=2))


def compare(commands: dict[str, list[str]], runs: int) -> Comparison:
    """One warm-up run each (file cache, compiled files), then ``runs`` alternating rounds."""
    result = Comparison({name: [] for name in commands}, dict.fromkeys(commands, 0.0))
    for command in commands.values():
        run(command)
    for _ in range(runs):
        for name, command in commands.items():
            elapsed, peak = run(command)
            result.times[name].append(elapsed)
            result.peak_mb[name] = max(result.peak_mb[name], peak)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
