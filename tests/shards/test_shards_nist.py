"""NIST on shards: a first pass counts the reference n-grams of every shard, the driver adds them
up, and each shard is scored with the whole corpus's counts of its n-grams (``nist_counts``).

Each shard's NIST weights are then the in-memory path's; a segment's information sum adds the
same weights in the order of the shard's own n-gram ids, and corpus scores of several shards add
the segments in another order, so both may differ from the in-memory numbers in the last bits
(relative 1e-14 here); one shard gives the in-memory scores to the bit."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.shards.cluster import Cluster, score_shards
from mteval_core.shards.nist_counts import CountTask, count_shard, ngram_keys
from mteval_core.shards.partition import PartitionTask
from mteval_core.shards.reading import find_shards
from mteval_core.shards.results import corpus_scores
from mteval_core.text.tokenizers import tokenize
from tests.helpers import make_test_set
from tests.metrics.test_nist import mteval_nist
from tests.shards.conftest import sliced

METRICS = ("nist", "bleu")


def sharded(folder) -> dict[str, dict[str, float]]:
    options = Options()
    tasks = [PartitionTask(str(p), METRICS, options) for p in find_shards([str(folder)])]
    corpus = score_shards(tasks, Cluster(workers=0))
    return corpus_scores(corpus.sums, METRICS, options, corpus.n_references).corpus()


def assert_close(got: dict, expected: dict) -> None:
    assert got.keys() == expected.keys()
    for system, scores in expected.items():
        assert got[system]["bleu"] == scores["bleu"]
        assert got[system]["nist"] == pytest.approx(scores["nist"], rel=1e-14, abs=0), system


@pytest.mark.parametrize(
    ("form", "n_shards", "how"),
    [
        ("tsv", 3, "stride"),  # every segment in every shard: counted once, in the first
        ("csv", 4, "blocks"),  # mostly one system per shard, segments shared by shards
        ("jsonl", 2, "segments"),
        ("parquet", 3, "segments"),
    ],
)
def test_nist_equals_the_in_memory_scores_on_sample_data(sample, write_shards, form, n_shards, how):
    """Two references, every sharding; one shard gives the in-memory sums to the bit."""
    expected = score_test_set(sample, list(METRICS), Options()).corpus()
    assert_close(sharded(write_shards(sample, form, n_shards, how)), expected)
    assert sharded(write_shards(sample, "tsv", 1)) == expected


def test_per_segment_nist_equals_the_in_memory_segment_scores(sample, write_shards, tmp_path):
    """The weights of every shard are the whole corpus's: each segment's NIST (as the
    --segment-scores-out files hold it) is the in-memory segment score, to the last bits."""
    import pyarrow.parquet

    folder = write_shards(sample, "tsv", 3, "stride")
    out = tmp_path / "scores"
    args = ["score", "--shards", str(folder), "--workers", "0", "--metrics", "nist"]
    assert main([*args, "--segment-scores-out", str(out)]) == 0
    in_memory = score_test_set(sample, ["nist"], Options())
    found = 0
    for path in sorted(out.iterdir()):
        table = pyarrow.parquet.read_table(path).to_pydict()
        for system, segment, score in zip(table["system"], table["segment"], table["nist"]):
            expected = in_memory.segment_scores(system, "nist")[segment - 1]
            assert score == pytest.approx(expected, rel=1e-14, abs=1e-14)
            found += 1
    assert found == sample.n_segments * len(sample.systems)


def test_wmt17_nist_on_shards_equals_in_memory_and_mteval_v13a(wmt17, write_shards):
    """Real news text: 600 segments of 3 systems in 5 Parquet shards, against the in-memory
    path and an independent port of mteval-v13a's loops (tests/metrics/test_nist.py)."""
    test_set = sliced(wmt17, 600, 3)
    options = Options()
    expected = score_test_set(test_set, list(METRICS), options).corpus()
    for how in ("segments", "stride"):
        got = sharded(write_shards(test_set, "parquet", 5, how))
        assert_close(got, expected)
    references = [tokenize(test_set.references[0].segments, options)]
    for system in test_set.systems:
        v13a = mteval_nist(references, tokenize(system.segments, options))
        assert got[system.name]["nist"] == pytest.approx(v13a, abs=1e-9)


def test_the_command_line_scores_nist_on_shards_by_default(sample, write_shards, capsys):
    """NIST is one of `mteval score`'s default metrics; on shards it is no longer left out."""
    folder = write_shards(sample, "parquet", 2, "segments")
    assert main(["score", "--shards", str(folder), "--workers", "0", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    scores = json.loads(out)["scores"]
    expected = score_test_set(sample, ["nist"], Options()).corpus()
    for system, by_metric in expected.items():
        assert scores[system]["nist"] == pytest.approx(by_metric["nist"], rel=1e-14)
    assert "left out" not in err
    assert "nist: statistics that are not whole numbers" in err  # float sums, said so


def test_ngram_keys_do_not_depend_on_the_vocabulary_order():
    """Two shards number their tokens differently; the same n-gram has the same key."""
    first = make_test_set([["a b c d", "x y"]], {"s": ["a", "b"]})
    second = make_test_set([["x y z", "c d a b c d"]], {"s": ["a", "b"]})
    keys = [ngram_keys(EncodedCorpus(t, Options())) for t in (first, second)]
    for n in range(5):
        common = np.intersect1d(keys[0][n], keys[1][n])
        expected = {1: 6, 2: 4, 3: 2, 4: 1, 5: 0}[n + 1]  # a b c d x y; ab bc cd xy; ...
        assert len(common) == expected, n + 1


def test_a_shard_whose_segments_are_all_counted_before_counts_nothing(sample, write_shards):
    """The second pass on a shard whose segments an earlier shard has: no n-gram of its own."""
    folder = write_shards(sample, "tsv", 2, "blocks")
    path = sorted(find_shards([str(folder)]))[1]
    everything = count_shard(CountTask(str(path), Options()))
    every_segment = tuple(everything.index.segments.tolist())
    nothing = count_shard(CountTask(str(path), Options(), every_segment))
    assert sum(len(k) for k in everything.counts.keys) > 0
    assert all(len(k) == 0 for k in nothing.counts.keys) and nothing.counts.total_words == 0


def test_nist_on_two_dask_workers_equals_this_process(sample, write_shards, capsys):
    """The first pass and the counts each task carries travel through Dask: the same numbers
    as in this process, to the bit (the same sums, added in shard order)."""
    pytest.importorskip("distributed")
    folder = write_shards(sample, "tsv", 3, "stride")
    outputs = []
    for workers in ("0", "2"):
        args = ["score", "--shards", str(folder), "--workers", workers, "--metrics", "nist,bleu"]
        assert main([*args, "--format", "json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out)["scores"])
    assert outputs[0] == outputs[1]
