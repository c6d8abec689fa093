"""Any bytes at all through every reader: a result, or an InputError that names the file.

Random bytes rarely look like any format, so the real sample files (and SGML, WMT XML, JSON Lines
and long-format CSV written from them) are also mutated at random: bytes inserted from a palette of
troublemakers (CR, NUL, markup, quotes, delimiters, invalid UTF-8, huge numbers), ranges deleted
or doubled, the end cut off.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mteval_core.errors import InputError
from mteval_core.io import detect_format, read_columns, read_human
from mteval_core.io.detect import FORMATS
from mteval_core.io.directory import parse_segment_ids
from mteval_core.io.loss_csv import read_loss_table
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.io.uploads import test_set_from_uploads as from_uploads

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"


def _lines(path: str) -> list[str]:
    return (SAMPLE / path).read_text(encoding="utf-8").splitlines()[:6]


REFERENCE, SYSTEM, SOURCE = _lines("ref/ref-A.en"), _lines("sys/neural-small.en"), _lines("src.de")


def _sgml(kind: str, texts: list[str], sysid: str) -> bytes:
    segments = "".join(f'<seg id="{i}">{text}</seg>\n' for i, text in enumerate(texts, 1))
    return (
        f'<{kind}set sysid="{sysid}">\n<doc docid="d">\n{segments}</doc>\n</{kind}set>\n'.encode()
    )


def _wmt_xml() -> bytes:
    def part(tag: str, attributes: str, texts: list[str]) -> str:
        segments = "".join(f'<seg id="{i}">{text}</seg>' for i, text in enumerate(texts, 1))
        return f"<{tag}{attributes}><p>{segments}</p></{tag}>"

    return (
        '<?xml version="1.0"?>\n<dataset id="t"><collection id="c"><doc id="d">'
        + part("src", ' lang="de"', SOURCE)
        + part("ref", ' translator="A"', REFERENCE)
        + part("hyp", ' system="mt"', SYSTEM)
        + "</doc></collection></dataset>\n"
    ).encode()


def _long_rows() -> list[dict[str, str]]:
    return [
        {"segment": str(i), "system": "mt", "hypothesis": hyp, "reference": ref, "doc": "d"}
        for i, (hyp, ref) in enumerate(zip(SYSTEM, REFERENCE, strict=True), 1)
    ]


def _csv() -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(_long_rows()[0]))
    writer.writeheader()
    writer.writerows(_long_rows())
    return out.getvalue().encode()


SAMPLES = [
    ("\n".join(REFERENCE) + "\n").encode(),
    ("\n".join(SYSTEM) + "\n").encode(),
    (SAMPLE / "human" / "judgments.tsv").read_bytes()[:600],
    (SAMPLE / "segment_ids.tsv").read_bytes()[:200],
    *(path.read_bytes() for path in sorted((SAMPLE / "loss").glob("*.csv"))),
    _sgml("ref", REFERENCE, "ref-A"),
    _sgml("tst", SYSTEM, "mt"),
    _wmt_xml(),
    "".join(json.dumps(row) + "\n" for row in _long_rows()).encode(),
    _csv(),
    b"system\tseg_id\trater\tcategory\tseverity\nmt\t1\tr1\tFluency\tMinor\n",
]
TROUBLE = [
    b"\r",
    b"\r\n",
    b"\x00",
    b"\n",
    b"\t",
    b",",
    b'"',
    b"<",
    b">",
    b"&",
    b"&#0;",
    b"&#" + b"9" * 40 + b";",
    b"<seg id=1>",
    b"</seg>",
    b"<doc docid=d>",
    b"</doc>",
    b"<!--",
    b'<!DOCTYPE x [<!ENTITY a "b">]>',
    b"{",
    b"}",
    b"[",
    b"::",
    b"9" * 30,
    b"\xff",
    b"\xc3",
    b"\xef\xbb\xbf",
    b"\x1f\x8b",
    b"NaN",
    b" ",
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "double", "cut"]))
        if action == "insert":
            data[at:at] = draw(st.sampled_from(TROUBLE))
        elif action == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif action == "double":
            data[at:at] = data[at : at + draw(st.integers(1, 80))]
        else:
            del data[at:]
    return bytes(data)


ANY_BYTES = st.one_of(st.binary(max_size=400), mutated())
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def result_or_input_error(read: Callable[[], object], *origins: str) -> None:
    """``read`` returns, or raises an InputError that names one of ``origins``."""
    try:
        read()
    except InputError as error:
        assert error.origin in origins, str(error)


@SETTINGS
@given(ANY_BYTES)
def test_detect_format_always_answers(data: bytes) -> None:
    assert detect_format(data, "f.txt") in FORMATS


@SETTINGS
@given(ANY_BYTES, st.sampled_from(["src", "ref", "sys"]))
def test_read_columns(data: bytes, role: str) -> None:
    result_or_input_error(lambda: read_columns(data, "f.txt", role), "f.txt")


@SETTINGS
@given(ANY_BYTES)
def test_table_readers(data: bytes) -> None:
    result_or_input_error(lambda: read_human(data, "h.tsv"), "h.tsv")
    result_or_input_error(lambda: read_mqm(data, "m.tsv"), "m.tsv")
    result_or_input_error(lambda: read_loss_table(data, "l.csv"), "l.csv")
    result_or_input_error(lambda: parse_segment_ids(data, "ids.tsv", len(REFERENCE)), "ids.tsv")


@SETTINGS
@given(ANY_BYTES, st.sampled_from(["reference", "system", "source", "human", "segment_ids"]))
def test_uploads(data: bytes, slot: str) -> None:
    files = {
        "reference": [("ref.en", SAMPLES[0])],
        "system": [("mt.en", SAMPLES[1])],
        "source": ("src.de", ("\n".join(SOURCE) + "\n").encode()),
        "human": None,
        "segment_ids": None,
    }
    upload = ("bad.txt", data)
    files[slot] = [upload] if slot in ("reference", "system") else upload
    result_or_input_error(
        lambda: from_uploads(
            files["reference"],
            files["system"],
            source=files["source"],
            human=files["human"],
            segment_ids=files["segment_ids"],
        ),
        "bad.txt",
        "ref.en",  # a segment count is blamed on the file that differs from the first reference
        "mt.en",
        "src.de",
    )
