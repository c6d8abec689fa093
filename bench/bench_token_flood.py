"""Benchmark: hash flooding of the token table (issue 26). Encodes tokens crafted to collide in
the old compiled table's hash (FNV-1a, unkeyed; ``tests/text/flooding.py`` makes them) and as
many ordinary tokens of the same shape, through both paths a system output takes:
  - the compiled path: ``Vocabulary.encode_texts`` (text/_scan.pyx, its ``TokenIds`` table)
  - the Python path: the Python tokenizer, then ``Vocabulary.encode`` (dicts of str)
Medians of several runs in this process, and the ratio crafted / ordinary: near 1 when the table
resists flooding. The tokens are 20 a line; every one is new to the vocabulary, the worst case.
No shared data is needed.

    python bench/bench_token_flood.py [--tokens 131072] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bench_score import median_seconds

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.text.flooding crafts them
from mteval_core.engine.tokens import Vocabulary
from mteval_core.settings.options import Options
from mteval_core.text import tokenizers
from tests.text.flooding import fnv1a_colliding_tokens, lines_of, ordinary_tokens


def compiled_path(lines: list[str]) -> Vocabulary:
    vocabulary = Vocabulary()
    vocabulary.encode_texts(lines, Options())
    return vocabulary


def python_path(lines: list[str]) -> Vocabulary:
    compiled, tokenizers._scan = tokenizers._scan, None
    try:
        vocabulary = Vocabulary()
        vocabulary.encode(tokenizers.tokenize(lines, Options()))
        return vocabulary
    finally:
        tokenizers._scan = compiled


def longest_probe(lines: list[str]) -> str:
    """The compiled table's longest probe sequence on these lines, where the table counts it."""
    if not hasattr(tokenizers._scan.TokenIds, "longest_probe"):
        return "not counted"
    return str(compiled_path(lines)._compiled_table.longest_probe)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tokens", type=int, default=131_072)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    inputs = {
        "ordinary": lines_of(ordinary_tokens(args.tokens)),
        "crafted": lines_of(fnv1a_colliding_tokens(args.tokens)),
    }
    paths: dict[str, Callable[[list[str]], Vocabulary]] = {"Python path": python_path}
    if tokenizers._scan is not None:
        paths = {"compiled path": compiled_path, **paths}
    size = sum(len(line.encode("utf-8")) + 1 for line in inputs["crafted"]) / 1e6
    print(
        f"{args.tokens:,} distinct tokens ({size:.1f} MB as UTF-8), median of {args.runs} runs, "
        f"load {os.getloadavg()[0]:.2f}"
    )
    for path_name, path in paths.items():
        times = {
            kind: median_seconds(partial(path, lines), args.runs) for kind, lines in inputs.items()
        }
        ratio = times["crafted"] / times["ordinary"]
        print(
            f"  {path_name:14s} ordinary {times['ordinary']:7.3f} s  crafted "
            f"{times['crafted']:7.3f} s  ratio {ratio:6.1f}"
        )
    if tokenizers._scan is not None:
        probes = {kind: longest_probe(lines) for kind, lines in inputs.items()}
        print(f"  longest probe  ordinary {probes['ordinary']}  crafted {probes['crafted']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
