"""Google's MQM files read as released (google/wmt-mqm-human-evaluation), every layout on a real
file of ../shared/data:

- the 2022-2024 error layout: generalMT2023 zh-en, the side-by-side ratings as Google ships them
  (a .tar.gz of one TSV whose header ends with Marot's ``# Documentation: ...`` field, which no
  row has; issue 42: refused as "a stray tab"), its scores against mt-metrics-eval's
  score_mqm.py (pinned by scripts/mqm_oracle_fixtures.py), its segments placed on the WMT23
  general test set's lines by the command line;
- the 2020-2021 error layout: WMT21 TED en-de (with a comment column) and zh-en (without), in
  tests/io/test_io_mqm_layouts.py, and here against Google's own per-segment averages;
- Google's per-segment averages (``mqm_*.avg_seg_scores.tsv``: newstest2020, newstest2021,
  TED), split by spaces, ``None`` where nobody rated: refused as having "no 'system' column".
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import tarfile
from functools import cache
from pathlib import Path

import pytest

from mteval_core.errors import InputError
from mteval_core.io.directory import read_directory
from mteval_core.io.human_judgments import read_human, read_human_for
from mteval_core.io.mqm_placement import comparable_source
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.loss.mqm_loss import mqm_segment_scores
from mteval_core.model.testset import TestSet, TextColumn
from tests.helpers import shared_dataset

ORACLE = Path(__file__).parent / "fixtures" / "wmt23_zhen_mqm_oracle.tsv.gz"
RELEASE = "sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv"
TEXTS = "wmt23-general-txt.tar.xz"


@cache
def wmt23_release() -> tuple[str, bytes]:
    """The one member of Google's .tar.gz, as released: its name and bytes."""
    path = shared_dataset("wmt23-zhen-mqm") / f"{RELEASE}.tar.gz"
    with tarfile.open(path) as archive:
        (member,) = archive.getmembers()
        return member.name, archive.extractfile(member).read()


@cache
def wmt23_oracle() -> dict[tuple[str, str], float]:
    """(system, 'doc::docSegId') -> score_mqm.py --doc_id=docSegId's score, as printed."""
    rows = csv.DictReader(
        io.StringIO(gzip.decompress(ORACLE.read_bytes()).decode()), dialect="excel-tab"
    )
    return {
        (row["system"], f"{row['doc']}::{row['docSegId']}"): float(row["score"]) for row in rows
    }


@cache
def wmt23_texts() -> dict[str, bytes]:
    """The WMT23 general zh-en files (source, refA, the 15 systems) by their path in the
    organisers' txt/ folder."""
    with tarfile.open(shared_dataset("wmt23-general-task") / TEXTS) as archive:
        return {
            member.name: archive.extractfile(member).read()
            for member in archive.getmembers()
            if member.isfile() and ".zh-en." in member.name
        }


def wmt23_test_set() -> TestSet:
    texts = wmt23_texts()

    def column(name: str, path: str) -> TextColumn:
        return TextColumn(name, tuple(texts[path].decode().split("\n")[:-1]), path)

    systems = sorted(p for p in texts if "/system-outputs/" in p)
    return TestSet(
        references=[column("refA", "txt/references/generaltest2023.zh-en.ref.refA.en")],
        systems=[column(p.split(".hyp.")[1][: -len(".en")], p) for p in systems],
        source=column("source", "txt/sources/generaltest2023.zh-en.src.zh"),
    )


def test_wmt23_release_reads_as_shipped_and_scores_as_mt_metrics_eval():
    name, data = wmt23_release()
    assert data.split(b"\n", 1)[0].endswith(
        b"\t# Documentation: https://github.com/google-research/google-research/tree/master/MAROT_viewer"
    )
    annotations = read_mqm(data, name)
    assert annotations.layout == "2022-2024"
    scores = mqm_segment_scores(annotations)
    oracle = wmt23_oracle()
    assert len(oracle) == 3_770  # 10 systems x 377 segments
    assert scores == oracle  # bit for bit, every segment
    notes = " | ".join(annotations.notes)
    assert "the header's last field, '# Documentation: https://github.com/" in notes
    assert "461 HOTW-test rows" in notes


def test_wmt23_release_beside_the_organisers_text_places_every_segment_on_its_source():
    """Without documents, by source text: each rated segment on a line with its source, three
    of them among repeated sources (said in a note), no line given to two segments."""
    name, data = wmt23_release()
    test_set = wmt23_test_set()
    read = read_human_for(test_set, data, name)
    rows = read.scores.segment_rows
    segments = read_mqm(data, name).segments
    on_line: dict[int, set[int]] = {}  # the file line of a segment's first row -> its lines
    for file_line, line in zip(rows["line"], rows["segment"]):
        on_line.setdefault(int(file_line), set()).add(int(line))
    placed = {}
    for segment in segments:
        (placed[segment.key],) = on_line[segment.line]  # one line per segment
    assert len(set(placed.values())) == len(segments) == 377
    source = test_set.source.segments
    for segment in segments:
        assert comparable_source(source[placed[segment.key] - 1]) == comparable_source(
            segment.source
        ), segment.key
    found = {
        (s, int(g)): float(v) for s, g, v in zip(rows["system"], rows["segment"], rows["score"])
    }
    assert found == {(system, placed[key]): v for (system, key), v in wmt23_oracle().items()}
    notes = " | ".join(read.notes)
    assert "377 by source text" in notes
    assert "3 of the segments placed by source text have a source that several lines" in notes


