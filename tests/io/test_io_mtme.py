"""mt-metrics-eval folders (issue 22, part 4): WMT21 news en-de rebuilt in its layout must give
the numbers our own readers give on the same files, and every malformed folder one message that
names the file."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.io.mtme import read_mtme, standard_reference
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import N_DOC, mtme_from_shared, shared_dataset, tiny, write_metric


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
    from mteval_core.cli.score import load_command_line_test_set

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
