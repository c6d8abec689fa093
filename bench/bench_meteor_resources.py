"""Load times of METEOR's resources and the paraphrase cache (run by hand, never a test).

    .venv/bin/python bench/bench_meteor_resources.py [--cold]

Times the synonym dictionary (read from the jar), the paraphrase table from its cache (and with
--cold, the first build into a temporary cache folder, with the peak memory it took), and a
table lookup. Needs an installed pycocoevalcap.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mteval_core.metrics.meteor.paraphrases import ParaphraseTable
from mteval_core.metrics.meteor.resources import find_meteor_data


def timed(label: str, action):
    started = time.perf_counter()
    value = action()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{label}: {time.perf_counter() - started:.2f} s (peak RSS so far {peak:.0f} MB)")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true", help="also time the first build")
    args = parser.parse_args()
    data = find_meteor_data()
    path = data.paraphrase_path("en")
    timed("synonyms (jar -> dictionary)", lambda: data.synonyms("en"))
    if args.cold:
        with tempfile.TemporaryDirectory() as folder:
            timed("paraphrases, first build", lambda: ParaphraseTable.load(path, Path(folder)))
            timed("paraphrases, from that cache", lambda: ParaphraseTable.load(path, Path(folder)))
    table = timed("paraphrases, from the user cache", lambda: ParaphraseTable.load(path))
    words = [
        "in",
        "addition",
        ",",
        "the",
        "government",
        "said",
        "that",
        "it",
        "would",
        "increase",
        "taxes",
    ]
    ids = table.translate(words)
    timed(
        "paths at every start, 1000 times",
        lambda: [table.paths(ids, j) for j in range(len(ids)) for _ in range(1000)],
    )


if __name__ == "__main__":
    main()
