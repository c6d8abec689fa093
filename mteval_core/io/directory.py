"""A test set folder: plain text files in a fixed layout, plus optional documents and judgments.

    src.<lang>              the source (optional), one segment per line
    ref/<name>.<lang>       one file per reference, taken in file name order
    sys/<name>.<lang>       one file per system
    segment_ids.tsv         optional: one row per line; columns line, segment_id (the ids that
                            human/ files use), doc (document ids), doc_seg_id
    human/*.tsv, *.csv      optional human judgments, each read with read_human

Systems are named by the part of their file names that differs (:mod:`mteval_core.io.system_names`);
human files may name them so or by the whole file name without its last extension. A plain-text
file that starts with a byte order mark keeps it as text (:mod:`mteval_core.io.plain`), with a note.

Only files directly inside ref/, sys/ and human/ are read; subfolders such as human/original/ hold
raw material. Human scores for systems without text in the folder (e.g. metric-task systems) are
left out and reported in the notes; so are files that were skipped, such as human files whose name
says UNALIGNED (their segment ids are not line numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mteval_core.errors import InputError, listed_names
from mteval_core.io.decoding import decode, read_bytes
from mteval_core.io.delimited import Table, read_table
from mteval_core.io.human_judgments import read_human
from mteval_core.io.plain import byte_order_mark_note, read_plain, system_name_from_path
from mteval_core.io.system_names import (
    distinguishing_names,
    file_name_aliases,
    name_notes,
    refuse_undecodable_name,
)
from mteval_core.model.testset import HumanScores, TestSet, TextColumn

LAYOUT_HINT = (
    "A test set folder holds ref/<name>.<lang> (one file per reference) and sys/<name>.<lang> "
    "(one file per system), optionally src.<lang>, segment_ids.tsv and human/*.tsv."
)
HUMAN_SUFFIXES = {".tsv", ".csv"}


@dataclass(frozen=True)
class DirectoryRead:
    test_set: TestSet
    notes: list[str]  # what was left out or skipped, to show to the user


def read_directory(path: str | Path) -> DirectoryRead:
    """Read a test set folder; see the module docstring for the layout."""
    root = Path(path)
    if not root.is_dir():
        problem = "this is not a folder" if root.exists() else "the folder does not exist"
        raise InputError(problem, origin=str(root), hint=LAYOUT_HINT)
    notes: list[str] = []
    references = _read_text_folder(root, "ref", notes)
    segment_ids = _read_segment_ids(root, len(references[0]))
    test_set = TestSet(
        references=references,
        systems=_read_text_folder(root, "sys", notes),
        source=_read_source(root),
        documents=segment_ids.documents,
        name=root.name,
    )
    notes.extend(name_notes(test_set))
    human = _read_human_folder(root, test_set, segment_ids.lines, notes)
    if human is not None:
        test_set = test_set.with_human(human)
    return DirectoryRead(test_set, notes)


def _read_text_folder(root: Path, folder: str, notes: list[str]) -> list[TextColumn]:
    directory = root / folder
    if not directory.is_dir():
        raise InputError(f"there is no {folder}/ folder", origin=str(root), hint=LAYOUT_HINT)
    entries = sorted(entry for entry in directory.iterdir() if not entry.name.startswith("."))
    for entry in entries:
        refuse_undecodable_name(entry.name, str(directory))
    notes.extend(
        f"{folder}/{entry.name}/: subfolder not read" for entry in entries if entry.is_dir()
    )
    files = [entry for entry in entries if entry.is_file()]
    if not files:
        raise InputError(f"the {folder}/ folder has no files", origin=str(root), hint=LAYOUT_HINT)
    names = [system_name_from_path(file.name) for file in files]
    if folder == "sys":  # systems by the part of their file names that differs
        names, note = distinguishing_names([file.name for file in files])
        notes.extend([f"{folder}/: {note}"] if note else [])
    columns = []
    for file, name in zip(files, names, strict=True):
        data = read_bytes(file)
        columns.append(read_plain(data, str(file), name))
        if note := byte_order_mark_note(data, f"{folder}/{file.name}"):
            notes.append(note)
    return columns


def _read_source(root: Path) -> TextColumn | None:
    files = sorted(root.glob("src.*"))
    if len(files) > 1:
        raise InputError(
            f"there are {len(files)} source files ({', '.join(f.name for f in files)})",
            origin=str(root),
            hint="Keep one src.<lang> file in the folder.",
        )
    if not files:
        return None
    return read_plain(read_bytes(files[0]), str(files[0]), "source")


@dataclass(frozen=True)
class SegmentIds:
    """segment_ids.tsv: the document of every line, and the data set's own segment ids."""

    documents: tuple[str, ...] | None
    lines: dict[str, int] | None  # segment_id -> 1-based line


