"""The same input gives the same output to the last digit, whatever Python's hash seed.

Token ids used to follow set order, which changes with PYTHONHASHSEED; NIST and the correlations
then differed in the 16th digit from one run to the next.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers import ROOT, SAMPLE_DATA


def run_score(hash_seed: str) -> str:
    command = [
        sys.executable, "-m", "mteval_core.cli", "score",
        "--refs", str(SAMPLE_DATA / "ref" / "ref-A.en"), str(SAMPLE_DATA / "ref" / "ref-B.en"),
        "--hyps", *sorted(str(p) for p in (SAMPLE_DATA / "sys").iterdir()),
        "--human", str(SAMPLE_DATA / "human" / "judgments.tsv"),
        "--metrics", "bleu,nist,fmean,gtm", "--stem", "porter", "--format", "json",
    ]  # fmt: skip
    environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_output_does_not_depend_on_the_hash_seed():
    assert run_score("1") == run_score("2")
