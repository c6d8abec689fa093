"""Benchmark: chrF and chrF++ of `mteval score` against sacreBLEU's, whole processes.

Scores all 16 WMT17 en-de systems x 3,004 segments (../shared/data/wmt17-newstest2017-ende):
  - sacrebleu REF -i SYS... -m chrf [--chrf-word-order 2]
  - mteval score --refs REF --hyps SYS... --metrics chrf (chrf++)
timed as whole processes (start-up and file reading included), alternating, medians of several
runs; it first checks that every system's score is the same (sacreBLEU prints 4 decimals, so the
scores are compared rounded to them) and reports the ratio mteval / sacreBLEU (goal: <= 0.1).

    python bench/bench_chrf.py [--runs 3]
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from bench_score import arguments, compare, executable, wmt17_files

METRICS = {"chrf": [], "chrf++": ["--chrf-word-order", "2"]}


def sacrebleu_command(ref: str, systems: list[str], extra: list[str]) -> list[str]:
    """sacreBLEU's chrF (or chrF++), every system, JSON with 4 decimals."""
    return [executable("sacrebleu"), ref, "-i", *systems, "-m", "chrf", *extra, "-f", "json"]


def mteval_command(ref: str, systems: list[str], metric: str) -> list[str]:
    return [
        executable("mteval"),
        "score",
        "--refs",
        ref,
        "--hyps",
        *systems,
        "--metrics",
        metric,
        "--format",
        "json",
    ]


def check_equal(ref: str, systems: list[str], metric: str, extra: list[str]) -> None:
    """Every system's sacreBLEU score equals mteval's rounded to sacreBLEU's 4 decimals."""
    ours = json.loads(
        subprocess.run(mteval_command(ref, systems, metric), capture_output=True, check=True).stdout
    )
    theirs = json.loads(
        subprocess.run(
            [*sacrebleu_command(ref, systems, extra), "-w", "4"], capture_output=True, check=True
        ).stdout
    )
    theirs = {
        Path(entry["system"]).stem: float(value)
        for entry in theirs
        for key, value in entry.items()
        if key != "system"
    }
    mine = {name: round(scores[metric], 4) for name, scores in ours["scores"].items()}
    if mine != theirs:
        raise SystemExit(f"{metric}: scores differ\n  sacreBLEU {theirs}\n  mteval    {mine}")


def main() -> int:
    args = arguments(__doc__, default_runs=3)
    if args is None:
        return 0
    ref, systems = wmt17_files()
    print(f"WMT17 en-de: {len(systems)} systems x 3,004 segments, {args.runs} runs each")
    ratios = {}
    for metric, extra in METRICS.items():
        check_equal(ref, systems, metric, extra)
        commands = {
            f"sacrebleu {metric}": sacrebleu_command(ref, systems, extra),
            f"mteval {metric}": mteval_command(ref, systems, metric),
        }
        result = compare(commands, args.runs)
        ratios[metric] = result.median[f"mteval {metric}"] / result.median[f"sacrebleu {metric}"]
        print(f"{metric} (scores checked equal)")
        result.print_table()
        print(f"  ratio mteval / sacreBLEU: {ratios[metric]:.3f}  (goal: <= 0.1)")
        result.save(f"bench_chrf_{metric.replace('+', 'p')}", ratio=ratios[metric])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
