"""The `mteval score` command: output formats, names, SGML input and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import sacrebleu

from mteval_core.cli import main

REF = "The cat sat on the mat .\nA quick brown fox jumps over the lazy dog .\nIt rains .\n"
HYP = "The cat is on the mat .\nA fast brown fox jumped over a lazy dog .\nIt rains .\n"
REF2 = "A cat sat on the mat .\nThe quick brown fox jumped over the lazy dog .\nIt is raining .\n"


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in {"ref.en": REF, "ref2.en": REF2, "good.en": HYP, "copy.en": REF}.items():
        paths[name] = tmp_path / name
        paths[name].write_text(text, encoding="utf-8")
    return paths


def score(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_shape_and_values(files, capsys):
    code, out, _ = score(
        capsys,
        "--refs",
        str(files["ref.en"]),
        "--hyps",
        str(files["good.en"]),
        str(files["copy.en"]),
        "--format",
        "json",
    )
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"signature", "signatures", "scores"}
    assert list(result["scores"]) == ["good", "copy"]
    assert set(result["scores"]["good"]) == {"bleu", "nist", "precision", "recall", "f1", "fmean"}
    expected = sacrebleu.corpus_bleu(HYP.splitlines(), [REF.splitlines()]).score
    assert result["scores"]["good"]["bleu"] == pytest.approx(expected, abs=1e-9)
    assert result["scores"]["copy"]["bleu"] == pytest.approx(100.0)
    assert result["scores"]["copy"]["fmean"] == 1.0
    assert result["signature"].startswith("nrefs:1|case:mixed|tok:13a|stem:none|")


def test_segments_names_and_options(files, capsys):
    code, out, _ = score(
        capsys,
        "--refs",
        str(files["ref.en"]),
        str(files["ref2.en"]),
        "--hyps",
        f"mine={files['good.en']}",
        "--metrics",
        "fmean,bleu",
        "--segments",
        "--format",
        "json",
        "--lowercase",
        "--stem",
        "porter",
        "--fmean-alpha",
        "0.5",
        "--bp",
        "shortest",
        "--tokenize",
        "none",
    )
    assert code == 0
    result = json.loads(out)
    assert list(result["scores"]["mine"]) == ["fmean", "bleu"]
    assert len(result["segments"]["mine"]["bleu"]) == 3
    signature = result["signature"]
    for part in ("nrefs:2", "case:lc", "tok:none", "stem:porter-nltk", "alpha:0.5", "bp:shortest"):
        assert part in signature


def test_text_csv_and_latex(files, capsys):
    base = ["--refs", str(files["ref.en"]), "--hyps", str(files["good.en"])]
    _, text, _ = score(capsys, *base)
    assert text.splitlines()[0].split() == ["system", "BLEU", "NIST", "P", "R", "F1", "Fmean"]
    assert "signature: nrefs:1" in text
    _, csv_text, _ = score(capsys, *base, "--format", "csv", "--segments")
    lines = csv_text.splitlines()
    assert lines[0].startswith("system,segment,bleu,") and lines[0].endswith(",signature")
    assert len(lines) == 1 + 3
    _, latex, _ = score(capsys, *base, "--format", "latex")
    assert r"\begin{tabular}" in latex and "nrefs:1" in latex


def test_sgml_input_with_two_references(tmp_path, capsys):
    refset = tmp_path / "refs.sgm"
    refset.write_text(
        '<refset setid="t" srclang="de" trglang="en">\n'
        + "".join(
            f'<doc docid="d1" sysid="{name}">\n'
            + "".join(f"<seg id={i}>{line}</seg>\n" for i, line in enumerate(text.splitlines(), 1))
            + "</doc>\n"
            for name, text in (("r1", REF), ("r2", REF2))
        )
        + "</refset>\n",
        encoding="utf-8",
    )
    tstset = tmp_path / "sys.sgm"
    tstset.write_text(
        '<tstset setid="t" srclang="de" trglang="en">\n<doc docid="d1" sysid="mt1">\n'
        + "".join(f"<seg id={i}>{line}</seg>\n" for i, line in enumerate(HYP.splitlines(), 1))
        + "</doc>\n</tstset>\n",
        encoding="utf-8",
    )
    code, out, err = score(capsys, "--refs", str(refset), "--hyps", str(tstset), "--format", "json")
    assert code == 0, err
    result = json.loads(out)
    expected = sacrebleu.corpus_bleu(HYP.splitlines(), [REF.splitlines(), REF2.splitlines()]).score
    assert result["scores"]["mt1"]["bleu"] == pytest.approx(expected, abs=1e-9)
    assert result["signature"].startswith("nrefs:2|")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hyps", "{good}"], "the following arguments are required: --refs"),
        (["--refs", "{ref}", "--hyps", "missing.en"], "missing.en: the file does not exist"),
        (["--refs", "{ref}", "--hyps", "{good}", "--metrics", "blue"], "unknown metric 'blue'"),
        (["--refs", "{ref}", "--hyps", "{good}", "--fmean-alpha", "2"], "from 0 to 1"),
        (["--refs", "{ref}", "--hyps", "{good}", "{good}"], "duplicate system name 'good'"),
        (["--refs", "{ref}", "--hyps", "{short}"], "short.en, line 3: has 2 segments"),
        (["--refs", "{ref}", "--hyps", "{empty}"], "empty.en: the file is empty"),
        (["--refs", "{ref}", "--hyps", "{latin1}"], "latin1.en, line 1, column 2: byte 0xe9"),
        (["--refs", "{ref}", "--hyps", "={good}"], "empty system name"),
    ],
)
def test_user_errors_are_one_line_with_exit_status_2(files, tmp_path, capsys, args, message):
    (tmp_path / "short.en").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "empty.en").write_bytes(b"")
    (tmp_path / "latin1.en").write_bytes(b"d\xe9j\xe0\nb\nc\n")
    paths = {
        "ref": files["ref.en"],
        "good": files["good.en"],
        "short": tmp_path / "short.en",
        "empty": tmp_path / "empty.en",
        "latin1": tmp_path / "latin1.en",
    }
    code, out, err = score(capsys, *(a.format(**paths) for a in args))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("mteval: error: ")
    assert message in err


def test_installed_command_runs_without_traceback(files):
    process = subprocess.run(
        [
            sys.executable,
            "-m",
            "mteval_core.cli",
            "score",
            "--refs",
            str(files["ref.en"]),
            "--hyps",
            "nowhere.en",
        ],
        capture_output=True,
        text=True,
    )
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    assert process.stderr.strip() == (
        "mteval: error: nowhere.en: the file does not exist. Check the path and the spelling."
    )


def test_the_command_line_names_its_flags_where_the_core_says_what_to_give(tmp_path, capsys):
    """A reader says "Give it as a system output." (the dashboard shows that); the command line
    puts its flag in (cli.arguments.in_command_words)."""
    tstset = tmp_path / "out.sgm"
    tstset.write_text(
        '<tstset setid="s" srclang="en" trglang="de" sysid="uedin">\n'
        '<doc docid="d1"><seg id="1">one</seg><seg id="2">two</seg></doc>\n</tstset>\n',
        encoding="utf-8",
    )
    hypothesis = tmp_path / "hyp.de"
    hypothesis.write_text("one\ntwo\n", encoding="utf-8")
    code, _, err = score(capsys, "--refs", str(tstset), "--hyps", str(hypothesis))
    assert code == 2
    assert "this is a tstset, not a refset" in err
    assert err.rstrip().endswith("Pass it with --hyps.")
    assert "Give it as" not in err
