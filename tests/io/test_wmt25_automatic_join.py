"""WMT25's data/automatic_scores/SYSTEM.jsonl (as shipped, ../shared/data/wmt-rankings) read as
an external metric: the files hold no texts and no segment ids, only (pair, domain, document)
and one score per paragraph, so they join a test set by its document ids; the scores joined are
those AutoRank's reader (read_automatic_scores) reads, and every way the join cannot be made is
refused with the file and what to give."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.io.metric_scores import read_metric_files
from mteval_core.io.wmt25_automatic_scores import read_automatic_scores
from mteval_core.model.testset import TestSet, TextColumn
from tests.helpers import shared_dataset

SYSTEMS = ("CUNI-Transformer", "ONLINE-G")
PAIR = "cs-uk_UA"


@pytest.fixture(scope="module")
def score_files(tmp_path_factory) -> list[Path]:
    source = shared_dataset("wmt-rankings") / "wmt25-general-mt" / "data"
    folder = tmp_path_factory.mktemp("wmt25-automatic")
    with tarfile.open(source / "automatic_scores.tar.xz") as tar:
        members = [f"data/automatic_scores/{system}.jsonl" for system in SYSTEMS]
        tar.extractall(folder, members=[tar.getmember(m) for m in members], filter="data")
    return [folder / member for member in members]


def wmt25_test_set(documents: list[str]) -> TestSet:
    texts = tuple(f"paragraph {n}" for n in range(len(documents)))
    return TestSet(
        references=(TextColumn("ref", texts, "ref.txt"),),
        systems=tuple(TextColumn(system, texts, f"{system}.txt") for system in SYSTEMS),
        documents=tuple(documents),
    )


def read(files: list[Path], documents: list[str], name: str = "XCOMET-XL"):
    given = [(path.read_bytes(), str(path)) for path in files]
    return read_metric_files(given, wmt25_test_set(documents), name=name, higher_is_better=None)


def wmt25_ids(segments, reverse: bool = False) -> list[str]:
    ids = [f"{PAIR}_#_{s.domain}_#_{s.document}_#_{s.index}" for s in segments]
    return ids[::-1] if reverse else ids


def test_joined_by_document_ids_the_scores_are_autoranks(score_files) -> None:
    autorank = read_automatic_scores(score_files)[PAIR]
    assert autorank.systems == SYSTEMS
    documents = wmt25_ids(autorank.segments, reverse=True)  # joined by ids, not by position
    metric = read(score_files, documents)
    expected = autorank.scores["XCOMET-XL"][:, ::-1]
    for row, system in enumerate(SYSTEMS):
        statistics = metric.statistics_of(system)
        np.testing.assert_array_equal(statistics[:, 0], np.nan_to_num(expected[row]))
        assert metric.system_score(system) == pytest.approx(np.nanmean(expected[row]), 1e-12)
    assert len(documents) == 405  # cs-uk_UA's paragraphs
    assert metric.higher_is_better
    assert metric.signature.describe() == (
        "model:XCOMET-XL|package:wmt25-general-mt|direction:higher|scale:0-1"
    )
    assert any("joined by document ids" in note for note in metric.notes)


def test_ids_without_the_pair_are_refused_where_two_pairs_share_the_documents(
    score_files,
) -> None:
    segments = read_automatic_scores(score_files)[PAIR].segments
    with pytest.raises(InputError, match=r"in 2 of the file's language pairs \(cs-de_DE, cs-uk"):
        read(score_files, [s.document for s in segments])


def test_a_test_set_without_documents_or_of_other_paragraphs_is_refused(score_files) -> None:
    segments = read_automatic_scores(score_files)[PAIR].segments
    documents = wmt25_ids(segments)
    with pytest.raises(InputError, match="cannot be joined to a test set without document ids"):
        given = [(path.read_bytes(), str(path)) for path in score_files]
        test_set = TestSet(references=wmt25_test_set(documents).references)
        read_metric_files(given, test_set, name="XCOMET-XL", higher_is_better=None)
    unnumbered = [doc.rsplit("_#_", 1)[0] for doc in documents]
    second = next(n for n, s in enumerate(segments) if s.index == 1)
    with pytest.raises(InputError, match="paragraphs here and") as raised:
        # a document's paragraphs in order, one missing
        read(score_files, unnumbered[:second] + unnumbered[second + 1 :])
    assert raised.value.origin.endswith("CUNI-Transformer.jsonl") and raised.value.line
    with pytest.raises(InputError, match="the file has no metric 'COMET'") as raised:
        read(score_files, documents, name="COMET")
    assert "CometKiwi-XL, GEMBA-ESA-CMDA" in str(raised.value)


def test_numbered_paragraphs_join_a_part_of_a_document(score_files) -> None:
    autorank = read_automatic_scores(score_files)[PAIR]
    documents = wmt25_ids(autorank.segments)[1:40]  # no paragraph 0 of the first document
    metric = read(score_files, documents, name="metricx-24-hybrid-xl")  # any case
    expected = autorank.scores["MetricX-24-Hybrid-XL"][0, 1:40]
    np.testing.assert_array_equal(metric.statistics_of(SYSTEMS[0])[:, 0], expected)
    assert metric.signature.scale == "-25..0"
    assert any("documents are not in the test set" in note for note in metric.notes)


def test_mteval_score_joins_them_through_a_segment_id_maps_documents(
    score_files, tmp_path, capsys
) -> None:
    autorank = read_automatic_scores(score_files)[PAIR]
    segments = [s for s in autorank.segments if s.document == autorank.segments[0].document]
    n = len(segments)
    (tmp_path / "ref.txt").write_text("".join(f"r {i}\n" for i in range(n)), encoding="utf-8")
    hyps = []
    for system in SYSTEMS:
        hyps.append(tmp_path / f"{system}.txt")
        hyps[-1].write_text("".join(f"h {i}\n" for i in range(n)), encoding="utf-8")
    ids = tmp_path / "ids.tsv"
    doc = f"{PAIR}_#_{segments[0].domain}_#_{segments[0].document}"
    ids.write_text("line\tdoc\n" + "".join(f"{i}\t{doc}\n" for i in range(1, n + 1)))
    base = ["score", "--refs", str(tmp_path / "ref.txt"), "--hyps", *map(str, hyps)]
    base += ["--metrics", "chrf", "--format", "json"]
    externals = [f"--metric-scores=XCOMET-XL={path}" for path in score_files]
    assert main([*base, "--segment-ids", str(ids), *externals]) == 0
    out, _ = capsys.readouterr()
    result = json.loads(out)
    for row, system in enumerate(SYSTEMS):
        mean = np.nanmean(autorank.scores["XCOMET-XL"][row, :n])
        assert result["scores"][system]["XCOMET-XL"] == pytest.approx(mean, abs=1e-12)
    assert main([*base, *externals]) == 2
    _, err = capsys.readouterr()
    assert "cannot be joined to a test set without document ids" in err
    assert "WMT25's automatic scores hold no texts" in err
    assert "gives plain-text files their document ids (--segment-ids FILE)" in err
