"""Format detection by content, and read_columns for the command line."""

from __future__ import annotations

import json

import pytest

from mteval_core.errors import InputError
from mteval_core.io import detect_format, read_columns
from mteval_core.io.decoding import LoneCarriageReturn
from mteval_core.io.detect import FORMATS, Detection, detect

SGML_REFSET = b"""<refset setid="s" srclang="en" trglang="de">
<doc sysid="ref-A" docid="d1"><seg id="1">eins</seg><seg id="2">zwei</seg></doc>
<doc sysid="ref-B" docid="d1"><seg id="1">Eins</seg><seg id="2">Zwei</seg></doc>
</refset>
"""
SGML_TSTSET = b"""<tstset setid="s" srclang="en" trglang="de" sysid="uedin">
<doc docid="d1"><seg id="1">one</seg><seg id="2">two</seg></doc>
</tstset>
"""
WMT_XML = b"""<?xml version="1.0" encoding="utf-8"?>
<!-- produced by wmt-format-tools -->
<dataset id="newstest2021"><collection id="general">
<doc id="d1" origlang="en">
<src lang="en"><p><seg id="1">one</seg></p></src>
<ref lang="de" translator="A"><p><seg id="1">eins</seg></p></ref>
<hyp lang="de" system="X"><p><seg id="1">ains</seg></p></hyp>
<hyp lang="de" system="Y"><p><seg id="1">one</seg></p></hyp>
</doc></collection></dataset>
"""
LONG_CSV = b"segment,system,hypothesis,reference,source\n1,A,a1,r1,s1\n1,B,b1,r1,s1\n"
LONG_JSONL = (
    b'{"system": "A", "hyp": "a1", "ref": "r1"}\n{"system": "B", "hyp": "b1", "ref": "r1"}\n'
)


@pytest.mark.parametrize(
    ("data", "filename", "expected"),
    [
        (b"Hallo Welt\nzweite Zeile\n", "sys.de", "plain"),
        (b"", "empty.txt", "plain"),
        (SGML_REFSET, "ref.sgm", "mteval-sgml"),
        (SGML_TSTSET, "output.txt", "mteval-sgml"),
        (b"\xef\xbb\xbf\n  <MTEVAL>\n<tstset></tstset>\n</MTEVAL>\n", "x", "mteval-sgml"),
        (b"\xef\xbb\xbf\n  <MTEVAL>\n<tstset>", "x", "plain"),  # a first line, not a document
        (b'<?xml version="1.0"?>\n<srcset setid="x">', "x.xml", "mteval-sgml"),
        (WMT_XML, "newstest2021.en-de.all.xml", "wmt-xml"),
        (b"<dataset id='x'></dataset>", "", "wmt-xml"),
        (b"<dataset id='x'>", "", "plain"),
        (b"<dataset id='x'>", "x.xml", "wmt-xml"),
        (b"<whatever/>", "x.xml", "wmt-xml"),  # the extension says XML: the reader says why not
        (b"plain text\n", "x.sgm", "mteval-sgml"),
        (b"<b>bold</b> text that starts with markup\n", "a.txt", "plain"),
        (LONG_JSONL, "records.txt", "jsonl"),
        (b'{"broken": \n', "records.jsonl", "jsonl"),
        (b"not even JSON\n", "records.ndjson", "jsonl"),
        (b'{"system": "A", "hyp": "x"}\n', "records.JSON", "jsonl"),
        (b"{curly text, not JSON}\n", "a.txt", "plain"),
        (LONG_CSV, "long.txt", "csv"),
        (b"system\tsegment_id\tscore\trater\nA\t1\t-1\t\n", "mqm.txt", "tsv"),
        (b"System, Adequacy, Fluency\nA,1,2\n", "sys.csv", "csv"),
        (b"das ist\tein Satz mit Tab\nund\tnoch einer\n", "data.tsv", "plain"),
        (b"one, two, three\nfour, five\n", "data.csv", "plain"),
        (b"system, however, was a word\n", "x.csv", "plain"),
    ],
)
def test_detect_format(data: bytes, filename: str, expected: str) -> None:
    assert expected in FORMATS
    assert detect_format(data, filename) == expected


