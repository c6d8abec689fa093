"""The data model refuses inconsistent input with a message that names the file and line."""

from __future__ import annotations

import pandas as pd
import pytest

from mteval_core.errors import InputError
from mteval_core.model.testset import HumanScores, TestSet, TextColumn


def column(name: str, n: int, origin: str | None = None) -> TextColumn:
    return TextColumn(name, tuple(f"{name} {i}" for i in range(n)), origin or f"{name}.txt")


def human(rows: list[dict]) -> HumanScores:
    frame = pd.DataFrame(rows)
    frame["origin"] = "human.tsv"
    frame["line"] = range(2, len(rows) + 2)
    return HumanScores(segment_rows=frame)


def test_valid_test_set():
    test_set = TestSet(
        references=[column("ref-A", 3), column("ref-B", 3)],
        systems=[column("sys1", 3), column("sys2", 3)],
        source=column("src", 3),
        documents=("d1", "d1", "d2"),
    )
    assert test_set.n_segments == 3
    assert test_set.system_names == ["sys1", "sys2"]
    assert test_set.references[1].segments[1] == "ref-B 1"


def test_different_segment_counts_name_the_file_and_line():
    with pytest.raises(InputError) as error:
        TestSet(references=[column("ref", 3)], systems=[column("sys", 2, "out/sys.de")])
    message = str(error.value)
    assert message.startswith("out/sys.de, line 3: has 2 segments but ref.txt has 3")
    assert "one line per segment" in message


def test_empty_reference_and_no_reference():
    with pytest.raises(InputError, match=r"ref\.txt: the reference has no segments"):
        TestSet(references=[column("ref", 0)])
    with pytest.raises(InputError, match="no reference translation"):
        TestSet(references=[])


def test_duplicate_system_names():
    with pytest.raises(InputError) as error:
        TestSet(
            references=[column("ref", 2)],
            systems=[column("a", 2, "x/a.de"), column("a", 2, "y/a.de")],
        )
    assert "y/a.de: duplicate system name 'a' (also used by x/a.de)" in str(error.value)


def test_document_ids_must_cover_every_segment():
    with pytest.raises(InputError, match="2 document ids were given for 3 segments"):
        TestSet(references=[column("ref", 3)], documents=("d1", "d2"))


def test_human_scores_for_unknown_system_or_segment():
    base = dict(references=[column("ref", 2)], systems=[column("sys", 2)])
    with pytest.raises(InputError) as error:
        TestSet(**base, human=human([{"system": "other", "segment": 1, "score": 3.0}]))
    assert "human.tsv, line 2: human score for unknown system 'other'" in str(error.value)
    with pytest.raises(InputError) as error:
        TestSet(
            **base,
            human=human(
                [
                    {"system": "sys", "segment": 1, "score": 3.0},
                    {"system": "sys", "segment": 3, "score": 3.0},
                ]
            ),
        )
    assert "human.tsv, line 3, column segment: segment 3 does not exist" in str(error.value)


def test_non_finite_human_score():
    base = dict(references=[column("ref", 2)], systems=[column("sys", 2)])
    with pytest.raises(InputError, match="line 2, column score: score nan is not a finite number"):
        TestSet(**base, human=human([{"system": "sys", "segment": 1, "score": float("nan")}]))


def test_references_may_be_rated_as_systems():
    test_set = TestSet(
        references=[column("ref-A", 2)],
        systems=[column("sys", 2)],
        human=human([{"system": "ref-A", "segment": 2, "score": -0.5, "criterion": "MQM"}]),
    )
    assert test_set.human.criteria == ["MQM"]


def test_content_hash_ignores_file_names_but_not_content():
    a = TestSet(references=[column("ref", 2, "a.txt")], systems=[column("sys", 2, "one.txt")])
    b = TestSet(references=[column("ref", 2, "b.txt")], systems=[column("sys", 2, "two.txt")])
    assert a.content_hash == b.content_hash and a == b and hash(a) == hash(b)
    changed = TestSet(
        references=[column("ref", 2)], systems=[TextColumn("sys", ("sys 0", "other"), "one.txt")]
    )
    assert changed.content_hash != a.content_hash
