"""Bytes that are not the text a reader wants: every one is a result or one InputError that names
the file (and the line) and says what to do; never a crash, never a silent wrong reading."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from mteval_core.errors import InputError
from mteval_core.io import read_columns, read_directory, read_human
from mteval_core.io.detect import detect_format
from mteval_core.io.directory import parse_segment_ids
from mteval_core.io.loss_csv import read_loss_table
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.io.mteval_sgml import read_sgml
from mteval_core.io.uploads import test_set_from_uploads as from_uploads

TEXT = b"Der Hund bellt .\nDie Katze schl\xc3\xa4ft .\n"


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100)
BINARIES = {
    "gzip": (gzip.compress(TEXT), "this is a gzip-compressed file", "gzip -dc"),
    "bzip2": (bz2.compress(TEXT), "this is a bzip2-compressed file", "bzip2 -dc"),
    "xz": (lzma.compress(TEXT), "this is an xz-compressed file", "xz -dc"),
    "zstd": (b"\x28\xb5\x2f\xfd" + bytes(20), "zstd-compressed", "zstd -dc"),
    "7z": (b"7z\xbc\xaf\x27\x1c" + bytes(20), "a 7-Zip archive", "Extract"),
    "zip": (zipped({"ref.de": TEXT}), "this is a zip archive", "unzip"),
    "xlsx": (zipped({"xl/workbook.xml": b"<x/>"}), "spreadsheet workbook", "CSV or TSV (UTF-8)"),
    "ods": (
        zipped({"mimetype": b"application/vnd.oasis.opendocument.spreadsheet"}),
        "spreadsheet workbook",
        "CSV or TSV",
    ),
    "docx": (zipped({"word/document.xml": b"<x/>"}), "word-processor document", "plain text"),
    "xls": (OLE2 + "Workbook".encode("utf-16-le"), "an Excel workbook", "CSV or TSV (UTF-8)"),
    "doc": (OLE2 + "WordDocument".encode("utf-16-le"), "a Word document", "plain text"),
    "ole2": (OLE2, "old binary format", "CSV or TSV"),
    "pdf": (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "this is a PDF document", "plain text"),
    "rtf": (b"{\\rtf1\\ansi Hallo}\n", "an RTF document", "plain text"),
    "png": (b"\x89PNG\r\n\x1a\n" + bytes(40), "this is a PNG image", "text file"),
    "jpeg": (b"\xff\xd8\xff\xe0" + bytes(40), "this is a JPEG image", "text file"),
    "gif": (b"GIF89a" + bytes(40), "this is a GIF image", "text file"),
    "elf": (b"\x7fELF\x02\x01\x01" + bytes(40), "compiled program (ELF)", "text file"),
}


def every_reader(data: bytes, origin: str) -> list[Callable[[], object]]:
    """Each reader path of the io package, given the same bytes."""
    return [
        *(lambda role=role: read_columns(data, origin, role) for role in ("src", "ref", "sys")),
        lambda: read_human(data, origin),
        lambda: read_mqm(data, origin),
        lambda: read_loss_table(data, origin),
        lambda: parse_segment_ids(data, origin, 2),
        lambda: from_uploads([(origin, data)], [("mt.de", TEXT)]),
        lambda: from_uploads([("ref.de", TEXT)], [(origin, data)]),
    ]


@pytest.mark.parametrize("kind", list(BINARIES))
def test_binary_files_are_named_by_what_they_are(kind: str) -> None:
    data, problem, hint = BINARIES[kind]
    for reader in every_reader(data, "upload.de"):
        with pytest.raises(InputError) as caught:
            reader()
        assert caught.value.origin == "upload.de"
        assert problem in caught.value.problem and caught.value.problem.endswith(", not text")
        assert hint in caught.value.hint


def test_a_binary_file_in_a_test_set_folder(write_tree, tmp_path) -> None:
    root = write_tree(tmp_path, {"ref/A.de": TEXT, "sys/B.de": gzip.compress(TEXT)})
    with pytest.raises(InputError, match="gzip-compressed") as caught:
        read_directory(root)
    assert caught.value.origin == str(root / "sys" / "B.de")


# ------------------------------------------------------------------------------- NUL bytes
@pytest.mark.parametrize(
    ("data", "line", "column"),
    [
        (b"a\nb\x00c\nd\n", 2, 2),
        ("a\u00e9\x00\n".encode(), 1, 3),
        (b'<tstset sysid="s"><doc docid="d">\n<seg id="1">a\x00</seg></doc></tstset>', 2, 14),
        (b'{"system": "A", "hyp": "x\x00", "ref": "r"}\n', 1, 26),
        (b"system\tsegment\tscore\nA\t1\t3\x00\n", 2, 6),
    ],
    ids=["plain", "column-in-characters", "sgml", "jsonl", "tsv"],
)
def test_nul_bytes_are_refused_with_line_and_column(data: bytes, line: int, column: int) -> None:
    role_reader = read_human if data.startswith(b"system\t") else _read_sys
    with pytest.raises(InputError, match="a NUL byte") as caught:
        role_reader(data, "f.de")
    assert (caught.value.origin, caught.value.line, caught.value.column) == ("f.de", line, column)
    assert "UTF-8" in caught.value.hint


def _read_sys(data: bytes, origin: str) -> object:
    return read_columns(data, origin, "sys")


def test_nul_in_wmt_xml_is_refused_before_parsing() -> None:
    data = b'<dataset><collection><doc id="d"><src><p><seg id="1">a\x00</seg></p></src>'
    with pytest.raises(InputError, match="a NUL byte") as caught:
        read_columns(data, "t.xml", "src")
    assert caught.value.line == 1


def test_csv_quoted_fields_may_hold_any_character() -> None:
    """CSV's quoting makes a NUL or a CR inside a field unambiguous: it is the field's text."""
    data = b'system,hypothesis,reference\nA,"x\x00y","r\rs"\n'
    found = read_columns(data, "long.csv", "sys")
    assert found.columns[0].segments == ("x\x00y",)
    assert read_columns(data, "long.csv", "ref").columns[0].segments == ("r\rs",)


# ------------------------------------------------------------------------- carriage returns
@pytest.mark.parametrize(
    ("data", "line", "column", "fix"),
    [
        (b"one\rtwo\rthree\r", 1, 4, "tr '\\r' '\\n'"),
        (b"a, b\rc\nd\ne\n", 1, 5, "tr -d '\\r'"),  # once an internal error in detect_format
        (b"first\nsecond \r third\n", 2, 8, "tr -d '\\r'"),
        (b"line\r\r\nnext\r\n", 1, 5, "tr -d '\\r'"),  # CR CR LF: one CR too many
        (b'<tstset sysid="s"><doc docid="d"><seg id="1">a\rb</seg></doc></tstset>', 1, 47, "tr"),
        (b'{"system": "A", "hyp": "x", "ref": "r"}\r{"system": "B"}\r', 1, 40, "tr '\\r'"),
    ],
    ids=["old-mac", "cr-and-comma", "cr-inside", "cr-cr-lf", "sgml", "jsonl"],
)
def test_a_lone_carriage_return_is_refused_with_its_line(data, line, column, fix) -> None:
    for role in ("src", "ref", "sys"):
        with pytest.raises(InputError, match=r"carriage return \(CR\)") as caught:
            read_columns(data, "f.de", role)
        error = caught.value
        assert (error.origin, error.line, error.column) == ("f.de", line, column)
        assert "sacreBLEU" in error.hint and fix in error.hint


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"system\tsegment\tscore\rA\t1\t3\r", 1),
        (b"system,segment,score\nA,1,3\rB,2,4\n", 2),
        (b"system,segment,score\r\nA,1,3\r\nB,2,4 \r\n", None),  # CRLF: fine
    ],
    ids=["tsv-old-mac", "csv-unquoted", "csv-crlf"],
)
def test_tables_refuse_a_lone_carriage_return_outside_quotes(data: bytes, line) -> None:
    if line is None:
        assert len(read_human(data, "h.csv").segment_rows) == 2
        return
    with pytest.raises(InputError, match=r"carriage return \(CR\)") as caught:
        read_human(data, "h.csv")
    assert caught.value.line == line


@pytest.mark.parametrize(
    ("data", "line", "problem"),
    [
        (b'system,segment,score\nA,1,"3\nA,2,4\nA,3,5\n', 2, "never closed"),
        (b'"', 1, "never closed"),
        (b'""\n\n""\n', None, "no header line"),
    ],
    ids=["swallows-the-rest", "only-a-quote", "empty-quoted-header"],
)
def test_csv_quotes_that_are_never_closed(data: bytes, line, problem: str) -> None:
    """Read leniently, the first case gave one row whose score took in the next two rows."""
    with pytest.raises(InputError, match=problem) as caught:
        read_human(data, "h.csv")
    assert (caught.value.origin, caught.value.line) == ("h.csv", line)


def test_crlf_line_ends_stay_accepted() -> None:
    found = read_columns(b"\xef\xbb\xbfeins\r\nzwei\r\n", "f.de", "sys", byte_order_mark="drop")
    assert found.columns[0].segments == ("eins", "zwei")


# ------------------------------------------------------------------------------ empty files
def test_one_blank_line_is_one_empty_segment() -> None:
    assert read_columns(b"\n", "sys.de", "sys").columns[0].segments == ("",)
    test_set = from_uploads([("ref.de", b"\n")], [("sys.de", b"\n")])
    assert test_set.n_segments == 1


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"\n\n", b" \n\t\n"])
def test_no_content_is_refused_as_empty(data: bytes) -> None:
    with pytest.raises(InputError, match="the file is empty") as caught:
        read_columns(data, "sys.de", "sys")
    assert caught.value.origin == "sys.de"


# -------------------------------------------------------------------------- XML with a DOCTYPE
WMT_BODY = (
    '<dataset id="t"><collection id="c"><doc id="d">'
    '<src lang="en"><p><seg id="1">Hello</seg></p></src>'
    '<ref lang="de" translator="A"><p><seg id="1">{text}</seg></p></ref>'
    '<hyp lang="de" system="s"><p><seg id="1">{text}</seg></p></hyp>'
    "</doc></collection></dataset>\n"
)


def doctype_xml(subset: str, text: str) -> bytes:
    return f'<?xml version="1.0"?>\n<!DOCTYPE dataset [\n{subset}\n]>\n{WMT_BODY}'.format(
        text=text
    ).encode()


BILLION_LAUGHS = "\n".join(
    [
        '<!ENTITY a "aaaaaaaaaa">',
        *(f'<!ENTITY {b} "{("&" + a + ";") * 10}">' for a, b in zip("abcdefgh", "bcdefghi")),
    ]
)


@pytest.mark.parametrize(
    ("subset", "text"),
    [
        (BILLION_LAUGHS, "&i;"),
        ('<!ENTITY x SYSTEM "file:///etc/passwd">', "&x;"),
        ('<!ENTITY x "Hallo">', "Hallo"),  # declared, not even used
    ],
    ids=["billion-laughs", "external-entity", "harmless-looking"],
)
def test_xml_entity_declarations_are_refused(subset: str, text: str) -> None:
    data = doctype_xml(subset, text)
    assert detect_format(data, "t.xml") == "wmt-xml"
    for role in ("src", "ref", "sys"):
        with pytest.raises(InputError, match="XML entity declarations are not accepted") as caught:
            read_columns(data, "t.xml", role)
        assert caught.value.origin == "t.xml" and caught.value.line == 3
        assert "Remove the DOCTYPE block" in caught.value.hint


def test_a_doctype_longer_than_the_detection_window_still_means_xml() -> None:
    data = doctype_xml("<!-- padding -->\n" * 1000, "Hallo")
    assert detect_format(data, "t.xml") == "wmt-xml"


def test_a_doctype_without_declarations_is_fine() -> None:
    data = f'<?xml version="1.0"?>\n<!DOCTYPE dataset>\n{WMT_BODY}'.format(text="Hallo").encode()
    assert read_columns(data, "t.xml", "sys").columns[0].segments == ("Hallo",)


def test_sgml_entity_declarations_are_refused_never_expanded() -> None:
    data = (
        b'<!DOCTYPE tstset [\n<!ENTITY a "aaaaaaaaaa">\n]>\n'
        b'<tstset sysid="s"><doc docid="d"><seg id="1">&a;</seg></doc></tstset>\n'
    )
    assert detect_format(data, "t.sgm") == "mteval-sgml"
    with pytest.raises(InputError, match="entity declarations") as caught:
        read_columns(data, "t.sgm", "sys")
    assert caught.value.line == 1 and "Remove the DOCTYPE block" in caught.value.hint


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b'<tstset sysid="s"><doc docid="d"><seg id="1">a</seg></doc>\n<!-- x', "never closed"),
        (b'<tstset sysid="s"><doc docid="d">\n<!DOCTYPE x', "never closed with >"),
    ],
)
def test_sgml_unclosed_comments_and_declarations_are_refused(data: bytes, problem: str) -> None:
    with pytest.raises(InputError, match=problem) as caught:
        read_sgml(data, "t.sgm")
    assert caught.value.line == 2


@pytest.mark.parametrize(
    "data",
    [
        b"<tstset>" + b"<!--" * 200_000,
        b'<tstset sysid="s"><doc ' + b"a" * 800_000,
        b'<tstset sysid="s"><doc docid="d">' + b"<a" * 400_000,
        b'<tstset sysid="s"><doc ' + b"a" * 800_000 + b">",
    ],
    ids=["unclosed-comments", "unclosed-tag", "many-lt", "long-attributes"],
)
def test_sgml_parsing_takes_linear_time(data: bytes) -> None:
    """Backtracking patterns once took quadratic time here: hours for a 50 MB upload."""
    started = time.perf_counter()
    with pytest.raises(InputError):
        read_sgml(data, "t.sgm")
    assert time.perf_counter() - started < 5


# --------------------------------------------------------------------- Python's own limits
@pytest.mark.parametrize(
    ("reader", "data"),
    [
        (_read_sys, b'{"system": "A", "hyp": "x", "segment": ' + b"9" * 5000 + b"}\n"),
        (_read_sys, b"[" * 100_000 + b"]" * 100_000 + b"\n"),
        (_read_sys, b'{"system": "A", "hyp": "x"}\n' + b"[" * 100_000 + b"\n"),
        (_read_sys, b"segment,system,hypothesis\n" + b"9" * 5000 + b",A,x\n"),
        (read_human, b"system\tsegment\tscore\nA\t" + b"9" * 5000 + b"\t1\n"),
        (read_human, b"system\tsegment\tscore\nA\t" + b"9" * 25 + b"\t1\n"),
        (read_human, b"system\tsegment\tscore\nA\td::" + b"9" * 5000 + b"\t1\n"),
        (_read_sys, b'<tstset sysid="s"><doc docid="d"><seg id="1">&#' + b"9" * 5000 + b";</seg>"),
        (_read_sys, b"x" * 200_000 + b", y\n"),  # over csv's field limit in a first line
    ],
    ids=[
        "jsonl-long-int",
        "jsonl-deep",
        "jsonl-deep-later",
        "csv-long-segment",
        "human-long-segment",
        "human-int64-overflow",
        "human-doc-long-segment",
        "sgml-long-reference",
        "long-first-line",
    ],
)
def test_python_limits_are_input_errors_or_results(reader, data: bytes) -> None:
    try:
        reader(data, "f.txt")
    except InputError as error:
        assert error.origin == "f.txt"


def test_detect_format_never_raises_on_tricky_first_lines() -> None:
    for data in (b"a, b\rc\n", b'{"a": ' + b"1" * 5000 + b"}\n", b"{" * 100_000, b"x" * 200_000):
        assert detect_format(data, "f.txt") in ("plain", "jsonl")


def test_sample_data_still_reads() -> None:
    sample = Path(__file__).resolve().parents[2] / "sample_data"
    assert read_directory(sample).test_set.n_segments == 40