def _read_segment_ids(root: Path, n_segments: int) -> SegmentIds:
    file = root / "segment_ids.tsv"
    if not file.exists():
        return SegmentIds(None, None)
    return parse_segment_ids(read_bytes(file), str(file), n_segments)


def parse_segment_ids(data: bytes, origin: str, n_segments: int) -> SegmentIds:
    """A segment-id map (columns line, segment_id, doc, doc_seg_id; one row per line)."""
    hint = "A segment-id map needs one row per line of the text files, in order."
    table = read_table(decode(data, origin), origin)
    columns = {name.lower(): name for name in table.header}
    if len(table.rows) != n_segments:
        raise InputError(
            f"has {len(table.rows)} rows but the text files have {n_segments} lines",
            origin=origin,
            hint=hint,
        )
    for number, row in enumerate(table.rows, start=1):
        if "line" in columns and row.cells[columns["line"]].strip() != str(number):
            raise InputError(
                f"expected line {number} here, found {row.cells[columns['line']].strip()!r}",
                origin=origin,
                line=row.line,
                column=columns["line"],
                hint=hint,
            )
    return SegmentIds(
        documents=_column(table, columns.get("doc"), origin),
        lines=_line_numbers(table, columns.get("segment_id"), origin),
    )


def _column(table: Table, column: str | None, origin: str) -> tuple[str, ...] | None:
    if column is None:
        return None
    values = []
    for row in table.rows:
        value = row.cells[column].strip()
        if not value:
            raise InputError("the value is empty", origin=origin, line=row.line, column=column)
        values.append(value)
    return tuple(values)


def _line_numbers(table: Table, column: str | None, origin: str) -> dict[str, int] | None:
    ids = _column(table, column, origin)
    if ids is None:
        return None
    lines: dict[str, int] = {}
    for number, (segment_id, row) in enumerate(zip(ids, table.rows, strict=True), start=1):
        if segment_id in lines:
            raise InputError(
                f"segment id {segment_id!r} occurs twice (first on line {lines[segment_id]})",
                origin=origin,
                line=row.line,
                column=column,
                hint="Every segment needs its own id.",
            )
        lines[segment_id] = number
    return lines


def _read_human_folder(
    root: Path, test_set: TestSet, segment_ids: dict[str, int] | None, notes: list[str]
) -> HumanScores | None:
    directory = root / "human"
    if not directory.is_dir():
        return None
    known = set(test_set.system_names) | set(test_set.reference_names)
    aliases = file_name_aliases(test_set.systems)
    parts = []
    files = [entry for entry in directory.iterdir() if entry.is_file()]
    for file in files:
        refuse_undecodable_name(file.name, str(directory))
    for file in sorted(file for file in files if not file.name.startswith(".")):
        label = f"human/{file.name}"
        if file.suffix.lower() not in HUMAN_SUFFIXES:
            notes.append(f"{label}: not a .tsv or .csv file, not read")
            continue
        if "UNALIGNED" in file.name:
            notes.append(
                f"{label}: not read, its name says UNALIGNED (its segment ids are not the line "
                "numbers of the text files)"
            )
            continue
        scores = read_human(
            read_bytes(file), str(file), documents=test_set.documents, segment_ids=segment_ids
        )
        parts.append(_keep_known_systems(scores.renamed(aliases), known, label, notes))
    return HumanScores.concat(parts) if parts else None


def _keep_known_systems(
    scores: HumanScores, known: set[str], label: str, notes: list[str]
) -> HumanScores:
    """Drop (and report, naming the first few) rows for systems that have no text in the folder."""
    segment_keep = scores.segment_rows["system"].isin(known)
    system_keep = scores.system_rows["system"].isin(known)
    dropped = [
        *scores.segment_rows.loc[~segment_keep, "system"].drop_duplicates().tolist(),
        *scores.system_rows.loc[~system_keep, "system"].drop_duplicates().tolist(),
    ]
    if dropped:
        n_rows = int((~segment_keep).sum() + (~system_keep).sum())
        notes.append(
            f"{label}: {_count(n_rows, 'row')} for {_count(len(set(dropped)), 'system')} without "
            f"text output ({listed_names(sorted(set(dropped)))}) were not loaded"
        )
    return HumanScores(scores.segment_rows[segment_keep], scores.system_rows[system_keep])


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"
