"""Benchmark: `mteval compare` against compare-mt 0.2.10 with its defaults, in the same run.

compare-mt's TED sk-en set (../shared/data/compare-mt-ted-sk-en: 2,445 tokenized sentences,
two systems), as whole processes, alternating, several runs each:
  - compare-mt REF SYS1 SYS2                                  (its defaults: no intervals)
  - mteval compare --refs REF --hyps SYS1 SYS2 --reading compare-mt --bootstrap 0
                                                              (the same analyses)
  - mteval compare ... --reading compare-mt                   (ours by default: each bucket
                                                               with a 1,000-resample interval)
First the numbers are checked equal: every value compare-mt prints (BLEU, length ratio, word
F-measure by frequency bucket, the three sentence-bucket tables, both n-gram lists) against
our JSON, at compare-mt's four decimals. compare-mt is not a dependency of the project: give
its command with --compare-mt (e.g. from `python -m venv /tmp/cmt && /tmp/cmt/bin/pip install
compare-mt six`), else it is looked for on PATH.

    python bench/bench_compare.py [--runs 5] [--compare-mt /tmp/cmt/bin/compare-mt]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
from pathlib import Path

from bench_score import compare, executable

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "compare-mt-ted-sk-en"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compare-mt", default=shutil.which("compare-mt"))
    args = parser.parse_args()
    if not DATA.is_dir() or not args.compare_mt:
        print(f"skipped: needs {DATA} and compare-mt (--compare-mt PATH)")
        return 0
    files = [str(DATA / "ref" / "ref.tok.en")]
    files += [str(DATA / "sys" / f"sys{k}.tok.en") for k in (1, 2)]
    ours = [executable("mteval"), "compare", "--refs", files[0], "--hyps", *files[1:]]
    ours += ["--reading", "compare-mt"]
    checked = check_equal(args.compare_mt, files, ours)
    commands = {
        "compare-mt defaults": [args.compare_mt, *files],
        "mteval --bootstrap 0": [*ours, "--bootstrap", "0"],
        "mteval (1,000 resamples)": ours,
    }
    load = os.getloadavg()[0]
    result = compare(commands, args.runs)
    median = result.median
    base = median["compare-mt defaults"]
    print(f"compare-mt TED sk-en: 2 systems x 2,445 sentences, {args.runs} runs each")
    print(f"  numbers equal first: {checked} values of compare-mt's output")
    for name, seconds in median.items():
        runs = ", ".join(f"{t:.2f}" for t in result.times[name])
        print(f"  {name:26s} median {seconds:5.2f} s  ratio {seconds / base:.3f}  (runs: {runs})")
    print(f"  load average (1 min) before {load:.2f}, after {os.getloadavg()[0]:.2f}")
    print("  goal (issue 41): mteval compare at most 0.1x compare-mt's time for its defaults")
    result.save("bench_compare", load=load)
    return 0


def check_equal(compare_mt: str, files: list[str], ours: list[str]) -> int:
    """How many of compare-mt's printed values equal ours (rounded as it prints them); stops
    the benchmark at the first that differs."""
    theirs = subprocess.run([compare_mt, *files], capture_output=True, text=True, check=True)
    mine = subprocess.run(
        [*ours, "--bootstrap", "0", "--format", "json"], capture_output=True, text=True, check=True
    )
    expected = _their_values(theirs.stdout)
    found = _our_values(json.loads(mine.stdout))
    for key, value in expected.items():
        if key[0] == "ngram" and key not in found and value == _last(expected, key[1]):
            continue  # a tie at the list's end: compare-mt orders ties by Python's string hash
        if found.get(key) != value:
            raise SystemExit(f"not equal: {key}: compare-mt {value}, mteval {found.get(key)}")
    return len(expected)


def _last(values: dict[tuple[str, ...], str], side: str) -> str:
    """The salience in the last place of one n-gram list, where ties are cut (the lists are
    kept in the order printed)."""
    return [v for k, v in values.items() if k[:2] == ("ngram", side)][-1]


def _their_values(text: str) -> dict[tuple[str, ...], str]:
    """compare-mt's tables as (table, row label, system) -> printed value, and its n-gram
    lists as ("ngram", a_better or b_better, n-gram) -> salience."""
    values: dict[tuple[str, ...], str] = {}
    table = side = ""
    for line in text.splitlines():
        cells = line.split("\t")
        if line.startswith(("---", "****")):  # a section's or a table's title
            table = line if line.startswith(("--- bucket type:", "--- word fmeas")) else ""
            side = "a_better" if "where sys1>sys2" in line else "b_better"
        elif cells[0] in ("BLEU", "length ratio") and len(cells) == 3:
            for system, cell in zip(("sys1", "sys2"), cells[1:], strict=True):
                values[("scores", cells[0], system)] = cell.split(" ")[0]
        elif table and len(cells) == 3 and cells[1] != "sys1":  # a row, not the header
            for system, cell in zip(("sys1", "sys2"), cells[1:], strict=True):
                values[(table, cells[0], system)] = cell
        elif len(cells) == 2 and " (sys1=" in cells[1]:
            values[("ngram", side, cells[0])] = cells[1].split(" ")[0]
    return values


def _our_values(report: dict) -> dict[tuple[str, ...], str]:
    """Our JSON report in the same keys, each value printed as compare-mt prints it."""
    values: dict[tuple[str, ...], str] = {}
    for bucket in report["scores"]["buckets"]:
        for system, measures in bucket["values"].items():
            values[("scores", "BLEU", system)] = f"{measures['bleu']:.4f}"
            values[("scores", "length ratio", system)] = f"{measures['length_ratio']:.4f}"
    tables = {
        "word_accuracy": ("--- word fmeas by frequency bucket", "f_measure", "{:.4f}"),
        "length_buckets": ("--- bucket type: length, statistic type: BLEU", "bleu", "{:.4f}"),
        "length_difference_buckets": (
            "--- bucket type: len(output)-len(reference), statistic type: count",
            "sentences",
            "{:.0f}",
        ),
        "sentence_bleu_buckets": (
            "--- bucket type: sentence-level BLEU, statistic type: count",
            "sentences",
            "{:.0f}",
        ),
    }
    for key, (title, measure, shown) in tables.items():
        for bucket in report[key]["buckets"]:
            for system, measures in bucket["values"].items():
                values[(title, bucket["label"], system)] = shown.format(measures[measure])
    for side in ("a_better", "b_better"):
        for row in report["ngram_differences"][side]:
            values[("ngram", side, row["ngram"])] = f"{row['salience']:.4f}"
    return values


if __name__ == "__main__":
    raise SystemExit(main())
