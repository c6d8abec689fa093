"""`mteval score --segment-level / --metric-scores / --rank-metrics` on the sample data (issue #11,
item 8): strict JSON, the accuracies added to "correlations", external scores as metrics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sacrebleu.metrics import CHRF

from mteval_core.cli import main
from tests.helpers import SAMPLE_DATA, read_lines

REFS = sorted(str(p) for p in (SAMPLE_DATA / "ref").iterdir())
HYPS = sorted(str(p) for p in (SAMPLE_DATA / "sys").iterdir())
HUMAN = str(SAMPLE_DATA / "human" / "judgments.tsv")
BASE = ["score", "--refs", *REFS, "--hyps", *HYPS]


def strict_json(text: str) -> dict:
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([*BASE, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_segment_level_json(capsys) -> None:
    code, out, _ = run(
        capsys, "--metrics", "bleu,ter", "--human", HUMAN, "--segment-level",
        "--bootstrap", "30", "--seed", "5", "--format", "json",
    )  # fmt: skip
    assert code == 0
    report = strict_json(out)
    assert report["segment_level"]["oriented"] == "higher is better: ter negated"
    assert report["segment_level"]["n_resamples"] == 30
    bleu = report["segment_correlations"]["bleu"]
    for key in ("pearson_none", "spearman_item", "kendall_b_system", "acc23_item", "acc_eq_item"):
        assert isinstance(bleu[key], float) and len(bleu[f"{key}_ci"]) == 2
    assert "acc_eq_item_threshold" in bleu and "constant_baseline_acc_eq_item" in bleu
    for metric in ("bleu", "ter"):
        correlations = report["correlations"][metric]
        assert "pairwise_accuracy" in correlations  # unchanged, human ties left out
        assert correlations["spa"] is not None
        assert len(correlations["pairwise_accuracy_with_ties_ci"]) == 2


def test_same_seed_same_output(capsys) -> None:
    argv = ("--metrics", "bleu", "--human", HUMAN, "--segment-level", "--bootstrap", "20")
    assert run(capsys, *argv, "--format", "json")[1] == run(capsys, *argv, "--format", "json")[1]


def test_segment_level_text_table(capsys) -> None:
    code, out, _ = run(capsys, "--metrics", "bleu,chrf", "--human", HUMAN, "--segment-level")
    assert code == 0
    assert "segment-level agreement with human adequacy+fluency" in out
    assert "constant baseline" in out and "acc_eq_item" in out


def test_system_level_judgments_give_null_accuracies_with_the_reason(capsys, tmp_path) -> None:
    human = tmp_path / "sys.tsv"
    rows = [f"{Path(h).stem}\t{score}" for h, score in zip(HYPS, (4, 3, 2, 1), strict=True)]
    human.write_text("system\tscore\n" + "\n".join(rows) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "--metrics", "bleu", "--human", str(human), "--format", "json")
    assert code == 0
    bleu = strict_json(out)["correlations"]["bleu"]
    assert bleu["spa"] is None and "system-level only" in bleu["undefined"]["spa"]
    code, _, err = run(capsys, "--metrics", "bleu", "--human", str(human), "--segment-level")
    assert code != 0 and "system-level only" in err and "Traceback" not in err


def test_segment_level_needs_human(capsys) -> None:
    code, _, err = run(capsys, "--segment-level")
    assert code != 0 and "--segment-level needs --human" in err


def test_metric_scores_need_a_direction(capsys, tmp_path) -> None:
    """A table of scores says no direction (a tool's own output may: COMET's, MetricX's)."""
    rows = [f"{Path(h).stem},{i},0.5" for h in HYPS for i in range(1, 41)]
    (tmp_path / "c.csv").write_text("system,segment,score\n" + "\n".join(rows) + "\n")
    code, _, err = run(capsys, "--metric-scores", f"comet={tmp_path / 'c.csv'}")
    assert code != 0
    assert "the direction of metric 'comet' was not given" in err
    assert "give --metric-scores NAME:higher=FILE or NAME:lower=FILE." in err


def test_rows_of_systems_without_text_are_set_aside_with_a_note(capsys, tmp_path) -> None:
    human = tmp_path / "human.tsv"
    text = Path(HUMAN).read_text(encoding="utf-8")
    human.write_text(text + "ref-Z\t1\tadequacy\tjudge1\t5\n", encoding="utf-8")
    code, _, err = run(capsys, "--metrics", "bleu", "--human", str(human))
    assert code == 0
    assert "mteval: note:" in err and "ref-Z" in err and "set aside" in err


def sentence_chrf_file(path: Path) -> Path:
    """sacreBLEU's sentence chrF of every sample segment, as system,segment_id,score."""
    references = [read_lines(Path(r)) for r in REFS]
    chrf, lines = CHRF(), ["system,segment_id,score"]
    for hyp in HYPS:
        for i, segment in enumerate(read_lines(Path(hyp)), start=1):
            score = chrf.sentence_score(segment, [r[i - 1] for r in references]).score
            lines.append(f"{Path(hyp).stem},{i},{score!r}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_external_sentence_chrf_equals_builtin_chrf(capsys, tmp_path) -> None:
    scores = sentence_chrf_file(tmp_path / "chrf.csv")
    code, out, _ = run(
        capsys, "--metrics", "chrf", "--metric-scores", f"sacrechrf:higher={scores}",
        "--human", HUMAN, "--segment-level", "--format", "json",
    )  # fmt: skip
    assert code == 0
    report = strict_json(out)["segment_correlations"]
    ours, theirs = report["chrf"], report["sacrechrf"]
    assert ours.keys() == theirs.keys()
    for key, value in ours.items():
        if isinstance(value, float):
            assert theirs[key] == pytest.approx(value, abs=1e-9), key
        else:
            assert theirs[key] == value, key


def test_system_only_external_metric_is_undefined_not_fatal(capsys, tmp_path) -> None:
    scores = tmp_path / "comet_sys.csv"
    rows = [f"{Path(h).stem},{0.1 * i}" for i, h in enumerate(HYPS)]
    scores.write_text("system,score\n" + "\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = run(
        capsys, "--metrics", "bleu", "--metric-scores", f"comet:higher={scores}",
        "--human", HUMAN, "--segment-level", "--bootstrap", "20", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    report = strict_json(out)
    assert "system-level scores only" in report["undefined"]["comet"]  # left out of the bootstrap
    assert report["correlations"]["comet"]["pearson"] is not None
    assert report["correlations"]["comet"]["pearson_ci"] is None
    assert report["segment_correlations"]["comet"]["pearson_none"] is None
    assert report["correlations"]["comet"]["spa"] is None


def test_rank_metrics(capsys) -> None:
    code, out, _ = run(
        capsys, "--metrics", "bleu,chrf,ter", "--human", HUMAN, "--rank-metrics", "acc_eq_item",
        "--permutations", "100", "--bootstrap", "20", "--format", "json",
    )  # fmt: skip
    assert code == 0
    ranking = strict_json(out)["metric_ranking"]
    assert ranking[0]["rank"] == 1
    assert {entry["metric"] for entry in ranking} == {"bleu", "chrf", "ter"}
    assert all(len(entry["ci"]) == 2 for entry in ranking)
    code, _, err = run(capsys, "--human", HUMAN, "--rank-metrics", "pearson_all")
    assert code != 0 and "cannot rank metrics by 'pearson_all'" in err
