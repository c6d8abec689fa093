"""Test sets written as long-format shards, in every shard format and several shardings."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from mteval_core.model.testset import TestSet, TextColumn
from tests.helpers import load_sample

Row = dict[str, object]


def long_rows(test_set: TestSet) -> list[Row]:
    """One row per (system, segment), system after system, segments numbered from 1."""
    rows = []
    for system in test_set.systems:
        for index, hypothesis in enumerate(system.segments):
            row: Row = {"system": system.name, "segment": index + 1, "hypothesis": hypothesis}
            for reference in test_set.references:
                row[reference.name] = reference.segments[index]
            rows.append(row)
    return rows


def split(rows: list[Row], n_shards: int, how: str) -> list[list[Row]]:
    """'stride': row k to shard k mod n (every shard has every system, scattered segments);
    'blocks': consecutive rows (so mostly one system per shard); 'segments': all systems of a
    range of segments per shard."""
    if how == "stride":
        return [rows[k::n_shards] for k in range(n_shards)]
    if how == "blocks":
        size = -(-len(rows) // n_shards)
        return [rows[k * size : (k + 1) * size] for k in range(n_shards)]
    n_segments = max(int(row["segment"]) for row in rows)
    size = -(-n_segments // n_shards)
    return [
        [row for row in rows if k * size < int(row["segment"]) <= (k + 1) * size]
        for k in range(n_shards)
    ]


def write_shard(path: Path, rows: list[Row]) -> Path:
    """One shard in the format its extension names."""
    columns = list(rows[0]) if rows else ["system", "segment", "hypothesis", "reference"]
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    elif path.suffix == ".parquet":
        import pyarrow
        import pyarrow.parquet

        table = pyarrow.table({c: [row[c] for row in rows] for c in columns})
        pyarrow.parquet.write_table(table, path)
    elif path.suffix == ".tsv":  # no quoting: the reader splits on tabs only
        lines = ["\t".join(columns)] + ["\t".join(str(row[c]) for c in columns) for row in rows]
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    else:
        with path.open("w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(columns)
            writer.writerows([row[c] for c in columns] for row in rows)
    return path


WriteShards = Callable[..., Path]


@pytest.fixture
def write_shards(tmp_path: Path) -> WriteShards:
    """write_shards(test_set, form, n_shards, how="stride") -> the folder of the shards."""

    def write(test_set: TestSet, form: str, n_shards: int, how: str = "stride") -> Path:
        folder = tmp_path / f"{form}-{n_shards}-{how}"
        folder.mkdir()
        for k, rows in enumerate(split(long_rows(test_set), n_shards, how)):
            write_shard(folder / f"part-{k}.{form}", rows)
        return folder

    return write


@pytest.fixture(scope="session")
def sample() -> TestSet:
    """sample_data/: 40 segments, 2 references, 4 systems."""
    return load_sample().test_set


def sliced(test_set: TestSet, n_segments: int, n_systems: int) -> TestSet:
    """The first segments of the first systems."""

    def cut(column: TextColumn) -> TextColumn:
        return TextColumn(column.name, column.segments[:n_segments], column.origin)

    return TestSet(
        references=[cut(r) for r in test_set.references],
        systems=[cut(s) for s in test_set.systems[:n_systems]],
    )
