"""--segment-scores-out: one file per shard with every segment's scores, the in-memory path's
segment scores to the last bit; Parquet with pyarrow, TSV without."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from mteval_core.cli import main, score_shards
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options

METRICS = ["bleu", "chrf", "ter", "fmean", "gtm"]


def read_scores(path) -> dict[tuple[str, int], dict[str, float]]:
    """(system, segment) -> metric -> score, from a Parquet or TSV segment-score file."""
    if path.suffix == ".parquet":
        import pyarrow.parquet

        rows = pyarrow.parquet.read_table(path).to_pylist()
    else:
        with path.open(encoding="utf-8", newline="") as file:
            rows = list(csv.DictReader(file, delimiter="\t"))
    return {
        (row["system"], int(row["segment"])): {m: float(row[m]) for m in METRICS} for row in rows
    }


@pytest.mark.parametrize("form", ["parquet", "tsv"])
def test_segment_scores_are_the_in_memory_ones_one_file_per_shard(
    sample, write_shards, tmp_path, capsys, monkeypatch, form
):
    if form == "parquet":
        pytest.importorskip("pyarrow")
    monkeypatch.setattr(score_shards, "default_format", lambda: form)  # as without pyarrow
    folder = write_shards(sample, "jsonl", 3, "stride")
    out = tmp_path / "scores"
    args = ["--shards", str(folder), "--workers", "0", "--metrics", ",".join(METRICS)]
    assert main(["score", *args, "--segment-scores-out", str(out)]) == 0, capsys.readouterr()
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"part-{k}.segment-scores.{form}" for k in range(3)]
    found: dict[tuple[str, int], dict[str, float]] = {}
    for path in files:
        found.update(read_scores(path))
    expected = score_test_set(sample, METRICS, Options()).segments()
    assert len(found) == len(sample.systems) * sample.n_segments
    for system, by_metric in expected.items():
        for metric, values in by_metric.items():
            got = [found[system, segment][metric] for segment in range(1, len(values) + 1)]
            np.testing.assert_array_equal(got, values)  # bit for bit: repr() keeps every digit


def test_two_shards_that_would_write_one_file_are_refused_before_any_work(tmp_path, capsys):
    shards = tmp_path / "shards"
    shards.mkdir()
    for name in ("part-0.tsv", "part-0.jsonl"):
        (shards / name).write_text("not read: the check comes first\n", encoding="utf-8")
    out = tmp_path / "scores"
    code = main(["score", "--shards", str(shards), "--workers", "0", "--metrics", "bleu",
                 "--segment-scores-out", str(out)])  # fmt: skip
    _, err = capsys.readouterr()
    assert code == 2
    assert "would write the same segment-score file part-0.segment-scores." in err
    assert not out.exists()


def test_a_run_refused_across_shards_leaves_no_segment_score_file(tmp_path, capsys):
    """Each shard is fine on its own, so its scores are written; the check across shards then
    finds segment 1 twice. The files of that run are removed, and an older run's stay."""
    header = "system\tsegment\thypothesis\treference\n"
    shards = tmp_path / "shards"
    shards.mkdir()
    (shards / "a.tsv").write_text(header + "A\t1\tthe cat\tthe cat\n", encoding="utf-8")
    (shards / "b.tsv").write_text(header + "A\t1\ta cat\tthe cat\n", encoding="utf-8")
    out = tmp_path / "scores"
    out.mkdir()
    older = out / "a.segment-scores.tsv"
    older.write_text("an older run's scores\n", encoding="utf-8")
    code = main(["score", "--shards", str(shards), "--workers", "0", "--metrics", "bleu",
                 "--segment-scores-out", str(out)])  # fmt: skip
    assert code == 2
    assert "has segment 1 twice" in capsys.readouterr().err
    assert sorted(path.name for path in out.iterdir()) == [older.name]
    assert older.read_text(encoding="utf-8") == "an older run's scores\n"
