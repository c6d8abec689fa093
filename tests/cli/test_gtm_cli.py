"""GTM on the command line: `mteval score` flags, per-document scores, and `mteval gtm` printing
what gtm.jar prints."""

from __future__ import annotations

import json
import math

import pytest

from mteval_core.cli import main
from mteval_core.cli.gtm import java_double

CANDIDATE = """<tstset setid="t" srclang="de" trglang="en" sysid="mt">
<doc docid="d1" sysid="mt">
<seg id=1>a b c d e f</seg>
<seg id=2>x y</seg>
</doc>
<doc docid="d2" sysid="mt">
<seg id=3>p q r</seg>
</doc>
</tstset>
"""
REFERENCE = (
    CANDIDATE.replace("tstset", "refset")
    .replace('"mt"', '"r1"')
    .replace("x y", "y x")
    .replace("p q r", "p q z")
)
# GTM 1.4's own input: documents without a set element
BARE_CANDIDATE = '<doc docid="d1" sysid="mt">\n<seg id=1>a b c</seg>\n</doc>\n'
BARE_REFERENCE = '<doc docid="d1" sysid="ref">\n<seg id=1>a b x c</seg>\n</doc>\n'


@pytest.fixture
def paths(tmp_path):
    files = {
        "cand.sgm": CANDIDATE,
        "ref.sgm": REFERENCE,
        "bare.sgm": BARE_CANDIDATE,
        "bareref.sgm": BARE_REFERENCE,
        "cand.txt": "a b c d e f\nx y\np q r\n",
        "ref.txt": "a b c d e f\ny x\np q z\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return {name: str(tmp_path / name) for name in files}


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_gtm14_lines_with_segments_and_documents(paths, capsys):
    code, out, _ = run(capsys, "gtm", "+s", "-e", "3", paths["cand.sgm"], paths["ref.sgm"])
    assert code == 0
    two_hits = 2 ** (1 / 3) / 2  # "x y" against "y x": two runs of 1, size 2 ** (1/3)
    document_size = (216 ** (1 / 3) + 2 ** (1 / 3)) / 8
    assert out.splitlines() == [
        "d1 1 0.9999999999999999",
        f"d1 2 {two_hits!r}",
        f"d1 {document_size!r}",
        f"d2 3 {2 / 3!r}",
        f"d2 {2 / 3!r}",
    ]


def test_gtm14_defaults_document_lines_only(paths, capsys):
    _, out, _ = run(capsys, "gtm", paths["cand.sgm"], paths["ref.sgm"])
    assert out.splitlines() == ["d1 1.0", f"d2 {2 / 3!r}"]
    _, out, _ = run(capsys, "gtm", "+s", "-d", paths["cand.sgm"], paths["ref.sgm"])
    assert out.splitlines() == ["d1 1 1.0", "d1 2 1.0", f"d2 3 {2 / 3!r}"]


def test_gtm14_reads_bare_documents_and_plain_text(paths, capsys):
    _, out, _ = run(capsys, "gtm", "+s", "-e", "2", paths["bare.sgm"], paths["bareref.sgm"])
    # "a b" is a run of 2, "c" a run of 1: size sqrt(5); P = sqrt(5)/3, R = sqrt(5)/4
    p, r = math.sqrt(5) / 3, math.sqrt(5) / 4
    assert out.splitlines()[0] == f"d1 1 {2 * (p * r) / (p + r)!r}"
    _, out, _ = run(capsys, "gtm", "+s", paths["cand.txt"], paths["ref.txt"])
    assert out.splitlines()[0] == "cand 1 1.0" and out.splitlines()[-1].startswith("cand ")


def test_gtm14_refuses_mismatched_documents(paths, capsys):
    code, _, err = run(capsys, "gtm", paths["cand.sgm"], paths["bareref.sgm"])
    assert code == 2 and "documents or segments differ" in err and err.count("\n") == 1


def test_score_flags_and_document_scores(paths, capsys):
    base = ["score", "--refs", paths["ref.sgm"], "--hyps", paths["cand.sgm"], "--metrics", "gtm"]
    _, out, _ = run(capsys, *base, "--gtm-exponent", "3", "--documents", "--format", "json")
    result = json.loads(out)
    assert "gtm-e:3|gtm-match:greedy" in result["signature"]
    assert result["documents"]["mt"]["gtm"]["d1"] == (216 ** (1 / 3) + 2 ** (1 / 3)) / 8
    _, out, _ = run(
        capsys, *base, "--gtm-exponent", "2", "--gtm-matching", "exact", "--format", "json"
    )
    assert "gtm-match:exact" in json.loads(out)["signature"]
    code, _, err = run(
        capsys, "score", "--refs", paths["ref.txt"], "--hyps", paths["cand.txt"], "--documents"
    )
    assert code == 2 and "needs document ids" in err
    code, _, err = run(capsys, *base, "--gtm-exponent", "0.5", "--gtm-matching", "exact")
    assert code == 2 and "at least 1" in err


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0.0"),
        (1.0, "1.0"),
        (0.5, "0.5"),
        (0.001, "0.001"),
        (5e-4, "5.0E-4"),
        (1.2345e-7, "1.2345E-7"),
        (12345678.9, "1.23456789E7"),
        (0.9999999999999999, "0.9999999999999999"),
    ],
)
def test_numbers_print_as_java_prints_a_double(value, text):
    assert java_double(value) == text
