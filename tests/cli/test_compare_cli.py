"""`mteval compare` on the sample test set: text, JSON (the README's layout) and a
self-contained HTML page with every user string escaped; bad uses are one line. On WMT23 en-zh,
en-ja and zh-en as released (issue 42): its BLEU is `mteval score`'s, and --reading compare-mt
gives compare-mt's with a note where the text is not split into words."""

from __future__ import annotations

import json

import pytest

from mteval_core.cli import main
from mteval_core.stats.bootstrap import BootstrapOptions
from tests.helpers import SAMPLE_DATA
from tests.wmt23_general import SYSTEMS, TOKENIZERS, wmt23_pair

REF = str(SAMPLE_DATA / "ref" / "ref-A.en")
A = str(SAMPLE_DATA / "sys" / "neural-large.en")
B = str(SAMPLE_DATA / "sys" / "phrase-based.en")
KEYS = [
    "scores",
    "word_accuracy",
    "length_buckets",
    "length_difference_buckets",
    "sentence_bleu_buckets",
]


def run(capsys, *args):
    status = main(["compare", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    ("reading", "signed"),
    [("tokenized", "|case:mixed|tok:13a|stem:none|"), ("compare-mt", "|compare-mt:0.2.10|")],
)
def test_json_has_one_key_per_analysis_with_labelled_buckets(capsys, reading, signed):
    status, out, _ = run(
        capsys, "--refs", REF, "--hyps", A, B, "--bootstrap", "100", "--format", "json",
        "--reading", reading,
    )  # fmt: skip
    assert status == 0
    report = json.loads(out)
    assert report["systems"] == ["neural-large", "phrase-based"]
    assert report["bootstrap"] == {
        "n_resamples": 100,
        "seed": 12345,
        "confidence": 0.95,
        "note": BootstrapOptions(100).too_few_for_intervals,  # 100: fewer than 1,000
    }
    assert signed in report["signature"] and report["reading"] == reading
    assert report["notes"] == []
    for key in KEYS:
        for bucket in report[key]["buckets"]:
            assert set(bucket) == {"label", "size", "values", "ci", "difference"}
            for measure in report[key]["measures"]:
                for system in report["systems"]:
                    low, high = bucket["ci"][system][measure]
                    assert low <= high
                a, b = (bucket["values"][s][measure] for s in report["systems"])
                assert bucket["difference"][measure]["value"] == a - b
                low, high = bucket["difference"][measure]["ci"]
                assert low <= high
    labels = [b["label"] for b in report["word_accuracy"]["buckets"]]
    assert labels == ["<1", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000"]
    assert len(report["ngram_differences"]["a_better"]) <= 50
    example = report["sentence_examples"]["a_better"][0]
    assert {"line", "score_a", "score_b", "difference", "reference", "output_a", "output_b"} <= set(
        example
    )


def test_html_is_self_contained_and_escapes_names_and_text(capsys, tmp_path):
    hostile = tmp_path / "hyp.txt"
    lines = (SAMPLE_DATA / "sys" / "phrase-based.en").read_text(encoding="utf-8").splitlines()
    lines = [f"{line} <script>alert(1)</script> & co" for line in lines]
    hostile.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, _ = run(
        capsys, "--refs", REF, "--hyps", A, f"<img src onerror>&'x'={hostile}", "--format", "html",
        "--bootstrap", "50",
    )  # fmt: skip
    assert status == 0
    assert out.startswith("<!DOCTYPE html>") and "<svg" in out
    assert "<script" not in out and "<img" not in out
    assert "&lt;img src onerror&gt;&amp;&#x27;x&#x27;" in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in out
    assert "http" not in out.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_text_with_several_references_and_a_training_corpus(capsys, tmp_path):
    train = tmp_path / "train.txt"
    train.write_text("the the the\ncat sat\n", encoding="utf-8")
    second = str(SAMPLE_DATA / "ref" / "ref-B.en")
    status, out, err = run(capsys, "--refs", REF, second, "--hyps", A, B, "--train", str(train))
    assert status == 0
    assert "word accuracy by frequency in the training corpus" in out
    assert "freq:train" in out
    assert "using ref-A" in err and "1 are not read (its BLEU is score's with it alone)" in err


def test_the_command_lines_readings_are_the_analyses():
    from mteval_core.cli.compare import READINGS
    from mteval_core.compare import readings

    assert readings.READINGS == READINGS  # written out twice: the parser imports no analysis


@pytest.mark.parametrize(
    "args, message",
    [
        (["--hyps", A], "expected 2 arguments"),
        (["--hyps", A, B, "--bootstrap", "-1"], "negative"),
        (["--hyps", A, B, "--train", "/nonexistent/train.txt"], "/nonexistent/train.txt"),
        (["--hyps", A, B, "--reading", "bleu"], "invalid choice: 'bleu'"),
        (
            ["--hyps", A, B, "--reading", "compare-mt", "--tokenize", "zh", "--lowercase"],
            "--tokenize, --lowercase with --reading compare-mt: compare-mt splits each line",
        ),
    ],
)
def test_bad_uses_are_one_line(capsys, args, message):
    status, _, err = run(capsys, "--refs", REF, *args)
    assert status == 2
    assert message in err and "Traceback" not in err


def scored_bleu(capsys, reference, systems, *options) -> dict[str, float]:
    status, out, _ = run_command(capsys, "score", "--refs", str(reference), "--hyps",
                                 *map(str, systems), "--metrics", "bleu", "--format", "json",
                                 *options)  # fmt: skip
    assert status == 0
    return {system: scores["bleu"] for system, scores in json.loads(out)["scores"].items()}


def run_command(capsys, *args):
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("pair", sorted(TOKENIZERS))
def test_the_bleu_of_compare_is_the_bleu_of_score_on_wmt23(capsys, tmp_path, pair):
    """By default both commands tokenize as the target language needs (zh for Chinese, from the
    file names; Japanese's char given, as WMT23 did), and the two BLEUs are one number, the
    organisers'."""
    released = wmt23_pair(pair)
    reference, systems = released.write(tmp_path, SYSTEMS[pair])
    given = ["--tokenize", "char"] if pair == "en-ja" else []
    status, out, err = run(
        capsys, "--refs", str(reference), "--hyps", *map(str, systems), "--bootstrap", "0",
        "--format", "json", *given,
    )  # fmt: skip
    assert status == 0 and "not split into words" not in err
    report = json.loads(out)
    assert f"|tok:{TOKENIZERS[pair]}|" in report["signature"] and report["notes"] == []
    bleu = {s: b["values"][s]["bleu"] for b in report["scores"]["buckets"] for s in b["values"]}
    expected = scored_bleu(capsys, reference, systems, *given)
    assert bleu == expected
    assert bleu == {s: released.official_bleu[s] for s in SYSTEMS[pair]}


@pytest.mark.parametrize("pair", ["en-zh", "en-ja"])
def test_compare_mts_reading_of_unsplit_text_says_so_on_stderr_and_in_every_format(
    capsys, tmp_path, pair
):
    reference, systems = wmt23_pair(pair).write(tmp_path, SYSTEMS[pair])
    files = ["--refs", str(reference), "--hyps", *map(str, systems), "--reading", "compare-mt"]
    status, out, err = run(capsys, *files, "--bootstrap", "0")
    assert status == 0
    (note,) = [line for line in err.splitlines() if "not split into words" in line]
    assert note.startswith("mteval: note: the reference's ") and note.endswith(
        "(leave out --reading compare-mt)"
    )
    assert "note: the reference's" in out and "compare-mt BLEU" in out
    _, html, _ = run(capsys, *files, "--bootstrap", "0", "--format", "html")
    assert "<strong>Note:</strong> the reference&#x27;s" in html
