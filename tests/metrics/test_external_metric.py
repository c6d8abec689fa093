"""External metric scores as a first-class metric, with sacreBLEU's sentence chrF as the oracle.

A file holding sacreBLEU's sentence chrF of every segment must give exactly the segment scores of
the built-in chrF; its system score is their mean (not corpus chrF, which sums statistics first).
Then everything that uses Scores -- exports, tables, bootstrap, correlations -- must take it.
"""

from __future__ import annotations

import csv
import io
import json
import warnings

import numpy as np
import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

from mteval_core.errors import InputError, Note
from mteval_core.io import read_directory, read_human, read_metric_scores
from mteval_core.metrics.external import ExternalMetric
from mteval_core.metrics.scoring import score_test_set
from mteval_core.model.testset import TestSet
from mteval_core.report.frames import scores_frame
from mteval_core.report.writers import to_csv, to_json, to_latex, to_text
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions, resample_counts
from mteval_core.stats.meta import evaluate
from tests.helpers import make_test_set, shared_dataset

# the notes of set-aside systems are asserted where they matter, not printed by every test
pytestmark = pytest.mark.filterwarnings("ignore::mteval_core.errors.Note")

REFERENCES = [
    "The cat sat on the mat.",
    "",
    "a b c",
    "Hello, world!",
    "(hi) there",
    "x",
    "Ein Satz mit Umlauten: äöü ß.",
]
SYSTEMS = {
    "copy": REFERENCES,
    "close": [
        "The cat sat on a mat.",
        "nothing",
        "c b a",
        "hello world",
        "hi there!",
        "",
        "Ein Satz mit Umlauten: aou ss.",
    ],
    "far": ["dog", "", "abc", "Hello", "(hi)", "y", "Satz"],
    "half": ["The cat", "", "a b", "Hello,", "there", "x", "Ein Satz"],
}


def sentence_chrf(test_set: TestSet) -> dict[str, list[float]]:
    """sacreBLEU's sentence chrF of every segment of every system: the oracle."""
    chrf = SacreCHRF()
    references = [reference.segments for reference in test_set.references]
    return {
        system: [
            chrf.sentence_score(hypothesis, [r[i] for r in references]).score
            for i, hypothesis in enumerate(test_set.system(system))
        ]
        for system in test_set.system_names
    }


def segment_file(scores: dict[str, list[float]], segment_ids: list[str] | None = None) -> bytes:
    """system, segment_id, score: every score written so that it reads back to the same float."""
    rows = ["system\tsegment_id\tscore"]
    for system, values in scores.items():
        ids = segment_ids or [str(k) for k in range(1, len(values) + 1)]
        rows += [f"{system}\t{i}\t{value!r}" for i, value in zip(ids, values, strict=True)]
    return ("\n".join(rows) + "\n").encode()


def mtme_segment_file(scores: dict[str, list[float]]) -> bytes:
    lines = [f"{system}\t{value!r}" for system, values in scores.items() for value in values]
    return ("\n".join(lines) + "\n").encode()


def assert_sentence_chrf(test_set: TestSet, metric: ExternalMetric) -> None:
    """Segment scores exactly sacreBLEU's and the built-in chrF's; system scores their mean."""
    oracle = sentence_chrf(test_set)
    scores = score_test_set(test_set, ["chrf"], Options(), external=[metric])
    corpus = scores.corpus()
    for system in test_set.system_names:
        ours = scores.segment_scores(system, metric.name)
        builtin = scores.segment_scores(system, "chrf")
        np.testing.assert_array_equal(ours, np.array(oracle[system]))
        np.testing.assert_array_equal(ours, builtin)
        assert corpus[system][metric.name] == pytest.approx(np.mean(builtin), abs=1e-12)
    # the mean of sentence scores is not corpus chrF, which sums the statistics first
    assert any(
        abs(corpus[s][metric.name] - corpus[s]["chrf"]) > 1e-3 for s in test_set.system_names
    )


def test_sentence_chrf_from_a_file_is_the_builtin_chrf_in_memory() -> None:
    test_set = make_test_set(REFERENCES, SYSTEMS)
    data = segment_file(sentence_chrf(test_set))
    metric = read_metric_scores(
        data, "chrf_sentences.tsv", test_set, name="sentence-chrf", higher_is_better=True
    )
    assert_sentence_chrf(test_set, metric)


def test_sentence_chrf_with_two_references() -> None:
    second = ["A cat was on the mat.", "nothing", "c b a", "hello world", "hi there", "", "Satz"]
    test_set = make_test_set([REFERENCES, second], SYSTEMS)
    metric = read_metric_scores(
        mtme_segment_file(sentence_chrf(test_set)),
        "sentence-chrf-refA.refB.seg.score",
        test_set,
        name="sentence-chrf",
        higher_is_better=True,
    )
    assert_sentence_chrf(test_set, metric)


