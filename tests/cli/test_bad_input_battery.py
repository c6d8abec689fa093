"""Bad input through the command line, as a careless or hostile user gives it.

Every case ends in one of two ways, and the case says which: refused (exit 2, one line on stderr
that starts with "mteval: error:", names the file at fault and what is wrong; never a traceback,
never "internal error") or scored (exit 0 and the right numbers, perhaps with a note).
"""

from __future__ import annotations

import gzip
import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

import pytest
import sacrebleu

from mteval_core.cli import arguments, main
from mteval_core.io import decoding
from tests.bad_inputs import (
    ENTITY_BOMB,
    HYP_SEGMENTS,
    HYPOTHESIS,
    REF_SEGMENTS,
    REFERENCE,
    WMT_XML,
)

REF, HYP = REFERENCE, HYPOTHESIS
HYP_SEGMENTS_TEXT = HYP.splitlines()
HYP_BLEU = sacrebleu.corpus_bleu(HYP.splitlines(), [REF.splitlines()]).score


def sgml(kind: str, segments: list[tuple[str, str]], sysid: str = "sys") -> bytes:
    """An mteval SGML file of one document; ``segments`` are (id, text) in file order."""
    setid = 'setid="t" srclang="en" trglang="de"'
    body = "".join(f'<seg id="{seg_id}">{text}</seg>\n' for seg_id, text in segments)
    return (
        f'<{kind}set {setid}>\n<doc docid="d1" sysid="{sysid}">\n{body}</doc>\n</{kind}set>\n'
    ).encode()


EXTERNAL_ENTITY = (
    '<?xml version="1.0"?>\n<!DOCTYPE dataset [\n<!ENTITY x SYSTEM "file:///etc/passwd">\n]>\n'
    + WMT_XML.split("\n", 1)[1].replace("Hallo .", "&x;")
)


def zipped(name: str, content: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, content)
    return buffer.getvalue()


HUMAN = "system\tsegment_id\tscore\n" + "".join(
    f"{system}\t{segment}\t{score}\n"
    for system, scores in {"good": (3, 4, 5), "copy": (5, 5, 5)}.items()
    for segment, score in zip((1, 2, 3), scores)
)
CONSTANT_HUMAN = "system\tscore\ngood\t3\ncopy\t3\nother\t3\n"
LOSS = "system,crr,nrr,irr,e_rt_total,e_marked_total\nMT1,0.4,0.2,0.1,8.7,7.8\n"


def jsonl(system: str = "s", hypotheses: tuple[str, ...] = tuple(HYP_SEGMENTS_TEXT)) -> bytes:
    """A long-format JSON Lines system file; ``system`` and the texts go in as JSON source text,
    so that an escape such as \\ud800 reaches the reader as the escape."""
    return "".join(
        f'{{"system": "{system}", "segment": {k}, "hypothesis": "{text}"}}\n'
        for k, text in enumerate(hypotheses, start=1)
    ).encode()


# Three systems, people's scores of their segments, and two metrics' (one of them constant).
THREE = {"good.en": HYP.encode(), "copy.en": REF.encode(), "other.en": b"It rains .\nA .\nB .\n"}
THREE_FILES = {"ref.en": REF.encode(), **THREE}
SEGMENT_HUMAN = "system\tsegment_id\tscore\n" + "".join(
    f"{system}\t{segment}\t{score}\n"
    for system, scores in {"good": (3, 4, 5), "copy": (5, 5, 4), "other": (1, 2, 1)}.items()
    for segment, score in zip((1, 2, 3), scores)
)
METRIC_SEGMENTS = "system\tsegment_id\tcomet\tconst\n" + "".join(
    f"{system}\t{segment}\t{score}\t0.5\n"
    for system, scores in {
        "good": (0.6, 0.7, 0.9),
        "copy": (0.9, 0.8, 0.7),
        "other": (0.1, 0.3, 0.2),
    }.items()
    for segment, score in zip((1, 2, 3), scores)
)
CORRELATE_SEGMENTS = [
    "correlate",
    "--human-segments",
    "{d}/h.tsv",
    "--metric-segments",
    "{d}/m.tsv",
]


def ranking_of(out: str) -> dict[str, tuple]:
    """metric -> (value, rank, why undefined) of the JSON's metric_ranking."""
    return {
        e["metric"]: (e["value"], e["rank"], e["undefined"].get("value"))
        for e in json.loads(out)["metric_ranking"]
    }


@dataclass(frozen=True)
class Case:
    """Files to write (name -> bytes), the arguments ({d} is their folder), and the outcome:
    ``refused`` with words the message must hold, or ``check`` on the output and the notes
    (stdout, stderr): it asserts, or returns False when they are wrong."""

    id: str
    files: dict[str, bytes]
    argv: list[str]
    refused: tuple[str, ...] = ()
    check: Callable[[str, str], None] | None = None


def score_args(ref: str = "ref.en", hyps: tuple[str, ...] = ("hyp.en",)) -> list[str]:
    return ["score", "--refs", f"{{d}}/{ref}", "--hyps", *(f"{{d}}/{h}" for h in hyps)]


BASE = {"ref.en": REF.encode(), "hyp.en": HYP.encode()}


def with_files(**files: bytes) -> dict[str, bytes]:
    return {**BASE, **{name.replace("__", "."): data for name, data in files.items()}}


def bleu_is(expected: float) -> Callable[[str, str], None]:
    def check(out: str, err: str) -> None:
        scores = json.loads(out)["scores"]
        assert all(abs(s["bleu"] - expected) < 1e-9 for s in scores.values()), scores

    return check


