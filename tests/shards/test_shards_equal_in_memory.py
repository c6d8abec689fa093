"""The sharded path gives the in-memory path's corpus scores, to the last bit, whatever the shard
format and the sharding: every metric's statistics are per segment (NIST's, whose weights come
from the whole corpus, have their own tests: test_shards_nist.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.metrics import REGISTRY
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.shards.cluster import Cluster, score_shards
from mteval_core.shards.partition import PartitionTask
from mteval_core.shards.reading import find_shards
from mteval_core.shards.results import corpus_scores
from tests.helpers import SAMPLE_DATA
from tests.shards.conftest import sliced

SHARDABLE = [name for name in REGISTRY if name != "nist"]  # NIST: test_shards_nist.py


def sharded_scores(folder, metrics) -> dict[str, dict[str, float]]:
    """Corpus scores of the shards in ``folder``, scored in this process."""
    options = Options()
    tasks = [PartitionTask(str(p), tuple(metrics), options) for p in find_shards([str(folder)])]
    corpus = score_shards(tasks, Cluster(workers=0))
    return corpus_scores(corpus.sums, metrics, options, corpus.n_references).corpus()


def cli_json(capsys, *args: str) -> dict:
    code = main(["score", *args, "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize(
    ("form", "n_shards", "how"),
    [
        ("tsv", 1, "stride"),
        ("tsv", 3, "stride"),
        ("csv", 3, "stride"),
        ("jsonl", 4, "blocks"),
        ("parquet", 3, "segments"),
    ],
)
def test_every_metric_equals_the_in_memory_scores_on_sample_data(
    sample, write_shards, form, n_shards, how
):
    folder = write_shards(sample, form, n_shards, how)
    expected = score_test_set(sample, SHARDABLE, Options()).corpus()
    assert sharded_scores(folder, SHARDABLE) == expected  # dict equality: every float exactly


def in_memory_files(sample) -> list[str]:
    references = [str(SAMPLE_DATA / "ref" / f"ref-{x}.en") for x in "AB"]
    systems = [str(SAMPLE_DATA / "sys" / f"{s}.en") for s in sample.system_names]
    return ["--refs", *references, "--hyps", *systems]


def test_the_command_line_prints_what_the_in_memory_command_prints(sample, write_shards, capsys):
    """Both commands from the files: the same scores and signature, also under options that
    change the statistics (lowercase, stemming, BLEU's shortest reference, Fmean's alpha)."""
    folder = write_shards(sample, "tsv", 3, "segments")
    metrics = ["--metrics", ",".join(SHARDABLE), "--lowercase", "--stem", "porter"]
    metrics += ["--bp", "shortest", "--fmean-alpha", "0.5"]
    in_memory = cli_json(capsys, *in_memory_files(sample), *metrics)
    sharded = cli_json(capsys, "--shards", str(folder), "--workers", "0", *metrics)
    assert sharded["scores"] == in_memory["scores"]
    assert sharded["signature"] == in_memory["signature"]
    assert sharded["shards"] == {"count": 3, "segments": sample.n_segments}


def test_statistics_that_are_not_whole_numbers_are_close_and_say_so(sample, write_shards, capsys):
    """GTM at e = 2 has match sizes such as sqrt(5): float sums of them depend on their order,
    so several shards may differ from the in-memory sum in the last digits, with a note."""
    metrics = ["--metrics", "gtm,bleu", "--gtm-exponent", "2"]
    in_memory = cli_json(capsys, *in_memory_files(sample), *metrics)
    folder = write_shards(sample, "tsv", 3, "stride")
    main(["score", "--shards", str(folder), "--workers", "0", *metrics, "--format", "json"])
    out, err = capsys.readouterr()
    sharded = json.loads(out)
    for system, scores in in_memory["scores"].items():
        assert sharded["scores"][system]["bleu"] == scores["bleu"]
        assert sharded["scores"][system]["gtm"] == pytest.approx(scores["gtm"], rel=1e-13)
    assert "gtm: statistics that are not whole numbers" in err
    one = write_shards(sample, "tsv", 1)  # one shard: summed in the in-memory order, exactly
    main(["score", "--shards", str(one), "--workers", "0", *metrics, "--format", "json"])
    out, err = capsys.readouterr()
    assert json.loads(out)["scores"] == in_memory["scores"]
    assert "not whole numbers" not in err


@pytest.mark.parametrize("form", ["csv", "text", "latex"])
def test_csv_text_and_latex_are_the_in_memory_command_s(sample, write_shards, capsys, form):
    folder = write_shards(sample, "jsonl", 2)
    options = ["--format", form, "--metrics", "bleu,chrf,ter"]
    assert main(["score", *options, *in_memory_files(sample)]) == 0
    in_memory = capsys.readouterr().out
    assert main(["score", *options, "--shards", str(folder), "--workers", "0"]) == 0
    assert capsys.readouterr().out == in_memory


def test_wmt17_slice_equals_the_in_memory_scores(wmt17, write_shards):
    """Real news text, one reference: 300 segments of 3 systems, in 1 and in 5 Parquet shards
    cut by segment ranges and by rows."""
    test_set = sliced(wmt17, 300, 3)
    metrics = ["bleu", "chrf++", "ter", "f1", "gtm"]
    expected = score_test_set(test_set, metrics, Options()).corpus()
    for n_shards, how in [(1, "stride"), (5, "segments"), (5, "stride")]:
        folder = write_shards(test_set, "parquet", n_shards, how)
        assert sharded_scores(folder, metrics) == expected, (n_shards, how)


def test_sums_of_whole_number_statistics_do_not_depend_on_the_sharding(wmt17, write_shards):
    """Why the scores are exact: the shards' statistic sums are the in-memory column sums."""
    test_set = sliced(wmt17, 200, 2)
    in_memory = score_test_set(test_set, ["bleu"], Options()).statistics["bleu"]
    folder = write_shards(test_set, "tsv", 7, "stride")
    tasks = [PartitionTask(str(p), ("bleu",), Options()) for p in find_shards([str(folder)])]
    sums = score_shards(tasks, Cluster(workers=0)).sums
    for system, statistics in in_memory.items():
        np.testing.assert_array_equal(sums.totals["bleu"][system], statistics.sum(axis=0))


def test_parquet_read_by_columns_equals_the_record_by_record_reading(sample, write_shards):
    """A well-formed Parquet shard is read column by column (``reading._parquet_rows``); what
    it gives is what the record-by-record reading, which every other format uses, gives."""
    from mteval_core.shards import reading

    for how in ("stride", "blocks"):
        for path in find_shards([str(write_shards(sample, "parquet", 2, how))]):
            table = reading._parquet_table(str(path))
            by_columns = reading._parquet_rows(table, str(path))
            keys, records = reading._parquet_records(table)
            by_records = reading.rows_from_records(records, keys, None, str(path), "row")
            assert by_columns is not None
            for field in ("hypotheses", "shared", "positions", "shared_keys", "reference_keys"):
                assert getattr(by_columns, field) == getattr(by_records, field), field
