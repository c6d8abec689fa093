"""Pins sacreBLEU's TER statistics into tests/metrics/fixtures/ter_sacrebleu.json, or checks ours
against it live on whole test sets.

sacreBLEU's TER takes over a minute on one WMT test set, too slow for the test suite; the tests
compare our compiled statistics with the numbers this script pins (sacreBLEU's own, computed
here):

- slices of every shared test set in ../shared/data: every system on the first segments,
  case-insensitive (sacreBLEU's default) and case-sensitive, and the first systems on the set's
  longest segments (where the 1,000-candidate limit is reached);
- synthetic segments past sacreBLEU's limits, text included in the fixture: spans longer than the
  10-word shift size, moves farther than the 50-word shift distance, 1,000 shift candidates
  reached, lengths so unequal that the beam widens, several references.

    python scripts/pin_ter_statistics.py            # writes the fixture
    python scripts/pin_ter_statistics.py --live [--set wmt17-ende ...]
                                        # every segment of every system of every (or each
                                        # named) shared set, ours against sacreBLEU's
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import sacrebleu
from sacrebleu.metrics import TER

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mteval_core.metrics.ter_statistics import ter_segment_statistics  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
FIXTURE = ROOT / "tests" / "metrics" / "fixtures" / "ter_sacrebleu.json"

# folder, reference files (several: a segment keeps its best reference)
SETS = {
    "wmt17-ende": ("wmt17-newstest2017-ende", ["ref.de"]),
    "wmt21-ende-3refs": ("wmt21-newstest2021-ende", ["ref-A.de", "ref-C.de", "ref-D.de"]),
    "wmt21-zhen": ("wmt21-newstest2021-zhen", ["ref-A.en"]),
    "ted-ende": ("wmt21-ted-mqm-ende", ["ref-A.de"]),
    "ted-zhen": ("wmt21-ted-mqm-zhen", ["ref-B.en"]),
    "compare-mt-sken": ("compare-mt-ted-sk-en", ["ref.detok.en"]),
}
FIRST_SEGMENTS = 30
LONGEST_SEGMENTS = 3
LONGEST_SYSTEMS = 2


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def read_set(folder: str, references: list[str]) -> tuple[list[list[str]], dict[str, list[str]]]:
    root = DATA / folder
    refs = [read_lines(root / "ref" / name) for name in references]
    systems = {path.name: read_lines(path) for path in sorted((root / "sys").iterdir())}
    return refs, systems


def sacrebleu_statistics(
    references: list[list[str]], hypotheses: list[str], case_sensitive: bool
) -> np.ndarray:
    rows = TER(case_sensitive=case_sensitive)._extract_corpus_statistics(hypotheses, references)
    return np.array(rows, dtype=np.float64).reshape(len(hypotheses), 2)


def longest_segments(references: list[list[str]]) -> list[int]:
    """The set's longest segments (by their longest reference, in words)."""
    lengths = [max(len(ref[i].split()) for ref in references) for i in range(len(references[0]))]
    return sorted(sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))[:LONGEST_SEGMENTS])


def pin_set(name: str, case_sensitive: bool, longest: bool) -> dict:
    """Every system on the first segments, or (sacreBLEU takes seconds a pair there) the first
    systems on the longest segments."""
    folder, reference_files = SETS[name]
    references, systems = read_set(folder, reference_files)
    if longest:
        segments = longest_segments(references)
        systems = dict(list(systems.items())[:LONGEST_SYSTEMS])
    else:
        segments = list(range(FIRST_SEGMENTS))
    refs = [[ref[i] for i in segments] for ref in references]
    edits, reference_length = {}, None
    for system, hypotheses in systems.items():
        stats = sacrebleu_statistics(refs, [hypotheses[i] for i in segments], case_sensitive)
        edits[system] = [int(e) for e in stats[:, 0]]
        reference_length = stats[:, 1].tolist()
    return {
        "name": f"{name}-longest" if longest else name,
        "folder": folder,
        "references": reference_files,
        "case_sensitive": case_sensitive,
        "segments": segments,
        "reference_length": reference_length,
        "edits": edits,
    }


def words(rng: random.Random, vocabulary: list[str], n: int) -> list[str]:
    return [rng.choice(vocabulary) for _ in range(n)]


