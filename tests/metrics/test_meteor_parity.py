"""Unigram P, R, F1 and Fmean against METEOR 1.5 (the oracle the spec names), bit for bit.

METEOR run with exact matching only, alpha 0.9, no fragmentation penalty and equal weights for
function and content words (`-m exact -p "0.9 3.0 0.0 0.5" -w 1.0`) computes exactly Lavie et al.'s
Fmean, with the best-scoring reference kept per segment. Its jar comes from the PyPI package
pycocoevalcap (installed by scripts/test.sh); the test skips without it or without Java.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import make_test_set, read_lines, shared_dataset


def meteor_jar() -> Path:
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("pycocoevalcap (which ships meteor-1.5.jar) is not installed")
    jar = Path(spec.submodule_search_locations[0]) / "meteor" / "meteor-1.5.jar"
    if not jar.is_file() or shutil.which("java") is None:
        pytest.skip("meteor-1.5.jar or java is not available")
    return jar


def run_meteor(tmp_path: Path, references: list[list[str]], hypothesis: list[str]):
    """METEOR's corpus P, R, F1, Fmean and its segment scores."""
    (tmp_path / "hyp.txt").write_text("\n".join(hypothesis) + "\n", encoding="utf-8")
    interleaved = [ref[i] for i in range(len(hypothesis)) for ref in references]
    (tmp_path / "refs.txt").write_text("\n".join(interleaved) + "\n", encoding="utf-8")
    command = [
        "java",
        "-Xmx2G",
        "-jar",
        str(meteor_jar()),
        str(tmp_path / "hyp.txt"),
        str(tmp_path / "refs.txt"),
        "-l",
        "de",
        "-r",
        str(len(references)),
        "-m",
        "exact",
        "-p",
        "0.9 3.0 0.0 0.5",
        "-w",
        "1.0",
    ]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    corpus = {
        key: float(re.search(rf"^{label}:\s+(\S+)$", output, re.M).group(1))
        for key, label in (
            ("precision", "Precision"),
            ("recall", "Recall"),
            ("f1", "f1"),
            ("fmean", "fMean"),
        )
    }
    segments = [float(x) for x in re.findall(r"^Segment \d+ score:\s+(\S+)$", output, re.M)]
    return corpus, np.array(segments)


@pytest.mark.parametrize("n_systems", [2])
def test_single_reference_wmt17(tmp_path, n_systems):
    folder = shared_dataset("wmt17-newstest2017-ende")
    reference = read_lines(folder / "ref" / "ref.de")
    for path in sorted((folder / "sys").iterdir())[:n_systems]:
        hypothesis = read_lines(path)
        check(tmp_path, [reference], hypothesis)


def test_three_references_wmt21(tmp_path):
    folder = shared_dataset("wmt21-newstest2021-ende")
    references = [read_lines(folder / "ref" / f"ref-{x}.de") for x in "ACD"]
    for path in sorted((folder / "sys").iterdir())[:2]:
        check(tmp_path, references, read_lines(path))


def check(tmp_path: Path, references: list[list[str]], hypothesis: list[str]) -> None:
    expected, expected_segments = run_meteor(tmp_path, references, hypothesis)
    metrics = ["precision", "recall", "f1", "fmean"]
    ours = score_test_set(
        make_test_set(references, {"s": hypothesis}), metrics, Options(tokenize="gtm14")
    )
    corpus = ours.corpus()["s"]
    for metric in metrics:
        assert corpus[metric] == expected[metric], metric  # bit for bit
    np.testing.assert_array_equal(ours.segments()["s"]["fmean"], expected_segments)
