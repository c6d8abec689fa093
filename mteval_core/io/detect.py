"""Recognise a file's format by its content, and read text columns from any format.

Extensions lie (an SGML file called .txt, a plain file called .tsv), so we look at the first
non-blank bytes instead. A plain text file whose lines happen to contain tabs or commas stays plain
unless its first line is a header with a known column name.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
from dataclasses import dataclass

from mteval_core.errors import InputError
from mteval_core.io.delimited import sniff_delimiter
from mteval_core.io.jsonl import read_jsonl_columns
from mteval_core.io.long_format import LongColumns
from mteval_core.io.mteval_sgml import read_sgml
from mteval_core.io.plain import read_plain, system_name_from_path
from mteval_core.io.tabular import read_tabular_columns
from mteval_core.io.wmt_xml import read_wmt_xml
from mteval_core.model.testset import TextColumn

FORMATS = ("plain", "mteval-sgml", "wmt-xml", "csv", "tsv", "jsonl")
SGML_ROOTS = {"srcset", "refset", "tstset", "mteval", "doc"}  # bare <doc>: GTM 1.4's input
KNOWN_COLUMNS = {
    "system",
    "segment",
    "segment_id",
    "seg_id",
    "seg",
    "hypothesis",
    "hyp",
    "translation",
    "target",
    "source",
    "src",
    "reference",
    "score",
    "rater",
    "criterion",
    "doc",
}
COLUMN_NAME = re.compile(r"[a-z_][a-z0-9_.:+-]*")
# Processing instructions, comments, and declarations such as <!DOCTYPE dataset [ ... ]>, whose
# internal subset holds '>' of its own.
DECLARATIONS = re.compile(
    r"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^\[>]*\[.*?\]\s*>|<![^>]*>", re.DOTALL | re.IGNORECASE
)
FIRST_TAG = re.compile(r"<([A-Za-z][\w.:-]*)")
DOCTYPE_NAME = re.compile(r"<!DOCTYPE\s+([A-Za-z][\w.:-]*)", re.IGNORECASE)
JSONL_SUFFIXES = (".jsonl", ".ndjson")

ROLE_OPTIONS = {"ref": "--refs", "sys": "--hyps"}  # command-line options of `mteval score`
ROLE_WORDS = {"src": "source", "ref": "reference", "sys": "system output"}
SGML_ROLES = {"src": "src", "ref": "ref", "tst": "sys"}


@dataclass(frozen=True)
class ColumnsRead:
    columns: list[TextColumn]  # never empty
    documents: tuple[str, ...] | None  # document id per segment, when the format has them
    notes: tuple[str, ...] = ()  # what was skipped, to show to the user
    # The id of every segment within its document (SGML, WMT XML); None where segments are
    # identified by position only (plain text, long format).
    segment_ids: tuple[str, ...] | None = None

    @property
    def origin(self) -> str:
        return self.columns[0].origin


def detect_format(data: bytes, filename: str = "") -> str:
    """One of FORMATS, decided by content; any bytes at all give an answer, never an error.

    ``filename`` only breaks one tie: a ``.jsonl`` file whose first line is broken JSON is still
    JSON Lines, so that the reader can report the error instead of taking it for plain text.
    Undecodable bytes, NUL bytes and carriage returns are left to the reader, which refuses them
    with their line.
    """
    text = data.removeprefix(codecs.BOM_UTF8).lstrip()
    if text.startswith(b"<"):
        return _markup_format(text[:8192].decode("utf-8", errors="replace"))
    first_line = text.split(b"\n", 1)[0].split(b"\r", 1)[0].decode("utf-8", errors="replace")
    if first_line.startswith("{"):
        if _is_json_object(first_line) or filename.lower().endswith(JSONL_SUFFIXES):
            return "jsonl"
        return "plain"
    return _header_format(first_line)


def _markup_format(head: str) -> str:
    """The root element decides; a DOCTYPE names it too, even when its subset fills the head."""
    tag = FIRST_TAG.match(DECLARATIONS.sub("", head).lstrip()) or DOCTYPE_NAME.search(head)
    name = tag.group(1).lower() if tag else ""
    if name == "dataset":
        return "wmt-xml"
    return "mteval-sgml" if name in SGML_ROOTS else "plain"


def _is_json_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):  # not JSON, a 4,300-digit integer, or too deep
        return False


def _header_format(line: str) -> str:
    """'tsv' or 'csv' if the line is a header that names a known column, else 'plain'."""
    delimiter = sniff_delimiter(line)
    if delimiter not in line:
        return "plain"
    try:
        fields = line.split("\t") if delimiter == "\t" else next(csv.reader([line]))
    except csv.Error:  # e.g. a field over csv's size limit: no header
        return "plain"
    names = [field.strip().lower() for field in fields]
    is_header = (
        len(names) >= 2
        and all(COLUMN_NAME.fullmatch(name) for name in names)
        and any(name in KNOWN_COLUMNS or name.startswith("ref") for name in names)
    )
    if not is_header:
        return "plain"
    return "tsv" if delimiter == "\t" else "csv"


def read_columns(data: bytes, origin: str, role: str, name: str | None = None) -> ColumnsRead:
    """The text columns a file gives for ``role``: 'src', 'ref' or 'sys' (system outputs).

    Plain text is one column, named ``name`` or after the file. Files with several columns (an
    mteval set with several sysids, WMT XML, long format) keep the names inside the file, so a
    ``name`` for them is refused. SGML and WMT XML give the document and segment id of every
    segment, by which :func:`mteval_core.io.alignment.align_by_ids` matches files.
    """
    if role not in ROLE_WORDS:
        raise ValueError(f"role must be one of {sorted(ROLE_WORDS)}, not {role!r}")
    file_format = detect_format(data, origin)
    if file_format == "plain":
        default = "source" if role == "src" else system_name_from_path(origin)
        return ColumnsRead([read_plain(data, origin, name or default)], None)
    if file_format == "mteval-sgml":
        found = read_sgml(data, origin)
        if found.kind != "bare" and SGML_ROLES[found.kind] != role:
            raise InputError(
                f"this is a {found.kind}set, not a {_sgml_kind(role)}set",
                origin=origin,
                hint=_wrong_role_hint(SGML_ROLES[found.kind]),
            )
        columns, documents, segment_ids, notes = found.columns, found.documents, found.seg_ids, ()
    elif file_format == "wmt-xml":
        xml = read_wmt_xml(data, origin)
        columns = {"src": [xml.source], "ref": xml.references, "sys": xml.systems}[role]
        documents, segment_ids, notes = xml.documents, xml.segment_ids, xml.notes
    else:
        long = (read_jsonl_columns if file_format == "jsonl" else read_tabular_columns)(
            data, origin
        )
        columns, documents, segment_ids, notes = _long_columns(long, role), long.documents, None, ()
    if not columns:
        raise InputError(
            f"the file has no {ROLE_WORDS[role]}",
            origin=origin,
            hint=f"Give the {ROLE_WORDS[role]}s in another file.",
        )
    return ColumnsRead(_named(columns, name, origin), documents, notes, segment_ids)


def _wrong_role_hint(role: str) -> str:
    if role in ROLE_OPTIONS:
        return f"Pass it with {ROLE_OPTIONS[role]}."
    return "A source file is neither a reference nor a system output."


def _sgml_kind(role: str) -> str:
    return next(kind for kind, wanted in SGML_ROLES.items() if wanted == role)


def _long_columns(long: LongColumns, role: str) -> list[TextColumn]:
    if role == "src":
        return [] if long.source is None else [long.source]
    return list(long.references if role == "ref" else long.systems)


def _named(columns: list[TextColumn], name: str | None, origin: str) -> list[TextColumn]:
    if name is None:
        return columns
    if len(columns) > 1:
        raise InputError(
            f"the file holds {len(columns)} columns ({', '.join(c.name for c in columns)}), "
            "so it cannot take one name",
            origin=origin,
            hint="Leave out the NAME= part; the names inside the file are used.",
        )
    return [TextColumn(name, columns[0].segments, columns[0].origin)]
