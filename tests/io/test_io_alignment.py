"""SGML and XML segments are matched by (document, segment id) across files, on the command line
and in the dashboard's uploads alike; plain text stays positional."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import sacrebleu

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io import read_columns
from mteval_core.io.alignment import align_by_ids
from mteval_core.io.uploads import test_set_from_uploads as from_uploads

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
REFERENCE = (SAMPLE / "ref" / "ref-A.en").read_text(encoding="utf-8").splitlines()
SYSTEM = (SAMPLE / "sys" / "neural-large.en").read_text(encoding="utf-8").splitlines()
SOURCE = (SAMPLE / "src.de").read_text(encoding="utf-8").splitlines()
DOCUMENTS = [
    line.split("\t")[2]
    for line in (SAMPLE / "segment_ids.tsv").read_text(encoding="utf-8").splitlines()[1:]
]

Segment = tuple[str, str, str]  # document, segment id, text


def numbered(texts: list[str]) -> list[Segment]:
    """The sample's segments with their documents and ids (1, 2, ... within each document)."""
    counts: dict[str, int] = {}
    segments = []
    for doc, text in zip(DOCUMENTS, texts, strict=True):
        counts[doc] = counts.get(doc, 0) + 1
        segments.append((doc, str(counts[doc]), text))
    return segments


def sgml(kind: str, segments: list[Segment], sysid: str) -> bytes:
    """An mteval set; documents in order of first appearance, segments in the given order."""
    documents: dict[str, list[str]] = {}
    for doc, seg_id, text in segments:
        documents.setdefault(doc, []).append(f'<seg id="{seg_id}">{text}</seg>\n')
    body = "".join(
        f'<doc docid="{doc}" sysid="{sysid}">\n{"".join(segs)}</doc>\n'
        for doc, segs in documents.items()
    )
    return f'<{kind}set setid="t" srclang="de" trglang="en">\n{body}</{kind}set>\n'.encode()


def swap(segments: list, first: int, second: int) -> list:
    swapped = list(segments)
    swapped[first], swapped[second] = swapped[second], swapped[first]
    return swapped


def score_files(tmp_path: Path, capsys, files: dict[str, bytes], refs, hyps) -> tuple[int, str]:
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    code = main(
        [
            "score",
            "--refs",
            *(str(tmp_path / name) for name in refs),
            "--hyps",
            *(str(tmp_path / name) for name in hyps),
            "--metrics",
            "bleu,fmean",
            "--format",
            "json",
        ]
    )
    out, err = capsys.readouterr()
    return code, out if code == 0 else err


EXPECTED_BLEU = sacrebleu.corpus_bleu(SYSTEM, [REFERENCE]).score


def test_the_reproduction_swapped_segments_score_as_unswapped(tmp_path, capsys) -> None:
    """neural-large against ref-A: 59.40; pairing segments by position gave 56.87."""
    assert round(EXPECTED_BLEU, 2) == 59.40
    swapped_bleu = sacrebleu.corpus_bleu(swap(SYSTEM, 0, 1), [REFERENCE]).score
    assert round(swapped_bleu, 2) == 56.87  # what position-based pairing computed
    files = {
        "ref.sgm": sgml("ref", numbered(REFERENCE), "ref-A"),
        "sys.sgm": sgml("tst", swap(numbered(SYSTEM), 0, 1), "neural-large"),
        "ref.en": "\n".join(REFERENCE).encode() + b"\n",
        "sys.en": "\n".join(SYSTEM).encode() + b"\n",
    }
    code, out = score_files(tmp_path, capsys, files, ["ref.sgm"], ["sys.sgm"])
    assert code == 0, out
    by_ids = json.loads(out)["scores"]["neural-large"]
    assert by_ids["bleu"] == pytest.approx(EXPECTED_BLEU, abs=1e-9)
    code, out = score_files(tmp_path, capsys, files, ["ref.en"], ["sys.en"])
    assert json.loads(out)["scores"]["sys"] == by_ids


def test_documents_and_segments_in_another_order_are_reordered() -> None:
    shuffled = numbered(SYSTEM)[::-1]  # every document, and every segment, reversed
    reference = read_columns(sgml("ref", numbered(REFERENCE), "ref-A"), "ref.sgm", "ref")
    system = read_columns(sgml("tst", shuffled, "mt"), "sys.sgm", "sys")
    assert system.columns[0].segments[0] == SYSTEM[-1]
    aligned = align_by_ids([reference], [system])
    assert aligned.systems[0].segments == tuple(SYSTEM)
    assert aligned.documents == tuple(DOCUMENTS)


