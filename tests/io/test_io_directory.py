"""Test set folders: src, ref/, sys/, segment_ids.tsv and human/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mteval_core.errors import InputError
from mteval_core.io.directory import read_directory

SAMPLE_DATA = Path(__file__).resolve().parents[2] / "sample_data"

FOLDER = {
    "src.de": "eins\nzwei\ndrei\n",
    "ref/ref-B.en": "One.\nTwo.\nThree.\n",
    "ref/ref-A.en": "one\ntwo\nthree\n",
    "sys/online-A.0.en": "one\ntoo\nthree\n",
    "sys/lmu.en": "won\ntwo\ntree\n",
    "segment_ids.tsv": (
        "line\tsegment_id\tdoc\tdoc_seg_id\n1\t11\td1\t1\n2\t12\td1\t2\n3\t20\td2\t1\n"
    ),
    "human/mqm_seg.tsv": (
        "system\tsegment_id\tscore\trater\n"
        "lmu\t11\t-1\tr1\nonline-A.0\t20\t-5\tr2\nref-A\t12\t0\tr1\n"
        "metricsystem1\t11\t-2\tr1\nmetricsystem1\t12\t-2\tr1\nref-Z\t11\t0\tr1\n"
    ),
    "human/da_sys.csv": "system,score,n_ratings\nlmu,0.1,20\nonline-A.0,-0.2,20\n",
    "human/da_seg_UNALIGNED.tsv": "system\tda_sid\tscore\nlmu\t1\t0.3\n",
    "human/README.md": "notes\n",
    "human/original/raw.tsv": "anything\n",
}


def test_folder_is_read(tmp_path: Path, write_tree) -> None:
    result = read_directory(write_tree(tmp_path / "set", FOLDER))
    test_set = result.test_set
    assert test_set.name == "set"
    assert test_set.reference_names == ["ref-A", "ref-B"]
    assert sorted(test_set.system_names) == ["lmu", "online-A.0"]
    assert test_set.source.segments == ("eins", "zwei", "drei")
    assert test_set.documents == ("d1", "d1", "d2")
    segment_rows = test_set.human.segment_rows
    assert list(zip(segment_rows["system"], segment_rows["segment"], strict=True)) == [
        ("lmu", 1),
        ("online-A.0", 3),
        ("ref-A", 2),
    ]
    assert set(segment_rows["criterion"]) == {"MQM"}
    system_rows = test_set.human.system_rows
    assert list(system_rows["criterion"]) == ["DA", "DA"]
    notes = "\n".join(result.notes)
    assert "human/mqm_seg.tsv: 3 rows for 2 systems without text output (metricsystem1, ref-Z)" in (
        notes
    )
    assert "human/da_seg_UNALIGNED.tsv: not read" in notes
    assert "human/README.md" in notes
    assert "original" not in notes


def test_the_note_on_systems_without_text_names_a_few_and_counts_all(
    tmp_path: Path, write_tree
) -> None:
    """It named every system: a WMT file rating 300,000 made a note of megabytes."""
    rows = "".join(f"anon-{n:03d}\t11\t-1\tr1\n" for n in range(120))
    folder = {**FOLDER, "human/mqm_seg.tsv": FOLDER["human/mqm_seg.tsv"] + rows}
    notes = "\n".join(read_directory(write_tree(tmp_path / "set", folder)).notes)
    assert (
        "human/mqm_seg.tsv: 123 rows for 122 systems without text output (anon-000, anon-001, "
        "anon-002, anon-003, anon-004, anon-005, anon-006, anon-007, anon-008, anon-009 and 112 "
        "more) were not loaded"
    ) in notes


def test_human_scores_are_optional(tmp_path: Path, write_tree) -> None:
    files = {k: v for k, v in FOLDER.items() if not k.startswith(("human/", "segment_ids"))}
    result = read_directory(write_tree(tmp_path, files))
    assert result.test_set.human is None
    assert result.test_set.documents is None
    assert result.notes == []


@pytest.mark.parametrize("missing", ["ref/", "sys/"])
def test_missing_ref_or_sys_folder(tmp_path: Path, missing: str, write_tree) -> None:
    files = {k: v for k, v in FOLDER.items() if not k.startswith(missing)}
    with pytest.raises(InputError, match=f"there is no {missing} folder") as caught:
        read_directory(write_tree(tmp_path, files))
    assert "ref/<name>.<lang>" in caught.value.hint


def test_empty_sys_folder(tmp_path: Path, write_tree) -> None:
    files = {k: v for k, v in FOLDER.items() if not k.startswith("sys/")}
    write_tree(tmp_path, files)
    (tmp_path / "sys").mkdir()
    with pytest.raises(InputError, match="sys/ folder has no files"):
        read_directory(tmp_path)


def test_not_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        read_directory(tmp_path / "nowhere")
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(InputError, match="not a folder"):
        read_directory(tmp_path / "file.txt")


def test_system_with_a_missing_line(tmp_path: Path, write_tree) -> None:
    write_tree(tmp_path, {**FOLDER, "sys/lmu.en": "won\ntwo\n"})
    with pytest.raises(InputError, match="has 2 segments") as caught:
        read_directory(tmp_path)
    assert caught.value.origin == str(tmp_path / "sys" / "lmu.en")


def test_empty_reference_file(tmp_path: Path, write_tree) -> None:
    write_tree(tmp_path, {**FOLDER, "ref/ref-A.en": ""})
    with pytest.raises(InputError, match="empty") as caught:
        read_directory(tmp_path)
    assert caught.value.origin == str(tmp_path / "ref" / "ref-A.en")


def test_segment_ids_with_the_wrong_number_of_rows(tmp_path: Path, write_tree) -> None:
    write_tree(tmp_path, {**FOLDER, "segment_ids.tsv": "line\tdoc\n1\td1\n2\td1\n"})
    with pytest.raises(InputError, match="2 rows but the text files have 3 lines"):
        read_directory(tmp_path)


def test_segment_ids_out_of_order(tmp_path: Path, write_tree) -> None:
    write_tree(tmp_path, {**FOLDER, "segment_ids.tsv": "line\tdoc\n1\td1\n3\td1\n2\td2\n"})
    with pytest.raises(InputError, match="expected line 2") as caught:
        read_directory(tmp_path)
    assert (caught.value.line, caught.value.column) == (3, "line")


def test_human_score_for_an_unknown_segment_id(tmp_path: Path, write_tree) -> None:
    write_tree(tmp_path, {**FOLDER, "human/mqm_seg.tsv": "system\tsegment_id\tscore\nlmu\t13\t1\n"})
    with pytest.raises(InputError, match="segment id 13") as caught:
        read_directory(tmp_path)
    assert caught.value.line == 2


def test_non_numeric_human_score(tmp_path: Path, write_tree) -> None:
    write_tree(
        tmp_path, {**FOLDER, "human/mqm_seg.tsv": "system\tsegment_id\tscore\nlmu\t11\tNone\n"}
    )
    with pytest.raises(InputError) as caught:
        read_directory(tmp_path)
    assert str(caught.value).startswith(
        f"{tmp_path / 'human' / 'mqm_seg.tsv'}, line 2, column score"
    )


def test_two_source_files(tmp_path: Path, write_tree) -> None:
    write_tree(tmp_path, {**FOLDER, "src.en": "a\nb\nc\n"})
    with pytest.raises(InputError, match="2 source files"):
        read_directory(tmp_path)


def test_sample_data_loads() -> None:
    if not (SAMPLE_DATA / "ref").is_dir():
        pytest.skip("sample_data is not there yet")
    result = read_directory(SAMPLE_DATA)
    test_set = result.test_set
    assert test_set.reference_names == ["ref-A", "ref-B"]
    assert test_set.systems
    assert test_set.source is not None
    assert test_set.documents is not None
    assert test_set.human is not None and len(test_set.human) > 0
    assert result.notes == []


@pytest.mark.parametrize("folder", ["sys", "ref", "human"])
def test_a_file_name_that_is_not_utf8_is_refused_by_name(
    tmp_path: Path, write_tree, folder: str
) -> None:
    """A file named where names are Latin-1 reached the readers with a lone surrogate in its
    name (an internal error when the name was printed or hashed)."""
    root = write_tree(tmp_path / "set", FOLDER)
    (root / folder).joinpath(os.fsdecode(b"caf\xe9.en")).write_text("a\nb\nc\n")
    with pytest.raises(InputError) as caught:
        read_directory(root)
    assert caught.value.origin == str(root / folder)
    assert caught.value.problem.startswith("the file name b'caf\\xe9.en' is not UTF-8")
