"""Every JSON the command line prints is JSON: no NaN or Infinity, whatever the input, including
degenerate test sets (identical systems, constant human scores, one or two systems)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mteval_core.cli import main
from tests.helpers import SAMPLE_DATA


def strict_json(text: str):
    """json.loads, but NaN, Infinity and -Infinity are errors (as allow_nan=False writes)."""

    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


SENTENCES = ["the cat sat", "the cat sat down", "a dog ran", "it rains"]
FLAGS = [
    [],
    ["--segments"],
    ["--human", "{human}"],
    ["--human", "{human}", "--bootstrap", "20", "--seed", "3"],
    ["--human", "{human}", "--segments", "--bootstrap", "20"],
    ["--bootstrap", "20"],
]


@st.composite
def small_test_sets(draw):
    """A reference, 1 to 4 systems (often identical) and human scores (often constant)."""
    n_segments = draw(st.integers(1, 3))
    segments = st.lists(st.sampled_from(SENTENCES), min_size=n_segments, max_size=n_segments)
    reference = draw(segments)
    systems = draw(st.lists(segments, min_size=1, max_size=4))
    human = draw(st.lists(st.sampled_from([1.0, 2.0]), min_size=len(systems), max_size=4))
    by_segment = draw(st.booleans())
    return reference, systems, human, by_segment


def write(folder: Path, reference, systems, human, by_segment) -> tuple[list[str], str]:
    (folder / "ref.en").write_text("".join(f"{line}\n" for line in reference))
    hyps = []
    for index, segments in enumerate(systems):
        path = folder / f"sys{index}.en"
        path.write_text("".join(f"{line}\n" for line in segments))
        hyps.append(str(path))
    if by_segment:  # every segment of a system gets the system's score
        rows = [
            f"sys{index},{segment},{human[index]}"
            for index in range(len(systems))
            for segment in range(1, len(reference) + 1)
        ]
        text = "system,segment,score\n" + "\n".join(rows) + "\n"
    else:
        text = "system,score\n" + "".join(f"sys{i},{human[i]}\n" for i in range(len(systems)))
    (folder / "human.csv").write_text(text)
    return hyps, str(folder / "human.csv")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(small_test_sets(), st.sampled_from(FLAGS))
def test_score_json_is_strict_json_on_any_test_set(capsys, test_set, flags):
    reference, systems, human, by_segment = test_set
    with tempfile.TemporaryDirectory() as folder:
        hyps, human_path = write(Path(folder), reference, systems, human, by_segment)
        argv = ["score", "--refs", f"{folder}/ref.en", "--hyps", *hyps, "--format", "json"]
        code, out, err = run(capsys, *argv, *(f.format(human=human_path) for f in flags))
    # one or two systems are no user error: each statistic is null with its reason
    assert code == 0, err
    result = strict_json(out)
    for statistics in result.get("correlations", {}).values():
        for key, reason in statistics["undefined"].items():
            assert statistics[key] is None and reason


@pytest.fixture
def identical(tmp_path):
    """Three identical systems and people who cannot tell them apart either, on 6 segments
    (the fewest a paired test takes)."""
    reference = "the cat sat on the mat\na dog ran in the park\nit is raining today\n" * 2
    output = "the cat sat on a mat\na dog ran in a park\nit rains today\n" * 2
    (tmp_path / "ref.en").write_text(reference)
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.en").write_text(output)
    rows = [f"{name},{segment},3" for name in ("a", "b", "c") for segment in range(1, 7)]
    (tmp_path / "human.csv").write_text("system,segment,score\n" + "\n".join(rows) + "\n")
    (tmp_path / "ranked.csv").write_text("system,score\na,1\nb,2\nc,3\n")
    hyps = [str(tmp_path / f"{name}.en") for name in ("a", "b", "c")]
    return ["score", "--refs", str(tmp_path / "ref.en"), "--hyps", *hyps], tmp_path


def test_identical_systems_do_not_differ(identical, capsys):
    base, _ = identical
    code, out, _ = run(capsys, *base, "--metrics", "bleu,fmean", "--bootstrap", "200")
    assert code == 0
    # Counted per metric: three systems are three pairs under each metric, not six pairs.
    assert (
        "paired bootstrap: system pairs that differ, per metric: bleu 0 of 3, fmean 0 of 3, "
        "at p < 0.05" in out
    )
    code, out, _ = run(capsys, *base, "--metrics", "bleu", "--bootstrap", "200")
    assert "paired bootstrap: 0 of 3 system pairs differ at p < 0.05" in out
    _, out, _ = run(capsys, *base, "--bootstrap", "200", "--format", "json")
    pairs = strict_json(out)["pairs"]
    assert {(p["delta"], p["p"], p["p_holm"]) for p in pairs} == {(0.0, 1.0, 1.0)}


def test_constant_scores_are_null_with_a_reason(identical, capsys):
    base, folder = identical
    argv = [*base, "--metrics", "bleu", "--human", str(folder / "human.csv")]
    code, out, _ = run(capsys, *argv, "--bootstrap", "50", "--format", "json")
    assert code == 0
    result = strict_json(out)
    bleu = result["correlations"]["bleu"]
    assert bleu["pearson"] is None and bleu["pearson_ci"] is None
    assert bleu["pairwise_accuracy"] is None  # not 1.0: people tie every pair
    assert bleu["undefined"]["pearson"] == "constant human and metric scores"
    assert bleu["undefined"]["pairwise_accuracy"] == "constant human scores"
    assert result["human"]["undefined"] == {}
    code, out, _ = run(capsys, *argv)
    assert "bleu    3  undefined  undefined  undefined" in out
    assert "bleu: pearson, spearman, kendall undefined (constant human and metric scores)" in out
    # people rank them, the metric cannot: only the metric is constant
    _, out, _ = run(capsys, *base, "--metrics", "bleu", "--human", str(folder / "ranked.csv"))
    assert "bleu: pearson, spearman, kendall undefined (constant metric scores)" in out


SGML = """<{tag} setid="t" srclang="de" trglang="en"{sysid}>
<doc docid="d1"{sysid}>
<seg id=1>the cat sat on the mat</seg>
<seg id=2>a dog ran</seg>
</doc>
<doc docid="d2"{sysid}>
<seg id=3>it rains</seg>
</doc>
</{tag}>
"""


def test_document_scores_of_identical_systems_are_strict_json(tmp_path, capsys):
    (tmp_path / "ref.sgm").write_text(SGML.format(tag="refset", sysid=' sysid="r"'))
    hyps = []
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.sgm").write_text(SGML.format(tag="tstset", sysid=f' sysid="{name}"'))
        hyps.append(str(tmp_path / f"{name}.sgm"))
    (tmp_path / "human.csv").write_text("system,score\na,2\nb,2\nc,2\n")
    code, out, err = run(
        capsys,
        *["score", "--refs", str(tmp_path / "ref.sgm"), "--hyps", *hyps],
        *["--documents", "--segments", "--human", str(tmp_path / "human.csv")],
        *["--bootstrap", "30", "--format", "json"],
    )
    assert code == 0, err
    result = strict_json(out)
    assert set(result["documents"]["a"]["bleu"]) == {"d1", "d2"}
    assert result["correlations"]["bleu"]["kendall"] is None


def test_correlate_json_is_strict_json(tmp_path, capsys):
    (tmp_path / "human.csv").write_text("system,DA\na,0.1\nb,0.1\nc,0.1\nd,0.1\n")
    (tmp_path / "metrics.tsv").write_text(
        "system\tBLEU\tflat\na\t20\t1\nb\t25\t1\nc\t22\t1\nd\t30\t1\n"
    )
    tables = ["--human", str(tmp_path / "human.csv"), "--metrics", str(tmp_path / "metrics.tsv")]
    code, out, _ = run(capsys, "correlate", *tables, "--bootstrap", "100", "--format", "json")
    assert code == 0
    result = strict_json(out)
    assert result["flat"]["undefined"]["pearson"] == "constant human and metric scores"
    assert result["BLEU"]["kendall_ci"] is None
    code, out, _ = run(capsys, "correlate", *tables)
    assert "BLEU    4  undefined  undefined  undefined" in out


def test_loss_json_is_strict_json(capsys):
    rates = SAMPLE_DATA / "loss" / "tate-voss-2006-table3-table8-rates-by-wh.csv"
    argv = ["loss", "--input", str(rates), "--by", "wh", "--costs", "5,5,5.5", "--format", "json"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert strict_json(out)["ranking"]["Who"] == ["MT2", "MT1", "MT3"]
