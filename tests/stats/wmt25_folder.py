"""A folder shaped like WMT25's mt-metrics-eval data, built from ../shared/data: wmt21.tedtalks
with its two MQM language pairs, en-de (13 systems, refA) and zh-en (14 systems, refB), 529
segments each: mt-metrics-eval's standard references of those pairs (its meta_info.py).

WMT25's own folder (ESA scores of 16 pairs) is not public here. What its task set needs is the
same shape: per pair, segment-level human scores ('None' where unrated) and segment-level metric
scores of the standard reference. The human scores are the released MQM of Google's
wmt-mqm-human-evaluation (raters averaged per segment, as our reader gives them; higher is
better), written per line, and their mean per system at system level; documents are the talks of
segment_ids.tsv. The metrics are sentence-level
scores computed here by mteval (bit-identical to sacreBLEU's sentence scores): BLEU, chrF,
chrF++, TER (negated: mt-metrics-eval stores higher-is-better scores) and unigram F1, named
``NAME-REF`` as mt-metrics-eval names metric files, with the mean of the segment scores as
the system score. ``scripts/mtme_wmt25_oracle.py`` runs
mt-metrics-eval's WMT25() on this folder; the tests build it again and compare.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.helpers import shared_dataset

TEST_SET = "wmt21.tedtalks"
PAIRS = {"en-de": ("wmt21-ted-mqm-ende", "refA"), "zh-en": ("wmt21-ted-mqm-zhen", "refB")}
METRICS = {"BLEU": "bleu", "chrF": "chrf", "chrF++": "chrf++", "TER": "ter", "F1": "f1"}
LOWER_IS_BETTER = {"TER"}


@pytest.fixture(scope="session")
def wmt25_shaped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder, built once per test run (skipped where the shared data is absent)."""
    return build_wmt25_shaped(tmp_path_factory.mktemp("wmt25_shaped"))


def build_wmt25_shaped(root: Path) -> Path:
    """The folder under ``root`` (``root/wmt21.tedtalks/...``); returns ``root``."""
    for lp in PAIRS:
        _write_pair(root / TEST_SET, lp)
    return root


def _write_pair(folder: Path, lp: str) -> None:
    from mteval_core.io import read_directory
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.model.judgment_matrices import criterion_matrix
    from mteval_core.settings.options import Options

    dataset, reference = PAIRS[lp]
    data = shared_dataset(dataset)
    test_set = read_directory(data).test_set
    for sub in ("sources", "references", f"system-outputs/{lp}", "documents", "human-scores"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / f"metric-scores/{lp}").mkdir(parents=True, exist_ok=True)
    (folder / f"sources/{lp}.txt").write_bytes(next(data.glob("src.*")).read_bytes())
    (folder / f"references/{lp}.{reference}.txt").write_bytes(
        next((data / "ref").iterdir()).read_bytes()
    )
    systems = test_set.system_names
    for column in test_set.systems:
        text = "".join(segment + "\n" for segment in column.segments)
        (folder / f"system-outputs/{lp}/{column.name}.txt").write_text(text, encoding="utf-8")
    docs = [line.split("\t")[2] for line in (data / "segment_ids.tsv").read_text().splitlines()[1:]]
    (folder / f"documents/{lp}.docs").write_text("".join(f"ted {d}\n" for d in docs), "utf-8")
    human = criterion_matrix(test_set.human, systems, test_set.n_segments, "MQM")
    rated = [i for i, system in enumerate(systems) if np.isfinite(human[i]).any()]
    lines = [
        f"{systems[i]}\t{'None' if np.isnan(value) else repr(float(value))}\n"
        for i in rated
        for value in human[i]
    ]
    (folder / f"human-scores/{lp}.mqm.seg.score").write_text("".join(lines), encoding="utf-8")
    # mt-metrics-eval needs the standard gold at system level too: the mean over rated segments
    means = [f"{systems[i]}\t{float(np.nanmean(human[i]))!r}\n" for i in rated]
    (folder / f"human-scores/{lp}.mqm.sys.score").write_text("".join(means), encoding="utf-8")
    scores = score_test_set(test_set, list(METRICS.values()), Options()).segments()
    for name, ours in METRICS.items():
        sign = -1.0 if name in LOWER_IS_BETTER else 1.0
        seg = [f"{s}\t{sign * v!r}\n" for s in systems for v in scores[s][ours].tolist()]
        means = [f"{s}\t{sign * float(np.mean(scores[s][ours]))!r}\n" for s in systems]
        path = folder / f"metric-scores/{lp}/{name}-{reference}"
        path.with_suffix(".seg.score").write_text("".join(seg), encoding="utf-8")
        path.with_suffix(".sys.score").write_text("".join(means), encoding="utf-8")