@pytest.fixture(scope="module")
def ted() -> TestSet:
    """Three systems of the WMT21 TED MQM set (529 segments, talk documents), without judgments."""
    test_set = read_directory(shared_dataset("wmt21-ted-mqm-ende")).test_set.with_human(None)
    keep = {"Facebook-AI", "Online-W", "metricsystem2"}
    return test_set.with_systems([s for s in test_set.systems if s.name in keep])


def test_sentence_chrf_on_wmt21_ted_as_mt_metrics_eval_ships_it(ted: TestSet) -> None:
    """NAME-REF.seg.score, with the reference rated as a system as mt-metrics-eval does."""
    oracle = sentence_chrf(ted)
    with_reference = {"ref-A": [100.0] * ted.n_segments, **oracle}
    metric = read_metric_scores(
        mtme_segment_file(with_reference),
        "sentence-chrF-refA.seg.score",
        ted,
        name="sentence-chrF",
        higher_is_better=True,
    )
    assert metric.notes == (
        "sentence-chrF-refA.seg.score: the scores of system ref-A, which the test set does not "
        "have, were set aside",
    )
    assert_sentence_chrf(ted, metric)


def test_sentence_chrf_on_wmt21_ted_with_document_segment_ids(ted: TestSet) -> None:
    """The rows in reverse, each segment named as the n-th of its talk (docid::n)."""
    assert ted.documents is not None
    within: dict[str, int] = {}
    ids = []
    for document in ted.documents:
        within[document] = within.get(document, 0) + 1
        ids.append(f"{document}::{within[document]}")
    oracle = sentence_chrf(ted)
    lines = segment_file(oracle, ids).decode().splitlines()
    data = ("\n".join([lines[0], *reversed(lines[1:])]) + "\n").encode()
    metric = read_metric_scores(data, "chrf.tsv", ted, name="sentence-chrF", higher_is_better=True)
    assert_sentence_chrf(ted, metric)


# ---------------------------------------------------------------------- Scores and its consumers
def report(result: object) -> dict:
    """evaluate()'s result as the JSON the command line writes (a dict, or an object that makes
    one: the statistics code may return either)."""
    return result if isinstance(result, dict) else result.to_dict()  # type: ignore[attr-defined]


def small_test_set() -> TestSet:
    words = [f"w{i}" for i in range(10)]
    systems = {
        "a": words,
        "b": [*words[:5], *"xxxxx"],
        "c": [*words[:2], *"xxxxxxxx"],
        "d": list("xxxxxxxxxx"),
    }
    return make_test_set(words, systems)


SEGMENT_SCORES = {
    "a": [0.9, 0.8, 0.95, 0.7, 0.85, 0.9, 0.6, 0.75, 0.8, 0.9],
    "b": [0.6, 0.7, 0.5, 0.65, 0.4, 0.55, 0.6, 0.3, 0.5, 0.45],
    "c": [0.3, 0.2, 0.4, 0.35, 0.1, 0.25, 0.3, 0.2, 0.15, 0.3],
    "d": [0.1, 0.0, 0.05, 0.1, 0.2, 0.0, 0.1, 0.05, 0.0, 0.1],
}


def segment_metric(test_set: TestSet) -> ExternalMetric:
    data = segment_file({**SEGMENT_SCORES, "ref-B": [1.0] * 10})
    return read_metric_scores(data, "comet.tsv", test_set, name="comet", higher_is_better=True)


def system_metric(test_set: TestSet) -> ExternalMetric:
    data = b"system,score\na,4\nb,3\nc,2.5\nd,1\nHUMAN-B,5\n"
    return read_metric_scores(
        data, "metricx_sys.csv", test_set, name="metricx", higher_is_better=False
    )


def test_external_metrics_join_the_builtin_ones_in_scores() -> None:
    test_set = small_test_set()
    comet, metricx = segment_metric(test_set), system_metric(test_set)
    with pytest.warns(Note) as warned:
        scores = score_test_set(test_set, ["fmean"], Options(), external=[comet, metricx])
    assert scores.metric_names == ["fmean", "comet", "metricx"]
    assert scores.systems == ["a", "b", "c", "d"]
    corpus = scores.corpus()
    assert corpus["a"]["comet"] == pytest.approx(np.mean(SEGMENT_SCORES["a"]))
    assert corpus["c"]["metricx"] == 2.5
    assert corpus["d"]["fmean"] == 0.0
    assert scores.statistics["comet"]["b"].shape == (10, 2)
    assert scores.statistics["metricx"]["b"].shape == (10, 0)
    assert scores.without_segments() == {"metricx": metricx.why_no_segments}
    assert len(scores.notes) == 2 and all("set aside" in note for note in scores.notes)
    assert {str(w.message) for w in warned} == set(scores.notes)
    assert "|comet:external|metricx:external|" in scores.signature
    np.testing.assert_array_equal(scores.segment_scores("b", "comet"), SEGMENT_SCORES["b"])


