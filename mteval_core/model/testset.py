"""The validated data model: segments, references, systems, documents and human judgments.

A :class:`TestSet` is immutable and checked once, when it is built, so everything downstream
(metrics, statistics, the dashboard) can trust it. Every text column remembers where it came from,
so a problem is reported against the file that has it. ``content_hash`` identifies a test set by
what it contains, never by file names; the dashboard caches on it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from mteval_core.errors import InputError, listed_names
from mteval_core.model.packed_texts import PackedTexts

if TYPE_CHECKING:  # pandas is imported only when human judgments are used: scoring stays fast
    import pandas as pd

# what places judgments that name the data set's own segment ids, in neutral words
SEGMENT_ID_MAP = "a segment-id map (segment_ids.tsv)"
SEGMENT_COLUMNS = ["system", "segment", "score", "rater", "criterion", "origin", "line"]
SYSTEM_COLUMNS = ["system", "score", "criterion", "origin", "line"]


@dataclass(frozen=True)
class TextColumn:
    """One side of the test set: the source, one reference, or one system's output.

    ``segments`` may be given as any sequence of ``str``; it is kept as PackedTexts (UTF-8 end to
    end, a third of the memory of a tuple of ``str``), which reads like the tuple it replaces.
    """

    name: str
    segments: Sequence[str]
    origin: str  # the file (or upload) it came from, for messages
    # The ISO code the file itself declares (WMT XML's lang=), None when it declares none; it
    # chooses the default tokenizer (settings.languages), so it plays no part in content_hash.
    language: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "segments", PackedTexts.of(self.segments))

    def __len__(self) -> int:
        return len(self.segments)


@dataclass(frozen=True, eq=False)
class HumanScores:
    """Human judgments as two long tables.

    ``segment_rows``: system, segment (1-based position in the test set), score, rater ('' when
    unknown), criterion (e.g. adequacy, fluency, MQM, DA), origin and line (for messages).
    ``system_rows``: system, score, criterion, origin, line (WMT-style system tables).
    Scores are "higher is better"; readers flip lower-is-better scores when they load them.
    """

    segment_rows: pd.DataFrame = field(default_factory=lambda: _empty(SEGMENT_COLUMNS))
    system_rows: pd.DataFrame = field(default_factory=lambda: _empty(SYSTEM_COLUMNS))

    def __post_init__(self) -> None:
        object.__setattr__(self, "segment_rows", _normalise(self.segment_rows, SEGMENT_COLUMNS))
        object.__setattr__(self, "system_rows", _normalise(self.system_rows, SYSTEM_COLUMNS))

    @staticmethod
    def concat(parts: Iterable[HumanScores]) -> HumanScores:
        import pandas as pd

        parts = list(parts)
        if not parts:
            return HumanScores()
        return HumanScores(
            pd.concat([p.segment_rows for p in parts], ignore_index=True),
            pd.concat([p.system_rows for p in parts], ignore_index=True),
        )

    def renamed(self, names: Mapping[str, str]) -> HumanScores:
        """The same judgments with the systems in ``names`` (old -> new) renamed: judgments
        written for a system's whole file name match the shorter name it is shown under."""
        if not names:
            return self

        def rename(rows: pd.DataFrame) -> pd.DataFrame:
            return rows.assign(system=rows["system"].map(lambda name: names.get(name, name)))

        return HumanScores(rename(self.segment_rows), rename(self.system_rows))

    @property
    def criteria(self) -> list[str]:
        found = list(self.segment_rows["criterion"]) + list(self.system_rows["criterion"])
        return list(dict.fromkeys(found))

    def __len__(self) -> int:
        return len(self.segment_rows) + len(self.system_rows)


