"""Google's MQM TSV of every release (2020-2024) as human judgments: the layouts, mt-metrics-eval's
per-segment scores, and placement on the test set's lines by seg_id, document or source text.

The fixtures are written from what Google's files look like (google/wmt-mqm-human-evaluation:
the 2020-2021 header; the 2022-2024 header system, doc, docSegId, globalSegId, rater, source,
target, category, severity[, metadata] of its Marot viewer; lowercase severities in 2024). Every
expected score is worked out by hand from mt-metrics-eval's rules (converters/score_mqm.py):
Major 5, Minor 1, Minor/Fluency/Punctuation 0.1, Major/Non-translation! 25, Neutral 0, and 0 for
any severity without a key (Critical, HOTW-test, No-error, empty); a rater's weights summed,
averaged over the segment's raters, negated.
"""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.io.directory import parse_segment_ids, read_directory
from mteval_core.io.human_judgments import is_mqm_file, read_human_for
from mteval_core.io.mqm_placement import comparable_source
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.loss.mqm_loss import mqm_segment_scores, starting_weights
from mteval_core.model.testset import TestSet, TextColumn
from tests.helpers import shared_dataset

LATER = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity"


def tsv(header: str, *rows: str) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode()


def make_test_set(source: list[str], documents: tuple[str, ...] | None = None) -> TestSet:
    n = len(source)
    return TestSet(
        references=[TextColumn("ref", tuple(f"r{i}" for i in range(n)), "ref.de")],
        systems=[
            TextColumn(name, tuple(f"{name}{i}" for i in range(n)), f"{name}.de") for name in "AB"
        ],
        source=TextColumn("src", tuple(source), "src.en"),
        documents=documents,
    )


def segment_scores(read) -> dict[tuple[str, int], float]:
    rows = read.scores.segment_rows
    assert set(rows["criterion"]) == {"MQM"}
    return {
        (s, int(g)): float(v) for s, g, v in zip(rows["system"], rows["segment"], rows["score"])
    }


# 2022: nine columns, no metadata; placed by doc + docSegId on a test set with documents.
MQM_2022 = tsv(
    LATER,
    'A\tnews_a\t1\t101\tr1\tHe said "yes".\t<v>Er</v> sagte "ja".\tFluency/Punctuation\tminor',
    'A\tnews_a\t1\t101\tr1\tHe said "yes".\tEr sagte <v>"ja"</v>.\tAccuracy/Mistranslation\tMajor',
    'A\tnews_a\t1\t101\tr2\tHe said "yes".\tEr sagte "ja".\tNo-error\tNo-error',
    "A\tnews_a\t2\t102\tr1\tIt rained.\t<v>Blah.</v>\tNon-translation!\tMajor",
    "A\tnews_b\t1\t103\tr1\t<v>Go</v> home.\tGeh heim.\tSource issue\tMinor",
    "B\tnews_a\t1\t101\tr1\tHe said \"yes\".\tEr sagte <v>'ja'</v>.\tStyle/Awkward\tMinor",
    "B\tnews_a\t2\t102\tr1\tIt rained.\tEs regnete.\tOther\tNeutral",
    "B\tnews_b\t1\t103\tr1\tGo home.\t<v>Geh</v> heim.\tFluency/Grammar\tCritical",
)
SOURCE_2022 = ['He said "yes".', "It rained.", "Go home."]
DOCS_2022 = ("news_a", "news_a", "news_b")