def test_external_metrics_alone_need_no_builtin_metric() -> None:
    test_set = small_test_set()
    scores = score_test_set(test_set, [], Options(), external=[system_metric(test_set)])
    assert scores.corpus()["b"] == {"metricx": 3.0}
    assert scores.signature.startswith("nrefs:1|")


def test_segment_level_external_scores_in_every_export() -> None:
    test_set = small_test_set()
    scores = score_test_set(test_set, ["fmean"], Options(), external=[segment_metric(test_set)])
    exported = json.loads(to_json(scores, segments=True))
    assert exported["segments"]["c"]["comet"] == SEGMENT_SCORES["c"]
    assert exported["scores"]["a"]["comet"] == pytest.approx(np.mean(SEGMENT_SCORES["a"]))
    assert "comet" in to_csv(scores, segments=True).splitlines()[0]
    assert "comet" in to_text(scores, segments=True)
    assert "comet" in to_latex(scores)
    frame = scores_frame(scores)
    assert list(frame.columns) == ["Fmean", "comet"]
    documents = scores.documents(["d1"] * 5 + ["d2"] * 5)
    assert documents["a"]["comet"]["d2"] == pytest.approx(np.mean(SEGMENT_SCORES["a"][5:]))


def test_unscored_segments_and_documents_have_no_score_in_every_export() -> None:
    """Statistics (0, 0) are a segment the file does not score: null in JSON, an empty cell in
    CSV, "undefined" in text; a document without a scored segment alike. They printed as 0.0."""
    test_set = small_test_set()
    rows = {system: scores[:4] for system, scores in SEGMENT_SCORES.items()}  # segments 1-4
    comet = read_metric_scores(
        segment_file(rows), "comet.tsv", test_set, name="comet", higher_is_better=True
    )
    assert "an unscored segment has no score" in comet.notes[0]
    scores = score_test_set(test_set, ["fmean"], Options(), external=[comet])
    assert np.isnan(scores.segment_scores("a", "comet")[4:]).all()
    assert scores.corpus()["a"]["comet"] == pytest.approx(np.mean(SEGMENT_SCORES["a"][:4]))
    exported = json.loads(to_json(scores, segments=True, documents=["d1"] * 5 + ["d2"] * 5))
    assert exported["segments"]["a"]["comet"] == [*SEGMENT_SCORES["a"][:4], *[None] * 6]
    assert exported["segments"]["a"]["fmean"][4:] == [1.0] * 6
    assert exported["documents"]["a"]["comet"] == {
        "d1": pytest.approx(np.mean(SEGMENT_SCORES["a"][:4])),
        "d2": None,
    }
    segment_rows = list(csv.DictReader(io.StringIO(to_csv(scores, segments=True))))
    assert [row["comet"] for row in segment_rows[:6]] == ["0.9", "0.8", "0.95", "0.7", "", ""]
    document_rows = list(csv.DictReader(io.StringIO(to_csv(scores, documents=["d"] * 10))))
    assert float(document_rows[0]["comet"]) == pytest.approx(np.mean(SEGMENT_SCORES["a"][:4]))
    assert to_csv(scores, documents=["d1"] * 5 + ["d2"] * 5).splitlines()[2].split(",")[3] == ""
    text = to_text(scores, segments=True).splitlines()
    assert text[text.index("segments of a:") + 6].split() == ["5", "1.0000", "undefined"]


def test_segment_level_external_scores_get_bootstrap_and_correlations() -> None:
    test_set = small_test_set()
    comet = segment_metric(test_set)
    scores = score_test_set(test_set, ["fmean"], Options(), external=[comet])
    rows = "".join(
        f"{system},{i},MQM,{score}\n"
        for system, score in zip("abcd", (4, 3, 2, 1))
        for i in range(1, 11)
    )
    judged = test_set.with_human(
        read_human(("system,segment,criterion,score\n" + rows).encode(), "h.csv")
    )
    options = BootstrapOptions(n_resamples=50, seed=7)
    result = report(evaluate(judged, scores, bootstrap=options))
    assert result["correlations"]["comet"]["pearson"] == pytest.approx(
        np.corrcoef([np.mean(SEGMENT_SCORES[s]) for s in "abcd"], [4, 3, 2, 1])[0, 1]
    )
    # a resample's score is the mean over the segments it drew, as the statistics promise
    counts = resample_counts(10, 50, np.random.default_rng(7))
    resampled = counts @ np.array(SEGMENT_SCORES["b"]) / counts.sum(axis=1)
    low, high = np.percentile(resampled, [2.5, 97.5])
    assert result["ci"]["b"]["comet"] == pytest.approx([low, high])
    assert any(pair["metric"] == "comet" for pair in result["pairs"])


