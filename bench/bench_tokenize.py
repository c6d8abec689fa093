"""Benchmark: tokens and token ids of WMT17 en-de (the reference and 16 systems, 51,068 lines),
three ways, in this process, median of several runs:
  - sacreBLEU's 13a tokenizer, then a dictionary of ids (what a Python scorer does)
  - mteval's Python path: the regular-expression tokenizer, then ``Vocabulary.encode``
  - mteval's compiled path: ``Vocabulary.encode_texts`` (text/_scan.pyx, one pass)
sacreBLEU's tokenizer caches lines (lru_cache); every run here uses a fresh tokenizer.

    python bench/bench_tokenize.py [--runs 5]
"""

from __future__ import annotations

import os
from functools import partial

from bench_score import DATA, arguments, median_seconds

from mteval_core.engine.tokens import Vocabulary
from mteval_core.settings.options import Options
from mteval_core.text import tokenizers


def wmt17_lines() -> list[str]:
    paths = [DATA / "ref" / "ref.de", *sorted((DATA / "sys").iterdir())]
    return [line for p in paths for line in p.read_text(encoding="utf-8").split("\n")[:-1]]


def sacrebleu_ids(lines: list[str]) -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenizer, ids = Tokenizer13a(), {}
    for line in lines:
        for token in tokenizer(line.rstrip()).split():
            ids.setdefault(token, len(ids))


def python_ids(lines: list[str]) -> None:
    compiled, tokenizers._scan = tokenizers._scan, None
    try:
        Vocabulary().encode(tokenizers.tokenize(lines, Options()))
    finally:
        tokenizers._scan = compiled


def compiled_ids(lines: list[str]) -> None:
    Vocabulary().encode_texts(lines, Options())


def main() -> int:
    args = arguments(__doc__, default_runs=5)
    if args is None:
        return 0
    if tokenizers._scan is None:
        print("skipped: mteval was built without its compiled tokenizer")
        return 0
    lines = wmt17_lines()
    ways = {
        "sacreBLEU 13a + ids": sacrebleu_ids,
        "Python path": python_ids,
        "compiled path": compiled_ids,
    }
    times = {name: median_seconds(partial(work, lines), args.runs) for name, work in ways.items()}
    print(f"{len(lines):,} lines, median of {args.runs} runs, load {os.getloadavg()[0]:.2f}")
    for name, seconds in times.items():
        ratio = seconds / times["sacreBLEU 13a + ids"]
        print(f"  {name:22s} {seconds:6.3f} s  ratio to sacreBLEU {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