def json_has(predicate: Callable[[dict], bool]) -> Callable[[str, str], None]:
    def check(out: str, err: str) -> None:
        assert predicate(json.loads(out, parse_constant=_no_constants)), out

    return check


def _no_constants(name: str) -> None:
    raise AssertionError(f"{name} in JSON output")


def ok(out: str, err: str) -> None:
    assert out


def and_note(check: Callable[[str, str], None], *words: str) -> Callable[[str, str], None]:
    """``check``, and one note on stderr that holds ``words`` (which reading a file got)."""

    def both(out: str, err: str) -> None:
        check(out, err)
        notes = [line for line in err.splitlines() if line.startswith("mteval: note: ")]
        assert len(notes) == 1 and all(word in notes[0] for word in words), err

    return both


def without_notes(check: Callable[[str, str], None]) -> Callable[[str, str], None]:
    """``check``, and nothing on stderr: the file was read the one way it can be."""

    def both(out: str, err: str) -> None:
        check(out, err)
        assert err == "", err

    return both


def segments_of(system: str, expected: list[str]) -> Callable[[str, str], None]:
    """The system's BLEU is sacreBLEU's for ``expected`` as its segments, one by one."""
    bleu = sacrebleu.corpus_bleu(expected, [REF.splitlines()]).score

    def check(out: str, err: str) -> None:
        scores = json.loads(out)["scores"]
        assert abs(scores[system]["bleu"] - bleu) < 1e-9, scores

    return check


