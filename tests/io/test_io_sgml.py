"""The NIST mteval SGML format."""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.io.mteval_sgml import read_sgml

REFSET = b"""<refset setid="newstest2017" srclang="any" trglang="de">
<doc sysid="ref-A" docid="d1" genre="news" origlang="en">
<hl>
<seg id="1">Titel &amp; Untertitel</seg>
</hl>
<p>
<seg id="2">a &lt; b &gt; c &quot;x&quot; &apos;y&apos; caf&#233; &#x41;</seg>
</p>
</doc>
<doc sysid="ref-A" docid="d2">
<seg id="1">Zweites Dokument</seg>
</doc>
<doc sysid="ref-B" docid="d1">
<seg id="1">Titel und Untertitel</seg>
<seg id="2">B zwei</seg>
</doc>
<doc sysid="ref-B" docid="d2">
<seg id="1">B drei</seg>
</doc>
</refset>
"""


def test_refset_with_two_sysids() -> None:
    found = read_sgml(REFSET, "ref.sgm")
    assert found.kind == "ref"
    assert [c.name for c in found.columns] == ["ref-A", "ref-B"]
    assert found.columns[0].segments == (
        "Titel & Untertitel",
        "a < b > c \"x\" 'y' café A",
        "Zweites Dokument",
    )
    assert found.columns[1].segments == ("Titel und Untertitel", "B zwei", "B drei")
    assert found.documents == ("d1", "d1", "d2")
    assert found.seg_ids == ("1", "2", "1")
    assert all(c.origin == "ref.sgm" for c in found.columns)


def test_tstset_with_unquoted_attributes_and_upper_case_tags() -> None:
    data = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mteval SYSTEM "ftp://jaguar.ncsl.nist.gov/mt/resources/mteval-xml-v1.3.dtd">
<MTEVAL>
<TSTSET setid=t srclang=en trglang=de sysid=uedin>
<DOC docid=d1>
<SEG id=1>  eins  </SEG>
<Seg ID='2'>zwei
geteilt</Seg>
</DOC>
</TSTSET>
</MTEVAL>
"""
    found = read_sgml(data, "t.xml")
    assert found.kind == "tst"
    assert [c.name for c in found.columns] == ["uedin"]
    assert found.columns[0].segments == ("eins", "zwei geteilt")


def test_srcset_without_sysid_is_named_source() -> None:
    data = (
        b'<srcset setid="s" srclang="en">\n<doc docid="d">\n<seg id="1">one</seg>\n</doc></srcset>'
    )
    found = read_sgml(data, "src.sgm")
    assert found.kind == "src"
    assert [c.name for c in found.columns] == ["source"]


def test_unknown_entities_stay_literal() -> None:
    data = (
        b'<tstset sysid="s"><doc docid="d"><seg id="1">AT&T &nbsp; &amp;amp;</seg></doc></tstset>'
    )
    assert read_sgml(data, "t.sgm").columns[0].segments == ("AT&T &nbsp; &amp;",)


def test_documents_in_another_order_follow_the_first_sysid() -> None:
    data = b"""<refset>
<doc sysid="A" docid="d1"><seg id="1">A1</seg></doc>
<doc sysid="A" docid="d2"><seg id="1">A2</seg></doc>
<doc sysid="B" docid="d2"><seg id="1">B2</seg></doc>
<doc sysid="B" docid="d1"><seg id="1">B1</seg></doc>
</refset>
"""
    found = read_sgml(data, "r.sgm")
    assert found.columns[1].segments == ("B1", "B2")
    assert found.documents == ("d1", "d2")


def error_for(data: bytes) -> InputError:
    with pytest.raises(InputError) as caught:
        read_sgml(data, "bad.sgm")
    assert caught.value.origin == "bad.sgm"
    return caught.value


def test_sysid_missing_a_document() -> None:
    data = b"""<refset>
<doc sysid="A" docid="d1"><seg id="1">x</seg></doc>
<doc sysid="A" docid="d2"><seg id="1">x</seg></doc>
<doc sysid="B" docid="d1"><seg id="1">x</seg></doc>
</refset>
"""
    error = error_for(data)
    assert "sysid 'B' has no document 'd2'" in error.problem
    assert error.line == 3


def test_sysid_with_an_extra_document() -> None:
    data = b"""<refset>