def test_plain_file_is_one_named_column() -> None:
    found = read_columns(b"a\nb\n", "sys/online-A.0.de", "sys")
    assert [c.name for c in found.columns] == ["online-A.0"]
    assert found.documents is None
    assert read_columns(b"a\n", "x.de", "sys", name="mine").columns[0].name == "mine"
    assert read_columns(b"a\n", "src.en", "src").columns[0].name == "source"


def test_plain_file_with_tsv_extension_is_read_as_plain() -> None:
    found = read_columns(b"Satz\tmit Tab\nnoch, einer\n", "sys/A.tsv", "sys")
    assert found.columns[0].segments == ("Satz\tmit Tab", "noch, einer")


def test_sgml_refset_gives_references_and_documents() -> None:
    found = read_columns(SGML_REFSET, "ref.sgm", "ref")
    assert [c.name for c in found.columns] == ["ref-A", "ref-B"]
    assert found.documents == ("d1", "d1")


def test_sgml_with_the_wrong_role() -> None:
    with pytest.raises(InputError, match="this is a refset") as caught:
        read_columns(SGML_REFSET, "ref.sgm", "sys")
    assert caught.value.hint == "Give it as a reference."  # the command line: --refs
    with pytest.raises(InputError, match="this is a tstset") as caught:
        read_columns(SGML_TSTSET, "out.sgm", "ref")
    assert caught.value.hint == "Give it as a system output."
    srcset = b'<srcset setid="s"><doc docid="d"><seg id="1">x</seg></doc></srcset>'
    with pytest.raises(InputError, match="this is a srcset, not a refset") as caught:
        read_columns(srcset, "src.sgm", "ref")
    assert "neither a reference nor a system output" in caught.value.hint
    assert read_columns(srcset, "src.sgm", "src").columns[0].segments == ("x",)


def test_sgml_tstset_can_be_renamed() -> None:
    found = read_columns(SGML_TSTSET, "out.sgm", "sys", name="UEdin-2017")
    assert [c.name for c in found.columns] == ["UEdin-2017"]


def test_a_name_for_a_file_with_several_columns_is_refused() -> None:
    with pytest.raises(InputError, match="2 columns") as caught:
        read_columns(SGML_REFSET, "ref.sgm", "ref", name="ref")
    assert caught.value.origin == "ref.sgm"


def test_wmt_xml_by_role() -> None:
    assert [c.name for c in read_columns(WMT_XML, "t.xml", "ref").columns] == ["ref-A"]
    assert [c.name for c in read_columns(WMT_XML, "t.xml", "sys").columns] == ["X", "Y"]
    source = read_columns(WMT_XML, "t.xml", "src")
    assert source.columns[0].segments == ("one",)
    assert source.documents == ("d1",)


def test_long_formats_by_role() -> None:
    for data, origin in ((LONG_CSV, "long.csv"), (LONG_JSONL, "long.jsonl")):
        assert [c.name for c in read_columns(data, origin, "sys").columns] == ["A", "B"]
        assert [c.name for c in read_columns(data, origin, "ref").columns] == ["ref"]
    assert read_columns(LONG_CSV, "long.csv", "src").columns[0].segments == ("s1",)


def test_role_that_the_file_lacks() -> None:
    with pytest.raises(InputError, match="has no source"):
        read_columns(LONG_JSONL, "long.jsonl", "src")
    no_hyps = WMT_XML.replace(b"<hyp", b"<!--").replace(b"</hyp>", b"-->")
    with pytest.raises(InputError, match="has no system output"):
        read_columns(no_hyps, "t.xml", "sys")


def test_broken_jsonl_is_reported_not_read_as_text() -> None:
    records = [{"system": "A", "hyp": "x", "ref": "r"}]
    data = json.dumps(records[0]).encode() + b"\n{oops\n"
    with pytest.raises(InputError, match="not valid JSON") as caught:
        read_columns(data, "long.jsonl", "sys")
    assert caught.value.line == 2


def test_human_scores_passed_as_hypotheses() -> None:
    with pytest.raises(InputError, match="no 'hypothesis' column") as caught:
        read_columns(b"system\tsegment\tscore\nA\t1\t3\n", "mqm.tsv", "sys")
    assert "human scores" in caught.value.hint


def test_unknown_role_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="role"):
        read_columns(b"a\n", "x", "hyp")


# ------------------------------------------------------- the first line alone never decides
THREE_LINES = b"Noch ein Satz .\nUnd der letzte .\n"