JSON = ["--format", "json"]
LATIN1 = "Der Bär läuft .\n".encode("latin-1")
HYP_LINES = HYP.splitlines()
JSON_LIKE = '{"system": "A", "hypothesis": "x"}'  # a first segment that is a JSON object
LONG_RECORDS = "".join(  # long format, one JSON object per line
    json.dumps({"system": "A", "segment": n, "hypothesis": text}) + "\n"
    for n, text in enumerate(HYP_LINES, start=1)
)
CR_INSIDE = HYP.replace("cat is", "cat\ris", 1)  # a CR inside segment 1
CR_SPLIT = HYP.replace(" .\nA fast", " .\rA fast", 1)  # a CR where a line feed should be
WIDE = {  # id -> bytes, the words the refusal must say
    "utf-16le-no-bom": (HYP.encode("utf-16-le"), ("UTF-16 little-endian", "iconv -f UTF-16LE")),
    "utf-16be-no-bom": (HYP.encode("utf-16-be"), ("UTF-16 big-endian", "iconv -f UTF-16BE")),
    "utf-16be-bom": (b"\xfe\xff" + HYP.encode("utf-16-be"), ("UTF-16, not UTF-8",)),
    "utf-32le-bom": (HYP.encode("utf-32"), ("UTF-32, not UTF-8", "iconv -f UTF-32 ")),
    "utf-32le-no-bom": (HYP.encode("utf-32-le"), ("UTF-32 little-endian", "iconv -f UTF-32LE")),
    "utf-32be-no-bom": (HYP.encode("utf-32-be"), ("UTF-32 big-endian", "iconv -f UTF-32BE")),
}
CASES = [
    # ------------------------------------------------------------------ files that are not there
    Case("missing-ref", BASE, score_args("nothere.en"), ("nothere.en",)),
    Case("missing-hyp", BASE, score_args(hyps=("nothere.en",)), ("nothere.en",)),
    Case("directory-as-hyp", {**BASE, "dir/x": b"x\n"}, score_args(hyps=("dir",)), ("dir",)),
    Case("empty-ref", with_files(ref__en=b""), score_args(), ("ref.en", "empty")),
    Case("empty-hyp", with_files(hyp__en=b""), score_args(), ("hyp.en",)),
    # -------------------------------------------------------------------- counts that disagree
    Case("hyp-short", with_files(hyp__en=b"a\nb\n"), score_args(), ("hyp.en", "2")),
    Case("hyp-long", with_files(hyp__en=HYP.encode() + b"more\n"), score_args(), ("hyp.en", "4")),
    # ------------------------------------------------------------------------- bytes, not text
    Case("latin-1", with_files(hyp__en=LATIN1 * 3), score_args(), ("hyp.en", "line 1")),
    Case("utf-16", with_files(hyp__en=HYP.encode("utf-16")), score_args(), ("hyp.en",)),
    Case("gzip", with_files(hyp__en=gzip.compress(HYP.encode())), score_args(), ("gzip",)),
    Case("zip", with_files(hyp__en=zipped("a.txt", b"x")), score_args(), ("hyp.en", "zip")),
    Case(
        "xlsx",
        with_files(hyp__xlsx=zipped("xl/workbook.xml", b"<x/>")),
        score_args(hyps=("hyp.xlsx",)),
        ("hyp.xlsx",),
    ),
    Case(
        "xls",
        with_files(hyp__en=b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(200)),
        score_args(),
        ("hyp.en",),
    ),
    Case(
        "pdf", with_files(hyp__en=b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"), score_args(), ("PDF",)
    ),
    Case("png", with_files(hyp__en=b"\x89PNG\r\n\x1a\n" + bytes(64)), score_args(), ("PNG",)),
    Case("jpeg", with_files(hyp__en=b"\xff\xd8\xff\xe0" + bytes(64)), score_args(), ("JPEG",)),
    Case("nul-byte", with_files(hyp__en=b"a\nb\x00c\nd\n"), score_args(), ("hyp.en", "line 2")),
    Case(
        "lone-cr", with_files(hyp__en=HYP.replace("\n", "\r").encode()), score_args(), ("hyp.en",)
    ),
    Case(
        "cr-in-line-with-comma",
        with_files(hyp__en=b"a, b\rc\nd\ne\n"),
        score_args(),
        ("hyp.en", "line 1"),
    ),
    Case("ref-is-binary", with_files(ref__en=bytes(range(256))), score_args(), ("ref.en",)),
    *(
        Case(f"{name}", with_files(hyp__en=data), score_args(), ("hyp.en", *words))
        for name, (data, words) in WIDE.items()
    ),
    # ------------------------------------------- carriage returns: refused, or read as chosen
    Case(
        "cr-inside-names-the-choice",
        with_files(hyp__en=CR_INSIDE.encode()),
        score_args(),
        ("hyp.en", "line 1, column 8", "--carriage-returns split", "--carriage-returns space"),
    ),
    Case(
        "old-mac-names-the-choice",
        with_files(hyp__en=HYP.replace("\n", "\r").encode()),
        score_args(),
        ("hyp.en", "old Mac", "--carriage-returns split"),
    ),
    Case(
        "cr-split",
        with_files(hyp__en=CR_SPLIT.encode()),
        [*score_args(), "--carriage-returns", "split", *JSON],
        check=bleu_is(HYP_BLEU),
    ),
    Case(
        "cr-space",
        with_files(hyp__en=CR_INSIDE.encode()),
        [*score_args(), "--carriage-returns", "space", *JSON],
        check=bleu_is(HYP_BLEU),
    ),
    Case(
        "cr-split-crlf-stays-a-line-end",
        with_files(hyp__en=CR_SPLIT.replace("\n", "\r\n").encode()),
        [*score_args(), "--carriage-returns", "split", *JSON],
        check=bleu_is(HYP_BLEU),
    ),
    Case(
        "cr-choice-is-checked",
        BASE,
        [*score_args(), "--carriage-returns", "drop"],
        ("--carriage-returns", "invalid choice: 'drop'", "'refuse', 'split', 'space'"),
    ),
    Case(
        "cr-choice-with-shards",
        {"s.tsv": b"system\tsegment\thypothesis\treference\nA\t1\tx\tx\n"},
        ["score", "--shards", "{d}/s.tsv", "--carriage-returns", "space"],
        ("--carriage-returns", "--shards"),
    ),
    # ------------------------------------- plain text whose first line looks like another format
    Case(
        "first-segment-json-object",
        with_files(hyp__txt=f"{JSON_LIKE}\n{HYP_LINES[1]}\n{HYP_LINES[2]}\n".encode()),
        score_args(hyps=("hyp.txt",)) + JSON,
        check=and_note(
            segments_of("hyp", [JSON_LIKE, *HYP_LINES[1:]]),
            "hyp.txt: read as plain text",
            "line 2 is not",
        ),
    ),
    Case(
        "first-segment-json-object-no-extension",
        {**BASE, "hyp": f"{JSON_LIKE}\n{HYP_LINES[1]}\n{HYP_LINES[2]}\n".encode()},
        score_args(hyps=("hyp",)) + JSON,
        check=and_note(segments_of("hyp", [JSON_LIKE, *HYP_LINES[1:]]), "read as plain text"),
    ),
    Case(
        "first-segment-doc",
        with_files(hyp__en=f"<doc> {HYP_LINES[0]}\n{HYP_LINES[1]}\n{HYP_LINES[2]}\n".encode()),
        score_args() + JSON,
        check=and_note(
            segments_of("hyp", [f"<doc> {HYP_LINES[0]}", *HYP_LINES[1:]]),
            "hyp.en: read as plain text",
            "this <doc> has no docid",
        ),
    ),
    Case(
        "every-line-long-format-json",
        with_files(hyp__txt=LONG_RECORDS.encode()),
        score_args(hyps=("hyp.txt",)) + JSON,
        check=and_note(segments_of("A", HYP_LINES), "hyp.txt: read as JSON Lines"),
    ),
    Case(
        "jsonl-by-extension",
        with_files(hyp__jsonl=LONG_RECORDS.encode()),
        score_args(hyps=("hyp.jsonl",)) + JSON,
        check=without_notes(segments_of("A", HYP_LINES)),
    ),
    # ------------------------------------------------------------------- text that is fine
    Case(
        "bom-and-crlf",
        with_files(hyp__en=b"\xef\xbb\xbf" + HYP.replace("\n", "\r\n").encode()),
        score_args() + JSON + ["--byte-order-mark", "drop"],
        check=bleu_is(HYP_BLEU),
    ),
    Case(
        "no-final-newline",
        with_files(hyp__en=HYP.rstrip("\n").encode()),
        score_args() + JSON,
        check=bleu_is(HYP_BLEU),
    ),
    Case(
        "one-blank-line",
        {"ref.en": b"\n", "hyp.en": b"\n"},
        score_args() + JSON,
        check=bleu_is(0.0),
    ),
    # ------------------------------------------------------------------ SGML: ids, not positions
    Case(
        "sgml-swapped",
        {"ref.sgm": sgml("ref", REF_SEGMENTS), "hyp.sgm": sgml("tst", HYP_SEGMENTS[::-1])},
        score_args("ref.sgm", ("hyp.sgm",)) + JSON,
        check=bleu_is(HYP_BLEU),
    ),
    Case(
        "sgml-missing-seg",
        {"ref.sgm": sgml("ref", REF_SEGMENTS), "hyp.sgm": sgml("tst", HYP_SEGMENTS[:2])},
        score_args("ref.sgm", ("hyp.sgm",)),
        ("hyp.sgm", "3"),
    ),
    Case(
        "sgml-extra-seg",
        {"ref.sgm": sgml("ref", REF_SEGMENTS), "hyp.sgm": sgml("tst", [*HYP_SEGMENTS, ("9", "x")])},
        score_args("ref.sgm", ("hyp.sgm",)),
        ("hyp.sgm", "9"),
    ),
    Case(
        "sgml-duplicate-seg",
        {
            "ref.sgm": sgml("ref", REF_SEGMENTS),
            "hyp.sgm": sgml("tst", [*HYP_SEGMENTS[:2], ("2", "x")]),
        },
        score_args("ref.sgm", ("hyp.sgm",)),
        ("hyp.sgm", "2"),
    ),
    Case(
        "sgml-refset-as-hyp",
        {"ref.sgm": sgml("ref", REF_SEGMENTS), "hyp.sgm": sgml("ref", HYP_SEGMENTS)},
        score_args("ref.sgm", ("hyp.sgm",)),
        ("hyp.sgm", "refset"),
    ),
    Case(
        "sgml-unclosed",
        {"ref.sgm": sgml("ref", REF_SEGMENTS), "hyp.sgm": sgml("tst", HYP_SEGMENTS)[:-40]},
        score_args("ref.sgm", ("hyp.sgm",)),
        ("hyp.sgm",),
    ),
    # ----------------------------------------------------------------------------------- XML
    Case(
        "xml-entity-bomb",
        {"t.xml": ENTITY_BOMB.encode()},
        score_args("t.xml", ("t.xml",)),
        ("t.xml", "entit"),
    ),
    Case(
        "xml-external-entity",
        {"t.xml": EXTERNAL_ENTITY.encode()},
        score_args("t.xml", ("t.xml",)),
        ("t.xml", "entit"),
    ),
    Case(
        "xml-broken", {"t.xml": WMT_XML[:-30].encode()}, score_args("t.xml", ("t.xml",)), ("t.xml",)
    ),
    Case(
        "xml-no-hyp",
        {
            "t.xml": WMT_XML.replace(
                '<hyp system="s" lang="de"><p><seg id="1">Hallo .</seg></p></hyp>\n', ""
            ).encode()
        },
        score_args("t.xml", ("t.xml",)),
        ("t.xml",),
    ),
    Case(
        "xml-fine",
        {"t.xml": WMT_XML.encode()},
        score_args("t.xml", ("t.xml",)) + JSON,
        check=json_has(lambda r: r["scores"]["s"]["precision"] == 1.0),
    ),
    # ------------------------------------------------------------------------ long formats
    Case(
        "jsonl-broken-line",
        with_files(hyp__jsonl=b'{"system": "s", "hypothesis": "a"}\n{"system": \n'),
        score_args(hyps=("hyp.jsonl",)),
        ("hyp.jsonl", "line 2"),
    ),
    Case(
        "tsv-no-hypothesis",
        with_files(hyp__tsv=b"system\tsegment\ns\t1\n"),
        score_args(hyps=("hyp.tsv",)),
        ("hyp.tsv",),
    ),
    # -------------------------------------------------- escapes that make no text (issue 26)
    Case(
        "jsonl-lone-surrogate-in-a-name",
        with_files(hyp__jsonl=jsonl("s\\ud800")),
        score_args(hyps=("hyp.jsonl",)),
        ("hyp.jsonl, line 1, column system", "\\ud800 is half of a UTF-16 surrogate pair"),
    ),
    Case(
        "jsonl-lone-surrogate-in-a-text",
        with_files(hyp__jsonl=jsonl(hypotheses=("a", "b \\udfff c", "d"))),
        score_args(hyps=("hyp.jsonl",)),
        ("hyp.jsonl, line 2, column hypothesis", "\\udfff is half"),
    ),
    Case(
        "jsonl-lone-surrogate-in-a-key",
        with_files(hyp__jsonl=jsonl().replace(b'"segment"', b'"seg\\ud83dment"', 1)),
        score_args(hyps=("hyp.jsonl",)),
        ("hyp.jsonl, line 1", "\\ud83d is half"),
    ),
    Case(
        "jsonl-surrogate-pair-is-one-character",
        with_files(hyp__jsonl=jsonl("s\\ud83d\\ude00")),
        [*score_args(hyps=("hyp.jsonl",)), *JSON],
        check=json_has(lambda r: list(r["scores"]) == ["s\U0001f600"]),
    ),
    Case(
        "sgml-reference-to-a-surrogate",
        {
            "ref.sgm": sgml("ref", REF_SEGMENTS),
            "hyp.sgm": sgml("tst", [*HYP_SEGMENTS[:2], ("3", "It rains &#xD800;.")]),
        },
        score_args("ref.sgm", ("hyp.sgm",)),
        ("hyp.sgm, line 5", "&#xD800;", "\\ud800 is half of a UTF-16 surrogate pair"),
    ),
    Case(
        "sgml-decimal-reference-to-a-surrogate-in-an-attribute",
        {
            "ref.sgm": sgml("ref", REF_SEGMENTS),
            "hyp.sgm": sgml("tst", HYP_SEGMENTS, sysid="s&#56320;"),
        },
        score_args("ref.sgm", ("hyp.sgm",)),
        ("hyp.sgm, line 2", "&#56320;", "\\udc00 is half"),
    ),
    Case(
        "sgml-reference-to-nul",
        {"ref.sgm": sgml("ref", REF_SEGMENTS), "hyp.sgm": sgml("tst", [("1", "a&#0;b")])},
        score_args("ref.sgm", ("hyp.sgm",)),
        ("hyp.sgm, line 3", "&#0;", "NUL"),
    ),
    Case(
        "sgml-references-are-the-characters-they-number",  # html.unescape made &#x80; a euro
        {
            "ref.sgm": sgml("ref", [("1", "a \u0080 b")]),
            "hyp.sgm": sgml("tst", [("1", "a &#x80; b")]),
        },
        [*score_args("ref.sgm", ("hyp.sgm",)), "--metrics", "precision", *JSON],
        check=json_has(lambda r: r["scores"]["sys"]["precision"] == 1.0),
    ),
    Case(
        "xml-reference-to-a-surrogate",
        {
            "t.xml": WMT_XML.replace(
                "Hallo .</seg></p></hyp>", "Hallo &#xDBFF;.</seg></p></hyp>"
            ).encode()
        },
        score_args("t.xml", ("t.xml",)),
        ("t.xml, line 5, column", "&#xDBFF;", "\\udbff is half"),
    ),
    # ------------------------------------------ numbers that float() reads wrongly (issue 26)
    Case(
        "human-score-with-an-underscore",
        {**BASE, "h.tsv": b"system\tsegment_id\tscore\nhyp\t1\t1_000\n"},
        [*score_args(), "--human", "{d}/h.tsv"],
        ("h.tsv, line 2, column score", "'1_000' is not a number"),
    ),
    Case(
        "human-score-in-arabic-indic-digits",
        {**BASE, "h.tsv": "system\tsegment_id\tscore\nhyp\t1\t\u0663\n".encode()},
        [*score_args(), "--human", "{d}/h.tsv"],
        ("h.tsv, line 2, column score", "digits other than 0-9"),
    ),
    Case(
        "human-score-infinity",
        {**BASE, "h.tsv": b"system\tsegment_id\tscore\nhyp\t1\t-Infinity\n"},
        [*score_args(), "--human", "{d}/h.tsv"],
        ("h.tsv, line 2", "not a finite number"),
    ),
    Case(
        "human-criteria-with-decimal-commas",  # without a score column: every numeric column
        {**BASE, "h.tsv": b"system\tsegment_id\tadequacy\tfluency\nhyp\t1\t3\t4,5\n"},
        [*score_args(), "--human", "{d}/h.tsv"],
        ("h.tsv, line 2, column fluency", "'4,5' has a comma", "decimal point"),
    ),
    Case(
        "metric-scores-full-width-digits",
        {**BASE, "c.tsv": "system\tsegment_id\tscore\nhyp\t1\t\uff10.5\n".encode()},
        [*score_args(), "--metric-scores", "comet:higher={d}/c.tsv"],
        ("c.tsv, line 2, column score", "digits other than 0-9"),
    ),
    Case(
        "correlate-score-with-an-underscore",
        {
            "h.tsv": b"system\tscore\na\t1\nb\t2\nc\t4\n",
            "m.tsv": b"system\tchrf\na\t1\nb\t1_0\nc\t2\n",
        },
        ["correlate", "--human", "{d}/h.tsv", "--metrics", "{d}/m.tsv"],
        ("m.tsv, line 3, column chrf", "'1_0' is not a number"),
    ),
    Case(
        "loss-rate-with-an-underscore",
        {"l.csv": LOSS.replace("0.4,", "0_4,").encode()},
        ["loss", "--input", "{d}/l.csv"],
        ("l.csv, line 2, column crr", "'0_4' is not a number"),
    ),
    # --------------------------------------- metric columns that vanished silently (issue 26)
    Case(
        "correlate-segments-decimal-comma-column",
        {"h.tsv": SEGMENT_HUMAN.encode(), "m.tsv": METRIC_SEGMENTS.replace("0.", "0,").encode()},
        CORRELATE_SEGMENTS,
        ("m.tsv, line 2, column comet", "'0,6' has a comma", "decimal point"),
    ),
    Case(
        "correlate-system-decimal-comma-column",
        {
            "h.tsv": b"system\tscore\na\t1\nb\t2\nc\t4\n",
            "m.tsv": b"system\tchrf\na\t0,1\nb\t0,3\nc\t0,2\n",
        },
        ["correlate", "--human", "{d}/h.tsv", "--metrics", "{d}/m.tsv"],
        ("m.tsv, line 2, column chrf", "'0,1' has a comma"),
    ),
    Case(
        "correlate-a-column-of-words-is-named",
        {
            "h.tsv": b"system\tscore\na\t1\nb\t2\nc\t4\n",
            "m.tsv": b"system\tchrf\tnotes\na\t1\tok\nb\t3\tok\nc\t2\tre-run\n",
        },
        ["correlate", "--human", "{d}/h.tsv", "--metrics", "{d}/m.tsv", *JSON],
        check=lambda out, err: (
            list(json.loads(out)) == ["chrf"]
            and "mteval: note: " in err
            and "the column 'notes' holds no number" in err
        ),
    ),
    # --------------------------------------------- unscored external segments (issue 26)
    Case(
        "external-unscored-segment-is-null",
        {**BASE, "c.tsv": b"system\tsegment_id\tscore\nhyp\t1\t0.5\nhyp\t3\t0.25\n"},
        [*score_args(), "--metric-scores", "comet:higher={d}/c.tsv", "--segments", *JSON],
        check=json_has(lambda r: r["segments"]["hyp"]["comet"] == [0.5, None, 0.25]),
    ),
    Case(
        "external-unscored-segment-is-an-empty-cell",
        {**BASE, "c.tsv": b"system\tsegment_id\tscore\nhyp\t1\t0.5\nhyp\t3\t0.25\n"},
        [
            *score_args(),
            "--metric-scores",
            "comet:higher={d}/c.tsv",
            "--metrics",
            "bleu",
            "--segments",
            "--format",
            "csv",
        ],
        check=lambda out, err: out.splitlines()[2].split(",")[3] == "",
    ),
    # ----------------------------------------------- metrics ranked only when defined (issue 26)
    Case(
        "rank-metrics-constant-metric-is-not-ranked",
        {"h.tsv": SEGMENT_HUMAN.encode(), "m.tsv": METRIC_SEGMENTS.encode()},
        [*CORRELATE_SEGMENTS, "--rank-metrics", "pearson_system", "--permutations", "20", *JSON],
        check=lambda out, err: (
            ranking_of(out)["const"] == (None, None, "constant metric scores in every group")
            and ranking_of(out)["comet"][1] == 1
        ),
    ),
    Case(
        "rank-metrics-constant-human-ranks-nothing",
        {
            "h.tsv": SEGMENT_HUMAN.replace("\t1\n", "\t3\n")
            .replace("\t2\n", "\t3\n")
            .replace("\t4\n", "\t3\n")
            .replace("\t5\n", "\t3\n")
            .encode(),
            "m.tsv": METRIC_SEGMENTS.encode(),
        },
        [*CORRELATE_SEGMENTS, "--rank-metrics", "pearson_item", "--permutations", "20", *JSON],
        check=lambda out, err: {rank for _, rank, _ in ranking_of(out).values()} == {None},
    ),
    # ------------------------------------------------ fewer than three rated systems (issue 26)
    Case(
        "segment-level-two-rated-systems",
        {**THREE_FILES, "h.tsv": "".join(SEGMENT_HUMAN.splitlines(True)[:7]).encode()},
        [
            *score_args(hyps=tuple(THREE)),
            "--metrics",
            "bleu",
            "--human",
            "{d}/h.tsv",
            "--segment-level",
            *JSON,
        ],
        check=json_has(
            lambda r: (
                r["correlations"]["bleu"]["pearson"] is None
                and r["correlations"]["bleu"]["undefined"]["pearson"] == "n < 3"
                and r["correlations"]["bleu"]["spa"] is not None
                and r["segment_correlations"]["bleu"]["pearson_none"] is not None
                and r["segment_level"]["n_systems"] == 2
            )
        ),
    ),
    Case(
        "segment-level-one-rated-system",
        {**THREE_FILES, "h.tsv": "".join(SEGMENT_HUMAN.splitlines(True)[:4]).encode()},
        [
            *score_args(hyps=tuple(THREE)),
            "--metrics",
            "bleu",
            "--human",
            "{d}/h.tsv",
            "--segment-level",
            *JSON,
        ],
        check=json_has(
            lambda r: (
                r["correlations"]["bleu"]["undefined"]["spa"] == "fewer than two systems"
                and r["segment_correlations"]["bleu"]["pearson_item"] is None
                and r["segment_correlations"]["bleu"]["pearson_system"] is not None
            )
        ),
    ),
    Case(
        "correlate-segments-two-systems",
        {
            "h.tsv": "".join(SEGMENT_HUMAN.splitlines(True)[:7]).encode(),
            "m.tsv": "".join(METRIC_SEGMENTS.splitlines(True)[:7]).encode(),
        },
        [*CORRELATE_SEGMENTS, *JSON],
        check=json_has(
            lambda r: (
                r["correlations"]["comet"]["pairwise_accuracy_with_ties"] is None
                and r["segment_correlations"]["comet"]["acc_eq_item"] is not None
            )
        ),
    ),
    # ------------------------------------------ notes name a few of many systems (issue 26)
    Case(
        "human-many-systems-without-text",
        {
            **BASE,
            "h.tsv": (
                "system\tsegment_id\tscore\nhyp\t1\t3\n"
                + "".join(f"anon-{n:04d}\t1\t2\n" for n in range(500))
            ).encode(),
        },
        [*score_args(), "--human", "{d}/h.tsv", *JSON],
        check=lambda out, err: (
            "500 rows for 500 systems without text" in err
            and "anon-0009 and 490 more" in err
            and "anon-0010" not in err
        ),
    ),
    Case(
        "metric-scores-many-systems-the-test-set-lacks",
        {
            **BASE,
            "c.tsv": (
                "system\tscore\nhyp\t0.5\n" + "".join(f"anon-{n:04d}\t0.1\n" for n in range(500))
            ).encode(),
        },
        [*score_args(), "--metric-scores", "comet:higher={d}/c.tsv", *JSON],
        check=lambda out, err: "anon-0009 and 490 more" in err and "anon-0010" not in err,
    ),
    Case(
        "correlate-segments-many-systems-in-one-file",
        {
            "h.tsv": (
                SEGMENT_HUMAN + "".join(f"anon-{n:04d}\t1\t2\n" for n in range(500))
            ).encode(),
            "m.tsv": METRIC_SEGMENTS.encode(),
        },
        [*CORRELATE_SEGMENTS, *JSON],
        check=lambda out, err: (
            "500 system(s) without metric scores set aside" in err
            and "anon-0009 and 490 more" in err
            and "anon-0010" not in err
        ),
    ),
    # --------------------------------------------------------------------------------- options
    Case("unknown-metric", BASE, [*score_args(), "--metrics", "bleu,comet"], ("comet",)),
    Case("empty-metrics", BASE, [*score_args(), "--metrics", ""], ("metric",)),
    Case("gtm-exponent-zero", BASE, [*score_args(), "--gtm-exponent", "0"], ("exponent",)),
    Case("gtm-exponent-nan", BASE, [*score_args(), "--gtm-exponent", "nan"], ("exponent",)),
    Case(
        "exact-below-one",
        BASE,
        [*score_args(), "--gtm-exponent", "0.5", "--gtm-matching", "exact"],
        ("at least 1",),
    ),
    Case("alpha-out-of-range", BASE, [*score_args(), "--fmean-alpha", "2"], ("alpha",)),
    Case(
        "unknown-stem-language",
        BASE,
        [*score_args(), "--stem", "snowball", "--stem-language", "klingon"],
        ("klingon",),
    ),
    Case(
        "empty-system-name",
        BASE,
        ["score", "--refs", "{d}/ref.en", "--hyps", "={d}/hyp.en"],
        ("name",),
    ),
    Case(
        "documents-on-plain",
        BASE,
        [*score_args(), "--documents", "--format", "json"],
        ("--documents",),
    ),
    Case(
        "csv-with-human",
        {**BASE, "h.tsv": HUMAN.encode()},
        [*score_args(), "--human", "{d}/h.tsv", "--format", "csv"],
        ("--human",),
    ),
    # ------------------------------------------------------------------------------ resampling
    Case("bootstrap-negative", BASE, [*score_args(), "--bootstrap", "-5"], ("-5",)),
    Case("bootstrap-huge", BASE, [*score_args(), "--bootstrap", "10000000"], ("20,000",)),
    Case("bootstrap-text", BASE, [*score_args(), "--bootstrap", "many"], ("many",)),
    Case("seed-negative", BASE, [*score_args(), "--bootstrap", "10", "--seed", "-1"], ("seed",)),
    Case("seed-text", BASE, [*score_args(), "--bootstrap", "10", "--seed", "x"], ("x",)),
    Case(
        "identical-systems-do-not-differ",  # on 6 segments, the fewest a paired test takes
        {"ref.en": (REF * 2).encode(), "a.en": (HYP * 2).encode(), "b.en": (HYP * 2).encode()},
        [*score_args(hyps=("a.en", "b.en")), "--bootstrap", "200", *JSON],
        check=json_has(lambda r: all(p["p"] == 1.0 for p in r["pairs"])),
    ),
    Case(
        "three-segments-have-no-p-value",
        {**BASE, "a.en": HYP.encode(), "b.en": REF.encode()},
        [*score_args(hyps=("a.en", "b.en")), "--bootstrap", "200", *JSON],
        check=json_has(
            lambda r: all(
                p["p"] is None and p["undefined"]["p"].startswith("3 segments, fewer than the 6")
                for p in r["pairs"]
            )
        ),
    ),
    # --------------------------------------------------------------------------- human scores
    Case("human-missing", BASE, [*score_args(), "--human", "{d}/nothere.tsv"], ("nothere.tsv",)),
    Case(
        "human-text-score",
        {**BASE, "h.tsv": b"system\tsegment_id\tscore\nhyp\t1\tgood\n"},
        [*score_args(), "--human", "{d}/h.tsv"],
        ("h.tsv", "line 2"),
    ),
    Case(
        "human-no-score-column",  # a column of numbers would be a criterion: this one is words
        {**BASE, "h.tsv": b"system\tsegment_id\tgrade\nhyp\t1\tgood\n"},
        [*score_args(), "--human", "{d}/h.tsv"],
        ("h.tsv", "no score column"),
    ),
    Case(
        "human-unknown-segment",
        {**BASE, "h.tsv": b"system\tsegment_id\tscore\nhyp\t99\t3\n"},
        [*score_args(), "--human", "{d}/h.tsv"],
        ("h.tsv", "99"),
    ),
    Case(
        "human-constant",
        {
            **BASE,
            "good.en": HYP.encode(),
            "copy.en": REF.encode(),
            "other.en": b"It rains .\nThe cat .\nA dog .\n",
            "h.tsv": CONSTANT_HUMAN.encode(),
        },
        [*score_args(hyps=("good.en", "copy.en", "other.en")), "--human", "{d}/h.tsv", *JSON],
        check=json_has(lambda r: r["correlations"]["bleu"]["pearson"] is None),
    ),
    Case(
        "exclude-unknown",
        {**BASE, "good.en": HYP.encode(), "copy.en": REF.encode(), "h.tsv": HUMAN.encode()},
        [*score_args(hyps=("good.en", "copy.en")), "--human", "{d}/h.tsv", "--exclude", "nobody"],
        ("nobody",),
    ),
    # ------------------------------------------------------------------------------------ GTM
    Case(
        "gtm-bomb-e2",
        {
            "r.txt": (" ".join(["w"] * 2500) + "\n").encode(),
            "s.txt": (" ".join(["w"] * 2500) + "\n").encode(),
        },
        [
            "score",
            "--refs",
            "{d}/r.txt",
            "--hyps",
            "{d}/s.txt",
            "--metrics",
            "gtm",
            "--gtm-exponent",
            "2",
            *JSON,
        ],
        check=json_has(lambda r: abs(r["scores"]["s"]["gtm"] - 1) < 1e-12),
    ),
    Case(
        "gtm-megabyte-line-e2",
        {
            "r.txt": (" ".join(["w"] * 200_000) + "\n").encode(),
            "s.txt": (" ".join(["w"] * 200_000) + "\n").encode(),
        },
        [
            "score",
            "--refs",
            "{d}/r.txt",
            "--hyps",
            "{d}/s.txt",
            "--metrics",
            "gtm",
            "--gtm-exponent",
            "2",
            *JSON,
        ],
        check=lambda out, err: "GTM leaves out 1 segment" in err,
    ),
    Case(
        "gtm-two-systems",
        {
            "c.sgm": sgml("tst", REF_SEGMENTS, "a").replace(b"</tstset>", b"")
            + sgml("tst", REF_SEGMENTS, "b").split(b"\n", 1)[1],
            "r.en": REF.encode(),
        },
        ["gtm", "{d}/c.sgm", "{d}/r.en"],
        ("c.sgm",),
    ),
    Case("gtm-missing-reference", BASE, ["gtm", "{d}/hyp.en", "{d}/nothere.en"], ("nothere.en",)),
    Case(
        "gtm-negative-exponent",
        BASE,
        ["gtm", "-e", "-1", "{d}/hyp.en", "{d}/ref.en"],
        ("exponent",),
    ),
    # ------------------------------------------------------------------------------- correlate
    Case(
        "correlate-no-system-column",
        {"h.tsv": b"name\tscore\na\t1\n", "m.tsv": b"system\tbleu\na\t1\n"},
        ["correlate", "--human", "{d}/h.tsv", "--metrics", "{d}/m.tsv"],
        ("h.tsv",),
    ),
    Case(
        "correlate-keeps-the-column-name",
        {
            "h.tsv": b"system\tscore\na\t1\nb\t2\nc\t4\n",
            "m.tsv": b"system\tchrf\na\t1\nb\t3\nc\t2\n",
        },
        ["correlate", "--human", "{d}/h.tsv", "--metrics", "{d}/m.tsv", *JSON],
        check=json_has(lambda r: list(r) == ["chrf"]),
    ),
    Case(
        "correlate-constant-human",
        {
            "h.tsv": b"system\tscore\na\t1\nb\t1\nc\t1\n",
            "m.tsv": b"system\tbleu\na\t1\nb\t3\nc\t2\n",
        },
        ["correlate", "--human", "{d}/h.tsv", "--metrics", "{d}/m.tsv", *JSON],
        check=json_has(lambda r: r["bleu"]["pearson"] is None),
    ),
    # ------------------------------------------------------------------------------------ loss
    Case(
        "loss-rates-over-one",
        {"l.csv": LOSS.replace("0.4,0.2,0.1", "0.7,0.5,0.1").encode()},
        ["loss", "--input", "{d}/l.csv"],
        ("l.csv", "line 2"),
    ),
    Case(
        "loss-negative-rate",
        {"l.csv": LOSS.replace("0.4,", "-0.4,").encode()},
        ["loss", "--input", "{d}/l.csv"],
        ("l.csv", "line 2"),
    ),
    Case(
        "loss-unknown-by",
        {"l.csv": LOSS.encode()},
        ["loss", "--input", "{d}/l.csv", "--by", "wh"],
        ("wh",),
    ),
    Case(
        "loss-two-costs",
        {"l.csv": LOSS.encode()},
        ["loss", "--input", "{d}/l.csv", "--costs", "1,2"],
        ("costs",),
    ),
    Case(
        "loss-text-costs",
        {"l.csv": LOSS.encode()},
        ["loss", "--input", "{d}/l.csv", "--costs", "a,b,c"],
        ("costs",),
    ),
    Case(
        "loss-fine",
        {"l.csv": LOSS.encode()},
        ["loss", "--input", "{d}/l.csv", *JSON],
        check=json_has(lambda r: r["ranking"]["all"] == ["MT1"]),
    ),
    # --------------------------------------------------------------------------- the parser
    Case("no-command", BASE, [], ("command",)),
    Case("unknown-option", BASE, [*score_args(), "--colour"], ("--colour",)),
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bad_input(case: Case, tmp_path, capsys) -> None:
    for name, data in case.files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    code = main([arg.replace("{d}", str(tmp_path)) for arg in case.argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    if case.check is not None:
        assert code == 0, err
        assert case.check(out, err) is not False, (out, err)  # a check may assert or say False
        return
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mteval: error:"), err
    for word in case.refused:
        assert word.lower() in err.lower(), (word, err)


def test_the_option_offers_the_choices_the_readers_take() -> None:
    """The parser writes them out (it must not import the readers); they must not drift."""
    assert arguments.CARRIAGE_RETURNS == decoding.CARRIAGE_RETURNS


def test_the_battery_is_as_large_as_promised() -> None:
    assert len(CASES) >= 60


def test_a_hint_names_ten_systems_and_counts_the_rest(tmp_path, capsys):
    """An --exclude typo among 40 systems: the hint names ten of them, not all 40."""
    (tmp_path / "ref.en").write_text(REF, encoding="utf-8")
    hyps = []
    for k in range(40):
        path = tmp_path / f"system-{k:02d}.en"
        path.write_text(HYP, encoding="utf-8")
        hyps.append(str(path))
    human = tmp_path / "human.tsv"
    human.write_text(
        "system\tscore\n" + "".join(f"system-{k:02d}\t{k}\n" for k in range(40)), encoding="utf-8"
    )
    code = main(["score", "--refs", str(tmp_path / "ref.en"), "--hyps", *hyps,
                 "--human", str(human), "--exclude", "system-99"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert "system-09 and 30 more" in err and "system-10" not in err
