"""Run meteor-1.5.jar on slices of the shared test sets and pin its numbers in a test fixture.

The jar (in PyPI's pycocoevalcap, with Java) is METEOR's oracle. For each case below (language,
modules, task, -norm, -lower, one or several references) this runs it twice on a slice of a
shared test set: once for the segment and system scores, once with -ssOut for its per-segment
statistics (the 23 numbers of MeteorStats.toString, for the reference it kept). Everything goes
into tests/metrics/meteor_jar_fixture.json, which tests/metrics/test_meteor_jar.py compares with
mteval's METEOR without Java.

The fragmentation penalty is gamma * Math.pow(frag, beta), and HotSpot's Math.pow is not the C
library's pow that mteval calls: for a few arguments the two differ in the last bit. So each case
also records, for every segment (and the system score) whose frag Math.pow raises to a power other
than C's, the bits Math.pow gives (scripts/meteor_oracle/MeteorOracle.java's "pow" asks the JVM):
the test gives mteval those and then asks for every score bit for bit.

The WMT23 cases read their files from the shared data's archive (wmt23-general-txt.tar.xz),
slices chosen to hold segments where Math.pow and C's pow differ (found by comparing whole
language pairs with the jar: 77 of 134,323 English segments, none of the Czech, Russian and
German ones).

    .venv/bin/python scripts/meteor_fixtures.py    # rewrite the fixture (a few minutes)
"""

from __future__ import annotations

import argparse
import json
import math
import re
import struct
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from fnmatch import fnmatch
from functools import cache
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
# WMT23's files are members of the shared data's archive; its systems in txt/system-outputs
WMT23 = "wmt23-general-task"
WMT23_ARCHIVE = "wmt23-general-txt.tar.xz"
WMT23_SYSTEMS = "txt/system-outputs"
_REFERENCES = "txt/references/generaltest2023"
WMT23_ZH_EN = (WMT23, [f"{_REFERENCES}.zh-en.ref.refA.en"])
WMT23_HE_EN = (WMT23, [f"{_REFERENCES}.he-en.ref.refA.en", f"{_REFERENCES}.he-en.ref.refB.en"])
WMT23_EN_DE = (WMT23, [f"{_REFERENCES}.en-de.ref.refA.de"])
WMT23_EN_RU = (WMT23, [f"{_REFERENCES}.en-ru.ref.refA.ru"])
WMT23_EN_CS = (WMT23, [f"{_REFERENCES}.en-cs.ref.refA.cs"])


@dataclass(frozen=True)
class Case:
    name: str
    data: tuple[str, list[str]]
    jar_args: list[str]
    systems: int = 2
    start: int = 0
    count: int = 100
    system_glob: str = "*"
    first_system: int = 0  # the first of the sorted systems taken


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
    # Math.pow and C's pow differ for 785 and 876 of these two systems (all four modules)
    Case("wmt23-zh-en-all", WMT23_ZH_EN, ["-l", "en"], 2, 760, 140, "*.zh-en.*", first_system=2),
    # ... for 403 and 405 of the first system, 382 of the second (two references)
    Case("wmt23-he-en-2refs-all", WMT23_HE_EN, ["-l", "en"], 2, 380, 40, "*.he-en.*"),
    # paragraphs of up to 498 words; beta 1.0, 1.4 and 0.2
    Case(
        "wmt23-en-de-exact-stem",
        WMT23_EN_DE,
        ["-l", "de", "-m", "exact stem"],
        2,
        0,
        120,
        system_glob="*.en-de.*",
    ),
    Case(
        "wmt23-en-ru-exact-stem",
        WMT23_EN_RU,
        ["-l", "ru", "-m", "exact stem"],
        2,
        0,
        400,
        system_glob="*.en-ru.*",
    ),
    Case("wmt23-en-cs-exact", WMT23_EN_CS, ["-l", "cs", "-m", "exact"], 2, 0, 400, "*.en-cs.*"),
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


@cache
def wmt23_texts() -> dict[str, str]:
    """Every file of the WMT23 archive by its name in it."""
    with tarfile.open(DATA / WMT23 / WMT23_ARCHIVE) as archive:
        return {
            member.name.removeprefix("./"): archive.extractfile(member).read().decode("utf-8")
            for member in archive.getmembers()
            if member.isfile()
        }


def dataset_lines(dataset: str, name: str) -> list[str]:
    """The lines of a file of a shared data set (a member of WMT23's archive)."""
    if dataset == WMT23:
        return wmt23_texts()[name].split("\n")[:-1]
    return read_lines(DATA / dataset / name)


def systems_folder(dataset: str) -> str:
    return WMT23_SYSTEMS if dataset == WMT23 else "sys"


def system_names(dataset: str, pattern: str) -> list[str]:
    if dataset == WMT23:
        prefix = f"{WMT23_SYSTEMS}/"
        names = [n.removeprefix(prefix) for n in wmt23_texts() if n.startswith(prefix)]
        return sorted(n for n in names if fnmatch(n, pattern))
    return sorted(p.name for p in (DATA / dataset / "sys").glob(pattern))


