"""Benchmark: TER of `mteval score` against sacreBLEU's, whole processes.

Scores all 16 WMT17 en-de systems x 3,004 segments (../shared/data/wmt17-newstest2017-ende):
  - sacrebleu REF -i SYS... -m ter
  - mteval score --refs REF --hyps SYS... --metrics ter
timed as whole processes (start-up and file reading included), alternating, medians of several
runs, with the load average before and after (the machine may be shared) and each process's CPU
time (user + system, less disturbed by other work than wall time). It first checks that every
system's score is the same (sacreBLEU prints 4 decimals, so the scores are compared rounded to
them; that first run of each is the warm-up) and reports the ratio mteval / sacreBLEU (goal:
<= 0.1).

    python bench/bench_ter.py [--runs 3]
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import time
from pathlib import Path

from bench_chrf import mteval_command
from bench_score import arguments, executable, wmt17_files


def sacrebleu_command(ref: str, systems: list[str]) -> list[str]:
    """sacreBLEU's TER (its defaults: case-insensitive, as mteval's), every system, JSON with 4
    decimals."""
    return [executable("sacrebleu"), ref, "-i", *systems, "-m", "ter", "-f", "json", "-w", "4"]


def check_equal(ours_json: str, theirs_json: str) -> None:
    """Every system's sacreBLEU TER equals mteval's rounded to sacreBLEU's 4 decimals."""
    theirs = {
        Path(entry["system"]).stem: float(value)
        for entry in json.loads(theirs_json)
        for key, value in entry.items()
        if key != "system"
    }
    ours = json.loads(ours_json)["scores"]
    mine = {name: round(scores["ter"], 4) for name, scores in ours.items()}
    if mine != theirs:
        raise SystemExit(f"ter: scores differ\n  sacreBLEU {theirs}\n  mteval    {mine}")
    print(f"  {len(mine)} systems' TER equal to sacreBLEU's (4 decimals)", flush=True)


def timed(command: list[str]) -> tuple[float, float, str]:
    """Wall time and CPU time (user + system) in seconds of one whole process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{done.stderr}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu, done.stdout


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> int:
    args = arguments(__doc__, default_runs=3)
    if args is None:
        return 0
    ref, systems = wmt17_files()
    print(f"WMT17 en-de: {len(systems)} systems x 3,004 segments, {args.runs} runs each")
    print(f"load average before: {load()} ({os.cpu_count()} cores)", flush=True)
    commands = {
        "sacrebleu ter": sacrebleu_command(ref, systems),
        "mteval ter": mteval_command(ref, systems, "ter"),
    }
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for round_number in range(args.runs):
        outputs = {}
        for name, command in commands.items():
            elapsed, used, outputs[name] = timed(command)
            wall[name].append(elapsed)
            cpu[name].append(used)
            print(
                f"  run {round_number + 1} {name}: {elapsed:.2f} s wall, {used:.2f} s CPU, "
                f"load {load()}",
                flush=True,
            )
        if round_number == 0:  # the scores, checked once
            check_equal(outputs["mteval ter"], outputs["sacrebleu ter"])
    for name in commands:
        print(
            f"  {name:14s} median {statistics.median(wall[name]):7.2f} s wall, "
            f"{statistics.median(cpu[name]):7.2f} s CPU"
        )
    ratio = statistics.median(wall["mteval ter"]) / statistics.median(wall["sacrebleu ter"])
    cpu_ratio = statistics.median(cpu["mteval ter"]) / statistics.median(cpu["sacrebleu ter"])
    print(f"  ratio mteval / sacreBLEU: {ratio:.3f} wall, {cpu_ratio:.3f} CPU  (goal: <= 0.1)")
    print(f"load average after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
