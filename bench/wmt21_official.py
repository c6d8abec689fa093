"""Reproduce WMT21's official BLEU and chrF with `mteval score` (issue #22).

The organisers publish every WMT21 news system output with their automatic scores
(github.com/wmt-conference/wmt21-news-systems: ``txt/`` holds the sources, references and
system outputs as plain text; ``scores/automatic-scores.tsv`` has BLEU and chrF per system,
against each reference (``bleu-A``, ``chrf-B``) and against all of them (``bleu-all``)). This
script scores every language pair with `mteval score` as a user would, with no tokenizer given
(so the target language picks it, as sacreBLEU does: zh for Chinese, 13a otherwise), except
Japanese: WMT21 scored it with `char` (with sacreBLEU's default for Japanese, ja-mecab, en-ja
BLEU is about 15 points lower), so it is given `--tokenize char`. It prints, per pair and
reference, how many systems equal the official figure and the largest difference.

    .venv/bin/python bench/wmt21_official.py PATH/TO/wmt21-news-systems [--pairs en-zh,en-ja]

A checkout is needed (nothing is downloaded here).
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MTEVAL = [sys.executable, "-m", "mteval_core.cli"]
OFFICIAL_TOKENIZERS = {"ja": "char"}  # where WMT21 did not use sacreBLEU's language default
EQUAL = 5e-5  # the official table has full precision; equal to 4 decimals counts as equal


def official_scores(root: Path) -> dict[tuple[str, str], dict[str, float]]:
    """(pair, reference label: A, B, all) -> {system: {'bleu': x, 'chrf': y}}."""
    scores: dict[tuple[str, str], dict[str, dict[str, float]]] = defaultdict(dict)
    with open(root / "scores" / "automatic-scores.tsv", encoding="utf-8") as table:
        for row in csv.DictReader(table, delimiter="\t"):
            metric, _, reference = row["metric"].partition("-")
            scores[(row["pair"], reference)].setdefault(row["system"], {})[metric] = float(
                row["score"]
            )
    return scores


def references_of(root: Path, pair: str) -> dict[str, Path]:
    """Reference label (A, B, ...) -> file, for one pair."""
    target = pair.split("-")[1]
    found = sorted((root / "txt" / "references").glob(f"*.{pair}.ref.*.{target}"))
    return {path.name.split(".")[-2]: path for path in found}


def mteval_scores(root: Path, pair: str, references: list[Path]) -> dict[str, dict[str, float]]:
    """`mteval score` of every system output of ``pair`` against ``references``."""
    target = pair.split("-")[1]
    systems = sorted((root / "txt" / "system-outputs").glob(f"*.{pair}.hyp.*.{target}"))
    command = [*MTEVAL, "score", "--refs", *map(str, references), "--hyps", *map(str, systems)]
    command += ["--metrics", "bleu,chrf", "--format", "json"]
    command += ["--tokenize", OFFICIAL_TOKENIZERS[target]] if target in OFFICIAL_TOKENIZERS else []
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{pair}: {done.stderr.strip()}")
    result = json.loads(done.stdout)
    return {name: values for name, values in result["scores"].items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="a checkout of wmt-conference/wmt21-news-systems")
    parser.add_argument("--pairs", help="comma-separated language pairs (default: all)")
    args = parser.parse_args()
    official = official_scores(args.root)
    pairs = args.pairs.split(",") if args.pairs else sorted({pair for pair, _ in official})
    equal = total = 0
    print(f"{'pair':6} {'ref':4} {'systems':>7} {'BLEU equal':>10} {'max |d|':>9} "
          f"{'chrF equal':>10} {'max |d|':>9}")  # fmt: skip
    for pair in pairs:
        references = references_of(args.root, pair)
        for label in [*sorted(references), "all"]:
            expected = official.get((pair, label))
            if not expected:
                continue
            chosen = list(references.values()) if label == "all" else [references[label]]
            ours = mteval_scores(args.root, pair, chosen)
            row = [f"{pair:6} {label:4} {len(expected):7}"]
            for metric in ("bleu", "chrf"):
                gaps = [
                    abs(ours[system][metric] - values[metric])
                    for system, values in expected.items()
                    if metric in values and system in ours
                ]
                missing = [s for s, v in expected.items() if metric in v and s not in ours]
                hits = sum(gap < EQUAL for gap in gaps)
                equal += hits
                total += len(gaps) + len(missing)
                row.append(f"{hits:>6}/{len(gaps) + len(missing):<3} {max(gaps, default=0):9.5f}")
                if missing:
                    row.append(f"(no output for {', '.join(missing)})")
            print(" ".join(row), flush=True)
    print(f"\n{equal} of {total} official figures reproduced to 4 decimals")
    return 0 if equal == total else 1


if __name__ == "__main__":
    sys.exit(main())
