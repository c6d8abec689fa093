"""Recognise a file's format, and read text columns from any format.

A file is read as JSON Lines, SGML, XML, CSV or TSV only when its extension or its whole structure
says so; its first line alone never decides, because a plain system output may begin with any
segment at all: ``{...}``, ``<doc ...>``, ``system, hypothesis``. The extension decides for
.jsonl, .ndjson and .json (JSON Lines) and for .sgm, .sgml and .xml (markup, whose root element
tells mteval SGML from WMT XML); for .tsv and .csv when the first line is a header that names a
known column (extensions lie: a plain file called .tsv stays plain). Otherwise the structure
decides: a root element that encloses the whole file (``<srcset>``, ``<refset>``, ``<tstset>``,
``<mteval>`` or ``<dataset>``); ``<doc>`` elements (GTM 1.4's input) that parse as mteval SGML
from start to end; a JSON object with long-format keys on every line; a header with a known
column whose rows all have its number of fields. Anything else is plain text, one segment per
line. When a file could be read two ways, one note (``ColumnsRead.notes``) says which reading was
used and why.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import PurePath

from mteval_core.errors import InputError
from mteval_core.io.decoding import resolve_carriage_returns
from mteval_core.io.delimited import read_table, sniff_delimiter
from mteval_core.io.jsonl import read_jsonl_columns
from mteval_core.io.long_format import LongColumns
from mteval_core.io.mteval_sgml import read_sgml, sgml_problem
from mteval_core.io.plain import byte_order_mark_note, read_plain, system_name_from_path
from mteval_core.io.system_names import distinguishing_names
from mteval_core.io.tabular import read_tabular_columns
from mteval_core.io.wmt_xml import read_wmt_xml
from mteval_core.model.testset import TextColumn

FORMATS = ("plain", "mteval-sgml", "wmt-xml", "csv", "tsv", "jsonl")
FORMAT_NAMES = {
    "plain": "plain text, one segment per line",
    "mteval-sgml": "NIST mteval SGML",
    "wmt-xml": "WMT XML",
    "csv": "a CSV long-format table",
    "tsv": "a TSV long-format table",
    "jsonl": "JSON Lines",
}
JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")
MARKUP_SUFFIXES = {".sgm": "mteval-sgml", ".sgml": "mteval-sgml", ".xml": "wmt-xml"}
TABLE_SUFFIXES = {".tsv": "tsv", ".csv": "csv"}
SET_ROOTS = {"srcset", "refset", "tstset", "mteval"}  # mteval SGML; <dataset> is WMT XML
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
FIRST_TAG = re.compile(r"<([A-Za-z][\w.:-]*)")
SPACE = re.compile(r"\s*")
BLANK = re.compile(rb"\s*")
HEAD_BYTES = 1 << 20  # where the root element is looked for, after declarations and comments
TAIL_BYTES = 1000  # where its end tag is
PLAIN_READING = "read as plain text, one segment per line"
SUFFIX_READINGS = {  # what naming a file so makes of it
    ".jsonl": "JSON Lines",
    ".sgm": "SGML",
    ".xml": "XML",
    ".csv": "a CSV table",
    ".tsv": "a TSV table",
}

ROLE_WORDS = {"src": "source", "ref": "reference", "sys": "system output"}
# what a file of another role is told, in neutral words (the command line names its flags)
GIVE_IT_AS = {"ref": "Give it as a reference.", "sys": "Give it as a system output."}
SGML_ROLES = {"src": "src", "ref": "ref", "tst": "sys"}


@dataclass(frozen=True)
class ColumnsRead:
    columns: list[TextColumn]  # never empty
    documents: tuple[str, ...] | None  # document id per segment, when the format has them
    notes: tuple[str, ...] = ()  # which reading was used, what was skipped: to show to the user
    # The id of every segment within its document (SGML, WMT XML); None where segments are
    # identified by position only (plain text, long format).
    segment_ids: tuple[str, ...] | None = None
    # A plain-text system file named after its file name: renamed with the other system files of
    # its run by the part of the name that differs (name_systems_after_files).
    named_after_file: bool = False

    @property
    def origin(self) -> str:
        return self.columns[0].origin


@dataclass(frozen=True)
class Detection:
    """A file's format, and when the file could be read two ways, a note that says which
    reading was used and why (it starts with the file's name)."""

    format: str  # one of FORMATS
    note: str | None = None


def detect_format(data: bytes, filename: str = "") -> str:
    """One of FORMATS (see :func:`detect`); any bytes at all give an answer, never an error."""
    return detect(data, filename).format


def detect(data: bytes, filename: str = "") -> Detection:
    """The format of ``data`` by ``filename``'s extension or the file's whole structure (see the
    module docstring), with a note when the file could be read two ways.

    Undecodable bytes, NUL bytes and carriage returns are left to the reader, which refuses them
    with their line; here they only make a structure fail. Only the start of the file is decoded
    unless it looks like the start of another format.
    """
    suffix = PurePath(filename).suffix.lower()
    if suffix in JSONL_SUFFIXES:
        return Detection("jsonl")
    if suffix in MARKUP_SUFFIXES:
        root = _root_name(_text(data[:HEAD_BYTES]))
        return Detection(_markup_format(root) or MARKUP_SUFFIXES[suffix])
    found = _by_structure(data, filename)
    if found.format != "plain":
        return Detection(found.format, None if found.format == _named_table(suffix) else found.note)
    if _named_table(suffix) is None:
        return found
    header = _header_format(_first_line(data))
    if header != "plain":  # a table by its name: the reader says which row is wrong
        return Detection(header)
    return Detection(
        "plain",
        found.note
        or f"{filename}: {PLAIN_READING}: its name ends in {suffix}, but its first line is not "
        "a header that names a known column (system, hypothesis, reference, ...)",
    )


def _named_table(suffix: str) -> str | None:
    return TABLE_SUFFIXES.get(suffix)


def _by_structure(data: bytes, origin: str) -> Detection:
    """The format the whole file has, looked at only when its start suggests one."""
    if data.startswith(b"<", _content_start(data)):
        return _markup_structure(data, origin)
    first_line = _first_line(data)
    if first_line.startswith("{"):
        return _json_structure(data, origin)
    header = _header_format(first_line)
    if header != "plain":
        return _table_structure(_text(data), header, origin)
    return Detection("plain")


def _text(data: bytes) -> str:
    """The text as the readers see it, with bad bytes replaced: detection never fails."""
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff").replace("\r\n", "\n")


def _content_start(data: bytes) -> int:
    """The offset of the first byte that is not white space, after a byte order mark."""
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    return BLANK.match(data, bom).end()  # type: ignore[union-attr]  # \s* always matches


def _first_line(data: bytes) -> str:
    """The first non-blank line, cut at a carriage return."""
    start = _content_start(data)
    ends = [end for end in (data.find(b"\n", start), data.find(b"\r", start)) if end >= 0]
    return data[start : min(ends, default=len(data))].decode("utf-8", errors="replace")


def _markup_format(root: str) -> str | None:
    if root == "dataset":
        return "wmt-xml"
    return "mteval-sgml" if root in SET_ROOTS or root == "doc" else None


def _root_name(text: str) -> str:
    """The first element's name in lower case, after an XML declaration, processing
    instructions, comments and a DOCTYPE (whose internal subset holds '>' of its own); '' if
    the text has none. Linear in the text: each step starts where the last one ended."""
    position = 0
    while True:
        position = SPACE.match(text, position).end()  # type: ignore[union-attr]  # \s* matches
        if text.startswith("<?", position):
            end = text.find("?>", position)
            position = end + 2
        elif text.startswith("<!--", position):
            end = text.find("-->", position + 4)
            position = end + 3
        elif text.startswith("<!", position):
            end = _declaration_end(text, position)
            position = end + 1
        else:
            tag = FIRST_TAG.match(text, position)
            return tag.group(1).lower() if tag else ""
        if end < 0:
            return ""


def _declaration_end(text: str, start: int) -> int:
    """Where the declaration that starts at ``start`` ends ('>'), or -1 when it never does."""
    end = text.find(">", start)
    subset = text.find("[", start, end if end >= 0 else len(text))
    if subset < 0:
        return end
    subset_end = text.find("]", subset)
    return -1 if subset_end < 0 else text.find(">", subset_end)


def _markup_structure(data: bytes, origin: str) -> Detection:
    """mteval SGML or WMT XML when a known root encloses the whole file (the reader then says
    what is wrong inside it), or when ``<doc>`` elements parse from start to end."""
    root = _root_name(_text(data[:HEAD_BYTES]))
    markup = _markup_format(root)
    if markup is None:  # <b>, <seg>, <p>: a segment that starts with markup
        return Detection("plain")
    if root == "doc":
        problem = sgml_problem(_text(data), origin)
        if problem is None:
            return Detection(
                markup,
                f"{origin}: read as {FORMAT_NAMES[markup]}: the whole file is <doc> elements "
                "with their segments, as GTM 1.4 reads",
            )
        why = f"line {problem.line}: {problem.problem}" if problem.line else problem.problem
        return _plain_after_all(origin, f"it starts with <doc> but is not SGML ({why})", ".sgm")
    tail = data[-TAIL_BYTES:].decode("utf-8", errors="replace")
    if re.search(rf"</\s*{re.escape(root)}\s*>\s*\Z", tail, re.IGNORECASE):
        return Detection(
            markup, f"{origin}: read as {FORMAT_NAMES[markup]}: one <{root}> element is the file"
        )
    return _plain_after_all(
        origin,
        f"it starts with <{root}> but does not end with </{root}>",
        ".xml" if markup == "wmt-xml" else ".sgm",
    )


def _json_structure(data: bytes, origin: str) -> Detection:
    """JSON Lines when every non-blank line is a JSON object with a long-format key."""
    first = None
    for number, line in _nonblank_lines(data):
        value = _json_object(line)
        if value is None and first is None:
            return Detection("plain")  # {curly text}: not even its first line is JSON
        if value is None:
            why = f"line {first} is a JSON object but line {number} is not"
            return _plain_after_all(origin, why, ".jsonl")
        if not _names_known_column(value):
            why = (
                f"line {number} is a JSON object without a long-format key (system, hypothesis, "
                "reference, ...)"
            )
            return _plain_after_all(origin, why, ".jsonl")
        first = first or number
    return Detection(
        "jsonl",
        f"{origin}: read as {FORMAT_NAMES['jsonl']}: every line is a JSON object with "
        "long-format keys (name the file .jsonl to say so)",
    )


def _nonblank_lines(data: bytes) -> Iterator[tuple[int, str]]:
    """(number, text) of every non-blank line, decoded one at a time: a plain file whose first
    segment is a JSON object is told apart at its second line, without decoding the rest."""
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    number = 1
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end].decode("utf-8", errors="replace").removesuffix("\r")  # CRLF
        if line.strip():
            yield number, line
        start, number = end + 1, number + 1