def _empty(columns: list[str]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame({c: pd.Series(dtype=_dtype(c)) for c in columns})


def _dtype(column: str) -> str:
    return {"score": "float64", "segment": "int64", "line": "int64"}.get(column, "object")


def _normalise(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    frame = frame.copy()
    for column in columns:
        if column not in frame:
            frame[column] = "" if _dtype(column) == "object" else 0
    frame = frame[columns].reset_index(drop=True)
    return frame.astype({c: _dtype(c) for c in columns if _dtype(c) != "object"})


@dataclass(frozen=True, eq=False)
class TestSet:
    """Segments with 1..k references, any number of named systems, and optional extras.

    Built once and validated: all columns have the same number of segments, names are unique,
    document ids (one per segment) and human judgments refer only to what exists.
    """

    __test__ = False  # not a pytest test class, despite the name

    references: tuple[TextColumn, ...]
    systems: tuple[TextColumn, ...] = ()
    source: TextColumn | None = None
    documents: tuple[str, ...] | None = None
    human: HumanScores | None = None
    name: str = "test set"

    def __post_init__(self) -> None:
        object.__setattr__(self, "references", tuple(self.references))
        object.__setattr__(self, "systems", tuple(self.systems))
        if self.documents is not None:
            object.__setattr__(self, "documents", tuple(self.documents))
        self._check_columns()
        if self.human is not None:
            _check_human(self.human, self)

    # ----------------------------------------------------------------- validation
    def _check_columns(self) -> None:
        if not self.references:
            raise InputError(
                "no reference translation was given",
                hint="Give at least one reference file (one segment per line).",
            )
        first = self.references[0]
        if len(first) == 0:
            raise InputError(
                "the reference has no segments",
                origin=first.origin,
                hint="The file is empty; give one segment per line.",
            )
        columns = [*self.references, *self.systems]
        if self.source is not None:
            columns.append(self.source)
        for column in columns:
            if len(column) != len(first):
                raise InputError(
                    f"has {len(column)} segments but {first.origin} has {len(first)}",
                    origin=column.origin,
                    line=min(len(column), len(first)) + 1,
                    hint="Every source, reference and system file needs one line per segment, "
                    "in the same order; check for a missing or extra line.",
                )
        _check_unique(self.references, "reference")
        _check_unique(self.systems, "system")
        if self.documents is not None and len(self.documents) != len(first):
            raise InputError(
                f"{len(self.documents)} document ids were given for {len(first)} segments",
                hint="Give one document id per segment, or none.",
            )

    # ----------------------------------------------------------------- access
    @property
    def n_segments(self) -> int:
        return len(self.references[0])

    @property
    def system_names(self) -> list[str]:
        return [s.name for s in self.systems]

    @property
    def reference_names(self) -> list[str]:
        return [r.name for r in self.references]

    def system(self, name: str) -> Sequence[str]:
        for column in self.systems:
            if column.name == name:
                return column.segments
        raise KeyError(f"no system named {name!r}; systems are {self.system_names}")

    # ----------------------------------------------------------------- derived test sets
    def with_systems(self, systems: Sequence[TextColumn]) -> TestSet:
        return replace(self, systems=tuple(systems))

    def with_human(self, human: HumanScores | None) -> TestSet:
        return replace(self, human=human)

    # ----------------------------------------------------------------- identity
    @cached_property
    def content_hash(self) -> str:
        """SHA-256 of everything that can change a number; file names play no part."""
        digest = hashlib.sha256()

        def add(text: str) -> None:
            digest.update(text.encode("utf-8", "surrogatepass"))
            digest.update(b"\x00")

        def add_segments(column: TextColumn) -> None:  # as add(segment), from the packed UTF-8
            for encoded in column.segments.encoded():  # type: ignore[attr-defined]
                digest.update(encoded)
                digest.update(b"\x00")

        for label, columns in (("ref", self.references), ("sys", self.systems)):
            for column in columns:
                add(label)
                add(column.name)
                add_segments(column)
        if self.source is not None:
            add("src")
            add_segments(self.source)
        if self.documents is not None:
            add("docs")
            for doc in self.documents:
                add(doc)
        if self.human is not None:
            add("human")
            add(self.human.segment_rows[SEGMENT_COLUMNS[:5]].to_csv(index=False))
            add(self.human.system_rows[SYSTEM_COLUMNS[:3]].to_csv(index=False))
        return digest.hexdigest()

    def __hash__(self) -> int:
        return hash(self.content_hash)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TestSet) and other.content_hash == self.content_hash


def _check_unique(columns: Sequence[TextColumn], kind: str) -> None:
    seen: dict[str, TextColumn] = {}
    for column in columns:
        if column.name in seen:
            raise InputError(
                f"duplicate {kind} name {column.name!r} (also used by {seen[column.name].origin})",
                origin=column.origin,
                hint=f"Give each {kind} a unique name, e.g. NAME=PATH on the command line "
                "or rename one of the files.",
            )
        seen[column.name] = column


def _check_human(human: HumanScores, test_set: TestSet) -> None:
    """Refuse judgments that point at systems or segments the test set does not have."""
    known = set(test_set.system_names) | set(test_set.reference_names)
    n = test_set.n_segments
    for frame, per_segment in ((human.segment_rows, True), (human.system_rows, False)):
        if frame.empty:
            continue
        unknown = ~frame["system"].isin(known)
        if unknown.any():
            row = frame[unknown].iloc[0]
            raise InputError(
                f"human score for unknown system {row['system']!r}",
                origin=row["origin"],
                line=int(row["line"]),
                hint=f"Known systems: {listed_names(sorted(known))}. Check the spelling, or load "
                "that system's output too.",
            )
        bad_score = ~frame["score"].map(math.isfinite)
        if bad_score.any():
            row = frame[bad_score].iloc[0]
            raise InputError(
                f"score {float(row['score'])} is not a finite number",
                origin=row["origin"],
                line=int(row["line"]),
                column="score",
            )
        if per_segment:
            outside = (frame["segment"] < 1) | (frame["segment"] > n)
            if outside.any():
                row = frame[outside].iloc[0]
                raise InputError(
                    f"segment {int(row['segment'])} does not exist (the test set has {n} "
                    "segments, numbered from 1)",
                    origin=row["origin"],
                    line=int(row["line"]),
                    column="segment",
                    hint="Segment ids are 1-based line numbers of the text files, unless "
                    f"{SEGMENT_ID_MAP} gives the data set's own ids.",
                )