def case_inputs(case: Case) -> tuple[list[list[str]], dict[str, list[str]]]:
    dataset = case.data[0]
    stop = case.start + case.count
    references = [dataset_lines(dataset, r)[case.start : stop] for r in case.data[1]]
    names = system_names(dataset, case.system_glob)
    names = names[case.first_system : case.first_system + case.systems]
    folder = systems_folder(dataset)
    systems = {n: dataset_lines(dataset, f"{folder}/{n}")[case.start : stop] for n in names}
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


def jar_numbers(jar: Path, oracle: Path, hypotheses, references, args: list[str]) -> dict:
    output = run_jar(jar, hypotheses, references, args, stats=False)
    segments = re.findall(r"^Segment \d+ score:\s+(\S+)$", output, re.M)
    corpus = re.search(r"^Final score:\s+(\S+)$", output, re.M).group(1)
    beta = float(re.search(r"^Parameters:\s+(\S+) (\S+)", output, re.M).group(2))
    stats = run_jar(jar, hypotheses, references, args, stats=True).strip().split("\n")
    rows = [[int(float(x)) for x in line.split()] for line in stats]
    return {
        "segments": [float(s) for s in segments],
        "corpus": float(corpus),
        # MeteorStats.toString: lengths, function words, 4 x (hyp/ref content, hyp/ref function),
        # chunks, matched words; whole numbers, stored as such
        "stats": [" ".join(map(str, row)) for row in rows],
        "java_pow": java_pow_differences(jar, oracle, rows, beta),
    }


def fragmentation(row: list[int]) -> float:
    """MeteorScorer.computeMetrics' frag of a row of MeteorStats.toString's numbers (lengths at
    0 and 1, chunks at 20, matched words at 21 and 22), in Java's double arithmetic."""
    if row[21] == row[0] and row[22] == row[1] and row[20] == 1:
        return 0.0
    mean_matches = (float(row[21]) + float(row[22])) / 2.0
    return row[20] / mean_matches if mean_matches else math.nan  # Java's 0 / 0


def summed(rows: list[list[int]]) -> list[int]:
    """MeteorStats.addStats of every row: a whole match in one chunk adds no chunks."""
    total = [0] * len(rows[0])
    for row in rows:
        complete = row[21] == row[0] and row[22] == row[1] and row[20] == 1
        for k, value in enumerate(row):
            total[k] += 0 if k == 20 and complete else value
    return total


def java_pow_differences(jar: Path, oracle: Path, rows: list[list[int]], beta: float) -> dict:
    """Segment number (from 0; "system" for the system score) -> the bits of Math.pow(frag, beta)
    where they differ from C's pow (Python's math.pow), as the hexadecimal of the double."""
    frags = {str(k): fragmentation(row) for k, row in enumerate(rows)}
    frags["system"] = fragmentation(summed(rows))
    shown = {name: frag for name, frag in frags.items() if not math.isnan(frag)}
    bits = [f"{double_bits(frag)} {double_bits(beta)}" for frag in shown.values()]
    command = ["java", "-cp", f"{jar}:{oracle}", "MeteorOracle", "pow"]
    out = subprocess.run(command, input="\n".join(bits) + "\n", capture_output=True, text=True)
    out.check_returncode()
    java = [bits_double(int(line)) for line in out.stdout.split()]
    return {
        name: java_value.hex()
        for (name, frag), java_value in zip(shown.items(), java, strict=True)
        if java_value != math.pow(frag, beta)
    }


def double_bits(value: float) -> int:
    return struct.unpack("<q", struct.pack("<d", value))[0]


def bits_double(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<q", bits))[0]


def compiled_oracle(jar: Path, folder: Path) -> Path:
    """MeteorOracle.java compiled against the jar into ``folder``."""
    source = ROOT / "scripts" / "meteor_oracle" / "MeteorOracle.java"
    command = ["javac", "-nowarn", "-d", str(folder), "-cp", str(jar), str(source)]
    subprocess.run(command, check=True)
    return folder


def build() -> dict:
    jar = jar_path()
    cases = []
    with tempfile.TemporaryDirectory() as folder:
        oracle = compiled_oracle(jar, Path(folder))
        for case in CASES:
            references, systems = case_inputs(case)
            results = {
                name: jar_numbers(jar, oracle, h, references, case.jar_args)
                for name, h in systems.items()
            }
            cases.append(
                {
                    "name": case.name,
                    "data": case.data[0],
                    "references": case.data[1],
                    "systems_folder": systems_folder(case.data[0]),
                    "start": case.start,
                    "count": case.count,
                    "jar_args": case.jar_args,
                    "systems": results,
                }
            )
            differ = sum(len(r["java_pow"]) for r in results.values())
            print(
                f"{case.name}: {len(systems)} systems x {len(references[0])} segments, "
                f"Math.pow differs from C's pow {differ} time(s)",
                file=sys.stderr,
            )
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.split("\n")
    return {"jar": "meteor-1.5.jar (pycocoevalcap 1.2)", "java": java[0], "cases": cases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args()
    fixture = build()
    FIXTURE.write_text(json.dumps(fixture, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