def test_system_level_external_scores_correlate_but_refuse_what_needs_segments() -> None:
    test_set = small_test_set()
    metricx = system_metric(test_set)
    scores = score_test_set(test_set, ["fmean"], Options(), external=[metricx])
    human = b"system,score\na,90\nb,80\nc,70\nd,60\n"
    judged = test_set.with_human(read_human(human, "da_sys.csv"))
    result = report(evaluate(judged, scores))
    # metricx is lower-is-better: correlations use it negated (higher is better), as -TER
    assert result["correlations"]["metricx"]["pearson"] == pytest.approx(
        np.corrcoef([-4, -3, -2.5, -1], [90, 80, 70, 60])[0, 1]
    )
    exported = json.loads(to_json(scores))
    assert exported["scores"]["a"] == {"fmean": 1.0, "metricx": 4.0}
    assert "metricx" in to_csv(scores).splitlines()[0]
    reason = scores.without_segments()["metricx"]
    # Changed by issue #11 (item 8): the bootstrap leaves the metric out, with the reason, and
    # its correlations keep their values, rather than refusing the run (the intervals of
    # correlations with segment judgments: tests/cli/test_segment_level_cli.py).
    resampled = report(evaluate(judged, scores, bootstrap=BootstrapOptions(n_resamples=5)))
    assert resampled["undefined"] == {"metricx": reason}
    assert "metricx" not in resampled["ci"]["a"] and "fmean" in resampled["ci"]["a"]
    assert resampled["correlations"]["metricx"]["pearson"] is not None
    for needs_segments in (
        lambda: scores.segments(),
        lambda: scores.segment_scores("a", "metricx"),
        lambda: scores.documents(["d"] * 10),
        lambda: to_json(scores, segments=True),
    ):
        with pytest.raises(InputError) as caught:
            needs_segments()
        assert reason in caught.value.problem


def test_external_names_must_be_unique() -> None:
    test_set = small_test_set()
    comet = segment_metric(test_set)
    with pytest.raises(InputError, match="two metrics are named 'comet'"):
        score_test_set(test_set, [], Options(), external=[comet, comet])


def test_external_scores_must_fit_the_test_set() -> None:
    test_set = small_test_set()
    comet = segment_metric(test_set)
    texts = {name: ["x"] * 10 for name in [*SEGMENT_SCORES, "e"]}  # the systems' names matter
    more = make_test_set([f"w{i}" for i in range(10)], texts)
    with pytest.raises(InputError, match="metric 'comet' has no scores for system e"):
        score_test_set(more, [], Options(), external=[comet])
    shorter = make_test_set(["w1", "w2"], {"a": ["w1", "w2"]})
    with pytest.raises(InputError, match="are for 10 segments, but the test set has 2"):
        score_test_set(shorter, [], Options(), external=[comet])
    fewer = test_set.with_systems(test_set.systems[:2])  # a subset of the scored systems is fine
    scores = score_test_set(fewer, [], Options(), external=[comet])
    assert list(scores.statistics["comet"]) == ["a", "b"]


def test_the_statistics_cannot_be_changed() -> None:
    test_set = small_test_set()
    comet = segment_metric(test_set)
    with pytest.raises(ValueError, match="read-only"):
        comet.statistics_of("a")[0, 0] = 5.0


def test_constructor_checks() -> None:
    good = {"higher_is_better": True, "origin": "x", "n_segments": 2}
    with pytest.raises(ValueError, match="system scores or both"):
        ExternalMetric("m", **good)
    with pytest.raises(ValueError, match="name other systems"):
        ExternalMetric("m", statistics={"a": np.ones((2, 2))}, system_scores={"b": 1.0}, **good)
    with pytest.raises(ValueError, match="shape"):
        ExternalMetric("m", statistics={"a": np.ones((3, 2))}, **good)
    with pytest.raises(ValueError, match="finite"):
        ExternalMetric("m", statistics={"a": np.array([[np.nan, 1], [0, 1]])}, **good)
    with pytest.raises(ValueError, match="no scored segment"):
        ExternalMetric("m", statistics={"a": np.zeros((2, 2))}, **good)
    with pytest.raises(ValueError, match="not a finite number"):
        ExternalMetric("m", system_scores={"a": float("inf")}, **good)
    with pytest.raises(ValueError, match="True or False"):
        ExternalMetric("m", system_scores={"a": 1.0}, **{**good, "higher_is_better": None})
    with pytest.raises(InputError, match="built-in"):
        ExternalMetric("TER", system_scores={"a": 1.0}, **good)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        metric = ExternalMetric("m", system_scores={"a": 1.0}, label="M (ours)", **good)
    assert (metric.label, metric.system_score("a")) == ("M (ours)", 1.0)
