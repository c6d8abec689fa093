"""Make tests/io/fixtures/mtme_ratings_oracle.json: mt-metrics-eval's own ``ratings.py``
(``ReadRatingFile``) and ``converters/score_mqm.py``'s ``Score`` run on a synthetic ``.rating``
file (their code never enters the project; the fixture holds the file and their numbers).

    python scripts/mtme_ratings_oracle.py --repo GIT_DIR --python PYTHON

GIT_DIR is a clone (or bare mirror) of google-research/mt-metrics-eval holding commit 68a481a;
PYTHON an interpreter with dacite (``ratings.py`` imports it). No test set of this project's
data ships a ``.rating`` file, so the file is written here: three systems of 120 segments, a
tenth without a rating (None), a fifth without a rater id, 0-4 errors each with severities and
categories in several cases, None among them. ``Score`` is copied out of score_mqm.py by its
source text (the script's absl flags are not run); the weights are its default ``--weights``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from pathlib import Path

COMMIT = "68a481aea1a787392d55af8f76ac8ef40c5f4664"
ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "io" / "fixtures" / "mtme_ratings_oracle.json"
NAME = "en-de.mqm.merged.seg.rating"
SEVERITIES = ["Major", "minor", "Minor", "Neutral", "Critical", None, "MAJOR"]
CATEGORIES = [
    "Accuracy/Mistranslation",
    "Fluency/Punctuation",
    "fluency/punctuation",
    "Non-translation!",
    "Style/Awkward",
    None,
    "Other",
]

DRIVER = """
import json, sys
from mt_metrics_eval import ratings
source = open("score_mqm.py").read()
start = source.index("def Score(")
exec(source[start:source.index("def main(")])
weights = {}
specs = "Major:5 Minor:1 Neutral:0 Major/Non-translation!:25 Minor/Fluency/Punctuation:0.1"
for spec in specs.split():
    category, weight = spec.split(":")
    weights[category.lower()] = float(weight)
read, raters = ratings.ReadRatingFile(sys.argv[1], "mqm.merged")
out = {system: [None if rating is None else
                [-sum(Score(weights, [e.severity or ""] + (e.category or "").split("/"))
                      for e in rating.errors), raters[system][i]]
                for i, rating in enumerate(values)]
       for system, values in read.items()}
json.dump(out, open(sys.argv[2], "w"))
"""


def synthetic_file(seed: int = 7) -> str:
    rng = random.Random(seed)
    lines = []
    for system in ("sysA", "sysB", "sysC"):
        for _ in range(120):
            if rng.random() < 0.1:
                lines.append(f"{system}\tNone")
                continue
            errors = [
                {
                    "start": rng.randint(0, 9),
                    "end": rng.randint(10, 20),
                    "category": rng.choice(CATEGORIES),
                    "severity": rng.choice(SEVERITIES),
                    "score": None,
                    "is_source_error": rng.random() < 0.1,
                }
                for _ in range(rng.randint(0, 4))
            ]
            rater = f"\trater{rng.randint(1, 4)}" if rng.random() < 0.8 else ""
            lines.append(f"{system}\t{json.dumps({'errors': errors})}{rater}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--python", required=True)
    args = parser.parse_args()
    text = synthetic_file()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        (folder / "mt_metrics_eval").mkdir()
        (folder / "mt_metrics_eval" / "__init__.py").write_text("")
        for path, target in (
            ("mt_metrics_eval/ratings.py", "mt_metrics_eval/ratings.py"),
            ("mt_metrics_eval/converters/score_mqm.py", "score_mqm.py"),
        ):
            code = subprocess.run(
                ["git", "-C", str(args.repo), "show", f"{COMMIT}:{path}"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            (folder / target).write_text(code, encoding="utf-8")
        (folder / NAME).write_text(text, encoding="utf-8")
        (folder / "driver.py").write_text(DRIVER, encoding="utf-8")
        subprocess.run([args.python, "driver.py", NAME, "out.json"], cwd=folder, check=True)
        theirs = json.loads((folder / "out.json").read_text())
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "source": f"google-research/mt-metrics-eval @ {COMMIT}, ratings.py ReadRatingFile and "
        "converters/score_mqm.py Score with its default weights "
        "(scripts/mtme_ratings_oracle.py)",
        "file_name": NAME,
        "file": text,
        "per_system": theirs,
    }
    FIXTURE.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