def test_2022_layout_scores_and_document_placement():
    annotations = read_mqm(MQM_2022, "mqm_generalMT2022_ende.tsv")
    assert annotations.layout == "2022-2024"
    assert mqm_segment_scores(annotations) == {
        ("A", "news_a::1"): -((0.1 + 5.0) + 0.0) / 2,  # r1: punctuation + major; r2: no error
        ("A", "news_a::2"): -25.0,  # Major/Non-translation!
        ("A", "news_b::1"): -1.0,  # a Source issue category weighs its severity (Minor)
        ("B", "news_a::1"): -1.0,
        ("B", "news_a::2"): -0.0,  # Neutral
        ("B", "news_b::1"): -0.0,  # Critical: no key in mt-metrics-eval's weights
    }
    read = read_human_for(
        make_test_set(SOURCE_2022, DOCS_2022), MQM_2022, "mqm_generalMT2022_ende.tsv"
    )
    assert segment_scores(read) == {
        ("A", 1): -2.55, ("A", 2): -25.0, ("A", 3): -1.0,
        ("B", 1): -1.0, ("B", 2): 0.0, ("B", 3): 0.0,
    }  # fmt: skip
    assert any("3 by document and docSegId" in note for note in read.notes)


# 2023: ten columns with metadata JSON; a plain-text test set, so placed by the source text.
MQM_2023 = tsv(
    LATER + "\tmetadata",
    'A\tdoc1\t1\t1\tr1\tShe said "hi"  there.\tSie sagte <v>"hallo"</v>.\tAccuracy/Omission\tmajor'
    '\t{"timestamp": 1690000000, "note": ""}',
    'A\tdoc1\t1\t1\tr1\tShe said "hi" <v>there</v>.\tSie sagte "hallo".\tSource issue\tminor'
    '\t{"timestamp": 1690000001, "source_not_seen": false}',
    'A\tdoc1\t2\t2\tr2\t"Quoted\t"Zitat <v>xx</v>\tFound\tHOTW-test'
    '\t{"hotw": {"injected_error": "xx", "found_self": true}}',
    'B\tdoc1\t1\t1\tr1\tShe said "hi" there.\tSie sagte "hi".\tNo-error\tNo-error\t{}',
    'B\tdoc1\t2\t2\tr2\t"Quoted\t<v>„</v>Zitat\tFluency/Punctuation\tMinor\t{"note": "a, b"}',
)
SOURCE_2023 = ['She said "hi" there.', '"Quoted', "An unrated line."]


def test_2023_layout_placed_by_source_text_with_literal_quotes():
    read = read_human_for(make_test_set(SOURCE_2023), MQM_2023, "mqm_generalMT2023_ende.tsv")
    assert segment_scores(read) == {
        ("A", 1): -(5.0 + 1.0),  # major omission + a minor Source issue, one rater
        ("A", 2): -0.0,  # HOTW-test: the rater counts, with 0 points
        ("B", 1): -0.0,
        ("B", 2): -0.1,  # Minor/Fluency/Punctuation
    }
    assert any("2 by source text" in note for note in read.notes)
    assert any("1 HOTW-test rows" in note for note in read.notes)


# 2024: lowercase severities, critical, an empty severity, Non-translation! in the severity column.
MQM_2024 = tsv(
    LATER + "\tmetadata",
    "A\tdoc9\t1\t2\tr1\tHallo Welt.\t<v>Hello</v> world.\tAccuracy/Mistranslation\tcritical\t{}",
    "A\tdoc9\t1\t2\tr1\tHallo Welt.\tHello <v>wrld</v>.\tFluency/Spelling\tminor\t{}",
    "A\tdoc9\t2\t3\tr2\tWie geht es?\t<v>xyz</v>\tOther\tNon-translation!\t{}",
    "A\tdoc9\t2\t3\tr3\tWie geht es?\tHow <v>goes</v> it?\tAccuracy/Addition\tmajor\t{}",
    "A\tother\t1\t4\tr1\tGuten <v>Morgen</v>.\tGood morning.\t\t\t{}",
    "B\tdoc9\t1\t2\tr1\tHallo Welt.\tHi <v>world</v>.\tStyle/Awkward\tneutral\t{}",
    'B\tdoc9\t2\t3\tr1\tWie geht es?\tHow are you?\tMissed\tHOTW-test\t{"note": "injected"}',
)
SOURCE_2024 = ["Hallo Welt.", "Wie geht es?", "Guten  Morgen."]
DOCS_2024 = ("doc9", "doc9", "doc3")


