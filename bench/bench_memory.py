"""Benchmark: peak memory of `mteval score` beside sacreBLEU's BLEU, as the test set grows, and
what holds it.

WMT17 en-de's reference and its first 4 systems (../shared/data/wmt17-newstest2017-ende), each
repeated R times (R = 16 gives 48,064 segments x 4 systems, 1 reference), written to a temporary
folder; then, as whole processes, alternating, ``--runs`` rounds of:
  - sacrebleu REF -i SYS1..SYS4 -m bleu
  - mteval score --refs REF --hyps SYS1..SYS4 --metrics bleu,nist,precision,recall,f1,fmean,gtm
The first round checks that both give the same BLEU (4 decimals) for every system. Peak resident
memory comes from the kernel (ru_maxrss of the finished process); the report gives each size's
medians with the load average, and the growth per million segments between the two largest sizes:
the memory that scales with the data, without the interpreter and the imports.

``--breakdown`` also scores the smallest size in this process under tracemalloc and prints what
holds memory: each structure's bytes per segment (the text, the statistics of each kind, the
references' tokens and n-gram index) and the 10 lines that allocated most of what is held.

    python bench/bench_memory.py [--repeats 16 64] [--runs 3] [--breakdown]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench_score import DATA, executable

METRICS = "bleu,nist,precision,recall,f1,fmean,gtm"
N_SYSTEMS = 4
DECIMALS = 4  # sacreBLEU's -w: BLEU is compared at this many decimals


def write_repeated(folder: Path, repeats: int) -> tuple[str, list[str], int]:
    """The reference and N_SYSTEMS systems, each line block repeated ``repeats`` times."""
    sources = [DATA / "ref" / "ref.de", *sorted((DATA / "sys").iterdir())[:N_SYSTEMS]]
    paths = []
    for source in sources:
        text = source.read_text(encoding="utf-8")
        path = folder / source.name
        path.write_text(text * repeats, encoding="utf-8")
        paths.append(str(path))
    n_segments = text.count("\n") * repeats
    return paths[0], paths[1:], n_segments


def run(command: list[str], output: Path) -> tuple[float, float]:
    """Wall time in seconds and peak resident memory in MB of one whole process; its standard
    output goes to ``output``."""
    start = time.perf_counter()
    with output.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def check_equal_bleu(sacrebleu_json: str, mteval_json: str, systems: list[str]) -> None:
    """Stop unless sacreBLEU and mteval give every system the same BLEU."""
    theirs = {Path(row["system"]).stem: row["BLEU"] for row in json.loads(sacrebleu_json)}
    ours = json.loads(mteval_json)["scores"]
    for system in (Path(path).stem for path in systems):
        mine = f"{ours[system]['bleu']:.{DECIMALS}f}"
        if mine != theirs[system]:
            raise SystemExit(f"BLEU of {system}: sacreBLEU {theirs[system]}, mteval {mine}")


def measure(repeats: int, runs: int) -> dict[str, float]:
    """Medians of ``runs`` alternating rounds at one size, after checking the numbers agree."""
    with tempfile.TemporaryDirectory() as folder:
        ref, systems, n_segments = write_repeated(Path(folder), repeats)
        sacrebleu = [executable("sacrebleu"), ref, "-i", *systems, "-m", "bleu"]
        sacrebleu += ["-f", "json", "-w", str(DECIMALS)]
        mteval = [executable("mteval"), "score", "--refs", ref, "--hyps", *systems]
        mteval += ["--metrics", METRICS, "--format", "json"]
        outputs = {tool: Path(folder) / f"{tool}.json" for tool in ("sacrebleu", "mteval")}
        load_before = os.getloadavg()[0]
        rounds = []
        for done in range(runs):
            rounds.append({"sacrebleu": run(sacrebleu, outputs["sacrebleu"])})
            rounds[-1]["mteval"] = run(mteval, outputs["mteval"])
            if done == 0:
                check_equal_bleu(*(out.read_text() for out in outputs.values()), systems)
        row: dict[str, float] = {"repeats": repeats, "segments": n_segments}
        for tool in ("sacrebleu", "mteval"):
            row[f"{tool}_seconds"] = statistics.median(r[tool][0] for r in rounds)
            row[f"{tool}_peak_mb"] = statistics.median(r[tool][1] for r in rounds)
            row[f"{tool}_peaks_mb"] = [r[tool][1] for r in rounds]
        row["ratio"] = row["mteval_peak_mb"] / row["sacrebleu_peak_mb"]
        row["load"] = (load_before + os.getloadavg()[0]) / 2
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--breakdown", action="store_true")
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"skipped: {DATA} is not available")
        return 0
    print(f"{N_SYSTEMS} systems, 1 reference; {METRICS}; medians of {args.runs} alternating runs")
    rows = []
    for repeats in sorted(args.repeats):
        row = measure(repeats, args.runs)
        rows.append(row)
        print(
            f"  {row['segments']:>9,} segments: sacreBLEU {row['sacrebleu_peak_mb']:7.0f} MB "
            f"({row['sacrebleu_seconds']:.1f} s), mteval {row['mteval_peak_mb']:7.0f} MB "
            f"({row['mteval_seconds']:.1f} s), ratio {row['ratio']:.2f} (goal <= 0.3); "
            f"BLEU equal; load average {row['load']:.2f}",
            flush=True,
        )
    report: dict[str, object] = {"rows": rows}
    if len(rows) >= 2:
        report["mb_per_million_segments"] = print_growth(rows[-2], rows[-1])
    if args.breakdown:
        from memory_breakdown import print_breakdown

        with tempfile.TemporaryDirectory() as folder:
            ref, systems, n_segments = write_repeated(Path(folder), min(args.repeats))
            report["breakdown"] = print_breakdown(ref, systems, n_segments, METRICS.split(","))
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "bench_memory.json").write_text(json.dumps(report, indent=2))
    return 0


def print_growth(small: dict[str, float], large: dict[str, float]) -> dict[str, float]:
    """Each tool's growth of peak memory per million segments between two sizes."""
    per_million = {
        tool: (large[f"{tool}_peak_mb"] - small[f"{tool}_peak_mb"])
        / (large["segments"] - small["segments"])
        * 1e6
        for tool in ("sacrebleu", "mteval")
    }
    print(
        f"  growth per million segments: sacreBLEU {per_million['sacrebleu']:,.0f} MB, "
        f"mteval {per_million['mteval']:,.0f} MB (goal <= 1,000 MB)"
    )
    return per_million


if __name__ == "__main__":
    raise SystemExit(main())