def test_wmt23_release_through_the_command_line(tmp_path, capsys):
    """`mteval score --human` on the released TSV: MQM system scores are the means of
    mt-metrics-eval's segment scores, as its system level averages them."""
    from mteval_core.cli import main

    for path, data in wmt23_texts().items():
        (tmp_path / Path(path).name).write_bytes(data)
    name, data = wmt23_release()
    (tmp_path / name).write_bytes(data)
    systems = sorted(str(p) for p in tmp_path.glob("*.hyp.*.en"))
    status = main(
        [
            "score",
            "--refs", str(tmp_path / "generaltest2023.zh-en.ref.refA.en"),
            "--hyps", *systems,
            "--source", str(tmp_path / "generaltest2023.zh-en.src.zh"),
            "--human", str(tmp_path / name),
            "--metrics", "bleu",
            "--format", "json",
        ]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 0, err
    human = json.loads(out)["human"]
    assert human["criterion"] == "MQM"
    per_system: dict[str, list[float]] = {}
    for (system, _key), score in wmt23_oracle().items():
        per_system.setdefault(system, []).append(score)
    assert set(human["scores"]) == set(per_system)
    for system, scores in per_system.items():
        assert human["scores"][system] == pytest.approx(sum(scores) / len(scores), abs=1e-12)
    assert "is a note (Google's Marot viewer writes its documentation link there)" in err


def test_a_misnamed_severity_column_is_named_not_read_as_scores():
    """Issue 42: a 2020-2021 file whose severity column is misnamed was read as ordinary
    judgments, with doc_id as the score. Built on the released TED file."""
    folder = shared_dataset("wmt21-ted-mqm-ende")
    test_set = read_directory(folder).test_set.with_human(None)
    data = (folder / "human" / "original" / "mqm_ted_ende.tsv").read_bytes()
    header, rest = data.split(b"\n", 1)
    renamed = header.replace(b"\tseverity\t", b"\tseverity level\t") + b"\n" + rest
    with pytest.raises(InputError) as caught:
        read_human_for(test_set, renamed, "mqm_ted_ende.tsv")
    message = str(caught.value)
    assert message.startswith("mqm_ted_ende.tsv, line 1: the MQM file has no column 'severity'")
    assert "2020-2021 layout has the columns system, doc, doc_id, seg_id" in message
    assert "docSegId" not in message  # the 2022 layout's columns are not this file's
    with pytest.raises(InputError, match="there is no score column"):  # read as scores: no score
        read_human(renamed, "mqm_ted_ende.tsv")


# Google's averages beside what was made from them independently (PROVENANCE.md of each folder)
AVERAGES = [
    ("wmt20-newstest2020-scores", "mqm_newstest2020_ende", "mqm_seg.en-de.tsv"),
    ("wmt20-newstest2020-scores", "mqm_newstest2020_zhen", "mqm_seg.zh-en.tsv"),
    ("wmt21-newstest2021-ende", "mqm_newstest2021_ende", "mqm_seg.tsv"),
    ("wmt21-newstest2021-zhen", "mqm_newstest2021_zhen", "mqm_seg.tsv"),
]


NEWS_NAMES = {"NVIDIA-NeMo": "Nemo"}


@pytest.mark.parametrize(("folder", "stem", "tidy"), AVERAGES)
def test_google_averages_read_as_released(folder, stem, tidy):
    human = shared_dataset(folder) / "human"
    name = f"{stem}.avg_seg_scores.tsv"
    rows = read_human((human / "original" / name).read_bytes(), name).segment_rows
    assert set(rows["criterion"]) == {"MQM"}
    ours = {
        (s, int(g)): float(v) for s, g, v in zip(rows["system"], rows["segment"], rows["score"])
    }
    with open(human / tidy, encoding="utf-8") as file:
        theirs = {  # the tidy copy spells Nemo as the news systems do (its PROVENANCE.md)
            (NEWS_NAMES.get(row["system"], row["system"]), int(row["segment_id"])): float(
                row["score"]
            )
            for row in csv.DictReader(file, delimiter="\t")
        }
    assert set(ours) == set(theirs)  # 'None' rows (nobody rated) are no rows
    assert max(abs(ours[key] - theirs[key]) for key in ours) < 1e-6


@pytest.mark.parametrize("pair", ["ende", "zhen"])
def test_google_ted_averages_equal_our_scores_of_googles_annotations(pair):
    """Two of Google's releases of one evaluation, each read as shipped, agree: the averages
    are mt-metrics-eval's scores of the error annotations, to their 6 decimals."""
    original = shared_dataset(f"wmt21-ted-mqm-{pair}") / "human" / "original"
    name = f"mqm_ted_{pair}.avg_seg_scores.tsv"
    rows = read_human((original / name).read_bytes(), name).segment_rows
    averages = {
        (s, int(g)): float(v) for s, g, v in zip(rows["system"], rows["segment"], rows["score"])
    }
    annotations = read_mqm((original / f"mqm_ted_{pair}.tsv").read_bytes(), "mqm.tsv")
    scored = {(s, int(g)): v for (s, g), v in mqm_segment_scores(annotations).items()}
    # Google names the rated references ref and refB in one file, ref-A and ref-B in the other
    averages = {key: v for key, v in averages.items() if not key[0].startswith("ref")}
    scored = {key: v for key, v in scored.items() if not key[0].startswith("ref")}
    assert set(averages) == set(scored) and len(scored) > 6_000
    assert max(abs(averages[key] - scored[key]) for key in scored) < 5e-7