@pytest.mark.parametrize("origin", ["sys.txt", "sys", "newstest2017.online-A.0.de"])
@pytest.mark.parametrize(
    ("first", "looks_like"),
    [
        (b'{"system": "A", "hypothesis": "x"}', "line 1 is a JSON object but line 2 is not"),
        (b'<doc docid="d1"> steht am Anfang', "starts with <doc> but is not SGML"),
        (b"<doc> ist ein Tag", "this <doc> has no docid"),
        (b"<tstset> am Anfang eines Satzes", "does not end with </tstset>"),
        (b"<dataset> am Anfang", "does not end with </dataset>"),
        (b"system,hypothesis,reference", "the rest is no table"),
        (b"system\thypothesis", "the rest is no table"),
    ],
    ids=["json-object", "doc-with-docid", "doc", "tstset", "dataset", "csv-header", "tsv-header"],
)
def test_a_first_segment_that_looks_like_a_format_stays_a_segment(
    first: bytes, looks_like: str, origin: str
) -> None:
    """The audit's case: read as JSON Lines and refused on line 2, or as SGML ('no docid')."""
    data = first + b"\n" + THREE_LINES
    assert detect_format(data, origin) == "plain"
    found = read_columns(data, origin, "sys")
    assert found.columns[0].segments == (first.decode(), "Noch ein Satz .", "Und der letzte .")
    (note,) = found.notes
    assert note.startswith(f"{origin}: read as plain text, one segment per line: ")
    assert looks_like in note


def test_a_plain_first_line_that_suggests_nothing_gets_no_note() -> None:
    for first in (b"{curly text}", b"<b>bold</b>", b"one, two", b"a\tb"):
        assert read_columns(first + b"\n" + THREE_LINES, "sys.txt", "sys").notes == ()


def test_every_line_a_long_format_object_is_json_lines_with_a_note() -> None:
    found = read_columns(LONG_JSONL, "records.txt", "sys")
    assert [c.name for c in found.columns] == ["A", "B"]
    (note,) = found.notes
    assert note.startswith("records.txt: read as JSON Lines: every line is a JSON object")


def test_every_line_an_object_without_long_format_keys_is_plain_with_a_note() -> None:
    data = b'{"a": 1}\n{"b": [2]}\n\n{"c": {}}\n'
    found = read_columns(data, "sys.txt", "sys")
    assert found.columns[0].segments == ('{"a": 1}', '{"b": [2]}', "", '{"c": {}}')
    (note,) = found.notes
    assert "line 1 is a JSON object without a long-format key" in note
    assert "name the file .jsonl" in note


def test_a_jsonl_file_by_its_extension_gets_no_note() -> None:
    found = read_columns(LONG_JSONL, "long.jsonl", "sys")
    assert ([c.name for c in found.columns], found.notes) == (["A", "B"], ())


@pytest.mark.parametrize(
    ("data", "origin", "expected", "says"),
    [
        (SGML_TSTSET, "output.txt", "mteval-sgml", "one <tstset> element is the file"),
        (WMT_XML, "newstest2021", "wmt-xml", "one <dataset> element is the file"),
        (LONG_CSV, "long.txt", "csv", "every row has its 5 fields"),
        (b"system\thypothesis\nA\tx\nB\ty\n", "long.de", "tsv", "every row has its 2 fields"),
    ],
)
def test_a_whole_structure_decides_with_a_note(
    data: bytes, origin: str, expected: str, says: str
) -> None:
    found = detect(data, origin)
    assert found.format == expected
    assert found.note is not None and found.note.startswith(f"{origin}: read as ")
    assert says in found.note


def test_documents_that_close_are_sgml_as_gtm_reads_them() -> None:
    data = b'<doc docid="d1" sysid="mt">\n<seg id="1">eins</seg>\n<seg id="2">zwei</seg>\n</doc>\n'
    found = read_columns(data, "candidate.txt", "sys")
    assert found.columns[0].segments == ("eins", "zwei")
    assert found.documents == ("d1", "d1")
    assert "<doc> elements" in found.notes[0]


