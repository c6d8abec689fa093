"""`mteval score --mtme` and `mteval correlate --mtme` (issue 22, part 4): on WMT21 news en-de
rebuilt in mt-metrics-eval's layout they print the numbers the same data gives in our formats."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mteval_core.cli import main
from mteval_core.io.mtme import read_mtme
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import mtme_from_shared, shared_dataset, tiny, write_metric

MTME = ["--test-set", "wmt21.news", "--lp", "en-de"]


@pytest.fixture(scope="module")
def wmt21(tmp_path_factory) -> Path:
    root = mtme_from_shared(tmp_path_factory.mktemp("mtme_cli"))
    test_set = read_mtme(root, "wmt21.news", "en-de").test_set
    f1 = score_test_set(test_set, ["f1"], Options()).segments()
    write_metric(root, "F1-refC", {s: f1[s]["f1"] for s in test_set.system_names})
    return root


def run(capsys, *argv: str) -> tuple[int, dict, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else {}), err


def test_score_reproduces_our_own_readers(capsys, wmt21) -> None:
    data = shared_dataset("wmt21-newstest2021-ende")
    common = ["--metrics", "bleu,f1", "--format", "json", "--segment-level"]
    code, theirs, err = run(capsys, "score", "--mtme", str(wmt21), *MTME, *common)
    assert code == 0, err
    assert "reference refC" in err
    hyps = [str(p) for p in sorted((data / "sys").iterdir())]
    human = str(data / "human/mqm_seg.tsv")
    refs = str(data / "ref/ref-C.de")
    code, ours, err = run(
        capsys, "score", "--refs", refs, "--hyps", *hyps, "--human", human, *common
    )
    assert code == 0, err
    assert theirs["scores"] == {
        s: {**v, **{"F1-refC": theirs["scores"][s]["F1-refC"]}} for s, v in ours["scores"].items()
    }
    for metric in ("bleu", "f1"):
        assert theirs["correlations"][metric] == ours["correlations"][metric]
        assert theirs["segment_correlations"][metric] == ours["segment_correlations"][metric]
    assert theirs["human"]["scores"] == ours["human"]["scores"]
    # the metric file of F1's sentence scores is F1 itself at segment level
    assert theirs["segment_correlations"]["F1-refC"]["pearson_none"] == pytest.approx(
        ours["segment_correlations"]["f1"]["pearson_none"]
    )


def test_correlate_segment_and_system_level(capsys, wmt21) -> None:
    code, seg, err = run(capsys, "correlate", "--mtme", str(wmt21), *MTME, "--format", "json")
    assert code == 0, err
    assert seg["segment_level"]["criterion"] == "mqm" and seg["segment_level"]["n_cells"] == 4216
    code, ours, _ = run(
        capsys,
        "score",
        "--mtme",
        str(wmt21),
        *MTME,
        "--metrics",
        "f1",
        "--format",
        "json",
        "--segment-level",
    )
    assert seg["segment_correlations"]["F1-refC"] == ours["segment_correlations"]["F1-refC"]
    code, system, err = run(
        capsys, "correlate", "--mtme", str(wmt21), *MTME, "--level", "system", "--format", "json"
    )
    assert code == 0, err
    assert system["F1-refC"]["n"] == 8
    assert system["F1-refC"]["pearson"] == pytest.approx(ours["correlations"]["F1-refC"]["pearson"])


def test_documents_from_the_docs_file(capsys, tmp_path) -> None:
    tiny(tmp_path)
    code, out, err = run(
        capsys,
        "score",
        "--mtme",
        str(tmp_path),
        "--test-set",
        "wmt22",
        "--lp",
        "de-en",
        "--metrics",
        "bleu",
        "--documents",
        "--format",
        "json",
    )
    assert code == 0, err
    assert set(out["documents"]["s1"]["bleu"]) == {"d1", "d2"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--mtme", "X"], "--mtme needs --test-set and --lp"),
        (["--lp", "de-en", "--refs", "r", "--hyps", "h"], "--lp works with --mtme"),
        (["--mtme", "X", "--test-set", "t", "--lp", "l", "--refs", "r"], "cannot be given"),
        (["--mtme", "nowhere", "--test-set", "t", "--lp", "l"], "does not exist"),
    ],
)
def test_usage_errors(capsys, argv, message) -> None:
    code = main(["score", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err


def test_a_system_file_name_that_is_not_utf8_is_one_clear_message(capsys, tmp_path) -> None:
    """issue 42: it was "mteval: internal error: UnicodeEncodeError ..."."""
    tiny(tmp_path)
    (tmp_path / "wmt22/system-outputs/de-en" / os.fsdecode(b"caf\xe9.txt")).write_text("x\n")
    code = main(["score", "--mtme", str(tmp_path), "--test-set", "wmt22", "--lp", "de-en"])
    err = capsys.readouterr().err
    assert code == 2 and "internal error" not in err
    assert f"mteval: error: {tmp_path}/wmt22/system-outputs/de-en: the file name" in err
    assert "b'caf\\xe9.txt' is not UTF-8" in err