def synthetic_cases() -> list[dict]:
    """Segments past sacreBLEU's limits (text kept in the fixture, so nothing is regenerated)."""
    rng = random.Random(24)
    distinct = [f"w{i}" for i in range(400)]
    cased = ["Der", "der", "DER", "Haus", "haus", "ist", "IST", "ẞ", "ß", "İ", "i̇", "«", "»"]
    block_a, block_b = distinct[:60], distinct[60:120]
    run = distinct[200:225]
    cases = {
        # a 60-word block moved past the 50-word shift distance, spans past the 10-word size
        "far_move": ([" ".join(block_a + block_b)], " ".join(block_b + block_a)),
        # a 25-word run out of place: shifts of at most 10 words
        "long_run": (
            [" ".join(distinct[230:240] + run + distinct[240:260])],
            " ".join(run + distinct[230:260]),
        ),
        # four words, 150 of them: the 1,000-candidate limit stops the search
        "candidate_limit": (
            [" ".join(words(rng, ["a", "b", "c", "d"], 150))],
            " ".join(words(rng, ["a", "b", "c", "d"], 150)),
        ),
        # lengths so unequal that the beam widens past 25, both ways
        "long_reference": ([" ".join(words(rng, distinct[:30], 400))], "w1 w2 w3 w4 w5"),
        "long_hypothesis": (["w1 w2 w3"], " ".join(words(rng, distinct[:30], 400))),
        # case and Unicode lowercasing that changes length, three references
        "cased_references": (
            [" ".join(words(rng, cased, 80)) for _ in range(3)],
            " ".join(words(rng, cased, 90)),
        ),
    }
    pinned = []
    for name, (references, hypothesis) in cases.items():
        for case_sensitive in (False, True):
            refs = [[reference] for reference in references]
            stats = sacrebleu_statistics(refs, [hypothesis], case_sensitive)
            pinned.append(
                {
                    "name": name,
                    "case_sensitive": case_sensitive,
                    "references": references,
                    "hypothesis": hypothesis,
                    "edits": int(stats[0, 0]),
                    "reference_length": float(stats[0, 1]),
                }
            )
    return pinned


def write_fixture() -> None:
    started = time.perf_counter()
    sets = []
    for name in SETS:
        for case_sensitive, longest in ((False, False), (True, False), (False, True)):
            sets.append(pin_set(name, case_sensitive, longest))
            print(f"{sets[-1]['name']} case_sensitive={case_sensitive}", flush=True)
    fixture = {
        "about": "sacreBLEU's TER statistics, pinned by scripts/pin_ter_statistics.py",
        "sacrebleu": sacrebleu.__version__,
        "sets": sets,
        "synthetic": synthetic_cases(),
    }
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(fixture, ensure_ascii=False) + "\n", encoding="utf-8")
    pairs = sum(len(s["segments"]) * len(s["edits"]) for s in sets)
    print(f"{FIXTURE}: {pairs} segment-system pairs, {time.perf_counter() - started:.0f} s")


def check_live(names: list[str]) -> int:
    """Every segment of every system of these shared sets, both cases: ours against
    sacreBLEU's."""
    failures = 0
    for name in names:
        folder, reference_files = SETS[name]
        references, systems = read_set(folder, reference_files)
        for case_sensitive in (False, True):
            started = time.perf_counter()
            ours = ter_segment_statistics(references, systems, case_sensitive=case_sensitive)
            ours_time = time.perf_counter() - started
            started = time.perf_counter()
            equal = total = 0
            for system, hypotheses in systems.items():
                theirs = sacrebleu_statistics(references, hypotheses, case_sensitive)
                same = (theirs == ours[system]).all(axis=1)
                equal += int(same.sum())
                total += len(same)
            failures += total - equal
            print(
                f"{name} case_sensitive={case_sensitive}: {equal}/{total} segments equal "
                f"({len(systems)} systems; ours {ours_time:.2f} s, "
                f"sacreBLEU {time.perf_counter() - started:.1f} s)",
                flush=True,
            )
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--live", action="store_true", help="check every segment live (slow)")
    parser.add_argument("--set", choices=list(SETS), action="append", help="--live: these sets")
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"{DATA} is not available", file=sys.stderr)
        return 2
    if args.live:
        return check_live(args.set or list(SETS))
    write_fixture()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
