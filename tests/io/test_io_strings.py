"""Lone surrogates, which an escape can write and no output can encode, are refused where the
file is read: JSON Lines (long format and shards), mteval SGML and WMT XML, with the line, the
field and what to write instead; so are character references to no character."""

from __future__ import annotations

import json

import pytest

from mteval_core.errors import InputError
from mteval_core.io.jsonl import json_records, read_jsonl
from mteval_core.io.mteval_sgml import read_sgml
from mteval_core.io.strings import reference_problem, refuse_lone_surrogates, shown
from mteval_core.io.wmt_xml import read_wmt_xml
from tests.bad_inputs import WMT_XML


def refused(read, data: bytes) -> InputError:
    with pytest.raises(InputError) as caught:
        read(data, "f")
    assert caught.value.origin == "f"
    str(caught.value).encode("utf-8")  # the message itself can be written out
    return caught.value


@pytest.mark.parametrize(
    ("line", "column", "problem"),
    [
        ('{"system": "A\\ud800", "hypothesis": "x", "ref": "y"}', "system", "\\ud800 is half"),
        ('{"system": "A", "hypothesis": "\\uDFFF", "ref": "y"}', "hypothesis", "\\udfff is half"),
        ('{"system": "A", "hypothesis": "x", "ref": "y", "k\\ud83d": 1}', "k\\ud83d", "\\ud83d"),
        ('{"system": "A", "hypothesis": ["\\ud800"], "ref": "y"}', "hypothesis", "\\ud800"),
        ('{"system": "A", "note": {"deep": "\\ud800"}, "ref": "y"}', "note", "\\ud800"),
    ],
)
def test_json_lines_name_the_line_and_field(line: str, column: str, problem: str) -> None:
    data = ('{"system": "A", "hypothesis": "x", "ref": "y"}\n' + line + "\n").encode()
    error = refused(json_records, data)
    assert (error.line, error.column) == (2, column)
    assert error.problem.startswith(problem)
    assert "UTF-16 surrogate pair, not a character" in error.problem
    assert "both halves of its pair" in error.hint


def test_a_surrogate_pair_is_one_character_and_an_escaped_backslash_is_no_escape() -> None:
    data = b'{"system": "A\\ud83d\\ude00", "hypothesis": "x \\\\ud800", "ref": "y"}\n'
    test_set = read_jsonl(data, "f")
    assert test_set.system_names == ["A\U0001f600"]
    assert test_set.system("A\U0001f600") == ("x \\ud800",)


def test_the_check_walks_any_json_value() -> None:
    refuse_lone_surrogates({"a": [1, {"b": "ok"}], "c": None, "d": 2.5}, "f", 1)
    with pytest.raises(InputError) as caught:
        refuse_lone_surrogates(json.loads('[{"x": "\\udc80"}]'), "f", 7)
    assert (caught.value.line, caught.value.column) == (7, "x")
    assert shown("a\udc80b") == "a\\udc80b"


def sgml(segment: str, sysid: str = "s") -> bytes:
    body = f'<doc docid="d">\n<seg id="1">{segment}</seg>\n</doc>\n'
    return f'<tstset sysid="{sysid}">\n{body}</tstset>\n'.encode()


@pytest.mark.parametrize(
    ("data", "line", "problem"),
    [
        (sgml("a &#xD800; b"), 3, "&#xD800;: \\ud800 is half of a UTF-16 surrogate pair"),
        (sgml("a &#57343; b"), 3, "&#57343;: \\udfff is half"),
        (sgml("a", sysid="&#xdc00;"), 1, "&#xdc00;: \\udc00 is half"),
        (sgml("a &#0; b"), 3, "&#0;: NUL (U+0000) is not text"),
        (sgml("a &#x110000; b"), 3, "&#x110000;: no character has the number 1,114,112"),
    ],
)
def test_sgml_references_to_no_character_are_refused(data: bytes, line: int, problem: str) -> None:
    error = refused(read_sgml, data)
    assert error.line == line and error.problem.startswith(problem)
    assert "Write the character itself" in error.hint


def test_sgml_references_are_the_characters_they_number() -> None:
    """html.unescape made &#x80; a euro sign (HTML's rule for old Windows pages), &#1; nothing."""
    column = read_sgml(sgml("&#x80;&#1;&#233;&#x1F600;&amp;&lt;&gt;&quot;&apos;&copy;"), "f")
    assert column.columns[0].segments == ("\x80\x01é\U0001f600&<>\"'&copy;",)


@pytest.mark.parametrize(
    ("reference", "problem"),
    [
        ("&#xD800;", "&#xD800;: \\ud800 is half of a UTF-16 surrogate pair"),
        ("&#56319;", "&#56319;: \\udbff is half"),
        ("&#1;", "&#1;: XML does not allow this character"),
        ("&#" + "9" * 5000 + ";", "this character reference names no character"),  # int() limit
    ],
)
def test_wmt_xml_references_to_no_character_are_named(reference: str, problem: str) -> None:
    error = refused(
        read_wmt_xml,
        WMT_XML.replace("Hallo .</seg></p></ref>", f"Hallo {reference}</seg></p></ref>").encode(),
    )
    assert (error.line, error.column) == (4, 52)  # where the reference starts
    assert error.problem.startswith(problem)
    assert "a character XML allows" in error.hint


def test_reference_problems() -> None:
    assert reference_problem(0x41) is None and reference_problem(0x10FFFF) is None
    assert reference_problem(0xD7FF) is None and reference_problem(0xE000) is None
    assert reference_problem(0xD800) and reference_problem(0xDFFF) and reference_problem(0)
