"""Benchmark: peak memory of `mteval score` (all seven metrics) beside sacreBLEU's BLEU, as the
test set grows.

WMT17 en-de's reference and its first 4 systems (../shared/data/wmt17-newstest2017-ende), each
repeated R times (R = 16 gives 48,064 segments x 4 systems, 1 reference), written to a temporary
folder; then, as whole processes, one after the other:
  - sacrebleu REF -i SYS1..SYS4 -m bleu
  - mteval score --refs REF --hyps SYS1..SYS4 --metrics bleu,nist,precision,recall,f1,fmean,gtm
Peak resident memory comes from the kernel (ru_maxrss of the finished process). With two or more
sizes, the report adds the growth per million segments between the two largest: the memory that
scales with the data, without the interpreter and the imports.

    python bench/bench_memory.py [--repeats 16 64]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from bench_score import DATA, executable, run

METRICS = "bleu,nist,precision,recall,f1,fmean,gtm"
N_SYSTEMS = 4


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


def measure(repeats: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        ref, systems, n_segments = write_repeated(Path(folder), repeats)
        sacrebleu = [executable("sacrebleu"), ref, "-i", *systems, "-m", "bleu", "-f", "text"]
        mteval = [executable("mteval"), "score", "--refs", ref, "--hyps", *systems]
        mteval += ["--metrics", METRICS, "--format", "json"]
        sacre_s, sacre_mb = run(sacrebleu)
        mteval_s, mteval_mb = run(mteval)
    return {
        "repeats": repeats,
        "segments": n_segments,
        "sacrebleu_peak_mb": sacre_mb,
        "mteval_peak_mb": mteval_mb,
        "ratio": mteval_mb / sacre_mb,
        "sacrebleu_seconds": sacre_s,
        "mteval_seconds": mteval_s,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, nargs="+", default=[16, 64])
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"skipped: {DATA} is not available")
        return 0
    rows = [measure(repeats) for repeats in sorted(args.repeats)]
    print(f"load average {os.getloadavg()[0]:.2f}; {N_SYSTEMS} systems, 1 reference; {METRICS}")
    for row in rows:
        print(
            f"  {row['segments']:>9,} segments: sacreBLEU {row['sacrebleu_peak_mb']:7.0f} MB "
            f"({row['sacrebleu_seconds']:.1f} s), mteval {row['mteval_peak_mb']:7.0f} MB "
            f"({row['mteval_seconds']:.1f} s), ratio {row['ratio']:.2f} (goal <= 0.5)"
        )
    report: dict[str, object] = {"rows": rows}
    if len(rows) >= 2:
        small, large = rows[-2], rows[-1]
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
        report["mb_per_million_segments"] = per_million
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "bench_memory.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
