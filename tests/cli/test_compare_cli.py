"""`mteval compare` on the sample test set: text, JSON (the README's layout) and a
self-contained HTML page with every user string escaped; bad uses are one line."""

from __future__ import annotations

import json

import pytest

from mteval_core.cli import main
from mteval_core.stats.bootstrap import BootstrapOptions
from tests.helpers import SAMPLE_DATA

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


def test_json_has_one_key_per_analysis_with_labelled_buckets(capsys):
    status, out, _ = run(
        capsys, "--refs", REF, "--hyps", A, B, "--bootstrap", "100", "--format", "json"
    )
    assert status == 0
    report = json.loads(out)
    assert report["systems"] == ["neural-large", "phrase-based"]
    assert report["bootstrap"] == {
        "n_resamples": 100,
        "seed": 12345,
        "confidence": 0.95,
        "note": BootstrapOptions(100).too_few_for_intervals,  # 100: fewer than 1,000
    }
    assert "|compare-mt:0.2.10|" in report["signature"]
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
    assert "using ref-A" in err and "1 are not read" in err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--hyps", A], "expected 2 arguments"),
        (["--hyps", A, B, "--bootstrap", "-1"], "negative"),
        (["--hyps", A, B, "--train", "/nonexistent/train.txt"], "/nonexistent/train.txt"),
    ],
)
def test_bad_uses_are_one_line(capsys, args, message):
    status, _, err = run(capsys, "--refs", REF, *args)
    assert status == 2
    assert message in err and "Traceback" not in err
