"""Benchmark: GTM on WMT17 en-de next to sacreBLEU's BLEU, whole processes, in the same run.

The 16 systems x 3,004 segments of ../shared/data/wmt17-newstest2017-ende are tokenized once with
13a (our tokenizer, identical to sacreBLEU's) into a temporary folder, as one would prepare input
for GTM 1.4; then, alternating, several runs each:
  - sacrebleu REF -i SYS... -m bleu                     (on the raw text, its usual use)
  - mteval score ... --metrics gtm --tokenize gtm14 --gtm-exponent 1   (GTM 1.4's default)
  - mteval score ... --metrics gtm --tokenize gtm14 --gtm-exponent 2   (the paper's exponent)
  - mteval score ... --gtm-exponent 2 --gtm-matching exact            (the true maximum matching)
The report gives medians, ratios to sacreBLEU and peak memory. GTM 1.4 itself (Java) is not on this
machine; the issue gives its whole-process time here as about 1.6 s for these 48,064 pairs.

    python bench/bench_gtm.py [--runs 5]
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench_score import DATA, arguments, compare, executable

from mteval_core.text.tokenizers import tokenize_13a


def pretokenize(source: Path, target: Path) -> None:
    lines = source.read_text(encoding="utf-8").split("\n")[:-1]
    target.write_text("".join(" ".join(tokenize_13a(line)) + "\n" for line in lines), "utf-8")


def main() -> int:
    args = arguments(__doc__, default_runs=5)
    if args is None:
        return 0
    with tempfile.TemporaryDirectory() as folder:
        tokenized = Path(folder)
        pretokenize(DATA / "ref" / "ref.de", tokenized / "ref.de")
        (tokenized / "sys").mkdir()
        for path in sorted((DATA / "sys").iterdir()):
            pretokenize(path, tokenized / "sys" / path.name)
        ref = str(tokenized / "ref.de")
        systems = sorted(str(p) for p in (tokenized / "sys").iterdir())
        raw_systems = sorted(str(p) for p in (DATA / "sys").iterdir())
        gtm = [executable("mteval"), "score", "--refs", ref, "--hyps", *systems]
        gtm += ["--metrics", "gtm", "--tokenize", "gtm14", "--format", "json"]
        sacrebleu = [executable("sacrebleu"), str(DATA / "ref" / "ref.de"), "-i", *raw_systems]
        commands = {
            "sacrebleu bleu": [*sacrebleu, "-m", "bleu", "-f", "text"],
            "gtm e=1": [*gtm, "--gtm-exponent", "1"],
            "gtm e=2": [*gtm, "--gtm-exponent", "2"],
            "gtm e=2 exact": [*gtm, "--gtm-exponent", "2", "--gtm-matching", "exact"],
        }
        result = compare(commands, args.runs)
    print(f"WMT17 en-de: {len(systems)} systems x 3,004 segments, {args.runs} runs each")
    result.print_table()
    result.save("bench_gtm")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
