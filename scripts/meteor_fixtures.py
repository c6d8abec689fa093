"""Run meteor-1.5.jar on slices of the shared test sets and pin its numbers in a test fixture.

The jar (in PyPI's pycocoevalcap, with Java) is METEOR's oracle. For each case below (language,
modules, task, -norm, -lower, one or several references) this runs it twice on a slice of a
shared test set: once for the segment and system scores, once with -ssOut for its per-segment
statistics (the 23 numbers of MeteorStats.toString, for the reference it kept). Everything goes
into tests/metrics/meteor_jar_fixture.json, which tests/metrics/test_meteor_jar.py compares with
mteval's METEOR without Java.

    .venv/bin/python scripts/meteor_fixtures.py    # rewrite the fixture (a few minutes)
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
FIXTURE = ROOT / "tests" / "metrics" / "meteor_jar_fixture.json"

WMT17 = ("wmt17-newstest2017-ende", ["ref/ref.de"])
WMT21_DE = ("wmt21-newstest2021-ende", ["ref/ref-A.de", "ref/ref-C.de", "ref/ref-D.de"])
WMT21_ZH = ("wmt21-newstest2021-zhen", ["ref/ref-A.en"])
# two references that differ only in tokenization: many ties between them, so the rule that keeps
# the first of equally good references is tested
TED = ("compare-mt-ted-sk-en", ["ref/ref.detok.en", "ref/ref.tok.en"])


@dataclass(frozen=True)
class Case:
    name: str
    data: tuple[str, list[str]]
    jar_args: list[str]
    systems: int = 2
    start: int = 0
    count: int = 100
    system_glob: str = "*"


CASES = [
    Case("de-exact", WMT17, ["-l", "de", "-m", "exact"], count=200),
    Case("de-stem", WMT17, ["-l", "de", "-m", "stem"]),
    Case("de-exact-stem", WMT17, ["-l", "de", "-m", "exact stem"], count=200, start=1000),
    Case("de-exact-stem-lower", WMT17, ["-l", "de", "-m", "exact stem", "-lower"], start=2000),
    Case("de-exact-stem-norm", WMT17, ["-l", "de", "-m", "exact stem", "-norm"], start=2500),
    Case("de-3refs", WMT21_DE, ["-l", "de", "-m", "exact stem"]),
    Case("de-3refs-exact", WMT21_DE, ["-l", "de", "-m", "exact"], start=500),
    Case("en-exact", WMT21_ZH, ["-l", "en", "-m", "exact"]),
    Case("en-stem", WMT21_ZH, ["-l", "en", "-m", "stem"]),
    Case("en-synonym", WMT21_ZH, ["-l", "en", "-m", "synonym"]),
    Case("en-paraphrase", WMT21_ZH, ["-l", "en", "-m", "paraphrase"], count=40),
    Case("en-exact-stem", WMT21_ZH, ["-l", "en", "-m", "exact stem"], start=200),
    Case("en-all", WMT21_ZH, ["-l", "en"], start=400, count=40),
    Case("en-all-norm", WMT21_ZH, ["-l", "en", "-norm"], start=600, count=40),
    Case("en-all-lower", WMT21_ZH, ["-l", "en", "-lower"], start=800, count=40),
    Case("en-all-adq", WMT21_ZH, ["-l", "en", "-t", "adq"], start=900, count=40),
    Case("en-all-hter", WMT21_ZH, ["-l", "en", "-t", "hter"], start=1000, count=40),
    Case("en-2refs-all", TED, ["-l", "en"], system_glob="*.detok.en", count=40),
    Case("en-2refs-exact", TED, ["-l", "en", "-m", "exact"], system_glob="*.detok.en", start=500),
    Case(
        "en-custom",
        WMT21_ZH,
        ["-l", "en", "-m", "exact stem synonym", "-w", "1.0 0.5 0.25", "-p", "0.5 3.0 0.4 0.8"],
        start=1200,
    ),
    Case("other-li", WMT17, ["-l", "other"], start=1500),
]


def jar_path() -> Path:
    sys.path.insert(0, str(ROOT))
    from mteval_core.metrics.meteor.availability import jar_path as find

    jar = find(None)
    if jar is None:
        sys.exit("meteor-1.5.jar not found: pip install --no-deps pycocoevalcap==1.2")
    return jar


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def case_inputs(case: Case) -> tuple[list[list[str]], dict[str, list[str]]]:
    folder = DATA / case.data[0]
    stop = case.start + case.count
    references = [read_lines(folder / r)[case.start : stop] for r in case.data[1]]
    paths = sorted((folder / "sys").glob(case.system_glob))[: case.systems]
    systems = {p.name: read_lines(p)[case.start : stop] for p in paths}
    return references, systems


def run_jar(jar: Path, hypotheses, references, args: list[str], stats: bool) -> str:
    with tempfile.TemporaryDirectory() as folder:
        hyp, ref = Path(folder) / "hyp", Path(folder) / "ref"
        hyp.write_text("".join(h + "\n" for h in hypotheses), encoding="utf-8")
        interleaved = [r[i] for i in range(len(hypotheses)) for r in references]
        ref.write_text("".join(r + "\n" for r in interleaved), encoding="utf-8")
        command = ["java", "-Xmx2G", "-jar", str(jar), str(hyp), str(ref)]
        command += ["-r", str(len(references)), *args, *(["-ssOut"] if stats else [])]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def jar_numbers(jar: Path, hypotheses, references, args: list[str]) -> dict:
    output = run_jar(jar, hypotheses, references, args, stats=False)
    segments = re.findall(r"^Segment \d+ score:\s+(\S+)$", output, re.M)
    corpus = re.search(r"^Final score:\s+(\S+)$", output, re.M).group(1)
    stats = run_jar(jar, hypotheses, references, args, stats=True).strip().split("\n")
    return {
        "segments": [float(s) for s in segments],
        "corpus": float(corpus),
        # MeteorStats.toString: lengths, function words, 4 x (hyp/ref content, hyp/ref function),
        # chunks, matched words; whole numbers, stored as such
        "stats": [" ".join(str(int(float(x))) for x in line.split()) for line in stats],
    }


def build() -> dict:
    jar = jar_path()
    cases = []
    for case in CASES:
        references, systems = case_inputs(case)
        results = {
            name: jar_numbers(jar, h, references, case.jar_args) for name, h in systems.items()
        }
        cases.append(
            {
                "name": case.name,
                "data": case.data[0],
                "references": case.data[1],
                "start": case.start,
                "count": case.count,
                "jar_args": case.jar_args,
                "systems": results,
            }
        )
        print(
            f"{case.name}: {len(systems)} systems x {len(references[0])} segments", file=sys.stderr
        )
    return {"jar": "meteor-1.5.jar (pycocoevalcap 1.2)", "cases": cases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args()
    fixture = build()
    FIXTURE.write_text(json.dumps(fixture, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
