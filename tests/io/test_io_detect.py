"""Format detection by content, and read_columns for the command line."""

from __future__ import annotations

import json

import pytest

from mteval_core.errors import InputError
from mteval_core.io import detect_format, read_columns
from mteval_core.io.detect import FORMATS

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
        (b"\xef\xbb\xbf\n  <MTEVAL>\n<tstset>", "x", "mteval-sgml"),
        (b'<?xml version="1.0"?>\n<srcset setid="x">', "x.xml", "mteval-sgml"),
        (WMT_XML, "newstest2021.en-de.all.xml", "wmt-xml"),
        (b"<dataset id='x'>", "", "wmt-xml"),
        (b"<b>bold</b> text that starts with markup\n", "a.txt", "plain"),
        (LONG_JSONL, "records.txt", "jsonl"),
        (b'{"broken": \n', "records.jsonl", "jsonl"),
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
    assert "--refs" in caught.value.hint
    with pytest.raises(InputError, match="this is a tstset") as caught:
        read_columns(SGML_TSTSET, "out.sgm", "ref")
    assert "--hyps" in caught.value.hint
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
