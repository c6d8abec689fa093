"""A test set from uploaded files, as the Data page builds it."""

from __future__ import annotations

import io
import tarfile
import zipfile

import pytest

from mteval_core.errors import InputError
from mteval_core.io.uploads import (
    TextChoices,
    check_upload_sizes,
    read_uploaded_metric,
    single_file,
)
from mteval_core.io.uploads import test_set_from_uploads as from_uploads
from tests.helpers import make_test_set

REF = ("ref.en", b"a b c\nd e f\n")
SYS = ("mt.en", b"a b x\nd e f\n")
HUMAN = ("human.tsv", b"system\tsegment_id\tscore\nmt\t1\t3\nmt\t2\t5\n")


def test_plain_uploads_with_human_scores():
    test_set = from_uploads([REF], [SYS], ("src.de", b"x\ny\n"), HUMAN)
    assert test_set.system_names == ["mt"] and test_set.n_segments == 2
    assert test_set.source.segments == ("x", "y")
    assert test_set.human.segment_rows["score"].tolist() == [3.0, 5.0]
    flipped = from_uploads([REF], [SYS], human=HUMAN, human_lower_is_better=True)
    assert flipped.human.segment_rows["score"].tolist() == [-3.0, -5.0]


def test_a_segment_id_map_translates_the_human_segment_ids():
    ids = ("segment_ids.tsv", b"line\tsegment_id\tdoc\n1\t17\ttalk.1\n2\t42\ttalk.1\n")
    human = ("h.tsv", b"system\tsegment_id\tscore\nmt\t42\t-1\n")
    test_set = from_uploads([REF], [SYS], human=human, segment_ids=ids)
    assert test_set.human.segment_rows["segment"].tolist() == [2]
    assert test_set.documents == ("talk.1", "talk.1")


@pytest.mark.parametrize(
    ("references", "systems", "human", "message"),
    [
        ([], [SYS], None, "at least one reference"),
        ([REF], [("short.en", b"a\n")], None, "short.en, line 2: has 1 segments"),
        ([REF], [("bad.en", b"\xff\n")], None, "bad.en, line 1, column 1: byte 0xff"),
        # issue #11: rows of systems without text are set aside; rating none of them is refused
        ([REF], [SYS], ("h.tsv", b"system\tsegment_id\tscore\nother\t1\t3\n"), "is in the test"),
    ],
)
def test_bad_uploads_name_the_file(references, systems, human, message):
    with pytest.raises(InputError) as error:
        from_uploads(references, systems, human=human)
    assert message in str(error.value)


def test_the_reading_of_a_text_file_is_a_note_even_when_the_files_do_not_fit():
    """Without the note, a file read as plain text after all is only 'has 3 segments'."""
    odd = ("mt.txt", b'{"system": "A", "hypothesis": "x"}\n{"system": "B"\nthird\n')
    notes: list[str] = []
    with pytest.raises(InputError, match="has 3 segments"):
        from_uploads([REF], [odd], notes=notes)
    assert len(notes) == 1 and notes[0].startswith("mt.txt: read as plain text")
    assert "line 1 is a JSON object but line 2 is not" in notes[0]
    notes.clear()
    from_uploads([REF], [SYS], ("src.de", b"<doc> x\ny\n"), notes=notes)
    assert len(notes) == 1 and notes[0].startswith("src.de: read as plain text")


@pytest.mark.parametrize(
    ("choice", "segments"), [("split", ("a b x", "d e f")), ("space", ("a b x d e f",))]
)
def test_a_lone_carriage_return_in_an_upload_is_read_as_chosen(choice, segments):
    reference = ("ref.en", b"a b c d e f\n") if choice == "space" else REF
    system = ("mt.en", b"a b x\rd e f\n")
    with pytest.raises(InputError, match="carriage return"):
        from_uploads([reference], [system])
    test_set = from_uploads([reference], [system], reading=TextChoices(carriage_returns=choice))
    assert test_set.systems[0].segments == segments
    source = ("src.de", b"x\ry\n")
    with_source = from_uploads(
        [reference], [system], source, reading=TextChoices(carriage_returns=choice)
    )
    assert with_source.source.segments == (("x", "y") if choice == "split" else ("x y",))


def test_a_file_over_the_size_limit_is_refused_by_name():
    with pytest.raises(InputError) as error:
        check_upload_sizes([REF, ("huge.de", b"x" * (2 * 2**20 + 1))], limit_mb=2)
    assert str(error.value).startswith("huge.de: the file is 2.0 MB")
    assert "mteval score" in error.value.hint
    check_upload_sizes([("exactly.de", b"x" * 2 * 2**20)], limit_mb=2)  # at the limit: fine


def test_human_rows_of_systems_without_text_are_set_aside_with_a_note():
    notes: list[str] = []
    human = (
        b"system\tsegment_id\tscore\n"
        + SYS[0].rsplit(".", 1)[0].encode()
        + b"\t1\t3\nref-Z\t1\t4\n"
    )
    test_set = from_uploads([REF], [SYS], human=("h.tsv", human), notes=notes)
    assert set(test_set.human.segment_rows["system"]) == {SYS[0].rsplit(".", 1)[0]}
    assert len(notes) == 1 and "ref-Z" in notes[0] and "set aside" in notes[0]


def test_an_uploaded_metric_is_keyed_by_content_name_and_direction():
    test_set = make_test_set(["a b", "c d"], {"s1": ["a b", "c"], "s2": ["a", "c d"]})
    data = b"system,segment_id,score\ns1,1,0.9\ns1,2,0.5\ns2,1,0.4\ns2,2,0.8\n"
    loaded = read_uploaded_metric(("comet.csv", data), " comet ", "higher", test_set, {})
    [(key, metric)] = loaded.items()
    assert metric.name == "comet" and metric.higher_is_better and len(key) == 64
    lower = read_uploaded_metric(("comet.csv", data), "comet", "lower", test_set, {})
    assert set(lower) != set(loaded)  # the direction changes every number downstream
    cases = [
        (None, "comet", "higher", {}, "no metric score file"),
        (("comet.csv", data), "  ", "higher", {}, "has no name"),
        (("comet.csv", data), "comet", None, {}, "direction of metric .comet. was not given"),
        (("comet.csv", data), "comet", "higher", loaded, "already loaded"),
        (("bleu.csv", data), "bleu", "higher", {}, "bleu"),
    ]
    for upload, name, direction, already, message in cases:
        with pytest.raises(InputError, match=message):
            read_uploaded_metric(upload, name, direction, test_set, already)


def test_a_judgments_archive_of_one_file_is_that_file_and_of_two_is_refused():
    """Google ships MQM ratings as a .tar.gz of one TSV (generalMT2023); the Data page takes it
    as released. An archive of two files is refused: which one is meant would be a guess."""
    one = io.BytesIO()
    with tarfile.open(fileobj=one, mode="w:gz") as archive:
        info = tarfile.TarInfo("ratings.tsv")
        info.size = 5
        archive.addfile(info, io.BytesIO(b"a\tb\n\n"))
    assert single_file(("r.tsv.tar.gz", one.getvalue())) == (
        "ratings.tsv in r.tsv.tar.gz",
        b"a\tb\n\n",
    )
    assert single_file(("r.tsv", b"x")) == ("r.tsv", b"x") and single_file(None) is None
    two = io.BytesIO()
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("a.tsv", "x")
        archive.writestr("b.tsv", "y")
    with pytest.raises(InputError) as caught:
        single_file(("both.zip", two.getvalue()))
    assert str(caught.value).startswith(
        "both.zip: the archive holds 2 files; a judgments file may come as an archive of one file"
    )
