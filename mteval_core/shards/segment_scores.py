"""Segment scores written as shards, one output file per input shard, e.g. to filter data.

Columns: system, segment (the shard's segment id) and one column per metric, named as the metric
(bleu, chrf, ...), holding the metric's segment score (sentence BLEU for BLEU, as ``mteval score
--segments`` prints it). Parquet where pyarrow is installed, otherwise TSV.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mteval_core.errors import InputError

SUFFIX = ".segment-scores"  # part-0.tsv -> part-0.segment-scores.parquet
PARTIAL = ".partial"  # what a file is called until the whole run has passed its checks


def default_format() -> str:
    """Parquet where pyarrow is installed (it reads Parquet shards too), otherwise TSV."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return "tsv"
    return "parquet"


@dataclass(frozen=True)
class SegmentScoresOut:
    folder: str
    format: str  # "parquet" or "tsv"

    def path_for(self, shard: str | Path) -> Path:
        return Path(self.folder) / f"{Path(shard).stem}{SUFFIX}.{self.format}"

    def staging_path_for(self, shard: str | Path) -> Path:
        """Where a worker writes: the file gets its name only once every shard has been read
        and the checks across shards have passed (``publish``)."""
        path = self.path_for(shard)
        return path.with_name(path.name + PARTIAL)

    def publish(self, shards: Sequence[str | Path]) -> None:
        """The run is good: every shard's file takes its name (replacing an older one)."""
        for shard in shards:
            self.staging_path_for(shard).replace(self.path_for(shard))

    def discard(self, shards: Sequence[str | Path]) -> None:
        """The run failed: remove what it wrote, so no file holds scores of a rejected corpus."""
        for shard in shards:
            self.staging_path_for(shard).unlink(missing_ok=True)

    def check(self, shards: Sequence[Path]) -> None:
        """Before any work: one distinct output per shard, and none inside an input folder,
        where a later run would read the scores as shards."""
        folder = Path(self.folder).resolve()
        if folder.exists() and not folder.is_dir():
            raise InputError(
                "--segment-scores-out: this is a file, not a folder",
                origin=self.folder,
                hint="Give a folder; it is created if it does not exist.",
            )
        seen: dict[Path, Path] = {}
        for shard in shards:
            if shard.resolve().parent == folder:
                raise InputError(
                    "--segment-scores-out is a folder of input shards",
                    origin=self.folder,
                    hint="Write the segment scores to another folder: a later run over this "
                    "one would read them as shards.",
                )
            target = self.path_for(shard)
            if target in seen:
                raise InputError(
                    f"the shards {seen[target]} and {shard} would write the same segment-score "
                    f"file {target.name}",
                    origin=str(shard),
                    hint="Give the shards distinct file names (without their extensions).",
                )
            seen[target] = shard

    def write(
        self,
        shard: str,
        systems: Sequence[str],
        segments: np.ndarray,
        scores: Mapping[str, np.ndarray],
    ) -> None:
        """One row per (system, segment), in the order given, to the staging path."""
        path = self.staging_path_for(shard)
        path.parent.mkdir(parents=True, exist_ok=True)
        if self.format == "parquet":
            import pyarrow
            import pyarrow.parquet

            columns = {"system": list(systems), "segment": segments, **scores}
            pyarrow.parquet.write_table(pyarrow.table(columns), path)
            return
        with path.open("w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out, delimiter="\t", lineterminator="\n")
            writer.writerow(["system", "segment", *scores])
            values = [column.tolist() for column in scores.values()]
            for row, (system, segment) in enumerate(zip(systems, segments.tolist())):
                writer.writerow([system, segment, *(repr(v[row]) for v in values)])