def test_the_first_file_with_ids_defines_the_order() -> None:
    """A plain reference is positional against the order of the first SGML file."""
    segments = swap(numbered(SYSTEM), 0, 1)
    system = read_columns(sgml("tst", segments, "mt"), "sys.sgm", "sys")
    other = read_columns(sgml("tst", numbered(SYSTEM), "other"), "other.sgm", "sys")
    plain = read_columns("\n".join(REFERENCE).encode(), "ref.en", "ref")
    aligned = align_by_ids([plain], [system, other])
    assert aligned.references[0].segments == tuple(REFERENCE)  # positional, untouched
    assert aligned.systems[0].segments == tuple(text for _, _, text in segments)
    assert aligned.systems[1].segments == aligned.systems[0].segments  # put into that order


def test_wmt_xml_and_sgml_are_matched_by_the_same_ids() -> None:
    docs = "".join(
        f'<doc id="d"><src><p><seg id="1">eins</seg><seg id="2">zwei</seg></p></src>'
        f'<ref translator="A"><p><seg id="1">{one}</seg><seg id="2">{two}</seg></p></ref></doc>'
        for one, two in [("one", "two")]
    )
    xml = f"<dataset><collection>{docs}</collection></dataset>".encode()
    tstset = sgml("tst", [("d", "2", "second"), ("d", "1", "first")], "mt")
    aligned = align_by_ids(
        [read_columns(xml, "t.xml", "ref")],
        [read_columns(tstset, "sys.sgm", "sys")],
        read_columns(xml, "t.xml", "src"),
    )
    assert aligned.systems[0].segments == ("first", "second")
    assert aligned.source.segments == ("eins", "zwei")


# ---------------------------------------------------------------------------- refused, by name
REFERENCE_SGML = sgml("ref", numbered(REFERENCE), "ref-A")
MISMATCHES = {
    "missing segment": (
        numbered(SYSTEM)[:-1],
        ["1 missing segment", "document 'startup' segment 10"],
    ),
    "extra segment": (
        [*numbered(SYSTEM), ("bikes", "99", "extra")],
        ["1 extra segment", "document 'bikes' segment 99"],
    ),
    "missing document": (
        [seg for seg in numbered(SYSTEM) if seg[0] != "museum"],
        ["1 missing document ('museum')"],
    ),
    "other document": (
        [
            ("elsewhere", seg_id, text) if doc == "museum" else (doc, seg_id, text)
            for doc, seg_id, text in numbered(SYSTEM)
        ],
        ["1 missing document ('museum')", "1 extra document ('elsewhere')"],
    ),
    "many missing segments": (
        [seg for seg in numbered(SYSTEM) if int(seg[1]) <= 4],
        [
            "24 missing segments",
            "document 'bikes' segment 5, document 'bikes' segment 6, "
            "document 'bikes' segment 7 and 21 more",
        ],
    ),
}


@pytest.mark.parametrize("case", list(MISMATCHES))
def test_other_ids_are_refused_on_the_command_line(case: str, tmp_path, capsys) -> None:
    segments, words = MISMATCHES[case]
    files = {"ref.sgm": REFERENCE_SGML, "sys.sgm": sgml("tst", segments, "mt")}
    code, err = score_files(tmp_path, capsys, files, ["ref.sgm"], ["sys.sgm"])
    assert code == 2
    assert err.startswith(
        f"mteval: error: {tmp_path / 'sys.sgm'}: its segment ids differ from "
        f"those of {tmp_path / 'ref.sgm'}: "
    )
    assert err.count("\n") == 1
    for word in words:
        assert word in err


@pytest.mark.parametrize("case", list(MISMATCHES))
def test_other_ids_are_refused_in_uploads(case: str) -> None:
    segments, words = MISMATCHES[case]
    with pytest.raises(InputError) as caught:
        from_uploads([("ref.sgm", REFERENCE_SGML)], [("sys.sgm", sgml("tst", segments, "mt"))])
    assert caught.value.origin == "sys.sgm"
    assert "its segment ids differ from those of ref.sgm" in caught.value.problem
    assert "matched by document and segment id" in caught.value.hint
    for word in words:
        assert word in caught.value.problem


def test_a_mismatched_source_is_refused_in_uploads() -> None:
    source = sgml("src", numbered(SOURCE)[1:], "source")
    with pytest.raises(InputError, match="1 missing segment") as caught:
        from_uploads(
            [("ref.sgm", REFERENCE_SGML)],
            [("sys.sgm", sgml("tst", numbered(SYSTEM), "mt"))],
            ("src.sgm", source),
        )
    assert caught.value.origin == "src.sgm"


