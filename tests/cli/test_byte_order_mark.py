"""A byte order mark at the start of a plain-text file, as sacreBLEU reads it (issue 22, part 2).

sacreBLEU opens files as ``utf-8``, not ``utf-8-sig``, so U+FEFF is the first character of the
first segment; mteval keeps it too by default, says so in a note, and drops it when asked.
"""

from __future__ import annotations

import json

import pytest
import sacrebleu

from mteval_core.cli import main
from mteval_core.io.detect import read_columns

BOM = b"\xef\xbb\xbf"
REF = "The cat sat on the mat .\nA quick brown fox jumps over the lazy dog .\nIt rains .\n"
HYP = "The cat sat on a mat .\nA fast brown fox jumped over a lazy dog .\nIt rains .\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "ref.en").write_bytes(REF.encode())
    (tmp_path / "bom.en").write_bytes(BOM + HYP.encode())
    return tmp_path


def sacrebleu_lines(path) -> list[str]:
    """The lines as sacreBLEU's smart_open reads them: plain utf-8, the mark kept."""
    with open(path, encoding="utf-8", newline="\n") as file:
        return [line.rstrip("\n") for line in file]


def run(capsys, *args: str) -> tuple[dict, str]:
    assert main(["score", *args, "--metrics", "bleu,chrf", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    return json.loads(out)["scores"]["bom"], err


def test_kept_by_default_scores_equal_sacrebleus_and_a_note_says_so(files, capsys):
    scores, err = run(capsys, "--refs", str(files / "ref.en"), "--hyps", str(files / "bom.en"))
    hyps, refs = sacrebleu_lines(files / "bom.en"), [sacrebleu_lines(files / "ref.en")]
    assert hyps[0].startswith("\ufeff")
    assert scores["bleu"] == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)
    assert scores["chrf"] == pytest.approx(sacrebleu.corpus_chrf(hyps, refs).score, abs=1e-9)
    without = [hyps[0].removeprefix("\ufeff"), *hyps[1:]]
    assert scores["bleu"] != pytest.approx(sacrebleu.corpus_bleu(without, refs).score, abs=1e-6)
    assert f"mteval: note: {files / 'bom.en'}: starts with a byte order mark (U+FEFF)" in err
    assert "--byte-order-mark drop" in err


def test_dropped_when_asked(files, capsys):
    scores, err = run(
        capsys,
        "--refs",
        str(files / "ref.en"),
        "--hyps",
        str(files / "bom.en"),
        "--byte-order-mark",
        "drop",
    )
    hyps = [line.removeprefix("\ufeff") for line in sacrebleu_lines(files / "bom.en")]
    refs = [sacrebleu_lines(files / "ref.en")]
    assert scores["bleu"] == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)
    assert scores["chrf"] == pytest.approx(sacrebleu.corpus_chrf(hyps, refs).score, abs=1e-9)
    assert "was dropped, as asked" in err


def test_structured_formats_drop_it_and_detection_looks_past_it():
    jsonl = BOM + b'{"system": "a", "hypothesis": "x y"}\n'
    found = read_columns(jsonl, "out.jsonl", "sys")
    assert found.columns[0].segments == ("x y",) and found.notes == ()
    tsv = BOM + b"system\thypothesis\na\tx y\n"
    assert read_columns(tsv, "out", "sys").columns[0].segments == ("x y",)
    sgml = BOM + b'<tstset><doc docid="d" sysid="s"><seg id="1">x y</seg></doc></tstset>\n'
    assert read_columns(sgml, "out.sgm", "sys").columns[0].segments == ("x y",)


def test_gtm_keeps_it_as_gtm_14_reads_it(files, capsys):
    assert main(["gtm", str(files / "bom.en"), str(files / "ref.en")]) == 0
    kept, err = capsys.readouterr()
    assert "starts with a byte order mark" in err
    assert (
        main(["gtm", "--byte-order-mark", "drop", str(files / "bom.en"), str(files / "ref.en")])
        == 0
    )
    dropped, _ = capsys.readouterr()
    assert float(kept.split()[-1]) < float(dropped.split()[-1])  # "\ufeffThe" is not "The"


def test_the_choice_is_checked(files, capsys):
    args = ["--refs", str(files / "ref.en"), "--hyps", str(files / "bom.en")]
    assert main(["score", *args, "--byte-order-mark", "strip"]) == 2
    assert "invalid choice: 'strip'" in capsys.readouterr().err
