"""mt-metrics-eval folders (issue 22, part 4): WMT21 news en-de rebuilt in its layout must give
the numbers our own readers give on the same files, and every malformed folder one message that
names the file."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.mtme import read_mtme, standard_reference
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.stats.significance import BootstrapOptions, bootstrap_scores
from tests.helpers import (
    N_DOC,
    WMT23_ZHEN_SYSTEMS,
    mtme_from_shared,
    mtme_wmt23_zhen,
    shared_dataset,
    tiny,
    write_metric,
)


@pytest.fixture(scope="module")
def wmt21(tmp_path_factory) -> Path:
    return mtme_from_shared(tmp_path_factory.mktemp("mtme"))


def test_reads_the_shared_set_as_our_folder_reader_does(wmt21) -> None:
    data = shared_dataset("wmt21-newstest2021-ende")
    read = read_mtme(wmt21, "wmt21.news", "en-de")
    test_set = read.test_set
    assert read.reference == "refC"  # mt-metrics-eval's standard reference for this pair
    assert test_set.reference_names == ["refC"]
    assert test_set.system_names == sorted(p.stem for p in (data / "sys").iterdir())
    assert read.human_outputs == ("refA", "refC", "refD")
    assert test_set.references[0].segments == tuple(
        (data / "ref/ref-C.de").read_text(encoding="utf-8").splitlines()
    )
    assert test_set.documents is not None and test_set.documents[N_DOC] == "doc1"
    assert read.criterion == "mqm"
    rows = test_set.human.segment_rows
    ours = rows[rows["system"].isin(test_set.system_names)]
    assert len(ours) == 8 * 527  # 8 systems with text rated on 527 segments; None rows dropped
    assert any("set aside" in note for note in read.notes)


def test_bleu_per_system_equals_our_plain_reader(wmt21) -> None:
    from mteval_core.cli.score_inputs import load_command_line_test_set

    data = shared_dataset("wmt21-newstest2021-ende")
    ours = load_command_line_test_set(
        [str(data / "ref/ref-C.de")], [str(p) for p in sorted((data / "sys").iterdir())]
    )
    theirs = read_mtme(wmt21, "wmt21.news", "en-de").test_set
    a = score_test_set(ours, ["bleu"], Options()).corpus()
    b = score_test_set(theirs, ["bleu"], Options()).corpus()
    assert a == b
    assert a["Online-W"]["bleu"] > 20


def test_metric_files_of_the_chosen_reference_only(wmt21, tmp_path) -> None:
    test_set = read_mtme(wmt21, "wmt21.news", "en-de").test_set
    chrf = score_test_set(test_set, ["chrf"], Options()).segments()
    outputs = {s: chrf[s]["chrf"] for s in test_set.system_names}
    write_metric(wmt21, "chrF-refC", {**outputs, "refA": outputs["UF"]})
    write_metric(wmt21, "chrF-refA", outputs)
    try:
        read = read_mtme(wmt21, "wmt21.news", "en-de")
        assert [m.name for m in read.external] == ["chrF-refC"]
        metric = read.external[0]
        for system in test_set.system_names:
            np.testing.assert_array_equal(metric.statistics_of(system)[:, 0], outputs[system])
        assert any("other references" in note for note in read.notes)
        assert any("refA" in note and "set aside" in note for note in read.notes)
        other = read_mtme(wmt21, "wmt21.news", "en-de", "refA")
        assert [m.name for m in other.external] == ["chrF-refA"]
    finally:
        for name in ("chrF-refC", "chrF-refA"):
            (wmt21 / f"wmt21.news/metric-scores/en-de/{name}.seg.score").unlink()


def test_human_outputs_as_systems_on_request(wmt21) -> None:
    read = read_mtme(wmt21, "wmt21.news", "en-de", human_outputs=True)
    assert "refA" in read.test_set.system_names and "refD" in read.test_set.system_names
    assert "refC" not in read.test_set.system_names  # the reference itself is never a system


def test_none_scores_are_unrated_and_references_kept_apart(tmp_path) -> None:
    read = read_mtme(tiny(tmp_path), "wmt22", "de-en")
    assert read.test_set.system_names == ["s1", "s2"]
    assert read.reference == "refA"
    rows = read.test_set.human.segment_rows
    assert sorted(zip(rows["system"], rows["segment"], rows["score"])) == [
        ("s1", 1, -1.0),
        ("s1", 3, 0.0),
        ("s2", 1, -5.0),
        ("s2", 2, -2.0),
    ]
    assert read.test_set.documents == ("d1", "d1", "d2")
    assert any("refB" in note and "not systems" in note for note in read.notes)


def test_test_set_folder_itself_and_a_chosen_reference(tmp_path) -> None:
    tiny(tmp_path)
    read = read_mtme(tmp_path / "wmt22", "wmt22", "de-en", "refB")
    assert read.test_set.reference_names == ["refB"]
    assert read.test_set.system_names == ["s1", "s2"]  # refB is the reference, not a system


@pytest.mark.parametrize(
    ("change", "message", "where"),
    [
        (lambda r: None, "no test set folder 'wmt99'", ""),
        (lambda r: (r / "wmt22/sources/de-en.txt").unlink(), "no source file", "de-en.txt"),
        (
            lambda r: (r / "wmt22/system-outputs/de-en/s2.txt").write_text("x\n"),
            "has 1 segments",
            "s2.txt",
        ),
        (
            lambda r: (r / "wmt22/documents/de-en.docs").write_text("news d1\n"),
            "has 1 lines",
            "de-en.docs",
        ),
        (
            lambda r: (r / "wmt22/human-scores/de-en.mqm.seg.score").write_text("s1\t1\ns1\t2\n"),
            "has 2 scores, but the test set has 3 segments",
            "de-en.mqm.seg.score",
        ),
    ],
)
def test_errors_name_the_file(tmp_path, change, message, where) -> None:
    tiny(tmp_path)
    change(tmp_path)
    test_set = "wmt99" if "wmt99" in message else "wmt22"
    with pytest.raises(InputError) as caught:
        read_mtme(tmp_path, test_set, "de-en")
    assert message in str(caught.value)
    assert where in (caught.value.origin or "")


def test_missing_folder_and_reference(tmp_path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        read_mtme(tmp_path / "nowhere", "wmt22", "de-en")
    tiny(tmp_path)
    with pytest.raises(InputError, match="no reference 'refZ'"):
        read_mtme(tmp_path, "wmt22", "de-en", "refZ")
    with pytest.raises(InputError, match="Language pairs here: de-en"):
        read_mtme(tmp_path, "wmt22", "en-de")


def test_standard_references() -> None:
    assert standard_reference("wmt21.news", "en-de", ["refA", "refC", "refD"]) == "refC"
    assert standard_reference("wmt21.news", "en-ru", ["refA", "refB"]) == "refA"
    assert standard_reference("wmt20", "de-en", ["ref", "refb"]) == "ref"
    assert standard_reference("mine", "x-y", ["r2", "r1"]) == "r1"


@pytest.mark.parametrize(
    "folder", ["system-outputs/de-en", "references", "human-scores", "metric-scores/de-en"]
)
def test_a_file_name_that_is_not_utf8_is_refused_by_name(tmp_path, folder) -> None:
    """issue 42: a system file named in Latin-1 ended in an internal error (UnicodeEncodeError)."""
    tiny(tmp_path)
    (tmp_path / "wmt22" / folder / os.fsdecode(b"caf\xe9.txt")).write_text("x\nq\nq\n")
    with pytest.raises(InputError) as caught:
        read_mtme(tmp_path, "wmt22", "de-en")
    assert caught.value.origin == str(tmp_path / "wmt22" / folder)
    assert "the file name b'caf\\xe9.txt' is not UTF-8 (byte 0xE9" in caught.value.problem


# ------------------------------------------- issue 42: system scores from METRIC-REF.sys.score
def score_file(path: Path) -> dict[str, list[float]]:
    """system -> its numbers in an mt-metrics-eval score file, in order ('None' left out)."""
    scores: dict[str, list[float]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        system, value = line.split("\t")
        if value != "None":
            scores.setdefault(system, []).append(float(value))
    return scores


@pytest.fixture(scope="module")
def wmt23(tmp_path_factory) -> Path:
    return mtme_wmt23_zhen(tmp_path_factory.mktemp("wmt23"))


def test_system_scores_come_from_the_sys_file_on_wmt23_zhen(wmt23) -> None:
    """The folder ships BLEU-refA and chrF-refA at both levels (the organisers' official corpus
    scores, and sentence scores): the system scores were the means of the sentence scores."""
    read = read_mtme(wmt23, "wmt23", "zh-en")
    metrics = {metric.name: metric for metric in read.external}
    assert sorted(metrics) == ["BLEU-refA", "chrF-refA"]
    folder = wmt23 / "wmt23/metric-scores/zh-en"
    for name, metric in metrics.items():
        official = score_file(folder / f"{name}.sys.score")
        sentences = score_file(folder / f"{name}.seg.score")
        assert len(official) == WMT23_ZHEN_SYSTEMS
        for system in read.test_set.system_names:
            assert metric.system_score(system) == official[system][0]
            np.testing.assert_array_equal(metric.statistics_of(system)[:, 0], sentences[system])
        assert metric.system_origin == str(folder / f"{name}.sys.score")
        assert "not the means of its segment scores" in (metric.why_not_resampled or "")
    note = next(note for note in read.notes if ".sys.score files" in note)
    assert note == (
        "system scores of BLEU-refA, chrF-refA from their .sys.score files and segment scores "
        "from their .seg.score files, as mt-metrics-eval reads them; the system scores of "
        "BLEU-refA, chrF-refA are not the means of their segment scores (corpus scores beside "
        "sentence scores), so their bootstrap intervals and paired tests are undefined"
    )


# mt-metrics-eval 68a481a's GetCorrelations(evs, 'sys', {'refA'}, set(), include_human=False,
# include_outliers=True, gold_name='mqm') on the folder mtme_wmt23_zhen builds, run beside the
# tests (its code is not ours): Pearson, Spearman, Kendall over the 10 rated systems
MTME_SYSTEM_CORRELATIONS = {
    "BLEU-refA": (0.7807337618386611, 0.7696969696969697, 0.6888888888888888),
    "chrF-refA": (0.8454483112239759, 0.7939393939393938, 0.6444444444444444),
}


def test_system_level_correlations_are_mt_metrics_evals_on_wmt23_zhen(wmt23) -> None:
    """All 6 differed (by up to 0.089) while the system scores were the sentence means."""
    from scipy import stats

    human = {
        s: v[0] for s, v in score_file(wmt23 / "wmt23/human-scores/zh-en.mqm.sys.score").items()
    }
    systems = sorted(human)
    assert len(systems) == 10
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(
            [
                "correlate",
                "--mtme",
                str(wmt23),
                "--test-set",
                "wmt23",
                "--lp",
                "zh-en",
                "--level",
                "system",
                "--format",
                "json",
            ]
        )
    assert code == 0
    ours = json.loads(out.getvalue())
    folder = wmt23 / "wmt23/metric-scores/zh-en"
    for name, theirs in MTME_SYSTEM_CORRELATIONS.items():
        official = score_file(folder / f"{name}.sys.score")
        x, y = [official[s][0] for s in systems], [human[s] for s in systems]
        expected = (stats.pearsonr(x, y)[0], stats.spearmanr(x, y)[0], stats.kendalltau(x, y)[0])
        got = (ours[name]["pearson"], ours[name]["spearman"], ours[name]["kendall"])
        assert got == pytest.approx(expected, abs=1e-12)
        assert got == pytest.approx(theirs, abs=1e-12)
        means = score_file(folder / f"{name}.seg.score")
        before = stats.kendalltau([np.mean(means[s]) for s in systems], y)[0]
        assert abs(before - got[2]) > 0.08  # the finding: 0.089 for both metrics


def test_a_metric_whose_system_scores_are_not_its_segment_means_is_not_resampled(wmt23) -> None:
    read = read_mtme(wmt23, "wmt23", "zh-en")
    scores = score_test_set(read.test_set, ["chrf"], Options(), external=read.external)
    assert set(scores.not_resampled()) == {"BLEU-refA", "chrF-refA"}
    assert scores.without_segments() == {}  # their segment scores stay defined
    resampled = bootstrap_scores(scores, BootstrapOptions(n_resamples=20, seed=1))
    assert set(resampled.undefined) == {"BLEU-refA", "chrF-refA"}
    assert set(resampled.ci[read.test_set.system_names[0]]) == {"chrf"}
    assert "resampling its segments cannot give their intervals" in resampled.undefined["BLEU-refA"]


def test_system_scores_that_are_the_segment_means_are_resampled(tmp_path) -> None:
    """COMET-style files: the .sys.score is the mean of the .seg.score (to the digits given)."""
    tiny(tmp_path)
    folder = tmp_path / "wmt22/metric-scores/de-en"
    (folder / "COMET-refA.seg.score").write_text(
        "s1\t0.5\ns1\t0.25\ns1\t0.75\ns2\t0\ns2\t0.5\ns2\t0.1\n"
    )
    (folder / "COMET-refA.sys.score").write_text("s1\t0.5\ns2\t0.2\nrefB\t0.9\n")
    read = read_mtme(tmp_path, "wmt22", "de-en")
    (metric,) = read.external
    assert metric.system_score("s2") == 0.2 and metric.why_not_resampled is None
    (note,) = [note for note in read.notes if note.startswith("system scores of COMET-refA")]
    assert note.endswith("as mt-metrics-eval reads them")  # resampled: nothing is undefined
    (folder / "COMET-refA.sys.score").write_text("s1\t0.5\n")  # s2 missing: segments only
    read = read_mtme(tmp_path, "wmt22", "de-en")
    (metric,) = read.external
    assert metric.system_origin is None and metric.system_score("s2") == pytest.approx(0.2)
    assert any("COMET-refA.sys.score (no scores for s2)" in note for note in read.notes)


def test_metric_lines_are_split_as_the_reader_splits_them(tmp_path) -> None:
    """issue 42: the systems of a metric file were found by splitting at any whitespace while
    the reader splits at tabs, so a system named with a space was 'not scored' by a file that
    scores it, and the note pointed at the wrong thing."""
    tiny(tmp_path)
    outputs = tmp_path / "wmt22/system-outputs/de-en"
    (outputs / "s2.txt").rename(outputs / "Online A.txt")
    metric = tmp_path / "wmt22/metric-scores/de-en/BLEU-refA.seg.score"
    metric.write_text("s1\t1\ns1\t2\ns1\t3\nOnline A\t4\nOnline A\t5\nOnline A\t6\n")
    read = read_mtme(tmp_path, "wmt22", "de-en")
    (bleu,) = read.external
    assert bleu.system_score("Online A") == 5.0
    assert not any("do not score every system" in note for note in read.notes)


@pytest.mark.parametrize(
    ("text", "problem", "line"),
    [
        ("s1 1 2\ns1\t1\n", "expected two values, a system and a score, but found 3", 1),
        ("s1\t1\ns1\t1\ns2\t1\ns2\t1\ns2\t1\n", "system 's1' has 2 scores, but the test", 2),
        ("s1\t1\ns2\t1\ns2\t1\ns2\t1\n", "system 's1' has 1 score, but the test set has 3", 1),
        ("system score\ns1\t1\n", "neither a header with a 'system' column nor a line of", 1),
    ],
    ids=["three-values", "short-block", "one-score", "header"],
)
def test_a_malformed_metric_file_says_how_lines_are_read(tmp_path, text, problem, line) -> None:
    tiny(tmp_path)
    (tmp_path / "wmt22/metric-scores/de-en/BLEU-refA.seg.score").write_text(text)
    with pytest.raises(InputError) as caught:
        read_mtme(tmp_path, "wmt22", "de-en")
    assert problem in caught.value.problem and caught.value.line == line
    assert caught.value.origin.endswith("wmt22/metric-scores/de-en/BLEU-refA.seg.score")
    assert "the system, a tab and the score (or a space, in a line without a tab)" in (
        caught.value.hint or ""
    )