def _json_object(line: str) -> dict | None:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, a 4,300-digit integer, or too deep
        return None
    return value if isinstance(value, dict) else None


def _table_structure(text: str, header: str, origin: str) -> Detection:
    """A table when every row has the header's number of fields (and CSV's quotes close)."""
    kind = header.upper()
    try:
        table = read_table(text, origin)
    except InputError as problem:
        why = f"line {problem.line}: {problem.problem}" if problem.line else problem.problem
        why = f"its first line is a {kind} header but the rest is no table ({why})"
        return _plain_after_all(origin, why, f".{header}")
    return Detection(
        header,
        f"{origin}: read as {FORMAT_NAMES[header]}: line {table.header_line} is a header that "
        f"names known columns and every row has its {len(table.header)} fields",
    )


def _plain_after_all(origin: str, why: str, suffix: str) -> Detection:
    """Plain text, with a note on why the other reading its start suggests was not used."""
    return Detection(
        "plain",
        f"{origin}: {PLAIN_READING}: {why}; name the file {suffix} to read it as "
        f"{SUFFIX_READINGS[suffix]}",
    )


def _names_known_column(names: Iterable[object]) -> bool:
    """Whether a header's names or a JSON object's keys include a long-format column."""
    return any(
        isinstance(name, str)
        and (name.strip().lower() in KNOWN_COLUMNS or name.strip().lower().startswith("ref"))
        for name in names
    )


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
        and _names_known_column(names)
    )
    if not is_header:
        return "plain"
    return "tsv" if delimiter == "\t" else "csv"