@pytest.mark.parametrize(
    ("data", "origin"),
    [
        (SGML_REFSET, "ref.sgm"),
        (SGML_TSTSET, "tst.SGML"),
        (WMT_XML, "newstest2021.en-de.all.xml"),
        (LONG_CSV, "long.csv"),
        (b"system\tsegment_id\tscore\trater\nA\t1\t-1\t\n", "mqm.tsv"),
        (b"Hallo Welt\nzweite Zeile\n", "sys.de"),
    ],
)
def test_a_file_whose_extension_says_its_format_gets_no_note(data: bytes, origin: str) -> None:
    assert detect(data, origin).note is None


def test_a_table_by_its_extension_is_read_as_a_table_even_when_a_row_is_wrong() -> None:
    """The reader then names the row; read as plain text it would be scored as segments."""
    data = b"system,hypothesis\nA,x\nB\n"
    assert detect(data, "long.csv") == Detection("csv")
    with pytest.raises(InputError, match="1 values but the header has 2") as caught:
        read_columns(data, "long.csv", "sys")
    assert caught.value.line == 3
    plain = detect(data, "long.txt")
    assert plain.format == "plain" and "line 3" in (plain.note or "")


def test_a_tsv_name_without_a_header_is_plain_with_a_note() -> None:
    found = read_columns(b"Satz\tmit Tab\nnoch, einer\n", "sys/A.tsv", "sys")
    assert found.columns[0].segments == ("Satz\tmit Tab", "noch, einer")
    (note,) = found.notes
    assert "its name ends in .tsv, but its first line is not a header" in note


def test_a_doctype_names_no_root_when_the_file_has_no_element() -> None:
    for data in (b"<!DOCTYPE tstset [\n", b"<?xml version='1.0'", b"<!-- never closed"):
        assert detect_format(data, "x.txt") == "plain"
        assert detect_format(data, "x.xml") == "wmt-xml"


def test_the_root_is_found_after_a_long_prolog() -> None:
    data = b"<!-- c -->" * 50_000 + b'<tstset><doc docid="d" sysid="s"><seg>x</seg></doc></tstset>'
    assert detect_format(data, "x.txt") == "mteval-sgml"


# --------------------------------------------------------------------------- carriage returns
CR_IN_LINE = b"The cat\ris on the mat .\nIt rains .\n"


def test_a_lone_carriage_return_is_refused_by_default() -> None:
    with pytest.raises(LoneCarriageReturn, match="without a line feed") as caught:
        read_columns(CR_IN_LINE, "sys.de", "sys")
    assert (caught.value.line, caught.value.column) == (1, 8)


@pytest.mark.parametrize(
    ("choice", "segments"),
    [
        ("split", ("The cat", "is on the mat .", "It rains .")),
        ("space", ("The cat is on the mat .", "It rains .")),
    ],
)
def test_a_lone_carriage_return_is_read_as_chosen(choice: str, segments: tuple) -> None:
    found = read_columns(CR_IN_LINE, "sys.de", "sys", carriage_returns=choice)
    assert found.columns[0].segments == segments


@pytest.mark.parametrize(
    ("data", "split", "space"),
    [
        (b"one\rtwo\rthree\r", ("one", "two", "three"), ("one two three ",)),  # old Mac
        (b"a\r\r\nb\r\n", ("a", "", "b"), ("a ", "b")),  # CR CR LF: CRLF stays a line end
    ],
)
def test_old_mac_line_ends_and_crlf_with_each_choice(data: bytes, split, space) -> None:
    assert read_columns(data, "f.de", "sys", carriage_returns="split").columns[0].segments == split
    assert read_columns(data, "f.de", "sys", carriage_returns="space").columns[0].segments == space


def test_the_choice_reaches_sgml_and_json_lines() -> None:
    sgml = SGML_TSTSET.replace(b">one<", b">one\rmore<")
    for choice in ("split", "space"):  # a line break inside a segment is a space in SGML
        found = read_columns(sgml, "out.sgm", "sys", carriage_returns=choice)
        assert found.columns[0].segments == ("one more", "two")
    jsonl = LONG_JSONL.replace(b"}\n{", b"}\r{")  # records split by a CR alone
    found = read_columns(jsonl, "l.jsonl", "sys", carriage_returns="split")
    assert [c.segments for c in found.columns] == [("a1",), ("b1",)]


def test_an_unknown_carriage_return_choice_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="carriage_returns"):
        read_columns(b"a\n", "x", "sys", carriage_returns="newline")
