"""`mteval correlate --human-segments FILE --metric-segments FILE` (issue #11, item 8): the
segment-level contract from two tables scored elsewhere, checked against mt-metrics-eval's
numbers for WMT21 TED en-de with sacreBLEU's own sentence scores as the metric file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF

from mteval_core.cli import main
from tests.helpers import shared_dataset

HUMAN = "system\tsegment_id\tscore\n" + "".join(
    f"{system}\t{segment}\t{score}\n"
    for system, scores in {"a": (1, 2, 3, 4), "b": (2, 2, 1, 5), "c": (0, 3, 2, 1)}.items()
    for segment, score in enumerate(scores, start=1)
)
METRICS = "system\tsegment_id\tgood\tter\n" + "".join(
    f"{system}\t{segment}\t{good}\t{-good * 2}\n"
    for system, values in {"a": (5, 1, 3, 4), "b": (2, 2, 0, 6), "c": (1, 3, 2, 0)}.items()
    for segment, good in enumerate(values, start=1)
)


def write(folder: Path, human: str = HUMAN, metrics: str = METRICS) -> list[str]:
    (folder / "human.tsv").write_text(human, encoding="utf-8")
    (folder / "metrics.tsv").write_text(metrics, encoding="utf-8")
    human, metrics = str(folder / "human.tsv"), str(folder / "metrics.tsv")
    return ["--human-segments", human, "--metric-segments", metrics]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["correlate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_contract_of_score_segment_level(capsys, tmp_path) -> None:
    files = write(tmp_path)
    code, out, err = run(capsys, *files, "--bootstrap", "50", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["segment_level"]["systems"] == ["a", "b", "c"]
    assert report["segment_level"]["n_cells"] == 12
    good = report["segment_correlations"]["good"]
    flat_human = np.array([1, 2, 3, 4, 2, 2, 1, 5, 0, 3, 2, 1])
    flat_good = np.array([5, 1, 3, 4, 2, 2, 0, 6, 1, 3, 2, 0])
    assert good["pearson_none"] == pytest.approx(np.corrcoef(flat_human, flat_good)[0, 1])
    assert len(good["pearson_none_ci"]) == 2 and good["n_rated"] == 12
    assert report["correlations"]["good"]["spa"] is not None


def test_lower_is_better_columns_are_negated(capsys, tmp_path) -> None:
    files = write(tmp_path)
    code, out, _ = run(capsys, *files, "--lower-is-better", "ter", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["segment_level"]["oriented"] == "higher is better: ter negated"
    good, ter = report["segment_correlations"]["good"], report["segment_correlations"]["ter"]
    assert ter["pearson_none"] == pytest.approx(good["pearson_none"])  # -(-2 x good)
    code, out, _ = run(capsys, *files, "--format", "json")
    unturned = json.loads(out)["segment_correlations"]["ter"]["pearson_none"]
    assert unturned == pytest.approx(-good["pearson_none"])


def test_systems_in_one_file_only_are_set_aside_with_a_note(capsys, tmp_path) -> None:
    human = HUMAN + "ref-A\t1\t9\nref-A\t2\t9\n"
    metrics = METRICS + "extra\t1\t1\t1\n"
    code, out, err = run(capsys, *write(tmp_path, human, metrics), "--format", "json")
    assert code == 0
    assert "without metric scores set aside: ref-A" in err
    assert "without judgments set aside: extra" in err
    assert json.loads(out)["segment_level"]["systems"] == ["a", "b", "c"]


def test_ranking_and_text_output(capsys, tmp_path) -> None:
    files = write(tmp_path)
    code, out, _ = run(capsys, *files, "--rank-metrics", "pearson_none", "--permutations", "50")
    assert code == 0
    assert "segment-level agreement with human score" in out
    assert "metrics ranked by pearson_none" in out


def test_a_metric_whose_statistic_is_undefined_is_listed_unranked(capsys, tmp_path) -> None:
    """A constant metric was "rank 2" (its cluster's) with an undefined value and no reason."""
    metrics = METRICS.replace("\tter\n", "\tter\tconstant\n").replace("\n", "\t7\n")
    metrics = metrics.replace("\tconstant\t7\n", "\tconstant\n", 1)
    files = write(tmp_path, metrics=metrics)
    argv = [*files, "--rank-metrics", "pearson_system", "--permutations", "50"]
    code, out, _ = run(capsys, *argv, "--format", "json")
    assert code == 0
    ranking = {entry["metric"]: entry for entry in json.loads(out)["metric_ranking"]}
    assert list(ranking)[-1] == "constant"
    assert ranking["constant"]["value"] is None and ranking["constant"]["rank"] is None
    assert ranking["constant"]["undefined"] == {
        "value": "constant metric scores in every group",
        "rank": "not ranked: pearson_system is undefined",
    }
    assert ranking["good"]["rank"] == 1 and ranking["good"]["undefined"] == {}
    code, out, _ = run(capsys, *argv)
    table = out[out.index("metrics ranked by pearson_system:") :].splitlines()
    assert table[-2].split() == ["-", "constant", "undefined"]
    assert table[-1] == "not ranked: constant (constant metric scores in every group)"


def test_a_column_without_numbers_is_named_in_a_note(capsys, tmp_path) -> None:
    metrics = METRICS.replace("\tter\n", "\tter\tcomment\n", 1).replace("\n", "\tok\n")
    metrics = metrics.replace("\tcomment\tok\n", "\tcomment\n", 1)
    code, out, err = run(capsys, *write(tmp_path, metrics=metrics), "--format", "json")
    assert code == 0
    assert list(json.loads(out)["segment_correlations"]) == ["good", "ter"]
    assert err == (
        f"mteval: note: {tmp_path / 'metrics.tsv'}: the column 'comment' holds no number; it is "
        "not read as a metric\n"
    )


@pytest.mark.parametrize(
    ("metrics", "argv", "message"),
    [
        (METRICS, ["--lower-is-better", "bleu"], "there is no metric column 'bleu'"),
        (METRICS, ["--exclude", "z"], "there is no system 'z'"),
        (METRICS, ["--rank-metrics", "pearson_all"], "cannot rank metrics by 'pearson_all'"),
        ("system\tgood\na\t1\n", [], "there is no segment column"),
        (
            "system\tsegment_id\tgood\na\t1\tx\na\t2\t1\n",
            [],
            "line 2, column good: 'x' is not a number",
        ),
        (
            "system\tsegment_id\tgood\na\t1\t1\na\t1\t2\n",
            [],
            "system 'a' on segment 1 already has a row (line 2)",
        ),
        ("system\tsegment_id\tgood\na\tdoc::1\t1\n", [], "is not a segment number"),
        (
            "system\tsegment_id\tgood\nz\t1\t1\ny\t1\t1\n",
            [],
            "no system has both metric scores and judgments",
        ),
    ],
)
def test_bad_tables_are_refused_with_file_and_line(capsys, tmp_path, metrics, argv, message):
    code, _, err = run(capsys, *write(tmp_path, metrics=metrics), *argv)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--human", "h", "--metric-segments", "m"], "cannot be mixed"),
        (["--human-segments", "h"], "a human file and a metric file are needed"),
        (["--human", "h", "--metrics", "m", "--rank-metrics", "spa"], "--rank-metrics works"),
    ],
)
def test_the_two_forms_are_not_mixed(capsys, argv, message) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_system_level_judgments_are_refused_for_segments(capsys, tmp_path) -> None:
    code, _, err = run(capsys, *write(tmp_path, human="system\tscore\na\t1\nb\t2\n"))
    assert code == 2 and "system-level only" in err and "--human" in err


