"""The WMT XML format (WMT21 onwards)."""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.io.wmt_xml import read_wmt_xml


def wmt_xml(*docs: str) -> bytes:
    body = "\n".join(docs)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<dataset id="newstest2021">\n<collection id="general">\n'
        f"{body}\n</collection>\n</dataset>\n"
    ).encode()


def doc(doc_id: str, segments: list[str], *parts: str, testsuite: bool = False) -> str:
    extra = ' testsuite="ts"' if testsuite else ""
    source = "".join(f'<seg id="{i}">{s}</seg>' for i, s in enumerate(segments, start=1))
    return (
        f'<doc id="{doc_id}" origlang="en"{extra}>'
        f'<src lang="en"><p>{source}</p></src>{"".join(parts)}</doc>'
    )


def translation(tag: str, attribute: str, name: str | None, segments: list[str]) -> str:
    label = "" if name is None else f' {attribute}="{name}"'
    body = "".join(f'<seg id="{i}">{s}</seg>' for i, s in enumerate(segments, start=1))
    return f'<{tag} lang="de"{label}><p>{body}</p></{tag}>'


def ref(name: str | None, segments: list[str]) -> str:
    return translation("ref", "translator", name, segments)


def hyp(name: str, segments: list[str]) -> str:
    return translation("hyp", "system", name, segments)


def test_two_references_and_two_systems() -> None:
    data = wmt_xml(
        doc(
            "d1",
            ["one", "two &amp; more"],
            ref("A", ["eins", "zwei &amp; mehr"]),
            ref("B", ["Eins", "Zwei"]),
            hyp("X", ["x1", "x2"]),
            hyp("Y", ["y1", "y2"]),
        ),
        doc(
            "d2",
            ["three"],
            hyp("Y", ["y3"]),
            ref("B", ["Drei"]),
            ref("A", ["drei"]),
            hyp("X", ["x3"]),
        ),
    )
    found = read_wmt_xml(data, "test.xml")
    assert found.source.segments == ("one", "two & more", "three")
    assert [r.name for r in found.references] == ["ref-A", "ref-B"]
    assert found.references[0].segments == ("eins", "zwei & mehr", "drei")
    assert found.references[1].segments == ("Eins", "Zwei", "Drei")
    assert [s.name for s in found.systems] == ["X", "Y"]
    assert found.systems[1].segments == ("y1", "y2", "y3")
    assert found.documents == ("d1", "d1", "d2")
    assert found.notes == ()


def test_reference_without_translator_is_named_ref() -> None:
    found = read_wmt_xml(wmt_xml(doc("d", ["a"], ref(None, ["b"]))), "t.xml")
    assert [r.name for r in found.references] == ["ref"]
    assert found.systems == []


def test_segments_follow_the_source_order_by_id() -> None:
    reversed_hyp = '<hyp system="X"><p><seg id="2">x2</seg><seg id="1">x1</seg></p></hyp>'
    found = read_wmt_xml(wmt_xml(doc("d", ["a", "b"], reversed_hyp)), "t.xml")
    assert found.systems[0].segments == ("x1", "x2")


def test_missing_hypothesis_names_doc_and_system() -> None:
    data = wmt_xml(
        doc("d1", ["a"], ref("A", ["r"]), hyp("X", ["x"]), hyp("Y", ["y"])),
        doc("d2", ["b"], ref("A", ["r"]), hyp("X", ["x"])),
    )
    with pytest.raises(InputError) as caught:
        read_wmt_xml(data, "t.xml")
    error = caught.value
    assert error.origin == "t.xml"
    assert "'d2'" in error.problem and "'Y'" in error.problem
    assert "Remove that system" in error.hint


def test_missing_reference_names_doc_and_translator() -> None:
    data = wmt_xml(
        doc("d1", ["a"], ref("A", ["r"]), ref("B", ["r"])),
        doc("d2", ["b"], ref("B", ["r"])),
    )
    with pytest.raises(InputError, match="'d2' has no reference by translator 'A'"):
        read_wmt_xml(data, "t.xml")


def test_hypothesis_missing_one_segment() -> None:
    data = wmt_xml(doc("d1", ["a", "b"], ref("A", ["r", "s"]), hyp("X", ["x"])))
    with pytest.raises(InputError, match="'X' lacks segment 2"):
        read_wmt_xml(data, "t.xml")


def test_testsuite_documents_are_skipped_with_a_note() -> None:
    data = wmt_xml(
        doc("d1", ["a"], ref("A", ["r"]), hyp("X", ["x"])),
        doc("suite", ["b"], hyp("X", ["y"]), testsuite=True),
    )
    found = read_wmt_xml(data, "t.xml")
    assert found.documents == ("d1",)
    assert len(found.notes) == 1 and "1 test-suite document " in found.notes[0]


def test_malformed_xml_gives_line_and_column() -> None:
    data = b'<dataset id="x">\n<collection>\n<doc id="d"><src><p><seg id="1">a</p>\n'
    with pytest.raises(InputError, match="not well-formed XML") as caught:
        read_wmt_xml(data, "t.xml")
    assert caught.value.line == 3


def test_hyp_without_system_attribute() -> None:
    data = wmt_xml(doc("d1", ["a"], '<hyp lang="de"><p><seg id="1">x</seg></p></hyp>'))
    with pytest.raises(InputError, match="without a system attribute"):
        read_wmt_xml(data, "t.xml")


def test_no_documents() -> None:
    with pytest.raises(InputError, match="no <doc>"):
        read_wmt_xml(b'<dataset id="x"></dataset>', "t.xml")