def test_2024_layout_new_severities_and_mixed_placement():
    read = read_human_for(
        make_test_set(SOURCE_2024, DOCS_2024), MQM_2024, "mqm_generalMT2024_ende.tsv"
    )
    assert segment_scores(read) == {
        ("A", 1): -(0.0 + 1.0),  # critical weighs 0 in mt-metrics-eval, minor 1
        ("A", 2): -(0.0 + 5.0) / 2,  # r2: Non-translation! as a severity weighs 0; r3: major
        ("A", 3): -0.0,  # an empty severity: a rating without errors
        ("B", 1): -0.0,
        ("B", 2): -0.0,
    }
    notes = " | ".join(read.notes)
    assert "2 by document and docSegId, 1 by source text" in notes
    assert "1 rows without a severity" in notes
    annotations = read_mqm(MQM_2024, "m.tsv")
    weights = starting_weights(annotations)  # the Loss page: no crash, a weight for each
    assert weights["Critical"] == 0.0 and weights["Non-translation!"] == 0.0  # as judged
    assert int(annotations.counts.sum()) == 5  # No-error, HOTW-test and empty rows are no errors


def test_an_unplaceable_segment_is_refused_with_its_line():
    data = MQM_2024 + b"A\tlost\t1\t9\tr1\tNicht da.\tNot there.\tStyle/Awkward\tminor\t{}\n"
    with pytest.raises(InputError, match=r"m\.tsv, line 9: the rated segment \(document 'lost'"):
        read_human_for(make_test_set(SOURCE_2024, DOCS_2024), data, "m.tsv")
    plain = TestSet(
        references=[TextColumn("ref", ("a", "b", "c"), "ref.de")],
        systems=[TextColumn("A", ("x", "y", "z"), "A.de")],
    )
    with pytest.raises(InputError) as caught:
        read_human_for(plain, MQM_2023, "m.tsv")
    assert "line 2" in str(caught.value) and "Give the source file too" in str(caught.value)
    assert "--" not in str(caught.value)  # the Data page's words, no flag


def test_detection_and_comparable_source():
    assert is_mqm_file(MQM_2022) and is_mqm_file(b"\n" + MQM_2024)
    assert not is_mqm_file(b"system\tsegment_id\tscore\nA\t1\t0.5\n")
    assert comparable_source("Guten <v>Morgen</v> .\u3000") == "GutenMorgen."


@pytest.mark.parametrize("pair", ["ende", "zhen"])
def test_wmt21_ted_scores_are_unchanged(pair):
    """The 2020-2021 layout placed by seg_id through segment_ids.tsv gives the stored scores."""
    folder = shared_dataset(f"wmt21-ted-mqm-{pair}")
    test_set_read = read_directory(folder).test_set.with_human(None)
    path = folder / "human" / "original" / f"mqm_ted_{pair}.tsv"
    ids = parse_segment_ids(
        (folder / "segment_ids.tsv").read_bytes(), "segment_ids.tsv", test_set_read.n_segments
    )
    read = read_human_for(test_set_read, path.read_bytes(), path.name, segment_ids=ids.lines)
    found = segment_scores(read)
    stored = {}
    for line in (folder / "human" / "mqm_seg_rater.tsv").read_text().splitlines()[1:]:
        system, segment, score, _rater = line.split("\t")
        stored[(system, ids.lines[segment])] = float(score)
    common = set(found) & set(stored)
    assert len(common) > 6000  # every system with text; 'ref' (ref-A in the folder) is set aside
    assert max(abs(found[key] - stored[key]) for key in common) < 5e-5  # stored to 4 decimals
    assert any("by seg_id" in note for note in read.notes)


