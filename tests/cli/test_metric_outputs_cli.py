"""`mteval score --metric-scores` with the metrics' own outputs, --metric-signature and
--comet-compare, on sample_data scored in each tool's layout (tests/io/fixtures/neural_outputs)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.stats.comet_compare import comet_compare

ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = ROOT / "tests/io/fixtures/neural_outputs"
SYSTEMS = ["neural-large", "neural-small", "phrase-based", "word-by-word"]
TEST_SET = [
    "--refs",
    str(ROOT / "sample_data/ref/ref-A.en"),
    "--hyps",
    *(str(ROOT / f"sample_data/sys/{system}.en") for system in SYSTEMS),
    "--metrics",
    "bleu",
]


def score(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["score", *TEST_SET, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_comet_json_with_its_signature_in_every_layout(capsys) -> None:
    code, out, _ = score(
        capsys,
        "--metric-scores",
        f"xcomet={OUTPUTS / 'comet.json'}",
        "--metric-signature",
        "xcomet:model=Unbabel/XCOMET-XL,version=2.2.6,precision=fp16",
        "--format",
        "json",
    )
    assert code == 0
    result = json.loads(out)
    comet = json.loads((OUTPUTS / "comet.json").read_text(encoding="utf-8"))
    for key, entries in comet.items():
        expected = np.mean([entry["COMET"] for entry in entries])
        assert result["scores"][Path(key).stem]["xcomet"] == pytest.approx(expected, abs=1e-15)
    produced = (
        "xcomet:external|xcomet-model:Unbabel/XCOMET-XL|xcomet-package:unbabel-comet|"
        "xcomet-version:2.2.6|xcomet-precision:fp16|xcomet-reference_based:yes"
    )
    assert produced in result["signature"]
    assert produced in result["signatures"]["xcomet"]


def test_metricx_files_of_one_metric_and_a_warning_where_they_differ(capsys, tmp_path) -> None:
    files = [str(OUTPUTS / f"{system}.metricx.jsonl") for system in SYSTEMS]
    code, out, err = score(capsys, *(f"--metric-scores=mx={path}" for path in files))
    assert code == 0 and "warning" not in err
    assert "mx-package:metricx|mx-scale:0-25" in out
    comet = json.loads((OUTPUTS / "comet.json").read_text(encoding="utf-8"))
    halves = []
    for index, (key, entries) in enumerate(comet.items()):  # one comet-score run per system
        if index == 3:
            entries = [{k: v for k, v in entry.items() if k != "ref"} for entry in entries]
        halves.append(tmp_path / f"run-{index}.json")
        halves[-1].write_text(json.dumps({key: entries}, indent=4), encoding="utf-8")
    code, out, err = score(capsys, *(f"--metric-scores=c={path}" for path in halves))
    assert code == 0
    assert (
        f"warning: the files of metric c were not produced alike, so their scores may not be "
        f"comparable: {halves[0]} vs {halves[3]}: reference_based yes vs no"
    ) in err
    assert "c-reference_based:yes" in out  # the first file's, with the warning beside it


def test_comet_compare_equals_the_stats_function_on_the_files_scores(capsys) -> None:
    code, out, _ = score(
        capsys,
        f"--metric-scores=comet={OUTPUTS / 'comet.json'}",
        "--comet-compare",
        "--format",
        "json",
    )
    assert code == 0
    comet = json.loads((OUTPUTS / "comet.json").read_text(encoding="utf-8"))
    scores = {Path(k).stem: np.array([e["COMET"] for e in v]) for k, v in comet.items()}
    expected = [pair.to_dict() for pair in comet_compare(scores)]
    assert json.loads(out)["comet_compare"] == {"comet": expected}
    code, text, _ = score(
        capsys, f"--metric-scores=comet={OUTPUTS / 'comet.json'}", "--comet-compare"
    )
    assert "comet-compare's bootstrap and paired t-tests under comet:" in text
    first = expected[0]
    row = f"{first['x_mean']:.4f}  {first['y_mean']:.4f}  {first['ties']:.4f}"
    assert row in text


def test_refusals_name_the_option_and_the_file(capsys) -> None:
    comet = OUTPUTS / "comet.json"
    cases = [
        (
            ["--metric-scores", f"c:lower={comet}"],
            f"mteval: error: {comet}: lower scores of metric 'c' were said to be better, but "
            "this file's tool gives scores where higher is better. Give higher, or leave the "
            "direction out for this file.",
        ),
        (
            ["--metric-scores", f"p={OUTPUTS / 'neural-large.pymarian.txt'}"],
            "the direction of metric 'p' was not given",
        ),
        (
            ["--metric-scores", f"c={comet}", "--metric-signature", "d:model=x"],
            "--metric-signature d:model=x: no --metric-scores names metric 'd'",
        ),
        (
            ["--metric-scores", f"c={comet}", "--metric-signature", "c:colour=red"],
            "--metric-signature c: 'colour=red' is not a signature field",
        ),
        (["--comet-compare"], "--comet-compare compares the segment scores of --metric-scores"),
    ]
    for args, message in cases:
        code, _, err = score(capsys, *args)
        assert code != 0 and message in err, (args, err)


def test_the_report_holds_the_metric_and_its_signature(capsys) -> None:
    code = main(
        [
            "report",
            *TEST_SET,
            f"--metric-scores=xcomet={OUTPUTS / 'comet.json'}",
            "--metric-signature=xcomet:model=Unbabel/XCOMET-XL,precision=fp16",
            "--paired-ar=100",
            "--bootstrap=0",
        ]
    )
    html, _ = capsys.readouterr()
    assert code == 0
    assert (
        "xcomet:external|xcomet-model:Unbabel/XCOMET-XL|xcomet-package:unbabel-comet|"
        "xcomet-precision:fp16|xcomet-reference_based:yes"
    ) in html
    comet = json.loads((OUTPUTS / "comet.json").read_text(encoding="utf-8"))
    best = max(np.mean([e["COMET"] for e in entries]) for entries in comet.values())
    assert f"{best:.4f}" in html


def test_comet_compare_and_signatures_need_what_they_print_on(capsys, tmp_path) -> None:
    comet = f"--metric-scores=c={OUTPUTS / 'comet.json'}"
    code, _, err = score(capsys, comet, "--comet-compare", "--format", "csv")
    assert code != 0 and "--comet-compare works with --format json or text" in err
    shard = tmp_path / "shard.tsv"
    shard.write_text("system\tsegment\thypothesis\treference\na\t1\tx\tx\n", encoding="utf-8")
    for option in ("--comet-compare", "--metric-signature=c:model=x"):
        code = main(["score", "--shards", str(shard), option])
        assert code != 0
        assert f"{option.split('=')[0]} does not work with --shards" in capsys.readouterr().err