def test_wmt21_ted_numbers_from_sacrebleu_sentence_scores(capsys, tmp_path) -> None:
    """The issue's table (mt-metrics-eval @ 68a481a) from sacreBLEU's sentence BLEU and chrF,
    written with TED's own segment ids, against the judgments file as WMT ships it."""
    folder = shared_dataset("wmt21-ted-mqm-ende")
    id_lines = (folder / "segment_ids.tsv").read_text(encoding="utf-8").split("\n")[1:]
    ids = [line.split("\t")[1] for line in id_lines if line]
    reference = (folder / "ref" / "ref-A.de").read_text(encoding="utf-8").split("\n")
    bleu, chrf = BLEU(effective_order=True), CHRF()
    rows = ["system\tsegment_id\tsentence_bleu\tchrf"]
    for path in sorted((folder / "sys").iterdir()):
        hypotheses = path.read_text(encoding="utf-8").split("\n")
        for segment, hyp, ref in zip(ids, hypotheses, reference):
            b, c = bleu.sentence_score(hyp, [ref]).score, chrf.sentence_score(hyp, [ref]).score
            rows.append(f"{path.stem}\t{segment}\t{b!r}\t{c!r}")
    (tmp_path / "metrics.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    human = str(folder / "human" / "mqm_seg_rater.tsv")
    argv = ["--human-segments", human, "--metric-segments", str(tmp_path / "metrics.tsv")]
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code == 0, err
    assert "ref-A" in err  # the reference rated as a system, set aside
    report = json.loads(out)
    expected = {
        "sentence_bleu": (0.173514, 0.082639, 0.172076, 0.140609, 0.392007, 0.480297, 0.668923),
        "chrf": (0.158307, 0.095274, 0.157138, 0.146778, 0.379235, 0.480297, 0.668705),
    }
    keys = ("pearson_none", "pearson_item", "pearson_system", "kendall_b_none")
    keys += ("acc23_item", "acc_eq_item")
    for metric, values in expected.items():
        record = report["segment_correlations"][metric]
        found = [record[key] for key in keys] + [report["correlations"][metric]["spa"]]
        assert found == pytest.approx(values, abs=1e-6), metric


def test_score_reads_the_data_sets_own_segment_ids(capsys) -> None:
    """`mteval score --segment-ids`: TED's judgments name segments 1..606 for 529 lines."""
    folder = shared_dataset("wmt21-ted-mqm-ende")
    human = str(folder / "human" / "mqm_seg_rater.tsv")
    texts = ["--refs", str(folder / "ref" / "ref-A.de"), "--hyps"]
    texts += sorted(str(p) for p in (folder / "sys").iterdir() if p.stem != "ref-A")
    argv = ["score", *texts, "--metrics", "bleu,chrf", "--human", human, "--segment-level"]
    assert main([*argv, "--format", "json"]) == 2
    assert "--segment-ids" in capsys.readouterr().err  # the hint names the way out
    ids = ["--segment-ids", str(folder / "segment_ids.tsv")]
    assert main([*argv, *ids, "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)["segment_correlations"]
    assert found["bleu"]["pearson_none"] == pytest.approx(0.173514, abs=1e-6)
    assert found["chrf"]["acc23_item"] == pytest.approx(0.379235, abs=1e-6)
    assert main(["score", *texts, *ids]) == 2
    assert "--segment-ids works with --human" in capsys.readouterr().err