def test_command_line_places_by_source(tmp_path, capsys):
    """`mteval score --human MQM.tsv --source FILE`: a plain-text test set, placed by text."""
    from mteval_core.cli import main

    (tmp_path / "src.en").write_text("\n".join(SOURCE_2023) + "\n", encoding="utf-8")
    (tmp_path / "ref.de").write_text("a b c\nd e f\ng h i\n", encoding="utf-8")
    for name, text in {"A": "a b c\nd e x\ng h i\n", "B": "a b x\nd e f\ng x i\n"}.items():
        (tmp_path / f"{name}.de").write_text(text, encoding="utf-8")
    (tmp_path / "mqm.tsv").write_bytes(MQM_2023)
    common = ["score", "--refs", str(tmp_path / "ref.de"), "--format", "json", "--metrics", "bleu"]
    hyps = ["--hyps", str(tmp_path / "A.de"), str(tmp_path / "B.de")]
    human = ["--human", str(tmp_path / "mqm.tsv")]
    assert main([*common, *hyps, *human, "--source", str(tmp_path / "src.en")]) == 0
    out, err = capsys.readouterr()
    assert "2 by source text" in err and "human" in out
    assert main([*common, *hyps, *human]) == 2  # without the source nothing places the rows
    assert "--source" in capsys.readouterr().err


# Issue 42: the three placements were evaluated eagerly, and the source text gave a segment of a
# document the test set lacks a line that another segment's ids had placed a rating on.
SAME = tsv(
    LATER,
    "A\tgone\t1\t1\tr1\tSame text.\tx\tStyle/Awkward\tMinor",  # not in the test set's documents
    "A\tnews_a\t1\t2\tr1\tSame text.\tx\tAccuracy/Mistranslation\tMajor",  # line 1 by its ids
    "A\tnews_a\t2\t3\tr1\tOther.\ty\tNo-error\tNo-error",
)


def test_a_segment_of_a_missing_document_never_takes_a_line_its_ids_gave_another():
    test_set = make_test_set(["Same text.", "Other.", "Same text."], ("news_a", "news_a", "news_b"))
    read = read_human_for(test_set, SAME, "m.tsv")
    assert segment_scores(read) == {("A", 1): -5.0, ("A", 2): 0.0, ("A", 3): -1.0}
    notes = " | ".join(read.notes)
    assert "2 by document and docSegId, 1 by source text" in notes
    assert "1 of the segments placed by source text have a source that several lines" in notes
    only_one = make_test_set(["Same text.", "Other."], ("news_a", "news_a"))
    with pytest.raises(InputError) as caught:  # the only line with its text is taken
        read_human_for(only_one, SAME, "m.tsv")
    assert str(caught.value).startswith(
        "m.tsv, line 2: the source text of the rated segment (document 'gone', docSegId 1) is "
        "on line(s) 1 of the test set, which other rated segments hold already"
    )


def test_two_segments_that_their_ids_put_on_one_line_are_refused():
    """A 2020-2021 file whose seg_id says line 1 while doc and doc_id say line 1 too."""
    data = tsv(
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity",
        "A\td1\t1\t1\tr1\ts\tt\tNo-error\tNo-error",
        "A\td1\t1\t99\tr1\ts\tt\tNo-error\tNo-error",  # seg_id 99 is no line: doc d1, doc_id 1
    )
    with pytest.raises(InputError) as caught:
        read_human_for(make_test_set(["s", "u"], ("d1", "d1")), data, "m.tsv")
    message = str(caught.value)
    assert message.startswith(
        "m.tsv, line 3: the rated segment (seg_id 99, document 'd1', doc_id 1) falls on line 1 of "
        "the test set, which the rated segment of line 2 (seg_id 1, document 'd1', doc_id 1) "
        "already holds"
    )


def test_messages_of_a_2020_file_name_its_own_columns():
    """Issue 42: "MQM messages naming the 2022 layout's columns for a 2020 file"."""
    data = tsv(
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity",
        "A\ttalk.1\t3\t7\tr1\ts\tt\tNo-error\tNo-error",
    )
    plain = TestSet(
        references=[TextColumn("ref", ("a", "b"), "ref.de")],
        systems=[TextColumn("A", ("x", "y"), "A.de")],
    )
    with pytest.raises(InputError) as caught:
        read_human_for(plain, data, "m.tsv")
    message = str(caught.value)
    assert (
        "the rated segment (seg_id 7, document 'talk.1', doc_id 3) is not in the test set"
        in message
    )
    assert "a segment-id map whose segment_id column holds the file's seg_id values" in message
    assert "by doc and doc_id" in message and "docSegId" not in message
    with pytest.raises(InputError) as caught:
        read_mqm(
            b"system\tdoc\tdoc_id\tsegment\trater\tcategory\tseverity\nA\td\t1\t1\tr\tc\tMinor\n",
            "m.tsv",
        )
    assert "no column 'seg_id'" in str(caught.value) and "docSegId" not in str(caught.value)


