"""The readers on the real WMT data next to the repository (skipped where it is absent)."""

from __future__ import annotations

import pandas as pd
import pytest

from mteval_core.errors import InputError
from mteval_core.io import read_columns, read_directory, read_human
from mteval_core.io.plain import byte_order_mark_note, read_plain

PLAIN_SETS = ("wmt17-newstest2017-ende", "wmt21-newstest2021-ende", "wmt21-newstest2021-zhen")


def test_wmt21_ted_mqm_ende(shared_data) -> None:
    folder = shared_data / "wmt21-ted-mqm-ende"
    result = read_directory(folder)
    test_set = result.test_set
    assert len(test_set.systems) == 13
    assert test_set.reference_names == ["ref-A"]
    assert test_set.n_segments == 529
    assert test_set.source is not None
    ids = pd.read_csv(folder / "segment_ids.tsv", sep="\t")
    assert test_set.documents == tuple(ids["doc"])
    assert result.notes == []

    segment_rows = test_set.human.segment_rows
    known = set(test_set.system_names) | {"ref-A"}
    assert set(segment_rows["system"]) == known  # the reference was rated like a system
    assert len(segment_rows) == 14 * 529
    assert set(segment_rows["criterion"]) == {"MQM"}
    facebook = segment_rows.loc[segment_rows["system"] == "Facebook-AI", "score"]
    published = read_human((folder / "human" / "mqm_sys.tsv").read_bytes(), "mqm_sys.tsv")
    expected = published.system_rows.set_index("system").loc["Facebook-AI", "score"]
    assert facebook.mean() == pytest.approx(expected, abs=1e-6)


def test_wmt21_ted_segment_ids_are_mapped_through_segment_ids_tsv(shared_data) -> None:
    """Human segment ids there are the data set's seg_id (up to 606), not line numbers."""
    folder = shared_data / "wmt21-ted-mqm-ende"
    test_set = read_directory(folder).test_set
    raw = pd.read_csv(folder / "human" / "mqm_seg_rater.tsv", sep="\t")
    assert raw["segment_id"].max() > test_set.n_segments
    assert test_set.human.segment_rows["segment"].max() == test_set.n_segments


def test_wmt21_newstest2021_ende(shared_data) -> None:
    result = read_directory(shared_data / "wmt21-newstest2021-ende")
    test_set = result.test_set
    assert test_set.reference_names == ["ref-A", "ref-C", "ref-D"]
    assert len(test_set.systems) == 20
    assert test_set.n_segments == 1002
    dropped = [note for note in result.notes if "without text output" in note]
    assert any(note.startswith("human/mqm_seg.tsv") for note in dropped)
    assert all("metricsystem1" in note and "ref-B" in note for note in dropped)
    assert "ref-B" not in set(test_set.human.segment_rows["system"])


def test_wmt21_newstest2021_zhen_skips_the_unaligned_da_file(shared_data) -> None:
    result = read_directory(shared_data / "wmt21-newstest2021-zhen")
    assert any("da_seg_UNALIGNED.tsv" in note for note in result.notes)
    assert set(result.test_set.human.criteria) == {"MQM", "DA"}


def test_scores_without_text_are_not_a_test_set(shared_data) -> None:
    with pytest.raises(InputError, match="no ref/ folder"):
        read_directory(shared_data / "wmt20-newstest2020-scores")


@pytest.mark.parametrize("name", PLAIN_SETS)
def test_every_wmt_text_file_is_read_as_plain_text_without_a_note(shared_data, name) -> None:
    """The WMT sets are plain text, one segment per line, whatever their first lines hold: each
    file is read as the plain reader reads it, and no note says it could be something else (a
    file that starts with a byte order mark, as WMT17's online-A.0.de, gets the note on it)."""
    folder = shared_data / name
    files = [*folder.glob("src.*"), *(folder / "ref").iterdir(), *(folder / "sys").iterdir()]
    assert len(files) > 10
    for path in files:
        data = path.read_bytes()
        found = read_columns(data, str(path), "sys")
        bom = byte_order_mark_note(data, str(path))
        assert found.notes == ((bom,) if bom else ()), path
        assert found.columns[0].segments == read_plain(data, str(path), "x").segments, path
