"""Run mt-metrics-eval's score_mqm.py on Google's WMT23 zh-en MQM release and pin its scores.

mt-metrics-eval (google-research/mt-metrics-eval, not on PyPI) turns Google's MQM ratings into
segment scores with ``mt_metrics_eval/converters/score_mqm.py``; it is the oracle of
``mteval_core.loss.mqm_loss.mqm_segment_scores``. This runs it, as mt-metrics-eval runs it on
the 2022-2024 layout (``--doc_id=docSegId``), on the TSV inside
``../shared/data/wmt23-zhen-mqm/sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz``
and writes every (system, doc, docSegId, score) it prints, unrounded, to
tests/io/fixtures/wmt23_zhen_mqm_oracle.tsv.gz, which tests/io/test_io_mqm_releases.py
compares with mteval's scores of the same file.

    .venv/bin/python scripts/mqm_oracle_fixtures.py --score-mqm \\
        PATH/TO/mt-metrics-eval/mt_metrics_eval/converters/score_mqm.py

score_mqm.py needs absl-py (``pip install absl-py``, in the Python given with --python).
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RELEASE = (
    ROOT.parent
    / "shared"
    / "data"
    / "wmt23-zhen-mqm"
    / "sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz"
)
FIXTURE = ROOT / "tests" / "io" / "fixtures" / "wmt23_zhen_mqm_oracle.tsv.gz"


def oracle_lines(score_mqm: Path, python: str) -> list[str]:
    """score_mqm.py's output lines for the release's one TSV (system, doc, docSegId, score,
    then rater=points fields, which are not kept)."""
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(RELEASE) as archive:
            (member,) = archive.getmembers()
            tsv = Path(folder) / "ratings.tsv"
            tsv.write_bytes(archive.extractfile(member).read())
        output = Path(folder) / "scores.tsv"
        command = [python, str(score_mqm), f"--input={tsv}", f"--output={output}"]
        subprocess.run([*command, "--doc_id=docSegId"], check=True)
        return output.read_text(encoding="utf-8").splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--score-mqm", type=Path, required=True, help="score_mqm.py's path")
    parser.add_argument("--python", default=sys.executable, help="a Python with absl-py")
    args = parser.parse_args()
    rows = ["system\tdoc\tdocSegId\tscore"]
    rows += ["\t".join(line.split("\t")[:4]) for line in oracle_lines(args.score_mqm, args.python)]
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    text = ("\n".join(rows) + "\n").encode("utf-8")
    FIXTURE.write_bytes(gzip.compress(text, compresslevel=9, mtime=0))  # the same bytes each run
    print(f"{FIXTURE.relative_to(ROOT)}: {len(rows) - 1:,} segment scores")


if __name__ == "__main__":
    main()