def test_command_line_segment_ids_give_documents_to_repeated_sources(tmp_path, capsys):
    """Issue 42: `--segment-ids` with a doc column placed nothing by document on the command
    line, so two lines with one source text got each other's errors (the Data page placed
    them right). Now the command line places them by doc and docSegId, as the Data page."""
    from mteval_core.cli import main
    from mteval_core.io.uploads import test_set_from_uploads

    source = "Hello.\nHello.\n"
    data = tsv(
        LATER,
        "A\tsecond\t1\t2\tr1\tHello.\tx\tAccuracy/Mistranslation\tMajor",
        "A\tfirst\t1\t1\tr1\tHello.\ty\tNo-error\tNo-error",
    )
    ids = b"line\tsegment_id\tdoc\n1\t1\tfirst\n2\t2\tsecond\n"
    files = {"src.en": source.encode(), "ref.de": b"a\nb\n", "A.de": b"a\nb\n", "mqm.tsv": data}
    files["ids.tsv"] = ids
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    command = ["score", "--refs", str(tmp_path / "ref.de"), "--hyps", str(tmp_path / "A.de")]
    command += ["--source", str(tmp_path / "src.en"), "--human", str(tmp_path / "mqm.tsv")]
    command += ["--segment-ids", str(tmp_path / "ids.tsv"), "--segments", "--format", "json"]
    command += ["--metrics", "bleu"]
    assert main(command) == 0
    _out, err = capsys.readouterr()
    assert "2 by document and docSegId" in err and "source text" not in err
    page = test_set_from_uploads(
        [("ref.de", b"a\nb\n")],
        [("A.de", b"a\nb\n")],
        ("src.en", source.encode()),
        ("mqm.tsv", data),
        segment_ids=("ids.tsv", ids),
    )
    rows = page.human.segment_rows
    assert dict(zip(rows["segment"].tolist(), rows["score"].tolist())) == {2: -5.0, 1: 0.0}
    # and the command line's judgments are the Data page's: line 2 has the Major error
    from mteval_core.cli.score_inputs import with_segment_ids

    plain = make_test_set(["Hello.", "Hello."])
    with_docs, lines = with_segment_ids(str(tmp_path / "ids.tsv"), plain)
    assert with_docs.documents == ("first", "second") and lines == {"1": 1, "2": 2}
    read = read_human_for(with_docs, data, "mqm.tsv", segment_ids=lines)
    assert segment_scores(read) == {("A", 2): -5.0, ("A", 1): 0.0}
    assert segment_scores(read_human_for(plain, data, "mqm.tsv")) == {("A", 1): -5.0, ("A", 2): 0.0}


def test_critical_errors_weigh_zero_in_the_judgments_and_say_so():
    read = read_human_for(
        make_test_set(SOURCE_2024, DOCS_2024), MQM_2024, "mqm_generalMT2024_ende.tsv"
    )
    (note,) = [note for note in read.notes if "Critical error" in note]
    assert note == (
        "mqm_generalMT2024_ende.tsv: 1 Critical error weighs 0 in the MQM scores, as in "
        "mt-metrics-eval's score_mqm.py, whose (Google's) weights have no key for Critical: "
        "Major 5, Minor 1, Minor/Fluency/Punctuation 0.1, Major/Non-translation! 25, Neutral 0 "
        "(the dashboard's Loss page starts them at 0 too, and weighs them as you choose)"
    )
    assert any("1 Non-translation! error weighs 0" in note for note in read.notes)