def read_columns(
    data: bytes,
    origin: str,
    role: str,
    name: str | None = None,
    carriage_returns: str = "refuse",
    byte_order_mark: str = "keep",
) -> ColumnsRead:
    """The text columns a file gives for ``role``: 'src', 'ref' or 'sys' (system outputs).

    Plain text is one column, named ``name`` or after the file. Files with several columns (an
    mteval set with several sysids, WMT XML, long format) keep the names inside the file, so a
    ``name`` for them is refused. SGML and WMT XML give the document and segment id of every
    segment, by which :func:`mteval_core.io.alignment.align_by_ids` matches files.
    ``carriage_returns`` says what a carriage return without a line feed means (one of
    :data:`~mteval_core.io.decoding.CARRIAGE_RETURNS`): refused by default, with its line.
    ``byte_order_mark`` ('keep' or 'drop') says what a UTF-8 byte order mark at the start of a
    plain-text file becomes (:mod:`mteval_core.io.plain`); other formats always drop it. Format
    detection looks past it either way.
    """
    if role not in ROLE_WORDS:
        raise ValueError(f"role must be one of {sorted(ROLE_WORDS)}, not {role!r}")
    data = resolve_carriage_returns(data, carriage_returns)
    detection = detect(data, origin)
    chosen = (detection.note,) if detection.note else ()
    if detection.format == "plain":
        default = "source" if role == "src" else system_name_from_path(origin)
        column = read_plain(data, origin, name or default, byte_order_mark)
        bom = byte_order_mark_note(data, origin, byte_order_mark)
        notes = chosen + ((bom,) if bom else ())
        return ColumnsRead([column], None, notes, named_after_file=name is None and role == "sys")
    columns, documents, segment_ids, notes = _read_format(data, origin, role, detection.format)
    if not columns:
        raise InputError(
            f"the file has no {ROLE_WORDS[role]}",
            origin=origin,
            hint=f"Give the {ROLE_WORDS[role]}s in another file.",
        )
    return ColumnsRead(_named(columns, name, origin), documents, chosen + notes, segment_ids)


