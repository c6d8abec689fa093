"""METEOR against meteor-1.5.jar on a whole test set: equal numbers, time, and beam vs exact.

Scores every system of WMT17 en-de (16 x 3,004 segments; ../shared/data) with the jar (one Java
process per system, JVM start included, as it is used) and with mteval's METEOR (one process for
all systems, start-up included), compares every segment score and system score, and prints the
number of segments compared, the worst difference and both times (with --repeat N: N rounds,
jar and mteval alternately, each with the load average, and the medians). With --beam-vs-exact
it also counts how often and by how much --meteor-alignment exact differs from the beam (chunks,
score).

    python bench/bench_meteor.py [--modules exact,stem] [--language de] [--repeat 3]
    python bench/bench_meteor.py --modules exact --beam-vs-exact
    python bench/bench_meteor.py --data wmt21-newstest2021-zhen --reference ref/ref-A.en \
        --language en --modules exact,stem,synonym,paraphrase --systems 4
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mteval_core.metrics.meteor.availability import jar_path  # noqa: E402
from mteval_core.metrics.meteor.metric import METEOR  # noqa: E402
from mteval_core.settings.options import Options  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
DATA = SHARED / "wmt17-newstest2017-ende"


def jar_scores(jar: Path, system: Path, reference: Path, args: list[str]) -> tuple[list, float]:
    command = ["java", "-Xmx2G", "-jar", str(jar), str(system), str(reference), *args]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    segments = [float(x) for x in re.findall(r"^Segment \d+ score:\s+(\S+)$", output, re.M)]
    return segments, float(re.search(r"^Final score:\s+(\S+)$", output, re.M).group(1))


def mteval_scores(systems: list[Path], reference: Path, arguments: list[str]) -> dict:
    """Segment and system scores of every system, from one `mteval score` process."""
    import json

    command = [str(ROOT / ".venv" / "bin" / "mteval"), "score", "--refs", str(reference)]
    command += ["--hyps", *map(str, systems), "--metrics", "meteor", "--segments"]
    command += ["--format", "json", *arguments]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def compare(args: argparse.Namespace) -> None:  # long: one timed round per repeat, then figures
    """Jar and mteval alternately, ``--repeat`` rounds; numbers compared on the first round."""
    jar = jar_path(None)
    folder = SHARED / args.data
    reference = folder / args.reference
    systems = sorted((folder / "sys").iterdir())[: args.systems]
    modules = args.modules.replace(",", " ")
    jar_times, mteval_times = [], []
    for round_number in range(args.repeat):
        load = os.getloadavg()[0]
        started = time.perf_counter()
        expected = {
            s.name: jar_scores(jar, s, reference, ["-l", args.language, "-m", modules])
            for s in systems
        }
        jar_times.append(time.perf_counter() - started)
        load_between = os.getloadavg()[0]
        started = time.perf_counter()
        report = mteval_scores(
            systems,
            reference,
            ["--meteor-language", args.language, "--meteor-modules", args.modules],
        )
        mteval_times.append(time.perf_counter() - started)
        print(
            f"round {round_number + 1}: jar {jar_times[-1]:.1f} s (load {load:.2f}), "
            f"mteval {mteval_times[-1]:.1f} s (load {load_between:.2f}, "
            f"{os.getloadavg()[0]:.2f} after)",
            flush=True,
        )
        if round_number == 0:
            check(report, expected, systems)
    jar_median, mteval_median = float(np.median(jar_times)), float(np.median(mteval_times))
    print(
        f"medians of {args.repeat}: jar {jar_median:.1f} s (one JVM per system), "
        f"mteval {mteval_median:.1f} s: {mteval_median / jar_median:.2f}x the jar"
    )


def check(report: dict, expected: dict, systems: list[Path]) -> None:
    """Every segment and system score of mteval against the jar's."""
    worst, compared, unequal, worst_corpus = 0.0, 0, 0, 0.0
    names = list(report["scores"])  # mteval's names of the systems, in the order given
    for name, (segments, corpus) in zip(names, expected.values(), strict=True):
        ours = np.array(report["segments"][name]["meteor"])
        difference = np.abs(ours - np.array(segments))
        worst = max(worst, float(difference.max()))
        unequal += int((difference != 0).sum())
        compared += len(segments)
        worst_corpus = max(worst_corpus, abs(report["scores"][name]["meteor"] - corpus))
    print(
        f"{len(systems)} systems, {compared} segments compared: {unequal} not bit-identical, "
        f"worst segment difference {worst:.3g}, worst system difference {worst_corpus:.3g}"
    )


def beam_vs_exact(args: argparse.Namespace) -> None:
    """How often the exact alignment has fewer chunks (or more coverage) than the beam's."""
    reference = (DATA / "ref" / "ref.de").read_text(encoding="utf-8").split("\n")[:-1]
    common = {"meteor_language": args.language, "meteor_modules": tuple(args.modules.split(","))}
    beam = METEOR(Options.from_flags(**common))
    exact = METEOR(Options.from_flags(**common, meteor_alignment="exact"))
    pairs = differ = fallbacks = 0
    score_gain = []
    chunk_gain = []
    for path in sorted((DATA / "sys").iterdir()):
        hypotheses = path.read_text(encoding="utf-8").split("\n")[:-1]
        a = beam.segment_statistics(hypotheses, [reference])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            b = exact.segment_statistics(hypotheses, [reference])
        fallbacks += sum(
            int(str(w.message).split()[3]) for w in caught if "exact search" in str(w.message)
        )
        changed = np.flatnonzero(np.any(a != b, axis=1))
        pairs += len(hypotheses)
        differ += len(changed)
        chunk_gain += list(a[changed, -1] - b[changed, -1])
        score_gain += list(beam.segment_scores(b)[changed] - beam.segment_scores(a)[changed])
    print(
        f"{pairs} segments: the exact alignment differs from the beam's in {differ}; "
        f"{fallbacks} kept the beam's (too many states)"
    )
    if differ:
        print(
            f"chunks fewer by {np.mean(chunk_gain):.2f} on average (at most {max(chunk_gain):g}); "
            f"segment score higher by {np.mean(score_gain):.4f} on average "
            f"(at most {max(score_gain):.4f}, at least {min(score_gain):.4f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--modules", default="exact,stem")
    parser.add_argument("--language", default="de")
    parser.add_argument("--beam-vs-exact", action="store_true")
    parser.add_argument("--data", default="wmt17-newstest2017-ende", help="a ../shared/data set")
    parser.add_argument("--reference", default="ref/ref.de", help="its reference file")
    parser.add_argument("--systems", type=int, default=None, help="only the first N systems")
    parser.add_argument(
        "--repeat", type=int, default=1, help="timed rounds, jar and mteval alternately (medians)"
    )
    args = parser.parse_args()
    if args.beam_vs_exact:
        beam_vs_exact(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