<doc sysid="A" docid="d1"><seg id="1">x</seg></doc>
<doc sysid="B" docid="d1"><seg id="1">x</seg></doc>
<doc sysid="B" docid="d9"><seg id="1">x</seg></doc>
</refset>
"""
    error = error_for(data)
    assert "'d9'" in error.problem
    assert error.line == 4


def test_sysid_with_other_segment_ids() -> None:
    data = b"""<refset>
<doc sysid="A" docid="d1">
<seg id="1">x</seg>
<seg id="2">x</seg>
</doc>
<doc sysid="B" docid="d1">
<seg id="1">x</seg>
<seg id="3">x</seg>
</doc>
</refset>
"""
    error = error_for(data)
    assert "segment 3" in error.problem and "segment 2" in error.problem
    assert error.line == 8


def test_sysid_with_fewer_segments() -> None:
    data = b"""<refset>
<doc sysid="A" docid="d1">
<seg id="1">x</seg>
<seg id="2">x</seg>
</doc>
<doc sysid="B" docid="d1">
<seg id="1">x</seg>
</doc>
</refset>
"""
    error = error_for(data)
    assert "no more segments" in error.problem
    assert error.line == 6


def test_missing_closing_seg() -> None:
    data = b"""<tstset sysid="s">
<doc docid="d">
<seg id="1">one
<seg id="2">two</seg>
</doc>
</tstset>
"""
    error = error_for(data)
    assert "missing </seg>" in error.problem
    assert error.line == 3


def test_missing_closing_seg_at_the_end() -> None:
    error = error_for(b'<tstset sysid="s">\n<doc docid="d">\n<seg id="1">one\n')
    assert "missing </seg>" in error.problem
    assert error.line == 3


def test_seg_outside_a_doc() -> None:
    error = error_for(b'<tstset sysid="s">\n<seg id="1">one</seg>\n</tstset>\n')
    assert "outside a <doc>" in error.problem
    assert error.line == 2


def test_doc_without_docid() -> None:
    error = error_for(b'<tstset sysid="s">\n\n<doc genre="news">\n<seg id="1">x</seg></doc>')
    assert "no docid" in error.problem
    assert error.line == 3


def test_doc_without_sysid_in_a_refset() -> None:
    error = error_for(b'<refset>\n<doc docid="d">\n<seg id="1">x</seg></doc></refset>')
    assert "no sysid" in error.problem
    assert error.line == 2


def test_text_outside_segments() -> None:
    error = error_for(b'<tstset sysid="s">\n<doc docid="d">\nstray words\n</doc></tstset>')
    assert "outside a <seg>" in error.problem
    assert error.line == 3


def test_markup_inside_a_segment() -> None:
    error = error_for(b'<tstset sysid="s">\n<doc docid="d">\n<seg id="1">x <b>y</b></seg></doc>')
    assert "inside a segment" in error.problem
    assert "&lt;" in error.hint


def test_a_file_with_two_kinds_of_set() -> None:
    error = error_for(b'<srcset><doc docid="d"><seg>x</seg></doc></srcset>\n<refset sysid="r">')
    assert "separate files" in error.hint
    assert error.line == 2


def test_documents_without_a_set_are_gtm14_input() -> None:
    found = read_sgml(b"<doc docid='d' sysid='s'><seg id=7>x y</seg></doc>\n", "gtm.sgm")
    assert found.kind == "bare" and found.columns[0].name == "s"
    assert found.documents == ("d",) and found.seg_ids == ("7",)
    assert "no sysid" in error_for(b"<doc docid='d'><seg id=1>x</seg></doc>").problem


def test_no_segments() -> None:
    error = error_for(b'<tstset sysid="s"><doc docid="d"></doc></tstset>')
    assert "no <seg>" in error.problem


def test_duplicate_document() -> None:
    data = b'<tstset sysid="s">\n<doc docid="d"></doc>\n<doc docid="d"></doc></tstset>'
    error = error_for(data)
    assert "twice" in error.problem
    assert error.line == 3