def _read_format(
    data: bytes, origin: str, role: str, file_format: str
) -> tuple[list[TextColumn], tuple[str, ...] | None, tuple[str, ...] | None, tuple[str, ...]]:
    """Columns for ``role``, document ids, segment ids and notes of a file with columns."""
    if file_format == "mteval-sgml":
        found = read_sgml(data, origin)
        if found.kind != "bare" and SGML_ROLES[found.kind] != role:
            raise InputError(
                f"this is a {found.kind}set, not a {_sgml_kind(role)}set",
                origin=origin,
                hint=_wrong_role_hint(SGML_ROLES[found.kind]),
            )
        return found.columns, found.documents, found.seg_ids, ()
    if file_format == "wmt-xml":
        xml = read_wmt_xml(data, origin)
        columns = {"src": [xml.source], "ref": xml.references, "sys": xml.systems}[role]
        return columns, xml.documents, xml.segment_ids, xml.notes
    reader = read_jsonl_columns if file_format == "jsonl" else read_tabular_columns
    long = reader(data, origin)
    return _long_columns(long, role), long.documents, None, ()


def _wrong_role_hint(role: str) -> str:
    if role in GIVE_IT_AS:
        return GIVE_IT_AS[role]
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
    return [replace(columns[0], name=name)]


def name_systems_after_files(reads: list[ColumnsRead]) -> tuple[list[ColumnsRead], str | None]:
    """``reads`` with the systems of plain-text files named after their files renamed together,
    by the part of their file names that differs (:mod:`mteval_core.io.system_names`), and the
    note that says so. Systems named in the file (XML, SGML, tables) or by the user keep their
    names, and take no part in the comparison."""
    renamed = [k for k, read in enumerate(reads) if read.named_after_file]
    names, note = distinguishing_names([reads[k].origin for k in renamed])
    out = list(reads)
    for k, name in zip(renamed, names, strict=True):
        column = reads[k].columns[0]
        out[k] = replace(reads[k], columns=[replace(column, name=name)])
    return out, note