def test_uploads_reorder_systems_and_source() -> None:
    test_set = from_uploads(
        [("ref.sgm", REFERENCE_SGML)],
        [("sys.sgm", sgml("tst", numbered(SYSTEM)[::-1], "mt"))],
        ("src.sgm", sgml("src", swap(numbered(SOURCE), 3, 7), "source")),
    )
    assert test_set.system("mt") == tuple(SYSTEM)
    assert test_set.source.segments == tuple(SOURCE)
    assert test_set.documents == tuple(DOCUMENTS)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            sgml("tst", [*numbered(SYSTEM), ("bikes", "2", "again")], "mt"),
            ["segment id 2", "twice"],
        ),
        (
            b"<dataset><collection>"
            + b'<doc id="d"><src><p><seg id="1">a</seg></p></src></doc>' * 2
            + b"</collection></dataset>",
            ["document 'd' occurs twice"],
        ),
    ],
    ids=["sgml-segment", "xml-document"],
)
def test_an_id_twice_in_one_file_is_refused_by_name(data: bytes, words, tmp_path, capsys) -> None:
    files = {"ref.sgm": REFERENCE_SGML, "sys.sgm": data}
    code, err = score_files(tmp_path, capsys, files, ["ref.sgm"], ["sys.sgm"])
    assert code == 2 and f"{tmp_path / 'sys.sgm'}" in err
    for word in words:
        assert word in err
    with pytest.raises(InputError) as caught:
        from_uploads([("ref.sgm", REFERENCE_SGML)], [("sys.sgm", data)])
    assert caught.value.origin == "sys.sgm"


def test_long_format_documents_must_follow_the_sgml_order() -> None:
    rows = [["segment", "system", "hypothesis", "doc"]] + [
        [str(i), "mt", text, doc] for i, (doc, text) in enumerate(zip(DOCUMENTS, SYSTEM), 1)
    ]
    long = "".join("\t".join(row) + "\n" for row in rows).encode()
    test_set = from_uploads([("ref.sgm", REFERENCE_SGML)], [("long.tsv", long)])
    assert test_set.documents == tuple(DOCUMENTS)
    renamed = long.replace(b"\tmuseum\n", b"\tbar\n")
    with pytest.raises(InputError, match=r"its documents differ from those of ref\.sgm") as caught:
        from_uploads([("ref.sgm", REFERENCE_SGML)], [("long.tsv", renamed)])
    assert caught.value.origin == "long.tsv"


def test_plain_files_stay_positional_and_must_have_as_many_segments(tmp_path, capsys) -> None:
    files = {"ref.sgm": REFERENCE_SGML, "sys.en": "\n".join(SYSTEM[:-1]).encode()}
    code, err = score_files(tmp_path, capsys, files, ["ref.sgm"], ["sys.en"])
    assert code == 2 and "has 39 segments but" in err


def test_real_wmt21_ted_set_scored_from_shuffled_sgml(shared_data, tmp_path, capsys) -> None:
    """WMT21 TED en-de as SGML, a system's documents and segments shuffled: the plain scores."""
    folder = shared_data / "wmt21-ted-mqm-ende"
    rows = [line.split("\t") for line in (folder / "segment_ids.tsv").read_text().splitlines()[1:]]

    def segments(path: Path) -> list[Segment]:
        texts = path.read_text(encoding="utf-8").splitlines()
        escaped = (text.replace("&", "&amp;").replace("<", "&lt;") for text in texts)
        return [(row[2], row[3], text) for row, text in zip(rows, escaped, strict=True)]

    system = segments(folder / "sys" / "Facebook-AI.de")
    random.Random(7).shuffle(system)
    files = {
        "ref.sgm": sgml("ref", segments(folder / "ref" / "ref-A.de"), "ref-A"),
        "sys.sgm": sgml("tst", system, "Facebook-AI"),
    }
    code, out = score_files(tmp_path, capsys, files, ["ref.sgm"], ["sys.sgm"])
    assert code == 0, out
    files = {"ref.de": (folder / "ref" / "ref-A.de").read_bytes()}
    files["Facebook-AI.de"] = (folder / "sys" / "Facebook-AI.de").read_bytes()
    code, plain = score_files(tmp_path, capsys, files, ["ref.de"], ["Facebook-AI.de"])
    assert json.loads(out)["scores"] == json.loads(plain)["scores"]
